package target

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// MaxDepth bounds the nesting of a body this package reads: a reply,
// whose answers echo content (legends, meta, tracks) up to the request's
// own depth, or a call body a deviation rewrites, which the codecs write
// no deeper than the requests they read.
const MaxDepth = 128

// ReplyReader reads what a System One server answers a client with into
// the IR: a response, a batch response, an error body and a model
// listing, through their one binding in runtime/shapes, under the
// schema the upstream speaks (NewReplyReader): each reply is checked by
// that schema's generated validator before any of it is read.
//
// A member no specification defines is ignored in a systemone/0.2 reply
// (gateways add id, provider, usage.cost) and never relayed; in a vllm-sr
// reply, whose server is of the same release, it makes the reply one its
// schema does not define. Such a reply, one that is not JSON, or one with
// a member missing or of the wrong type or range outside an answer, is a
// *ir.ProtocolError naming the JSON path. One question's malformed or
// missing answer, or one whose keys or score do not fit the question
// (checkAnswer), fails that question alone (invalid_model_output), never
// its neighbours. The upstream's own words never reach a client (Error,
// answerOf).
type ReplyReader struct {
	replies *shapes.Replies
}

// NewReplyReader reads the replies of an upstream that speaks schema.
func NewReplyReader(schema table.SchemaID) ReplyReader {
	return ReplyReader{replies: shapes.RepliesOf(schema)}
}

// Response reads one POST /v1/systemone (or /v1/decisions) body answering
// questions, in their order.
func (rd ReplyReader) Response(body []byte, questions []QuestionRef) (*ir.Response, error) {
	root, err := decode(body)
	if err != nil {
		return nil, err
	}
	check, err := shapes.CheckResponse(rd.replies.Schema(), root)
	if err != nil {
		return nil, err
	}
	return rd.response(root, check, "", questions)
}

// BatchResponse reads one POST /v1/systemone/batch (or /v1/bundle) body:
// {model, responses: {name: response}, usage}. It returns each planned
// item's result, in the items' order; an item the body does not answer
// fails alone (502 missing_item).
func (rd ReplyReader) BatchResponse(body []byte, items []PlannedItem) ([]ItemResult, error) {
	root, err := decode(body)
	if err != nil {
		return nil, err
	}
	check, err := shapes.CheckBatchResponse(rd.replies.Schema(), root)
	if err != nil {
		return nil, err
	}
	responses, model := shapes.ReadBatchResponse(root, rd.replies)
	out := make([]ItemResult, len(items))
	for i, it := range items {
		v, ok := responses.Get(it.Name)
		if !ok {
			out[i] = missingItem(it.Name)
			continue
		}
		r, err := rd.response(v, check, it.Name, it.Questions)
		if err != nil {
			return nil, err
		}
		if r.Model == nil && model.IsValid() {
			r.Model = new(model.Str())
		}
		out[i] = ItemResult{Name: it.Name, Response: r}
	}
	return out, nil
}

// response reads the checked response v, of the batch item item ("" for
// a response alone).
func (rd ReplyReader) response(v jsonvalue.Value, check shapes.ReplyCheck, item string, questions []QuestionRef) (*ir.Response, error) {
	r, answers, err := shapes.ReadResponse(v, rd.replies, item)
	if err != nil {
		return nil, err
	}
	r.Answers = make([]ir.Answer, len(questions))
	ar := shapes.AnswerReader{Replies: rd.replies, Check: check, Item: item}
	for i, q := range questions {
		answerOf(&ar, &r.Answers[i], answers, q)
	}
	if len(r.Sets) > 0 {
		r.Answers = labelNouls(&ar, r.Answers, answers)
	}
	return r, nil
}

