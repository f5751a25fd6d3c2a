package listener

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Triage is a validator's problems sorted by what they fail: a problem
// inside one question fails that question on its own (invalid_question);
// any other problem refuses the request. Unknown members and removed forms
// always refuse the request, wherever they are: they say the client speaks
// another schema, not that one question is malformed.
type Triage struct {
	// Request are the problems that refuse the request, in document order.
	Request []table.Problem
	// Failed are the failed questions, in the order first found.
	Failed []FailedQuestion
	batch  bool
}

// FailedQuestion is one question's problems.
type FailedQuestion struct {
	Item     string // the batch item; "" for a request
	Name     string
	Problems []table.Problem
}

// Ignore lets a codec drop a problem its schema tolerates beyond the
// generated validator (see the vllm-sr/4.0 codec); segs is the problem's
// path split into unescaped segments.
type Ignore func(segs []string, p table.Problem) bool

// TriageProblems sorts problems. batch says the body is a batch, whose
// questions sit under /requests/<item>/questions.
func TriageProblems(problems []table.Problem, batch bool, ignore Ignore) Triage {
	t := Triage{batch: batch}
	for _, p := range problems {
		segs := shapes.SplitPointer(p.Path)
		if ignore != nil && ignore(segs, p) {
			continue
		}
		item, name, ok := questionOf(segs, batch)
		if !ok || p.Reason == table.ReasonUnknownMember || p.Reason == table.ReasonRemovedForm {
			t.Request = append(t.Request, p)
			continue
		}
		t.addFailed(item, name, p)
	}
	return t
}

func (t *Triage) addFailed(item, name string, p table.Problem) {
	if fq := t.find(item, name); fq != nil {
		fq.Problems = append(fq.Problems, p)
		return
	}
	t.Failed = append(t.Failed, FailedQuestion{Item: item, Name: name, Problems: []table.Problem{p}})
}

// questionOf returns the question a path is inside of (the question itself
// included).
func questionOf(segs []string, batch bool) (item, name string, ok bool) {
	if batch {
		if len(segs) >= 4 && segs[0] == vocab.BatchRequests && segs[2] == vocab.RequestQuestions {
			return segs[1], segs[3], true
		}
		return "", "", false
	}
	if len(segs) >= 2 && segs[0] == vocab.RequestQuestions {
		return "", segs[1], true
	}
	return "", "", false
}

// Failures turns the failed questions into QuestionFailures in request
// order, each with its index among its request's questions as sent.
func (t *Triage) Failures(root jsonvalue.Value) []QuestionFailure {
	if len(t.Failed) == 0 {
		return nil
	}
	out := make([]QuestionFailure, 0, len(t.Failed))
	for _, itemName := range t.failedItems(root) {
		questions := t.questionsOf(root, itemName)
		for i, m := range questions.Members() {
			if fq := t.find(itemName, m.Name); fq != nil {
				qf := failure(fq, i)
				if tv, ok := m.Value.Get(vocab.QuestionType); ok && tv.Kind() == jsonvalue.KindString {
					if qt := table.QuestionType(tv.Str()); knownType(qt) {
						qf.Type = qt
					}
				}
				out = append(out, qf)
			}
		}
	}
	return out
}

// failedItems lists the items with failures in document order ("" alone
// for a request).
func (t *Triage) failedItems(root jsonvalue.Value) []string {
	if !t.batch {
		return []string{""}
	}
	reqs, _ := root.Get(vocab.BatchRequests)
	var items []string
	for _, m := range reqs.Members() {
		if slices.ContainsFunc(t.Failed, func(f FailedQuestion) bool { return f.Item == m.Name }) {
			items = append(items, m.Name)
		}
	}
	return items
}

func (t *Triage) questionsOf(root jsonvalue.Value, item string) jsonvalue.Value {
	if t.batch {
		reqs, _ := root.Get(vocab.BatchRequests)
		root, _ = reqs.Get(item)
	}
	qs, _ := root.Get(vocab.RequestQuestions)
	return qs
}

func (t *Triage) find(item, name string) *FailedQuestion {
	for i := range t.Failed {
		if t.Failed[i].Item == item && t.Failed[i].Name == name {
			return &t.Failed[i]
		}
	}
	return nil
}

// failure describes a failed question by its first problem: the reason is
// the problem's fixed word, the limit its bound.
func failure(fq *FailedQuestion, index int) QuestionFailure {
	first := fq.Problems[0]
	return QuestionFailure{
		Item:     fq.Item,
		Index:    index,
		Name:     fq.Name,
		Error:    ir.QuestionErrorInvalidQuestion,
		Reason:   string(first.Reason),
		Message:  "question " + table.QuoteName(fq.Name) + " cannot be answered: " + first.Message(),
		Limit:    problemLimit(first),
		Problems: fq.Problems,
	}
}

// problemLimit is the bound a count or range problem broke.
func problemLimit(p table.Problem) *int64 {
	switch p.Reason {
	case table.ReasonTooFew, table.ReasonTooMany, table.ReasonBelowMinimum, table.ReasonAboveMaximum:
		n := p.Limit
		return &n
	}
	return nil
}

// knownType reports whether t is a question type the specs define (the
// extension set's question.type holds every one).
func knownType(t table.QuestionType) bool {
	for _, m := range vocab.MembersOf(table.SchemaVllmSR50, table.LevelQuestion) {
		if m.Name == vocab.QuestionType {
			return slices.Contains(m.Enum, string(t))
		}
	}
	return false
}
