package model

import (
	"fmt"

	"github.com/vllm-sr/systemone/runtime/table"
)

// This file is the validator's view of the model: for each schema, the
// object checks a request validator makes, resolved from the schema's
// messages, entry messages, question types, criteria shapes and the removed
// forms. It only reads facts computed elsewhere in this package (what is
// required, nullable or allowed where) and adds nothing to them.

// SchemaValidation is what a request validator checks under one schema.
type SchemaValidation struct {
	Schema table.SchemaID
	// GoName is the schema's Go name ("Standard02", "VllmSR50"), as the
	// constants of runtime/table spell it after "Schema".
	GoName string
	// Request is the name of the request body's object check.
	Request string
	// Batch is the name of the batch body's object check; "" when the
	// schema serves no batch endpoint.
	Batch string
	// The replies' object checks, each "" when the schema has no such
	// level: a response, a batch response, one answer, an error body, a
	// model listing and a health reply.
	Response, BatchResponse, Answer, Error, Listing, Health string
	// Objects are every object check, in the order they were first
	// reached from the request, the batch, then each reply; each name is
	// unique.
	Objects []ObjectCheck
}

// ReplyLevels are the levels a reply validator starts at, in the order
// SchemaValidation names them.
var ReplyLevels = []table.Level{table.LevelResponse, table.LevelBatchResponse, table.LevelAnswer,
	table.LevelError, table.LevelListing, table.LevelHealth}

// ObjectCheck is one object with fixed member names (a level, a question
// type, noul criteria).
type ObjectCheck struct {
	// Name is unique within the schema, such as "request",
	// "question_choice" or "question_noul_criteria".
	Name string
	// Members allowed, in message order.
	Members []MemberCheck
	// Removed are member names that schema refuses, naming the
	// replacement, in the extension spec's order.
	Removed []RemovedCheck
	// Variants, when set, picks a further object check by a member's
	// value (a question's type); Members is then the check used when that
	// member is missing or names no variant.
	Variants *VariantCheck
	// Open: a member the object does not define is no problem. A reply of
	// a schema without the extension set is open (the standard's clients
	// ignore unknown members, and gateways add some); every request, and
	// every reply of a vllm-sr schema, is closed.
	Open bool
}

// MemberCheck is one allowed member.
type MemberCheck struct {
	Name     string
	Required bool
	// RequiredUnless names members whose presence excuses a Required
	// member (4.0's preset-only question has no type).
	RequiredUnless []string
	Value          ValueCheck
	// Discriminator: the member selects the variant, so its value was
	// already checked when the variant function runs.
	Discriminator bool
}

// RemovedCheck is a removed 4.0 member and what replaced it.
type RemovedCheck struct {
	Name string
	// Replacement for a person: a member name ("criteria"), an endpoint
	// ("POST /v1/systemone/batch") or a header ("header
	// TypeSafe-Danger-Zone-Long-Context: true").
	Replacement string
}

// VariantCheck dispatches on a string member.
type VariantCheck struct {
	// Present, when set, names a member whose presence alone picks the
	// object check PresentObject, before Member is read: a failed answer
	// (error) carries none of its type's values.
	Present, PresentObject string
	Member                 string
	// Expected lists the variant names for a problem ("noul, choice or score").
	Expected string
	Variants []Variant
}

// Variant is one value of the dispatching member and its object check.
type Variant struct {
	Value  string
	Object string
}

// ValueCheck is what one JSON value may be.
type ValueCheck struct {
	// Kinds allowed, in KindOrder; empty: any kind.
	Kinds    []Kind
	Nullable bool
	// Expected is Kinds for a person ("string, object or array"), with
	// " or null" when Nullable.
	Expected string
	// Enum lists the allowed values as written; ExpectedEnum names them for
	// a person ("user, context or answer").
	Enum         []string
	ExpectedEnum string
	// Minimum and Maximum bound a number, inclusive.
	Minimum, Maximum *float64
	// MinCount and MaxCount bound an object's members or an array's items.
	MinCount, MaxCount *int
	// Object names the object check of an object with fixed members.
	Object string
	// Items checks each array item; Values each member of an object used
	// as a map. Nil: unconstrained.
	Items, Values *ValueCheck
}

