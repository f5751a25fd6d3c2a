package emit

import (
	"fmt"

	"github.com/vllm-sr/systemone/gen/model"
)

// The request side of the OpenAPI document: one component per object
// check of the schema's request validator (model.Validations), so the
// document refuses exactly the members, kinds, enums and limits the
// generated validator refuses. Every such object is closed.

// checkComponent returns the component of an object check, building it
// (and what it refers to) the first time.
func (b *oasBuilder) checkComponent(name string) (string, error) {
	what := "check " + name
	if comp, ok := b.built[what]; ok {
		return comp, nil
	}
	obj, ok := b.checks[name]
	if !ok {
		return "", fmt.Errorf("schema %s: the validator has no object check %q", b.s.ID, name)
	}
	comp := vocabCamel(name)
	s, err := b.claim(comp, what)
	if err != nil {
		return "", err
	}
	if obj.Variants != nil {
		err = b.union(s, obj)
	} else {
		err = b.closedObject(s, obj)
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", comp, err)
	}
	return comp, nil
}

// union is an object that is one of its variants, told apart by the value
// of one member (a question's or an asset's type). The variants' own
// schemas pin that member to one value each, so exactly one matches (oneOf
// holds without the discriminator, which tools use to pick the branch).
//
// A variant member that another member can stand in for (4.0's
// preset-only question has no type) is refused: with it absent, every
// variant would match, and a document cannot say which the server reads.
func (b *oasBuilder) union(s *ymap, obj model.ObjectCheck) error {
	vc := obj.Variants
	for _, mc := range obj.Members {
		if mc.Name == vc.Member && (!mc.Required || len(mc.RequiredUnless) > 0) {
			return fmt.Errorf("%s is not always required, so no variant can be told from it", vc.Member)
		}
	}
	var oneOf ylist
	mapping := newYMap()
	for _, variant := range vc.Variants {
		comp, err := b.checkComponent(variant.Object)
		if err != nil {
			return err
		}
		oneOf = append(oneOf, refSchema(comp))
		mapping.put(variant.Value, componentsPrefix+comp)
	}
	s.put("description", "One of: "+vc.Expected+", by "+vc.Member+".")
	s.put("oneOf", oneOf)
	s.put("discriminator", newYMap().put("propertyName", vc.Member).put("mapping", mapping))
	return nil
}

// closedObject is an object with fixed members. A variant's discriminating
// member is the variant's own value (const); a member required unless
// another is present is an anyOf of required lists; the removed 4.0 forms
// the server answers naming a replacement are listed under
// x-srgen-removed-forms (the document refuses them as unknown members).
func (b *oasBuilder) closedObject(s *ymap, obj model.ObjectCheck) error {
	level := b.levelOf[obj.Name]
	if value, ok := b.variantOf[obj.Name]; ok {
		if f := b.typeField(value); f != nil && f.Description != "" {
			s.put("description", f.Description)
		}
	}
	s.put("type", "object")
	props := newYMap()
	var required yflow
	var alternatives ylist
	for _, mc := range obj.Members {
		var ps *ymap
		if mc.Discriminator {
			ps = newYMap().put("type", "string").put("const", b.variantOf[obj.Name])
		} else {
			var err error
			if ps, err = b.checkValue(mc.Value); err != nil {
				return fmt.Errorf("member %s: %w", mc.Name, err)
			}
		}
		b.describe(ps, level, mc.Name)
		props.put(mc.Name, ps)
		switch {
		case mc.Required && len(mc.RequiredUnless) > 0:
			alternatives = append(alternatives, requiredOneOf(append([]string{mc.Name}, mc.RequiredUnless...)))
		case mc.Required:
			required = append(required, mc.Name)
		}
	}
	s.putIf(len(required) > 0, "required", required)
	putAlternatives(s, alternatives)
	s.put("properties", props)
	s.put("additionalProperties", false)
	if len(obj.Removed) > 0 {
		removed := newYMap()
		for _, r := range obj.Removed {
			removed.put(r.Name, r.Replacement)
		}
		s.put("x-srgen-removed-forms", removed)
	}
	return nil
}

// putAlternatives puts each "one of these is present" rule: one is an
// anyOf, more an allOf of anyOfs (a mapping has one anyOf key).
func putAlternatives(s *ymap, alternatives ylist) {
	switch len(alternatives) {
	case 0:
	case 1:
		s.put("anyOf", alternatives[0])
	default:
		all := make(ylist, 0, len(alternatives))
		for _, alt := range alternatives {
			all = append(all, newYMap().put("anyOf", alt))
		}
		s.put("allOf", all)
	}
}

// requiredOneOf: at least one of names is present.
func requiredOneOf(names []string) ylist {
	out := make(ylist, 0, len(names))
	for _, n := range names {
		out = append(out, newYMap().put("required", yflow{n}))
	}
	return out
}

// checkValue is the schema of a value the validator checks.
func (b *oasBuilder) checkValue(vc model.ValueCheck) (*ymap, error) {
	v := oasValue{
		kinds: vc.Kinds, nullable: vc.Nullable, enum: vc.Enum,
		minimum: vc.Minimum, maximum: vc.Maximum, minCount: vc.MinCount, maxCount: vc.MaxCount,
	}
	var err error
	if vc.Object != "" {
		if v.ref, err = b.checkComponent(vc.Object); err != nil {
			return nil, err
		}
	}
	if vc.Items != nil {
		if v.items, err = b.checkValue(*vc.Items); err != nil {
			return nil, err
		}
	}
	if vc.Values != nil {
		if v.values, err = b.checkValue(*vc.Values); err != nil {
			return nil, err
		}
	}
	return v.schema(), nil
}
