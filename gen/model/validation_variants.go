package model

import (
	"fmt"

	"github.com/vllm-sr/systemone/runtime/table"
)

// This file, part of the validator's view (validation.go), splits the
// question and asset levels into one object check per question or asset
// type, dispatched on the member that names the type.

// questionVariants builds one object check per question type of the
// schema: the question members that type allows, its criteria shape (and
// 4.0's legacy spelling of it), dispatched on the member whose enum holds
// every question type.
func (b *validationBuilder) questionVariants(object string, msg *Message) (*VariantCheck, error) {
	types := make([]string, len(b.s.QuestionTypes))
	for i, qt := range b.s.QuestionTypes {
		types[i] = string(qt.Type)
	}
	disc := discriminator(msg, types)
	if disc == "" {
		return nil, fmt.Errorf("level %s: no member names every question type", msg.Level)
	}
	vc := &VariantCheck{Member: disc}
	names := make([]string, 0, len(b.s.QuestionTypes))
	for _, qt := range b.s.QuestionTypes {
		name := object + "_" + string(qt.Type)
		obj, err := b.questionType(msg, qt, name, disc)
		if err != nil {
			return nil, fmt.Errorf("question type %s: %w", qt.Type, err)
		}
		b.objects = append(b.objects, obj)
		vc.Variants = append(vc.Variants, Variant{Value: string(qt.Type), Object: name})
		names = append(names, string(qt.Type))
	}
	vc.Expected = orList(names)
	return vc, nil
}

// discriminator is the member whose enum holds every one of values.
func discriminator(msg *Message, values []string) string {
	if len(values) == 0 {
		return ""
	}
	for _, mem := range msg.Members {
		all := true
		for _, v := range values {
			all = all && contains(mem.Type.Enum, v)
		}
		if all {
			return mem.Name
		}
	}
	return ""
}

// AssetFormatFieldName is the asset member whose values each asset type's
// Formats list.
const AssetFormatFieldName = "format"

// assetVariants gives each asset type its own formats: an asset whose type
// names an asset type is checked against that type's formats, any other
// (4.0's untyped images and videos) against every format of the schema,
// which generic (the level's own check) is changed to allow.
func (b *validationBuilder) assetVariants(msg *Message, generic *ObjectCheck) *VariantCheck {
	types := make([]string, len(b.s.AssetTypes))
	var formats []string
	for i, at := range b.s.AssetTypes {
		types[i] = at.Type
		for _, f := range at.Formats {
			if !contains(formats, f) {
				formats = append(formats, f)
			}
		}
	}
	disc := discriminator(msg, types)
	if disc == "" || !hasCheck(generic.Members, AssetFormatFieldName) {
		return nil
	}
	withFormats(generic, formats)
	vc := &VariantCheck{Member: disc, Expected: orList(types)}
	for _, at := range b.s.AssetTypes {
		obj := ObjectCheck{Name: generic.Name + "_" + at.Type, Removed: generic.Removed}
		obj.Members = append([]MemberCheck(nil), generic.Members...)
		for i := range obj.Members {
			obj.Members[i].Discriminator = obj.Members[i].Name == disc
		}
		withFormats(&obj, at.Formats)
		b.objects = append(b.objects, obj)
		vc.Variants = append(vc.Variants, Variant{Value: at.Type, Object: obj.Name})
	}
	return vc
}

// withFormats sets the enum of an asset check's format member.
func withFormats(obj *ObjectCheck, formats []string) {
	for i := range obj.Members {
		if obj.Members[i].Name == AssetFormatFieldName {
			obj.Members[i].Value.Enum = formats
			obj.Members[i].Value.ExpectedEnum = orList(formats)
		}
	}
}

func (b *validationBuilder) questionType(msg *Message, qt QuestionTypeShape, name, disc string) (ObjectCheck, error) {
	obj := ObjectCheck{Name: name, Removed: b.removed(msg.Level, msg.Members)}
	for _, mem := range msg.Members {
		if !contains(qt.Members, mem.Name) {
			continue
		}
		mc, err := b.member(mem)
		switch {
		case mem.Name == disc:
			mc.Discriminator = true
		case mem.Name == criteriaMember(msg, qt):
			mc.Required = qt.Criteria.Required
			mc.Value, err = b.criteria(qt.Criteria, name+"_"+mem.Name)
		case qt.LegacyCriteria != nil && mem.Name == qt.LegacyCriteria.Member:
			mc.Required = qt.LegacyCriteria.Criteria.Required
			mc.Value, err = b.criteria(qt.LegacyCriteria.Criteria, name+"_"+mem.Name)
		}
		if err != nil {
			return obj, fmt.Errorf("member %s: %w", mem.Name, err)
		}
		obj.Members = append(obj.Members, mc)
	}
	return obj, nil
}

// CriteriaFieldName is the standard's question member that carries a
// question type's criteria shape (Field.Criteria describes its value).
const CriteriaFieldName = "criteria"