// Validations returns, in schema order, what each schema's request
// validator checks. It fails when a member refers to a level or named type
// the model does not have.
func (m *Model) Validations() ([]SchemaValidation, error) {
	out := make([]SchemaValidation, 0, len(m.Schemas))
	for i := range m.Schemas {
		v, err := m.schemaValidation(&m.Schemas[i])
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", m.Schemas[i].ID, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// validationBuilder resolves one schema's object checks.
type validationBuilder struct {
	m       *Model
	s       *Schema
	objects []ObjectCheck
	built   map[string]bool
	// refusesRemoved: the schema includes the extension set, which answers
	// a removed form with 400 naming its replacement, and does not accept
	// the form itself.
	refusesRemoved bool
	// open: the objects being built are open (ObjectCheck.Open).
	open bool
}

func (m *Model) schemaValidation(s *Schema) (SchemaValidation, error) {
	b := &validationBuilder{m: m, s: s, built: map[string]bool{}}
	for _, k := range s.Specs {
		if k == SpecExtensions {
			b.refusesRemoved = true
		}
	}
	v := SchemaValidation{Schema: s.ID, GoName: SchemaGoName(s.ID)}
	var err error
	if v.Request, err = b.level(LevelRequestName); err != nil {
		return v, err
	}
	if b.message(table.Level(LevelBatchName)) != nil {
		if v.Batch, err = b.level(LevelBatchName); err != nil {
			return v, err
		}
	}
	// The replies' levels are reached from no request level, so their
	// objects are built here, open where the schema's replies are.
	b.open = !b.refusesRemoved
	for i, root := range []*string{&v.Response, &v.BatchResponse, &v.Answer, &v.Error, &v.Listing, &v.Health} {
		if b.message(ReplyLevels[i]) == nil {
			continue
		}
		if *root, err = b.level(string(ReplyLevels[i])); err != nil {
			return v, err
		}
	}
	v.Objects = b.objects
	return v, nil
}

// LevelRequestName and LevelBatchName are the levels of the bodies a
// request validator checks.
const (
	LevelRequestName = string(table.LevelRequest)
	LevelBatchName   = "batch"
)

func hasCheck(members []MemberCheck, name string) bool {
	for _, m := range members {
		if m.Name == name {
			return true
		}
	}
	return false
}

func (b *validationBuilder) message(level table.Level) *Message {
	for i := range b.s.Messages {
		if b.s.Messages[i].Level == level {
			return &b.s.Messages[i]
		}
	}
	return nil
}

// level builds the object check of a level once and returns its name.
func (b *validationBuilder) level(name string) (string, error) {
	if b.built[name] {
		return name, nil
	}
	msg := b.message(table.Level(name))
	if msg == nil {
		return "", fmt.Errorf("no message for level %q", name)
	}
	return name, b.object(name, msg)
}

// object builds the object check name of a message: a level's own, or the
// entry message of a map's entries.
func (b *validationBuilder) object(name string, msg *Message) error {
	b.built[name] = true
	at := len(b.objects)
	b.objects = append(b.objects, ObjectCheck{Name: name})
	obj := ObjectCheck{Name: name, Removed: b.removed(msg.Level, msg.Members), Open: b.open}
	for _, mem := range msg.Members {
		mc, err := b.member(mem)
		if err == nil {
			err = b.entries(msg.Level, mem.Name, &mc.Value)
		}
		if err != nil {
			return fmt.Errorf("%s member %s: %w", name, mem.Name, err)
		}
		obj.Members = append(obj.Members, mc)
	}
	var err error
	switch msg.Level {
	case table.LevelQuestion:
		obj.Variants, err = b.questionVariants(name, msg)
	case table.LevelAsset:
		obj.Variants = b.assetVariants(msg, &obj)
	case table.LevelAnswer:
		obj.Variants, err = b.answerVariants(name, msg, &obj)
	}
	if err != nil {
		return err
	}
	b.objects[at] = obj
	return nil
}

// entries points the values of a container's map member at the check of
// their entry message, where the schema gives them one (a batch's requests
// take no options of their own).
func (b *validationBuilder) entries(container table.Level, member string, vc *ValueCheck) error {
	entry := b.s.Entry(container, member)
	if entry == nil {
		return nil
	}
	name := string(entry.Level) + "_in_" + string(container)
	if !b.built[name] {
		if err := b.object(name, entry); err != nil {
			return err
		}
	}
	switch {
	case vc.Values != nil:
		vc.Values.Object = name
	case vc.Items != nil:
		vc.Items.Object = name
	default:
		return fmt.Errorf("entry message of %s.%s, which is not a map or an array", container, member)
	}
	return nil
}

func (b *validationBuilder) member(mem Member) (MemberCheck, error) {
	vc, err := b.value(mem.Type)
	return MemberCheck{Name: mem.Name, Required: mem.Required, RequiredUnless: mem.RequiredUnless, Value: vc}, err
}

// removed lists the removed forms of a level that the schema refuses:
// those not among the allowed members.
func (b *validationBuilder) removed(level table.Level, members []Member) []RemovedCheck {
	if !b.refusesRemoved {
		return nil
	}
	var out []RemovedCheck
	for _, f := range b.m.RemovedForms {
		if f.Level != level || hasMember(members, f.Form) {
			continue
		}
		out = append(out, RemovedCheck{Name: f.Form, Replacement: replacementText(f.Replacement)})
	}
	return out
}

// replacementText names a replacement for a person.
func replacementText(r Replacement) string {
	switch {
	case r.Kind == ReplacedByHeader && r.Value != "":
		return "header " + r.Name + ": " + r.Value
	case r.Kind == ReplacedByHeader:
		return "header " + r.Name
	}
	return r.Name // a field's name, or an endpoint's "METHOD /path"
}

// value resolves a Type into a ValueCheck, building the object checks it
// refers to.
func (b *validationBuilder) value(t Type) (ValueCheck, error) {
	vc := ValueCheck{
		Kinds: t.Kinds, Nullable: t.Nullable, Expected: KindsText(t.Kinds, t.Nullable),
		Enum: t.Enum, ExpectedEnum: orList(t.Enum),
		Minimum: t.Minimum, Maximum: t.Maximum, MinCount: t.MinCount, MaxCount: t.MaxCount,
	}
	if t.Ref != "" {
		if err := b.ref(t.Ref, &vc); err != nil {
			return vc, err
		}
	}
	var err error
	if t.Items != nil {
		vc.Items, err = b.valuePtr(*t.Items)
	}
	if err == nil && t.Values != nil {
		vc.Values, err = b.valuePtr(*t.Values)
	}
	return vc, err
}

func (b *validationBuilder) valuePtr(t Type) (*ValueCheck, error) {
	vc, err := b.value(t)
	return &vc, err
}

// ref resolves a reference: a level of this schema becomes an object
// check; a named type contributes its own constraints.
func (b *validationBuilder) ref(ref string, vc *ValueCheck) error {
	if b.message(table.Level(ref)) != nil {
		name, err := b.level(ref)
		vc.Object = name
		return err
	}
	for _, nt := range b.m.NamedTypes {
		if nt.Name != ref {
			continue
		}
		inner, err := b.value(nt.Type)
		if err != nil {
			return fmt.Errorf("named type %s: %w", ref, err)
		}
		mergeNamed(vc, inner)
		return nil
	}
	return fmt.Errorf("unknown reference %q", ref)
}

// mergeNamed adds a named type's constraints to a value that refers to it,
// keeping the referring type's own where it sets them.
func mergeNamed(vc *ValueCheck, named ValueCheck) {
	if len(vc.Enum) == 0 {
		vc.Enum, vc.ExpectedEnum = named.Enum, named.ExpectedEnum
	}
	if vc.Object == "" {
		vc.Object = named.Object
	}
	if vc.Items == nil {
		vc.Items = named.Items
	}
	if vc.Values == nil {
		vc.Values = named.Values
	}
}

func hasMember(members []Member, name string) bool {
	for _, m := range members {
		if m.Name == name {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
