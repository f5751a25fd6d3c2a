package shapes

import (
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// A reply is checked by its schema's generated validator before any of it
// is read, and its problems are sorted by what they fail. A problem inside
// one answer fails that answer's question alone; any other problem, and a
// member no specification defines wherever it is (which a validator of a
// vllm-sr schema reports and a systemone/0.2 one ignores), makes the reply
// as a whole one its schema does not define. What the readers then read
// has the kinds and ranges the specification gives it, so they check no
// type or bound themselves.

// ReplyCheck is a checked reply's answer problems: the problems that fail
// one answer each, kept for AnswerReader. The zero ReplyCheck has none.
type ReplyCheck struct {
	answers []answerProblem
}

// answerProblem is one problem inside one answer.
type answerProblem struct {
	item, name string // the batch response's item ("" in a response) and the answer's name
	problem    table.Problem
	rel        []string // the problem's path inside the answer
}

// CheckResponse checks root, a response (POST /v1/systemone or
// /v1/decisions), under schema: a *ir.ProtocolError naming the first
// problem's path when the reply as a whole breaks it.
func CheckResponse(schema table.SchemaID, root jsonvalue.Value) (ReplyCheck, error) {
	return sortProblems(root, validate.Response(schema, root), false)
}

// CheckBatchResponse checks root, a batch response (POST
// /v1/systemone/batch or /v1/bundle), as CheckResponse does.
func CheckBatchResponse(schema table.SchemaID, root jsonvalue.Value) (ReplyCheck, error) {
	return sortProblems(root, validate.BatchResponse(schema, root), true)
}

// sortProblems keeps each answer's problems and returns the first other
// one as the reply's error. A validator that stopped at table.MaxProblems
// did not look at the rest, so such a reply is refused whole: nothing of
// it may be read unchecked.
func sortProblems(root jsonvalue.Value, problems []table.Problem, batch bool) (ReplyCheck, error) {
	var c ReplyCheck
	if len(problems) == 0 {
		return c, nil
	}
	if len(problems) >= table.MaxProblems {
		return c, replyError(root, problems[0])
	}
	for _, p := range problems {
		segs := SplitPointer(p.Path)
		item, name, rel, ok := answerOf(segs, batch)
		if !ok || p.Reason == table.ReasonUnknownMember {
			return ReplyCheck{}, replyError(root, p)
		}
		c.answers = append(c.answers, answerProblem{item: item, name: name, problem: p, rel: rel})
	}
	return c, nil
}

// answerOf splits the path of a problem inside an answer: answers/<name>
// in a response, responses/<item>/answers/<name> in a batch response.
func answerOf(segs []string, batch bool) (item, name string, rel []string, ok bool) {
	if batch {
		if len(segs) < 2 || segs[0] != vocab.BatchResponseResponses {
			return "", "", nil, false
		}
		item, segs = segs[1], segs[2:]
	}
	if len(segs) < 2 || segs[0] != vocab.ResponseAnswers {
		return "", "", nil, false
	}
	return item, segs[1], segs[2:], true
}

// replyError is the refusal of a reply for problem p: its reason word and
// what is wrong, at the path of the member at fault.
func replyError(root jsonvalue.Value, p table.Problem) *ir.ProtocolError {
	return ir.Refuse(ir.Reason(p.Reason), Locate(root, SplitPointer(p.Path)), p.What())
}

// answerProblem is the fixed reason the first problem of the answer name
// (of the batch item item) gives, and what is wrong, for a person: the
// member at fault as the specification names it and the problem, never
// the value ("box.bottom: above the maximum 1"). The reason is the
// specification's word for the problem at that member
// (vocab.ReplyProblemOf), else the validator's own; "" for an answer
// without problems.
func (c *ReplyCheck) answerProblem(item, name string) (reason, what string) {
	if len(c.answers) == 0 {
		return "", ""
	}
	i := slices.IndexFunc(c.answers, func(a answerProblem) bool { return a.item == item && a.name == name })
	if i < 0 {
		return "", ""
	}
	a := &c.answers[i]
	row, ok := vocab.ReplyProblemOf(table.LevelAnswer, a.rel, a.problem.Reason)
	if !ok {
		// The member the answer has at fault, and not what is inside it
		// (a key of a map is the upstream's word).
		row = table.ReplyProblem{Member: append([]string{string(table.LevelAnswer)}, a.rel[:min(len(a.rel), 1)]...),
			Reason: string(a.problem.Reason)}
	}
	return row.Reason, describeMember(row.Member[1:], a.problem)
}

// describeMember says what problem p is at member, a path inside an
// answer as a ReplyProblem names it ("*" for any key, left out); "" for
// the answer itself, which the reason describes.
func describeMember(member []string, p table.Problem) string {
	var named []string
	for _, seg := range member {
		if seg != "*" {
			named = append(named, seg)
		}
	}
	if len(named) == 0 {
		return ""
	}
	return strings.Join(named, ".") + ": " + p.What()
}
