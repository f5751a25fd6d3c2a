package emit

import (
	"fmt"
	"slices"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The response side of the OpenAPI document: one component per level the
// answers and errors reach, from the schema's messages. These objects are
// open (no additionalProperties), since a minor version adds members to
// what a server sends. The answer level is a union by question type.

// levelComponent returns the component of a level's message, building it
// (and what it refers to) the first time.
func (b *oasBuilder) levelComponent(level table.Level) (string, error) {
	what := "level " + string(level)
	if comp, ok := b.built[what]; ok {
		return comp, nil
	}
	msg := b.s.Message(level)
	if msg == nil {
		return "", fmt.Errorf("schema %s has no message at level %s", b.s.ID, level)
	}
	comp := vocabCamel(string(level))
	s, err := b.claim(comp, what)
	if err != nil {
		return "", err
	}
	if level == table.LevelAnswer && b.typeMember != "" && len(b.s.QuestionTypes) > 0 {
		err = b.answerUnion(s, msg)
	} else {
		err = b.openObject(s, msg, nil, "")
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", comp, err)
	}
	return comp, nil
}

// openObject writes a message's members; only those listed in keep when
// keep is set (an answer variant's), and the member typeValue names, when
// set, pinned to that value. alternatives are the member lists of which one
// must be present besides the required members.
func (b *oasBuilder) openObject(s *ymap, msg *model.Message, keep []string, typeValue string) error {
	s.put("type", "object")
	props := newYMap()
	var required yflow
	var alternatives ylist
	for _, mem := range msg.Members {
		if keep != nil && !slices.Contains(keep, mem.Name) {
			continue
		}
		var ps *ymap
		if typeValue != "" && mem.Name == b.typeMember {
			ps = newYMap().put("type", "string").put("const", typeValue)
		} else {
			var err error
			if ps, err = b.typeValue(mem.Type); err != nil {
				return fmt.Errorf("member %s: %w", mem.Name, err)
			}
		}
		b.describe(ps, msg.Level, mem.Name)
		props.put(mem.Name, ps)
		switch {
		case mem.Required && len(mem.RequiredUnless) > 0:
			alternatives = append(alternatives, requiredOneOf(append([]string{mem.Name}, mem.RequiredUnless...)))
		case mem.Required:
			required = append(required, mem.Name)
		}
	}
	if typeValue != "" {
		required, alternatives = b.unlessFailed(msg, keep, required, alternatives)
	}
	s.putIf(len(required) > 0, "required", required)
	putAlternatives(s, alternatives)
	s.put("properties", props)
	return nil
}

// answerUnion: an answer carries its question's type in the member that
// names a question's type, and has the members of that type's answers
// (span answers as a noul, with type span).
func (b *oasBuilder) answerUnion(s *ymap, msg *model.Message) error {
	if msg.Member(b.typeMember) == nil {
		return fmt.Errorf("answers have no member %s to name their question's type", b.typeMember)
	}
	var oneOf ylist
	mapping := newYMap()
	for _, qt := range b.s.QuestionTypes {
		what := "answer " + string(qt.Type)
		comp := vocabCamel(string(msg.Level) + "_" + string(qt.Type))
		variant, err := b.claim(comp, what)
		if err != nil {
			return err
		}
		desc := "The answer to a " + string(qt.Type) + " question"
		if qt.AnswersAs != "" {
			desc += ", with the members of a " + string(qt.AnswersAs) + " answer"
		}
		variant.put("description", desc+".")
		if err := b.openObject(variant, msg, qt.AnswerMembers, string(qt.Type)); err != nil {
			return fmt.Errorf("%s: %w", comp, err)
		}
		oneOf = append(oneOf, refSchema(comp))
		mapping.put(string(qt.Type), componentsPrefix+comp)
	}
	s.put("description", "One of the answers to each question type, by "+b.typeMember+".")
	s.put("oneOf", oneOf)
	s.put("discriminator", newYMap().put("propertyName", b.typeMember).put("mapping", mapping))
	return nil
}

// unlessFailed: an answer that names its question's error kind has no
// answer values (POST /v1/decisions answers a failed question so), so the
// members a successful answer requires are one alternative and the
// failure member the other. The failure member is the answer member whose
// enum is the question error kinds, which the model checks it is.
func (b *oasBuilder) unlessFailed(msg *model.Message, keep []string, required yflow, alternatives ylist) (yflow, ylist) {
	failure := b.failureMember(msg)
	if failure == "" || !slices.Contains(keep, failure) {
		return required, alternatives
	}
	var always, values []string
	for _, name := range required {
		if name == b.typeMember {
			always = append(always, name)
		} else {
			values = append(values, name)
		}
	}
	if len(values) == 0 {
		return required, alternatives
	}
	alt := ylist{newYMap().put("required", yflow(values)), newYMap().put("required", yflow{failure})}
	return yflow(always), append(alternatives, alt)
}

// failureMember is the member of msg whose enum holds exactly the
// question error kinds; "" when none does.
func (b *oasBuilder) failureMember(msg *model.Message) string {
	if len(b.m.QuestionErrors) == 0 {
		return ""
	}
	for _, mem := range msg.Members {
		if len(mem.Type.Enum) != len(b.m.QuestionErrors) {
			continue
		}
		all := true
		for _, qe := range b.m.QuestionErrors {
			all = all && slices.Contains(mem.Type.Enum, qe.Kind)
		}
		if all {
			return mem.Name
		}
	}
	return ""
}

// typeValue is the schema of a value of a message member. A reference to
// a level is that level's component; a reference to a named type adds the
// named type's own constraints, as the validator does.
func (b *oasBuilder) typeValue(t model.Type) (*ymap, error) {
	v := oasValue{
		kinds: t.Kinds, nullable: t.Nullable, enum: t.Enum,
		minimum: t.Minimum, maximum: t.Maximum, minCount: t.MinCount, maxCount: t.MaxCount,
	}
	items, values := t.Items, t.Values
	if t.Ref != "" {
		switch nt := b.namedType(t.Ref); {
		case b.s.Message(table.Level(t.Ref)) != nil:
			comp, err := b.levelComponent(table.Level(t.Ref))
			if err != nil {
				return nil, err
			}
			v.ref = comp
		case nt != nil:
			if len(v.enum) == 0 {
				v.enum = nt.Type.Enum
			}
			items, values = cmpOr(items, nt.Type.Items), cmpOr(values, nt.Type.Values)
		default:
			return nil, fmt.Errorf("unknown reference %q", t.Ref)
		}
	}
	var err error
	if items != nil {
		if v.items, err = b.typeValue(*items); err != nil {
			return nil, err
		}
	}
	if values != nil {
		if v.values, err = b.typeValue(*values); err != nil {
			return nil, err
		}
	}
	return v.schema(), nil
}

func (b *oasBuilder) namedType(name string) *model.NamedType {
	for i := range b.m.NamedTypes {
		if b.m.NamedTypes[i].Name == name {
			return &b.m.NamedTypes[i]
		}
	}
	return nil
}

// cmpOr is the first non-nil type.
func cmpOr(a, b *model.Type) *model.Type {
	if a != nil {
		return a
	}
	return b
}
