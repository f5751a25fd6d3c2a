package target

import (
	"strconv"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// PlannedItem is one batch item of a plan: its name and the questions a
// reply must answer, in request order.
type PlannedItem struct {
	Name      string
	Questions []QuestionRef
}

// QuestionRef names one question and the type its answer must have.
type QuestionRef struct {
	Name string
	Type table.QuestionType
	// Keys are what a choice's or a score's answer is keyed by, in the
	// request's order: a choice's options, a score's level indexes ("0",
	// "1", …). nil when the request does not give them (a preset question
	// without criteria), and then an answer's keys are not checked.
	Keys []string
}

// PlanItems lists b's items and their questions, in order: what every
// codec's Plan records for reassembly. A question without a type (a 4.0
// preset-only question) keeps the empty type unless the codec resolved it.
func PlanItems(b *ir.Batch) (order []string, items []PlannedItem) {
	order = make([]string, len(b.Items))
	items = make([]PlannedItem, len(b.Items))
	for i := range b.Items {
		it := &b.Items[i]
		order[i] = it.Name
		items[i] = PlannedItem{Name: it.Name, Questions: QuestionsOf(&it.Request)}
	}
	return order, items
}

// QuestionsOf returns r's question names and types, in order.
func QuestionsOf(r *ir.Request) []QuestionRef {
	qs := make([]QuestionRef, len(r.Questions))
	for i := range r.Questions {
		q := &r.Questions[i]
		qs[i] = QuestionRef{Name: q.Name, Type: q.Type, Keys: answerKeys(q)}
	}
	return qs
}

// answerKeys are the keys q's answer must use: a choice's options, a
// score's level indexes; nil for other types and absent criteria.
func answerKeys(q *ir.Question) []string {
	switch {
	case q.Type == table.QuestionChoice && q.Criteria.Form == ir.CriteriaKeyed:
		keys := make([]string, len(q.Criteria.Keyed))
		for i, m := range q.Criteria.Keyed {
			keys[i] = m.Name
		}
		return keys
	case q.Type == table.QuestionScore && q.Criteria.Form == ir.CriteriaLevels:
		keys := make([]string, len(q.Criteria.Levels))
		for i := range keys {
			keys[i] = strconv.Itoa(i)
		}
		return keys
	}
	return nil
}

// Item returns the planned item called name.
func (p *Plan) Item(name string) (PlannedItem, bool) {
	for _, it := range p.Items {
		if it.Name == name {
			return it, true
		}
	}
	return PlannedItem{}, false
}