// criteriaMember is the question member a question type's criteria shape
// applies to; "" for a type that takes no criteria.
func criteriaMember(msg *Message, qt QuestionTypeShape) string {
	if qt.Criteria.Kind == CriteriaNone || qt.Criteria.Kind == "" {
		return ""
	}
	if hasMember(msg.Members, CriteriaFieldName) && contains(qt.Members, CriteriaFieldName) {
		return CriteriaFieldName
	}
	return ""
}

// criteria turns a criteria shape into the check of the member carrying it.
// A criteria shape with fixed keys (noul's true and false) becomes an
// object check of its own, named name.
func (b *validationBuilder) criteria(c Criteria, name string) (ValueCheck, error) {
	var values *ValueCheck
	if c.Values != nil {
		v, err := b.value(*c.Values)
		if err != nil {
			return ValueCheck{}, err
		}
		values = &v
	}
	vc := ValueCheck{Nullable: c.Nullable, MinCount: c.MinCount, MaxCount: c.MaxCount}
	switch c.Kind {
	case CriteriaLevels:
		vc.Kinds, vc.Items = []Kind{KindArray}, values
	case CriteriaOptions, CriteriaLabels:
		vc.Kinds, vc.Values = []Kind{KindObject}, values
	case CriteriaNoul:
		vc.Kinds = []Kind{KindObject}
		if len(c.Keys) == 0 {
			vc.Values = values
			break
		}
		obj := ObjectCheck{Name: name}
		for _, key := range c.Keys {
			mc := MemberCheck{Name: key}
			if values != nil {
				mc.Value = *values
			}
			obj.Members = append(obj.Members, mc)
		}
		b.objects = append(b.objects, obj)
		vc.Object = name
	default:
		return vc, fmt.Errorf("unknown criteria kind %q", c.Kind)
	}
	vc.Expected = KindsText(vc.Kinds, vc.Nullable)
	return vc, nil
}

// AnswerErrorFieldName is the answer member that names a failed
// question's error kind: an answer that has it is a failed answer.
const AnswerErrorFieldName = "error"

// answerVariants gives each answer type its own object check: the answer
// members its type carries, dispatched on the member whose enum holds
// every answer type (type). A failed answer, one with an error member, is
// checked first, by the members every answer may carry, of which only
// error is required: it has no values of an answered question, and names
// its question's type (if any) rather than an answer type. generic (the level's
// own check, for an answer whose type names no answer type) requires only
// the members every answer type requires.
func (b *validationBuilder) answerVariants(object string, msg *Message, generic *ObjectCheck) (*VariantCheck, error) {
	var types []string
	for _, qt := range b.s.QuestionTypes {
		t := string(qt.Type)
		if qt.AnswersAs != "" {
			t = string(qt.AnswersAs)
		}
		if !contains(types, t) {
			types = append(types, t)
		}
	}
	disc := discriminator(msg, types)
	if disc == "" {
		return nil, fmt.Errorf("level %s: no member names every answer type", msg.Level)
	}
	for i, mem := range msg.Members {
		if len(mem.QuestionTypes) > 0 {
			generic.Members[i].Required, generic.Members[i].RequiredUnless = false, nil
		}
	}
	vc := &VariantCheck{Member: disc, Expected: orList(types)}
	if hasMember(msg.Members, AnswerErrorFieldName) {
		failed := ObjectCheck{Name: object + "_failed", Open: b.open}
		for i, mem := range msg.Members {
			if len(mem.QuestionTypes) > 0 {
				continue
			}
			mc := generic.Members[i]
			mc.Required, mc.RequiredUnless = mem.Name == AnswerErrorFieldName, nil
			if mem.Name == disc {
				// A failed answer names its question's type, not an answer
				// type: a failed span question's answer says span.
				mc.Value.Enum = questionTypeNames(questionTypesOf(b.s))
				mc.Value.ExpectedEnum = orList(mc.Value.Enum)
			}
			failed.Members = append(failed.Members, mc)
		}
		b.objects = append(b.objects, failed)
		vc.Present, vc.PresentObject = AnswerErrorFieldName, failed.Name
	}
	for _, t := range types {
		obj := ObjectCheck{Name: object + "_" + t, Open: b.open}
		for _, mem := range msg.Members {
			if len(mem.QuestionTypes) > 0 && !contains(questionTypeNames(mem.QuestionTypes), t) {
				continue
			}
			mc, err := b.member(mem)
			if err != nil {
				return nil, fmt.Errorf("answer type %s: member %s: %w", t, mem.Name, err)
			}
			mc.Discriminator = mem.Name == disc
			obj.Members = append(obj.Members, mc)
		}
		b.objects = append(b.objects, obj)
		vc.Variants = append(vc.Variants, Variant{Value: t, Object: obj.Name})
	}
	return vc, nil
}

func questionTypeNames(qts []table.QuestionType) []string {
	out := make([]string, len(qts))
	for i, qt := range qts {
		out[i] = string(qt)
	}
	return out
}

func questionTypesOf(s *Schema) []table.QuestionType {
	out := make([]table.QuestionType, len(s.QuestionTypes))
	for i, qt := range s.QuestionTypes {
		out[i] = qt.Type
	}
	return out
}
