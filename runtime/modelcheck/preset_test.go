package modelcheck

import (
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestCriteriaOfEveryPreset: a score preset's criteria are its levels, in
// order; any other preset's are its keyed criteria, or none. Question
// relies on this too (a question without criteria takes these).
func TestCriteriaOfEveryPreset(t *testing.T) {
	presets := catalog.Presets()
	if len(presets) == 0 {
		t.Fatal("the catalogue has no presets")
	}
	for i := range presets {
		p := &presets[i]
		c := PresetCriteria(p)
		switch {
		case p.Type == table.QuestionScore:
			if c.Form != ir.CriteriaLevels || len(c.Levels) != len(p.Levels) || len(p.Levels) == 0 {
				t.Errorf("%s: %+v for levels %v", p.Name, c, p.Levels)
				continue
			}
			for j, l := range p.Levels {
				if c.Levels[j].Str() != l {
					t.Errorf("%s: level %d is %v, want %q", p.Name, j, c.Levels[j], l)
				}
			}
		case len(p.Levels) > 0:
			t.Errorf("%s: a %s preset carries levels", p.Name, p.Type)
		case len(p.Criteria) == 0:
			if c.Present() {
				t.Errorf("%s: criteria %+v from none", p.Name, c)
			}
		default:
			if c.Form != ir.CriteriaKeyed || len(c.Keyed) != len(p.Criteria) {
				t.Errorf("%s: %+v for %v", p.Name, c, p.Criteria)
				continue
			}
			for j, kt := range p.Criteria {
				if c.Keyed[j].Name != kt.Key || c.Keyed[j].Value.Str() != kt.Text {
					t.Errorf("%s: criterion %d is %s=%v, want %s=%q", p.Name, j, c.Keyed[j].Name, c.Keyed[j].Value, kt.Key, kt.Text)
				}
			}
		}
	}
}
