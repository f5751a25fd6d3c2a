package modelcheck

import (
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Part is one part of the state a question reads: its key ("" for the
// whole state), its role and its text.
type Part struct {
	Key  string
	Role ir.Role
	Text string
}

// Input is what one question reads.
type Input struct {
	// Media are the placeholders of a media-front state, in order: the
	// images and videos the model sees in front of the parts.
	Media []string
	// Parts are the state parts read, in state order.
	Parts []Part
}

// Text is the parts' texts joined by a newline: the text a span
// question's offsets count into.
func (in Input) Text() string {
	texts := make([]string, len(in.Parts))
	for i, p := range in.Parts {
		texts[i] = p.Text
	}
	return strings.Join(texts, "\n")
}

// Tokens counts the parts' tokens (media and the question not included).
func (in Input) Tokens() int64 {
	var n int64
	for _, p := range in.Parts {
		n += Count(p.Text)
	}
	return n
}

// Truncated returns in reading only its first n tokens, part by part.
func (in Input) Truncated(n int64) Input {
	out := Input{Media: in.Media}
	for _, p := range in.Parts {
		if n <= 0 {
			break
		}
		c := Count(p.Text)
		if c > n {
			p.Text = Prefix(p.Text, n)
			c = n
		}
		out.Parts = append(out.Parts, p)
		n -= c
	}
	return out
}

// Whole is the whole state as a role-aware or other family reads it,
// ignoring any question's over: what every question starts from.
func Whole(roleAware bool, req *ir.Request) Input {
	media, state := splitMedia(req)
	in := Input{Media: media}
	if !roleAware || state.Kind() != jsonvalue.KindObject || req.Roles.Mode == ir.RoleModeNone || req.Roles.Mode == "" {
		in.Parts = []Part{{Role: ir.RoleUser, Text: Render(state)}}
		return in
	}
	for _, m := range state.Members() {
		in.Parts = append(in.Parts, Part{Key: m.Name, Role: roleOf(req.Roles, m.Name), Text: Render(m.Value)})
	}
	return in
}

// ForQuestion is what question q, of type t, reads: the whole state, or
// the parts over names (in state order), or for a span without over its
// answer parts if there are any, else its user parts. Keys over names that
// the state lacks are not read (the model checks refuse them first).
func ForQuestion(roleAware bool, req *ir.Request, q *ir.Question, t table.QuestionType) Input {
	in := Whole(roleAware, req)
	switch {
	case q.Over != nil:
		in.Parts = slices.DeleteFunc(in.Parts, func(p Part) bool { return !slices.Contains(q.Over, p.Key) })
	case t == table.QuestionSpan:
		read := ir.RoleUser
		if slices.ContainsFunc(in.Parts, func(p Part) bool { return p.Role == ir.RoleAnswer }) {
			read = ir.RoleAnswer
		}
		in.Parts = slices.DeleteFunc(in.Parts, func(p Part) bool { return p.Role != read })
	}
	return in
}

// Render is a value as model text: a string as itself, anything else as
// its json.dumps text (Python's separators), as Decision 3.0 reads an
// object state.
func Render(v jsonvalue.Value) string {
	switch v.Kind() {
	case jsonvalue.KindString:
		return v.Str()
	case jsonvalue.KindInvalid:
		return ""
	}
	return string(jsonvalue.Python(v))
}

// roleOf is a state key's role: the explicit roles map's (a key it does
// not name is the user's), or 4.0's implicit role of the part name.
func roleOf(r ir.Roles, key string) ir.Role {
	if r.Mode == ir.RoleModeImplicit {
		return ir.Role(fieldtable.ImplicitRole(key))
	}
	for _, p := range r.Parts {
		if p.Key == key {
			return p.Role
		}
	}
	return ir.RoleUser
}

// splitMedia applies vllm-sr/5.0's media rule (ir.ReadMediaInFront): an
// array state of image placeholders, then video placeholders, then exactly
// one other item, is that item with the media in front of it. A request
// with implicit roles has vllm-sr/4.0's reading, where such a state stays
// an array that labels its assets (the 4.0 listener's second overlap); the
// internal form marks that reading by an absent roles member. Any other
// state is itself.
func splitMedia(req *ir.Request) ([]string, jsonvalue.Value) {
	if req.Roles.Mode == ir.RoleModeImplicit {
		return nil, req.State
	}
	m, ok := ir.ReadMediaInFront(req.State, req.Assets)
	if !ok {
		return nil, req.State
	}
	return m.Placeholders, m.Item
}
