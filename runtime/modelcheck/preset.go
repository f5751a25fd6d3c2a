package modelcheck

import (
	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// ExpandPreset fills what q leaves to its preset from the preset's canonical
// text: the type when q has none, the instructions when absent or null,
// the criteria when absent or null. The question's own text wins: it is
// what any server answers. It reports false, changing nothing, when q has
// no preset or the catalogue has no text for it. The preset member stays:
// whether it is sent is the target codec's business.
func ExpandPreset(q *ir.Question) bool {
	if q.Preset == nil {
		return false
	}
	p, ok := catalog.Preset(*q.Preset)
	if !ok {
		return false
	}
	if q.Type == "" {
		q.Type = p.Type
	}
	if !q.Instructions.IsValid() || q.Instructions.IsNull() {
		q.Instructions = jsonvalue.String(p.Instructions)
	}
	if !q.Criteria.Present() || q.Criteria.Form == ir.CriteriaNull {
		q.Criteria = PresetCriteria(&p)
	}
	return true
}

// PresetCriteria writes a catalogue preset's canonical criteria in the IR: a
// score's levels, else its keyed criteria (a noul's true and false, a
// choice's options). srgen lets only a score preset carry levels.
func PresetCriteria(p *table.Preset) ir.Criteria {
	if p.Type == table.QuestionScore {
		levels := make([]jsonvalue.Value, len(p.Levels))
		for i, l := range p.Levels {
			levels[i] = jsonvalue.String(l)
		}
		return ir.Criteria{Form: ir.CriteriaLevels, Levels: levels}
	}
	if len(p.Criteria) == 0 {
		return ir.Criteria{}
	}
	keyed := make([]jsonvalue.Member, len(p.Criteria))
	for i, c := range p.Criteria {
		keyed[i] = jsonvalue.Member{Name: c.Key, Value: jsonvalue.String(c.Text)}
	}
	return ir.Criteria{Form: ir.CriteriaKeyed, Keyed: keyed}
}
