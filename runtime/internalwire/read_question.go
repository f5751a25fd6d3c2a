package internalwire

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

// question fills q, which is the zero Question, from entry.
func (rd *Reader) question(q *ir.Question, entry *jsonvalue.Member, parent ir.Path) error {
	q.Name = entry.Name
	criteriaSeen := false
	members := entry.Value.Members()
	rec := rd.entryRecorder(entry, len(members))
	for i := range members {
		m := &members[i]
		lm := rec.member(m)
		switch m.Name {
		case vocab.QuestionType:
			q.Type = knownWord(m.Value, definedTypes)
			noteString(lm, m.Value.Raw(), string(q.Type))
		case vocab.QuestionInstructions:
			q.Instructions = m.Value
		case vocab.QuestionCriteria, vocab.QuestionChoices, vocab.QuestionLevels, vocab.QuestionLabels:
			if criteriaSeen {
				return ir.Refuse(ir.ReasonConflict, parent.Key(entry.Name).Key(m.Name), "a question has one criteria member")
			}
			criteriaSeen = true
			readCriteria(&q.Criteria, m.Value)
			if m.Name != vocab.QuestionCriteria {
				rd.legacy(m.Name, parent.Key(entry.Name).Key(m.Name))
			}
		default:
			rd.extensionMember(q, m, lm)
		}
		rec.done(lm)
	}
	rec.store(&q.Layout)
	if q.Preset != nil && !q.Instructions.IsValid() {
		rd.legacy(ir.FormPresetOnly, parent.Key(entry.Name))
	}
	return nil
}

// extensionMember reads the extension members of a question: the bound
// ones into their fields, any other into Extra.
func (rd *Reader) extensionMember(q *ir.Question, m *jsonvalue.Member, lm *ir.LayoutMember) {
	switch m.Name {
	case vocab.QuestionPreset:
		q.Preset = rd.text(m.Value, lm)
	case vocab.QuestionHead:
		q.Head = (*ir.SpanHead)(rd.text(m.Value, lm))
	case vocab.QuestionDecisionAdapter:
		q.DecisionAdapter = boolPtr(m.Value)
	case vocab.QuestionOver:
		q.Over = readOver(m.Value, lm)
	case vocab.QuestionOverflow:
		q.Overflow = (*ir.Overflow)(rd.text(m.Value, lm))
	case vocab.QuestionRequireFullInput:
		q.RequireFullInput = boolPtr(m.Value)
	case vocab.QuestionThreshold:
		q.Threshold = rd.number(m.Value, lm)
	case vocab.QuestionAt:
		q.At = rd.number(m.Value, lm)
	case vocab.QuestionRate:
		n := rd.integer(m.Value, lm)
		q.Rate = &n
	default:
		q.Extra = rd.extra(q.Extra, m)
	}
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

func (rd *Reader) assets(r *ir.Request, m *jsonvalue.Member, path ir.Path) error {
	var implied ir.AssetType
	switch m.Name {
	case vocab.RequestImages:
		implied = ir.AssetImage
		rd.legacy(ir.FormImages, path)
	case vocab.RequestVideos:
		implied = ir.AssetVideo
		rd.legacy(ir.FormVideos, path)
	}
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

func (rd *Reader) asset(entry *jsonvalue.Member, path ir.Path, implied ir.AssetType) (ir.Asset, error) {
	a := ir.Asset{Placeholder: entry.Name, Type: implied}
	members := entry.Value.Members()
	rec := rd.entryRecorder(entry, len(members))
	for i := range members {
		f := &members[i]
		lm := rec.member(f)
		switch f.Name {
		case vocab.AssetType:
			t := ir.AssetType(f.Value.Str())
			if implied != "" && t != implied {
				return a, ir.Refuse(ir.ReasonConflict, path.Key(f.Name), "does not match the member the asset is under")
			}
			a.Type = t
			noteString(lm, f.Value.Raw(), string(t))
		case vocab.AssetFormat:
			a.Format = rd.text(f.Value, lm)
		case vocab.AssetDataBase64:
			a.Data = rd.keep(f.Value)
		default:
			a.Extra = rd.extra(a.Extra, f)
		}
		rec.done(lm)
	}
	rec.store(&a.Layout)
	if a.Type == "" {
		// Only under assets: images and videos imply the type.
		return a, ir.Refuse(ir.ReasonMissingMember, path.Key(vocab.AssetType), "is required under assets")
	}
	return a, nil
}
