package model

import (
	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Catalog is the checked model catalogue (specs/models/models.yaml): the
// canonical preset texts and the models with their cards, as the leaf
// types generated/catalog is made of.
type Catalog struct {
	// Path is repository-relative; SHA256 is of its exact bytes.
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	// Presets and Models are in the file's order.
	Presets []table.Preset `json:"presets"`
	Models  []table.Model  `json:"models"`
}

// BuildCatalog checks the raw catalogue against the model and returns it.
// It needs the model's families, extension fields and limits, so it runs
// after Build. Every problem is reported at once, each at its line.
//
// The families' facts in the extension set are the source of truth: a card
// that claims a question type, modality, span head, preset, over, scan
// budget (overflow), decision adapter, track rate or abstain probability
// its family does not answer fails the build.
func BuildCatalog(m *Model, raw *load.Catalog) (*Catalog, error) {
	c := catalogBuilder{m: m}
	out := &Catalog{Path: raw.File.Path, SHA256: raw.File.SHA256}
	out.Presets = c.presets(raw.Presets)
	seen := map[string]load.Position{}
	for _, e := range raw.Models {
		if at, dup := seen[e.Name]; dup {
			c.problems.Add(e.Pos, "model %q already defined at %s", e.Name, at)
			continue
		}
		seen[e.Name] = e.Pos
		out.Models = append(out.Models, c.model(e, out.Presets))
	}
	for _, f := range m.Families {
		if !hasFamilyModel(out.Models, f.Name) {
			c.problems.Add(load.Position{File: raw.File.Path}, "family %s has no model in the catalogue", f.Name)
		}
	}
	if err := c.problems.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

type catalogBuilder struct {
	m        *Model
	problems load.Problems
}

func hasFamilyModel(models []table.Model, f table.Family) bool {
	for _, x := range models {
		if x.Family == f {
			return true
		}
	}
	return false
}

// presets converts and checks the canonical preset texts: unique names,
// and the criteria shape each question type takes, within the global
// limits.
func (c *catalogBuilder) presets(raw []load.PresetEntry) []table.Preset {
	var out []table.Preset
	seen := map[string]bool{}
	for _, e := range raw {
		if seen[e.Name] {
			c.problems.Add(e.Pos, "preset %q defined twice", e.Name)
			continue
		}
		seen[e.Name] = true
		p := table.Preset{Name: e.Name, Type: table.QuestionType(e.Type), Description: e.Description,
			Instructions: e.Instructions, Levels: e.Levels}
		for _, kt := range e.Criteria {
			p.Criteria = append(p.Criteria, table.PresetCriterion{Key: kt.Key, Text: kt.Text})
		}
		c.checkPresetShape(e, p)
		out = append(out, p)
	}
	return out
}

func (c *catalogBuilder) checkPresetShape(e load.PresetEntry, p table.Preset) {
	keyed, levels := len(p.Criteria), len(p.Levels)
	switch p.Type {
	case table.QuestionChoice:
		c.needCount(e.Pos, p.Name, "options", keyed, "choices")
	case table.QuestionSet, table.QuestionSpan:
		c.needCount(e.Pos, p.Name, "labels", keyed, "labels")
	case table.QuestionScore:
		c.needCount(e.Pos, p.Name, "levels", levels, "levels")
	case table.QuestionNoul:
		for _, kt := range p.Criteria {
			if kt.Key != "true" && kt.Key != "false" {
				c.problems.Add(e.Pos, "preset %q: a noul's criteria are \"true\" and \"false\", not %q", p.Name, kt.Key)
			}
		}
	}
	if keyed > 0 && p.Type != table.QuestionChoice && p.Type != table.QuestionSet &&
		p.Type != table.QuestionSpan && p.Type != table.QuestionNoul {
		c.problems.Add(e.Pos, "preset %q: a %s question takes no keyed criteria", p.Name, p.Type)
	}
	if levels > 0 && p.Type != table.QuestionScore {
		c.problems.Add(e.Pos, "preset %q: only a score question takes levels", p.Name)
	}
}

// needCount requires n criteria within the extension set's global limit.
func (c *catalogBuilder) needCount(pos load.Position, preset, what string, n int, limit string) {
	lo, hi := c.globalLimit(limit)
	if n < lo || n > hi {
		c.problems.Add(pos, "preset %q: %d %s, the global limit %s is %d to %d", preset, n, what, limit, lo, hi)
	}
}

// globalLimit is the extension set's limit name as an inclusive range.
func (c *catalogBuilder) globalLimit(name string) (lo, hi int) {
	lo, hi = 0, 1<<31-1
	for _, l := range c.m.Limits {
		if l.Name != name {
			continue
		}
		if l.Min != nil {
			lo = int(*l.Min)
		}
		if l.Max != nil {
			hi = int(*l.Max)
		}
	}
	return lo, hi
}

// extensionFamilies are the families the extension set says honour the
// field at level, and whether the set defines it.
func (c *catalogBuilder) extensionField(level table.Level, name string) (*Field, bool) {
	for i := range c.m.Fields {
		f := &c.m.Fields[i]
		if f.Spec == SpecExtensions && f.Level == level && f.Name == name {
			return f, true
		}
	}
	return nil, false
}

// familyHonours reports whether family honours the extension field; a
// field the extension set lacks is a problem of its own.
func (c *catalogBuilder) familyHonours(pos load.Position, level table.Level, name string, family table.Family) bool {
	f, ok := c.extensionField(level, name)
	if !ok {
		c.problems.Add(pos, "the extension set defines no field %s.%s, which the card relies on", level, name)
		return false
	}
	for _, x := range f.Families {
		if x == family {
			return true
		}
	}
	return false
}

func (c *catalogBuilder) family(name table.Family) *Family {
	for i := range c.m.Families {
		if c.m.Families[i].Name == name {
			return &c.m.Families[i]
		}
	}
	return nil
}
