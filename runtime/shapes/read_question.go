package shapes

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

func (rd *Reader) questions(v jsonvalue.Value, path ir.Path) ([]ir.Question, error) {
	ms := v.Members()
	qs := make([]ir.Question, len(ms))
	for i := range ms {
		// Built in place: a Question is large, and copying it costs more
		// than reading it.
		if err := rd.question(&qs[i], &ms[i], path); err != nil {
			return nil, err
		}
	}
	return qs, nil
}

// questionRead is the state of reading one question (the binding's
// <level>Read of the question level): the question, its entry in
// questions and their path, and whether a criteria member was read.
type questionRead struct {
	q            *ir.Question
	entry        *jsonvalue.Member
	parent       ir.Path
	criteriaSeen bool
	extra        *[]jsonvalue.Member
}

// question fills q, which is the zero Question, from entry.
func (rd *Reader) question(q *ir.Question, entry *jsonvalue.Member, parent ir.Path) error {
	q.Name = entry.Name
	s := questionRead{q: q, entry: entry, parent: parent, extra: &q.Extra}
	members := entry.Value.Members()
	rec := rd.entryRecorder(entry, len(members))
	if err := rd.readQuestionMembers(&s, members, &rec); err != nil {
		return err
	}
	rec.store(&q.Layout)
	if q.Preset != nil && !q.Instructions.IsValid() {
		rd.legacy(ir.FormPresetOnly, parent.Key(entry.Name))
	}
	return nil
}

// The question's bound members, each read by the function the generated
// binding names for it.

func (rd *Reader) readQuestionType(s *questionRead, m *jsonvalue.Member, lm *ir.LayoutMember) error {
	s.q.Type = knownWord(m.Value, definedTypes)
	noteString(lm, m.Value.Raw(), string(s.q.Type))
	return nil
}

// readQuestionInstructions keeps the instructions as read, as
// readRequestState the state (retain copies them together).
func (rd *Reader) readQuestionInstructions(s *questionRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	s.q.Instructions = m.Value
	return nil
}

func (rd *Reader) readQuestionCriteria(s *questionRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	return rd.criteria(s, m, false)
}

// readQuestionChoices, readQuestionLevels and readQuestionLabels read 4.0's
// spellings of the criteria.
func (rd *Reader) readQuestionChoices(s *questionRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	return rd.criteria(s, m, true)
}

func (rd *Reader) readQuestionLevels(s *questionRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	return rd.criteria(s, m, true)
}

func (rd *Reader) readQuestionLabels(s *questionRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	return rd.criteria(s, m, true)
}

// criteria reads a question's one criteria member, whichever spelling
// carries it; a 4.0 spelling is the legacy form of its name.
func (rd *Reader) criteria(s *questionRead, m *jsonvalue.Member, legacy bool) error {
	if s.criteriaSeen {
		return ir.Refuse(ir.ReasonConflict, s.parent.Key(s.entry.Name).Key(m.Name), "a question has one criteria member")
	}
	s.criteriaSeen = true
	readCriteria(&s.q.Criteria, m.Value)
	if legacy {
		rd.legacy(m.Name, s.parent.Key(s.entry.Name).Key(m.Name))
	}
	return nil
}

func (rd *Reader) readQuestionOver(s *questionRead, m *jsonvalue.Member, lm *ir.LayoutMember) error {
	s.q.Over = readOver(m.Value, lm)
	return nil
}

// readCriteria fills c, a zero Criteria, field by field: a whole-struct
// store into the heap is a typed copy, which while the garbage collector
// marks goes through the bulk write barrier.
func readCriteria(c *ir.Criteria, v jsonvalue.Value) {
	switch v.Kind() {
	case jsonvalue.KindObject:
		// The decoded members, capped so an append never writes into them.
		c.Form = ir.CriteriaKeyed
		c.Keyed = v.Members()[:v.Len():v.Len()]
	case jsonvalue.KindArray:
		c.Form = ir.CriteriaLevels
		c.Levels = v.Items()[:v.Len():v.Len()]
	default:
		c.Form = ir.CriteriaNull
	}
}

// readOver reads the state keys a question reads: one key as a string, or
// an array of keys. The IR holds a list; a bare string is a spelling the
// layout records.
func readOver(v jsonvalue.Value, lm *ir.LayoutMember) []string {
	if v.Kind() == jsonvalue.KindString {
		keys := []string{v.Str()}
		if lm != nil {
			note(lm, v.Raw(), appendStrings(nil, keys))
		}
		return keys
	}
	items := v.Items()
	keys := make([]string, len(items))
	escaped := false
	for i, it := range items {
		keys[i] = it.Str()
		escaped = escaped || !quotedCanonically(it.Raw(), keys[i])
	}
	if escaped {
		note(lm, jsonvalue.Compact(v), appendStrings(nil, keys))
	}
	return keys
}

// assets reads the entries of an assets member (or of 4.0's images or
// videos, whose type implied is).
func (rd *Reader) assets(r *ir.Request, m *jsonvalue.Member, path ir.Path, implied ir.AssetType) error {
	entries := m.Value.Members()
	for i := range entries {
		entry := &entries[i]
		for j := range r.Assets {
			if r.Assets[j].Placeholder == entry.Name {
				return ir.Refuse(ir.ReasonConflict, path.Key(entry.Name), "a placeholder names one asset")
			}
		}
		a, err := rd.asset(entry, path.Key(entry.Name), implied)
		if err != nil {
			return err
		}
		r.Assets = append(r.Assets, a)
	}
	return nil
}

// assetRead is the state of reading one asset (the binding's <level>Read
// of the asset level): the asset, its path and the type its member
// implies.
type assetRead struct {
	a       *ir.Asset
	path    ir.Path
	implied ir.AssetType
	extra   *[]jsonvalue.Member
}

func (rd *Reader) asset(entry *jsonvalue.Member, path ir.Path, implied ir.AssetType) (ir.Asset, error) {
	a := ir.Asset{Placeholder: entry.Name, Type: implied}
	s := assetRead{a: &a, path: path, implied: implied, extra: &a.Extra}
	members := entry.Value.Members()
	rec := rd.entryRecorder(entry, len(members))
	if err := rd.readAssetMembers(&s, members, &rec); err != nil {
		return a, err
	}
	rec.store(&a.Layout)
	if a.Type == "" {
		// Only under assets: images and videos imply the type.
		return a, ir.Refuse(ir.ReasonMissingMember, path.Key(vocab.AssetType), "is required under assets")
	}
	return a, nil
}

// The asset's bound members, each read by the function the generated
// binding names for it.

func (rd *Reader) readAssetType(s *assetRead, m *jsonvalue.Member, lm *ir.LayoutMember) error {
	t := ir.AssetType(m.Value.Str())
	if s.implied != "" && t != s.implied {
		return ir.Refuse(ir.ReasonConflict, s.path.Key(m.Name), "does not match the member the asset is under")
	}
	s.a.Type = t
	noteString(lm, m.Value.Raw(), string(t))
	return nil
}
