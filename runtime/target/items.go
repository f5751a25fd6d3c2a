package target

import (
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
		qs[i] = QuestionRef{Name: r.Questions[i].Name, Type: r.Questions[i].Type}
	}
	return qs
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
