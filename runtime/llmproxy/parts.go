package llmproxy

import (
	"encoding/json"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/registry"
)

// The state parts a rule reads, built from an LLM API request: the
// conversation is read into turns (system, user, assistant, tool), then
//
//   - request: the last user turn's text;
//   - history: the turns before it other than system ones, one
//     "role: text" line each;
//   - previous_turns: the user turns before it, one per line;
//   - previous_answer: the last assistant turn before it;
//   - tool_results: the tool turns after it (results of calls the model
//     made), one per line;
//   - answer: the last assistant turn after it (an answer under check);
//   - context: the system and developer turns, one per line;
//   - candidate: empty (an LLM request carries none).
//
// Text is a turn's text content; a part the request does not have is
// empty text. The last user turn's images and videos are read only for a
// rule whose input names them (media.go); audio and other media are
// left out.

// turn is one message of an LLM request, its role normalised, with its
// content as sent (a list of parts may carry media).
type turn struct {
	role    string
	text    string
	content json.RawMessage
}

// Input is what rules read of one LLM request: the state parts, part
// name to text, and the last user turn's media.
type Input struct {
	Parts map[string]string
	Media Media
}

// The normalised roles.
const (
	roleSystem    = "system"
	roleUser      = "user" //vocab:not-spec the LLM APIs' message role
	roleAssistant = "assistant"
	roleTool      = "tool"
)

// Read reads the parts of an LLM request body of the named API, and
// with withMedia the last user turn's media; false when the body is not one
// the Router can read (not JSON, compressed, a multipart upload), which
// leaves every rule's answer unknown.
func Read(api string, body []byte, withMedia bool) (Input, bool) {
	read, ok := turnReaders[api]
	if !ok {
		return Input{}, false
	}
	turns, ok := read(body)
	if !ok {
		return Input{}, false
	}
	in := Input{Parts: partsOf(turns)}
	if last := lastUser(turns); withMedia && last >= 0 {
		in.Media = contentMedia(turns[last].content)
	}
	return in, true
}

// lastUser is the index of the last user turn, -1 for none.
func lastUser(turns []turn) int {
	last := -1
	for i, t := range turns {
		if t.role == roleUser {
			last = i
		}
	}
	return last
}

// turnReaders read each LLM API's request into turns, by registry name.
// They know the LLM APIs' request shapes (OpenAI's and Anthropic's), not
// System One's: the Router's LLM protocol codecs live outside this module.
var turnReaders = map[string]func([]byte) ([]turn, bool){
	registry.ChatCompletions: chatTurns,
	registry.Messages:        messagesTurns,
	registry.Responses:       responsesTurns,
	registry.Images:          imagesTurns,
}

type contentPart struct {
	Type    string          `json:"type"`
	Text    string          `json:"text"`
	Content json.RawMessage `json:"content"`
}

// contentText is a message's content as text: a string, or a list of parts
// of which the text ones count (OpenAI's text, input_text and output_text;
// Anthropic's text, and a tool_result's own content).
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []contentPart
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var texts []string
	for _, p := range parts {
		switch {
		case p.Text != "":
			texts = append(texts, p.Text)
		case len(p.Content) > 0:
			if t := contentText(p.Content); t != "" {
				texts = append(texts, t)
			}
		}
	}
	return strings.Join(texts, "\n")
}

type chatMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// chatTurns reads Chat Completions' messages.
func chatTurns(body []byte) ([]turn, bool) {
	var req struct {
		Messages []chatMessage `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil, false
	}
	out := make([]turn, 0, len(req.Messages))
	for _, m := range req.Messages {
		out = append(out, turn{role: normalRole(m.Role), text: contentText(m.Content), content: m.Content})
	}
	return out, true
}

// messagesTurns reads Anthropic Messages' system and messages; a user
// message made only of tool results is a tool turn.
func messagesTurns(body []byte) ([]turn, bool) {
	var req struct {
		System   json.RawMessage `json:"system"`
		Messages []chatMessage   `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil, false
	}
	var out []turn
	if s := contentText(req.System); s != "" {
		out = append(out, turn{role: roleSystem, text: s})
	}
	for _, m := range req.Messages {
		role := normalRole(m.Role)
		if role == roleUser && onlyToolResults(m.Content) {
			role = roleTool
		}
		out = append(out, turn{role: role, text: contentText(m.Content), content: m.Content})
	}
	return out, true
}

func onlyToolResults(c json.RawMessage) bool {
	var parts []contentPart
	if json.Unmarshal(c, &parts) != nil || len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		if p.Type != "tool_result" {
			return false
		}
	}
	return true
}

// responsesTurns reads the Responses API's instructions and input: a
// string (one user turn) or a list of messages and function call outputs.
func responsesTurns(body []byte) ([]turn, bool) {
	var req struct {
		Instructions string          `json:"instructions"`
		Input        json.RawMessage `json:"input"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil, false
	}
	var out []turn
	if req.Instructions != "" {
		out = append(out, turn{role: roleSystem, text: req.Instructions})
	}
	var s string
	if json.Unmarshal(req.Input, &s) == nil {
		return append(out, turn{role: roleUser, text: s}), true
	}
	var items []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Output  string          `json:"output"`
	}
	if len(req.Input) > 0 && json.Unmarshal(req.Input, &items) != nil {
		return nil, false
	}
	for _, it := range items {
		if it.Type == "function_call_output" {
			out = append(out, turn{role: roleTool, text: it.Output})
		} else if it.Role != "" {
			out = append(out, turn{role: normalRole(it.Role), text: contentText(it.Content), content: it.Content})
		}
	}
	return out, true
}

// imagesTurns reads an image request's prompt as one user turn.
func imagesTurns(body []byte) ([]turn, bool) {
	var req struct {
		Prompt string `json:"prompt"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil, false
	}
	return []turn{{role: roleUser, text: req.Prompt}}, true
}

// normalRole maps developer to system and keeps the other roles; "function"
// (an older OpenAI role) is a tool turn.
func normalRole(role string) string {
	switch role {
	case "developer":
		return roleSystem
	case "function":
		return roleTool
	}
	return role
}

// partsOf builds the parts from the turns, around the last user turn.
func partsOf(turns []turn) map[string]string {
	last := lastUser(turns)
	var history, previous, context, tools []string
	parts := map[string]string{}
	for i, t := range turns {
		switch {
		case t.role == roleSystem:
			context = append(context, t.text)
		case i < last:
			history = append(history, t.role+": "+t.text)
			if t.role == roleUser {
				previous = append(previous, t.text)
			}
			if t.role == roleAssistant {
				parts[vocab.PartPreviousAnswer] = t.text
			}
		case i == last:
			parts[vocab.PartRequest] = t.text
		case t.role == roleTool:
			tools = append(tools, t.text)
		case t.role == roleAssistant:
			parts[vocab.PartAnswer] = t.text
		}
	}
	parts[vocab.PartHistory] = strings.Join(history, "\n")
	parts[vocab.PartPreviousTurns] = strings.Join(previous, "\n")
	parts[vocab.PartToolResults] = strings.Join(tools, "\n")
	parts[vocab.PartContext] = strings.Join(context, "\n")
	return parts
}