// labelNouls returns answers with, after each answered set question, the
// nouls the reply answers its labels with (a composed set: each label also
// answers as a noul under <question>.<label>, a name no question of the
// request has), in the reply's order, each read and vetted as an answer of
// its own. answers are the questions' answers, in request order. The work
// is linear in the reply's member names, whatever a reply holds.
func labelNouls(ar *shapes.AnswerReader, answers []ir.Answer, reply jsonvalue.Value) []ir.Answer {
	index := make(map[string]int, len(answers))
	for i := range answers {
		index[answers[i].Name] = i
	}
	var labels [][]ir.Answer // per answer, its label nouls
	for _, m := range reply.Members() {
		if _, isQuestion := index[m.Name]; isQuestion {
			continue
		}
		if i, ok := labelledSet(answers, index, m.Name); ok {
			if labels == nil {
				labels = make([][]ir.Answer, len(answers))
			}
			var a ir.Answer
			readAnswer(ar, &a, m.Value, QuestionRef{Name: m.Name, Type: table.QuestionNoul})
			labels[i] = append(labels[i], a)
		}
	}
	if labels == nil {
		return answers
	}
	out := make([]ir.Answer, 0, len(reply.Members()))
	for i := range answers {
		out = append(append(out, answers[i]), labels[i]...)
	}
	return out
}

// labelledSet returns the index of the answered set question name is a
// label noul of, <question>.<label> with a label of at least one byte,
// the shortest such question first.
func labelledSet(answers []ir.Answer, index map[string]int, name string) (int, bool) {
	for dot := strings.IndexByte(name, '.'); dot >= 0 && dot < len(name)-1; {
		if i, ok := index[name[:dot]]; ok && answers[i].Type == table.QuestionSet && answers[i].Error == "" {
			return i, true
		}
		next := strings.IndexByte(name[dot+1:], '.')
		if next < 0 {
			break
		}
		dot += 1 + next
	}
	return 0, false
}

// answerOf reads q's answer with ar; a missing or malformed answer fails q
// alone. A failed answer keeps its kind, and its reason when the
// specification defines the word (else the kind, as a reason); its message
// is the reason's description, never the upstream's words.
func answerOf(ar *shapes.AnswerReader, a *ir.Answer, answers jsonvalue.Value, q QuestionRef) {
	v, ok := answers.Get(q.Name)
	if !ok {
		*a = failed(q, vocab.ReasonMissingAnswer, "the upstream answer has no answer for this question")
		return
	}
	readAnswer(ar, a, v, q)
}

// readAnswer reads v, the answer the reply gives q, as answerOf does.
func readAnswer(ar *shapes.AnswerReader, a *ir.Answer, v jsonvalue.Value, q QuestionRef) {
	reason, what := ar.Read(a, v, q.Name, q.Type)
	a.Name = q.Name
	switch {
	case reason != "" && what != "":
		*a = failed(q, reason, "the upstream answer's "+what)
	case reason != "":
		*a = failed(q, reason, "the upstream answer for this question is not what its type answers with")
	case a.Error != "":
		if !knownReason(a.Reason) {
			a.Reason = string(a.Error)
		}
		a.Message = describe(a.Reason)
	default:
		if reason, message := checkAnswer(a, q); reason != "" {
			*a = failed(q, reason, message)
		}
	}
}

func failed(q QuestionRef, reason, message string) ir.Answer {
	return ir.Answer{Name: q.Name, Type: q.Type, Error: ir.QuestionErrorInvalidModelOutput, Reason: reason, Message: message}
}

// Listing reads a GET /v1/models reply: {models: [{name, description,
// release_date}]} and the extension members the schema defines (each
// entry's version, features and card). A non-200 status is an error
// naming it.
func (rd ReplyReader) Listing(status int, body []byte) (*ir.Listing, error) {
	if status != http.StatusOK {
		return nil, &ir.ProtocolError{Category: ir.CategoryInvalidRequest, Reason: ir.ReasonUnsupported,
			Message: "the upstream listing answered status " + strconv.Itoa(status)}
	}
	root, err := decode(body)
	if err != nil {
		return nil, err
	}
	return shapes.ReadListing(root, rd.replies)
}

// Health reads a GET /health reply: the members the schema defines
// there, after its generated validator.
func (rd ReplyReader) Health(body []byte) (*ir.Health, error) {
	root, err := decode(body)
	if err != nil {
		return nil, err
	}
	return shapes.ReadHealth(root, rd.replies)
}

func decode(body []byte) (jsonvalue.Value, error) {
	v, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: MaxDepth})
	if err != nil {
		return v, &ir.ProtocolError{Category: ir.CategoryInvalidRequest, Reason: ir.ReasonInvalidJSON,
			Message: "the upstream body is not JSON", Cause: err}
	}
	return v, nil
}
