package model

import (
	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// buildContractFields turns the 4.0 contract's component schemas into
// fields: each component's x-srgen-level is the level of its properties.
func (b *builder) buildContractFields() {
	con := b.raw.Contract
	comps := map[string]load.Component{}
	for _, c := range con.Components {
		comps[c.Name] = c
	}
	for _, c := range con.Components {
		switch {
		case c.Level != "" && c.NamedType != "":
			b.problems.Add(c.Pos, "component %s has both x-srgen-level and x-srgen-named-type", c.Name)
		case c.NamedType != "":
			b.checkContractNamedType(c, comps)
		case c.Level == "":
			b.problems.Add(c.Pos, "component %s has neither x-srgen-level nor x-srgen-named-type", c.Name)
		case !knownFieldLevel(c.Level):
			b.problems.Add(c.Pos, "component %s: unknown level %q", c.Name, c.Level)
		default:
			b.contractComponentFields(c, comps)
		}
	}
}

func (b *builder) contractComponentFields(c load.Component, comps map[string]load.Component) {
	required := map[string]bool{}
	for _, r := range c.Schema.Required {
		required[r] = true
	}
	unless := b.requiredAlternatives(c)
	for name := range unless {
		required[name] = true
	}
	for _, p := range c.Schema.Properties {
		t := b.contractType(p.Schema, comps, p.Pos)
		f := Field{
			Spec: SpecContract40, Level: table.Level(c.Level), Name: p.Name,
			Type: t, TypeText: t.String(), Required: required[p.Name], RequiredUnless: unless[p.Name],
			Since:         sinceOf(b.raw.Contract.Schema),
			QuestionTypes: b.questionTypes(p.Schema.QuestionTypes, p.Pos),
			Description:   p.Schema.Description,
			DocumentedIn:  []DocSource{DocContract40},
			Schemas:       b.acceptingSchemas(SpecContract40),
			Pos:           p.Pos,
		}
		if f.Description == "" {
			f.Description = b.refDescription(p.Schema, comps)
		}
		f.Disposition = b.contractDisposition(f.Key())
		b.m.Fields = append(b.m.Fields, f)
	}
}

// requiredAlternatives reads a component's anyOf of required-only
// alternatives, such as [{required: [type]}, {required: [preset]}]: the
// first alternative's member is required unless one of the others' is
// present. It returns that member and its excusing members; nil when the
// component has no anyOf.
func (b *builder) requiredAlternatives(c load.Component) map[string][]string {
	alts := c.Schema.AnyOf
	if len(alts) == 0 {
		return nil
	}
	var names []string
	for _, a := range alts {
		if a == nil || len(a.Required) != 1 || a.Type != "" || a.Ref != "" || len(a.Properties) > 0 || len(a.AnyOf) > 0 || len(a.AllOf) > 0 {
			b.problems.Add(c.Pos, "component %s: each anyOf alternative must be a required list of one member", c.Name)
			return nil
		}
		name := a.Required[0]
		if !hasProperty(c.Schema, name) {
			b.problems.Add(a.Pos, "component %s: anyOf requires %q, which is not a property", c.Name, name)
			return nil
		}
		names = append(names, name)
	}
	if len(names) < 2 {
		b.problems.Add(c.Pos, "component %s: an anyOf of required members needs two alternatives", c.Name)
		return nil
	}
	return map[string][]string{names[0]: names[1:]}
}

func hasProperty(s *load.SchemaNode, name string) bool {
	for _, p := range s.Properties {
		if p.Name == name {
			return true
		}
	}
	return false
}

// contractDisposition: a 4.0 field the standard or the extension set also
// defines shares their disposition; a 4.0-only field is legacy.
func (b *builder) contractDisposition(k FieldKey) table.Disposition {
	for _, f := range b.m.Fields {
		if f.Spec != SpecContract40 && f.Key() == k {
			return f.Disposition
		}
	}
	return table.DispositionLegacy
}

// refDescription is a referenced component's description, for a property
// that is only a $ref.
func (b *builder) refDescription(s *load.SchemaNode, comps map[string]load.Component) string {
	if s.Ref != "" {
		return comps[s.Ref].Schema.Description
	}
	return ""
}

// contractType converts an OpenAPI schema to a Type. A $ref resolves to the
// referenced component's level or named type, never to its structure, so
// the same message is one Ref everywhere.
func (b *builder) contractType(s *load.SchemaNode, comps map[string]load.Component, pos load.Position) Type {
	if s == nil {
		return Type{}
	}
	if s.Ref != "" {
		return b.contractRef(s.Ref, comps, pos)
	}
	var t Type
	for _, sub := range append(append([]*load.SchemaNode(nil), s.AllOf...), s.AnyOf...) {
		if err := merge(&t, b.contractType(sub, comps, pos)); err != nil {
			b.problems.Add(pos, "%v", err)
		}
	}
	if s.Type != "" {
		k := Kind(s.Type)
		if indexOf(KindOrder, k) == len(KindOrder) {
			b.problems.Add(pos, "unknown type %q", s.Type)
		} else if indexOf(t.Kinds, k) == len(t.Kinds) {
			t.Kinds = append(t.Kinds, k)
		}
	}
	if s.Items != nil && !emptySchema(s.Items) {
		items := b.contractType(s.Items, comps, pos)
		t.Items = &items
	}
	if s.Additional != nil && !emptySchema(s.Additional) {
		values := b.contractType(s.Additional, comps, pos)
		t.Values = &values
	}
	t.Nullable = t.Nullable || s.Nullable
	t.Enum = s.Enum
	t.Minimum, t.Maximum = s.Minimum, s.Maximum
	t.MinCount, t.MaxCount = firstInt(s.MinItems, s.MinProps), firstInt(s.MaxItems, s.MaxProps)
	sortByOrder(t.Kinds, KindOrder)
	return t
}

func (b *builder) contractRef(name string, comps map[string]load.Component, pos load.Position) Type {
	c, ok := comps[name]
	switch {
	case !ok:
		b.problems.Add(pos, "unknown component %q", name)
		return Type{}
	case c.NamedType != "":
		nt, ok := b.types.named[c.NamedType]
		if !ok {
			b.problems.Add(c.Pos, "component %s: unknown named type %q", name, c.NamedType)
		}
		return Type{Kinds: append([]Kind(nil), nt.Kinds...), Ref: c.NamedType}
	default:
		return Type{Kinds: []Kind{KindObject}, Ref: c.Level}
	}
}

// checkContractNamedType: the contract's copy of a named type (Content)
// must mean what the standard's does.
func (b *builder) checkContractNamedType(c load.Component, comps map[string]load.Component) {
	want, ok := b.types.named[c.NamedType]
	if !ok {
		b.problems.Add(c.Pos, "component %s: unknown named type %q", c.Name, c.NamedType)
		return
	}
	got := b.contractType(c.Schema, comps, c.Pos)
	if !sameMeaning(got, want) {
		b.problems.Add(c.Pos, "component %s is %s but the standard's %s is %s", c.Name, got, c.NamedType, want)
	}
}

func emptySchema(s *load.SchemaNode) bool {
	return s.Ref == "" && s.Type == "" && len(s.AnyOf) == 0 && len(s.AllOf) == 0 && len(s.Properties) == 0
}

func firstInt(a, b *int) *int {
	if a != nil {
		return a
	}
	return b
}

// buildImplicitRoles copies x-implicit-roles, checking each role is one a
// roles map may name and each key appears once.
func (b *builder) buildImplicitRoles() {
	raw := b.raw.Contract.ImplicitRoles
	roles := b.roleValues()
	check := func(role string, pos load.Position) {
		if indexOf(roles, role) == len(roles) {
			b.problems.Add(pos, "implicit role %q is not one of %v", role, roles)
		}
	}
	check(raw.Default, raw.Pos)
	seen := map[string]bool{}
	for _, p := range raw.Parts {
		if seen[p.Key] {
			b.problems.Add(p.Pos, "implicit role of %q defined twice", p.Key)
		}
		seen[p.Key] = true
		check(p.Role, p.Pos)
		b.m.ImplicitRoles.Parts = append(b.m.ImplicitRoles.Parts, ImplicitRole{Key: p.Key, Role: p.Role})
	}
	b.m.ImplicitRoles.Default = raw.Default
}

// roleValues are the values request.roles allows, from the extension set.
func (b *builder) roleValues() []string {
	for _, f := range b.m.Fields {
		if f.Spec == SpecExtensions && f.Level == table.LevelRequest && f.Name == "roles" && f.Type.Values != nil {
			return f.Type.Values.Enum
		}
	}
	return nil
}
