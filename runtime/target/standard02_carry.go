package target

import (
	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// CheckCarry refuses, before any call, what b needs that c's schema, or
// t's declared capabilities, cannot carry: nil, or a *CarryError listing
// every missing thing with its path inside the batch body
// (requests.<item>...). A codec that is no CarryChecker carries every
// batch. The Router calls it per request and c's Plan calls it again; the
// configuration asks the CarryChecker itself for each rule's request.
func CheckCarry(c Codec, b *ir.Batch, t Target) error {
	cc, ok := c.(CarryChecker)
	if !ok {
		return nil
	}
	var missing []Missing
	for i := range b.Items {
		at := ir.Path{{Name: vocab.BatchRequests}, {Name: b.Items[i].Name}}
		missing = append(missing, cc.CheckCarry(&b.Items[i].Request, t, at)...)
	}
	if len(missing) == 0 {
		return nil
	}
	return &CarryError{Deployment: t.Deployment, Schema: string(c.Traits().Schema), Missing: missing}
}

// CheckCarry lists what r asks for that the standard, or the deployment's
// declared capabilities, do not carry.
func (standard02Codec) CheckCarry(r *ir.Request, t Target, at ir.Path) []Missing {
	var out []Missing
	add := func(what string, path ir.Path) { out = append(out, Missing{What: what, Path: path}) }
	for i := range r.Questions {
		q := &r.Questions[i]
		qa := at.Key(vocab.RequestQuestions).Key(q.Name)
		typ, problem := resolvedType(q)
		if problem != "" {
			add(problem, qa.Key(vocab.QuestionPreset))
		}
		switch {
		case typ == "":
		case refused(table.LevelQuestionType, string(typ)):
			add(string(typ)+" question", qa.Key(vocab.QuestionType))
		case !declares(t, Capability(typ)):
			add(string(typ)+" question, which the deployment does not declare", qa.Key(vocab.QuestionType))
		}
		has := questionFields(q)
		for _, f := range fieldtable.RefusedAtLoad {
			if f.Level == table.LevelQuestion && has[f.Name] {
				add(f.Name, qa.Key(f.Name))
			}
		}
	}
	for i := range r.Assets {
		a := &r.Assets[i]
		path := at.Key(vocab.RequestAssets).Key(a.Placeholder)
		switch {
		case refused(table.LevelAssetType, string(a.Type)):
			add(string(a.Type)+" asset", path)
		case !declares(t, Capability(a.Type)):
			add(string(a.Type)+" asset, which the deployment does not declare", path)
		}
	}
	return out
}

func refused(level table.Level, name string) bool {
	_, ok := fieldtable.Refused(level, name)
	return ok
}

// declares reports whether t's declared capabilities allow c; a
// deployment that declares none is bounded by the standard alone.
func declares(t Target, c Capability) bool {
	return len(t.Capabilities) == 0 || t.Capabilities.Has(c)
}

// resolvedType is the type q is sent with: its own, or its preset's. The
// problem is a fixed description when the preset is unknown or answers
// another type.
func resolvedType(q *ir.Question) (table.QuestionType, string) {
	if q.Preset == nil {
		return q.Type, ""
	}
	p, ok := catalog.Preset(*q.Preset)
	switch {
	case !ok:
		return q.Type, "a preset the catalogue has no canonical text for"
	case q.Type != "" && q.Type != p.Type:
		return q.Type, "a preset of another question type"
	}
	return p.Type, ""
}

// questionFields tells, by name, which question-level extension fields q
// carries. Every refused-at-load question field of the generated table
// must be named here; a test checks it.
func questionFields(q *ir.Question) map[string]bool {
	return map[string]bool{
		vocab.QuestionHead:             q.Head != nil,
		vocab.QuestionDecisionAdapter:  q.DecisionAdapter != nil,
		vocab.QuestionOver:             q.Over != nil,
		vocab.QuestionRequireFullInput: q.RequireFullInput != nil,
		vocab.QuestionThreshold:        q.Threshold != nil,
		vocab.QuestionAt:               q.At != nil,
		vocab.QuestionRate:             q.Rate != nil,
		vocab.QuestionOverflow:         q.Overflow != nil,
		vocab.QuestionPreset:           q.Preset != nil,
	}
}
