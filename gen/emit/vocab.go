package emit

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// vocab writes generated/vocab/zz_generated.vocab.go: the words of the
// three specifications as Go names, as protobuf-go's internal/genid does
// for descriptors. Every list comes from the model; the emitter only names.
func (o Options) vocab(m *model.Model) ([]File, error) {
	dir, importPath := o.goPackage("vocab")
	f := newGoFile(importPath, "vocab", specPaths(m))
	packageComment(f, "Package vocab is the vocabulary of the System One specifications as Go\n"+
		"names: every member of every level, the members each schema accepts per\n"+
		"level, the endpoint paths, headers, limits, implicit roles, error codes\n"+
		"and kinds, the fixed reason words, the listing's feature words and the\n"+
		"asset types' formats. It is generated: edit the specs, not this package.\n\n"+
		"Names are Go CamelCase of the specs' spellings with a prefix per group\n"+
		"(<Level><Member>, Path, Header, Limit, Part, Role, Code, QuestionError,\n"+
		"Reason, Feature). Where two spellings would get the same name, the first\n"+
		"in this file keeps it and the next takes the smallest free number suffix,\n"+
		"which its comment explains.")
	n := newVocabNames(vocabReserved...)
	consts, err := vocabMemberConsts(f, m, n)
	if err != nil {
		return nil, err
	}
	if err := vocabMembersTable(f, m, consts); err != nil {
		return nil, err
	}
	for _, add := range []func(*jen.File, *model.Model, *vocabNames) error{
		vocabPaths, vocabHeaders, vocabLimits, vocabImplicitRoles, vocabErrors, vocabReasons, vocabFeatures, vocabAssetFormats,
	} {
		if err := add(f, m, n); err != nil {
			return nil, err
		}
	}
	file, err := render(dir+"/zz_generated.vocab.go", f)
	return []File{file}, err
}

// vocabMemberKey is one member name at one level, whichever spec defines it.
type vocabMemberKey struct {
	level table.Level
	name  string
}

// vocabLevel are the member names of one level in the order the model's
// fields first name them: by spec (standard, extension set, 4.0 contract),
// then the spec's own order.
type vocabLevel struct {
	level table.Level
	names []string
}

// vocabLevels groups the model's fields by level in model.LevelOrder; a
// level the order does not know follows, in the order fields name it, so
// no field is ever left without a constant.
func vocabLevels(m *model.Model) []vocabLevel {
	var out []vocabLevel
	index := map[table.Level]int{}
	for _, l := range model.LevelOrder {
		index[l] = len(out)
		out = append(out, vocabLevel{level: l})
	}
	seen := map[vocabMemberKey]bool{}
	for _, fd := range m.Fields {
		i, ok := index[fd.Level]
		if !ok {
			i = len(out)
			index[fd.Level] = i
			out = append(out, vocabLevel{level: fd.Level})
		}
		if k := (vocabMemberKey{fd.Level, fd.Name}); !seen[k] {
			seen[k] = true
			out[i].names = append(out[i].names, fd.Name)
		}
	}
	kept := out[:0]
	for _, l := range out {
		if len(l.names) > 0 {
			kept = append(kept, l)
		}
	}
	return kept
}

// vocabReserved are the names of the vocabulary's own declarations, which
// no constant may take.
var vocabReserved = []string{"Members", "MembersOf", "ImplicitRoles", "ImplicitRoleDefault", "Reasons", "ReasonOf", "Features", "AssetFormats"}

// vocabIdent is the constant a member got, and the note its comment
// carries when it had to take a number suffix.
type vocabIdent struct {
	ident, note string
}

// vocabMemberIdents names every member's constant, level by level in
// vocabLevels order, claiming the names from n. The members are the first
// names the vocabulary claims, so a fresh newVocabNames(vocabReserved...)
// gives every other emitter the constants generated/vocab declares.
func vocabMemberIdents(m *model.Model, n *vocabNames) map[vocabMemberKey]vocabIdent {
	out := map[vocabMemberKey]vocabIdent{}
	for _, l := range vocabLevels(m) {
		prefix := vocabCamel(string(l.level))
		for _, name := range l.names {
			ident, note := n.claim(prefix+vocabCamel(name), string(l.level)+"."+name)
			out[vocabMemberKey{l.level, name}] = vocabIdent{ident, note}
		}
	}
	return out
}

// vocabMemberConsts declares one const block per level and returns the name
// each member got.
func vocabMemberConsts(f *jen.File, m *model.Model, n *vocabNames) (map[vocabMemberKey]string, error) {
	idents := vocabMemberIdents(m, n)
	out := map[vocabMemberKey]string{}
	for _, l := range vocabLevels(m) {
		prefix := vocabCamel(string(l.level))
		var defs []jen.Code
		for _, name := range l.names {
			k := vocabMemberKey{l.level, name}
			id := idents[k]
			out[k] = id.ident
			definedBy, err := vocabDefiners(m, k)
			if err != nil {
				return nil, err
			}
			defs = append(defs, jen.Id(id.ident).Op("=").Lit(name).Comment(vocabComment(definedBy, vocabRemovedNote(m, k), id.note)))
		}
		fileComment(f, fmt.Sprintf("%s* name the members of level %s:\nevery specification's, in specification order.", prefix, l.level))
		f.Const().Defs(defs...)
	}
	return out, nil
}

// vocabDefiners names the schemas whose specifications define the member.
func vocabDefiners(m *model.Model, k vocabMemberKey) (string, error) {
	var ids []string
	for _, fd := range m.Fields {
		if fd.Level == k.level && fd.Name == k.name {
			id, err := specSchema(m, fd.Spec)
			if err != nil {
				return "", fmt.Errorf("field %s.%s: %w", k.level, k.name, err)
			}
			ids = append(ids, string(id))
		}
	}
	return "defined by " + strings.Join(ids, ", "), nil
}

func vocabRemovedNote(m *model.Model, k vocabMemberKey) string {
	for _, r := range m.RemovedForms {
		if r.Level == k.level && r.Form == k.name {
			return "a removed form: " + r.ReplacedBy
		}
	}
	return ""
}

// vocabMembersTable writes Members, every schema's messages in schema then
// level order, and MembersOf. A member's disposition is its defining
// field's, so the list agrees with fieldtable.Fields.
func vocabMembersTable(f *jen.File, m *model.Model, consts map[vocabMemberKey]string) error {
	var rows []jen.Code
	var bySchema []switchCase
	for _, s := range m.Schemas {
		var levels []switchCase
		for _, msg := range s.Messages {
			members := make([]jen.Code, len(msg.Members))
			for i, mem := range msg.Members {
				row, err := vocabMemberRow(m, msg.Level, mem, consts)
				if err != nil {
					return fmt.Errorf("members of %s at %s: %w", s.ID, msg.Level, err)
				}
				members[i] = row
			}
			levels = append(levels, switchCase{
				labels: []string{string(msg.Level)},
				body:   []jen.Code{jen.Return(jen.Id("Members").Index(jen.Lit(len(rows))).Dot("Members"))},
			})
			rows = append(rows, structLit(
				pair{"Schema", jen.Lit(string(s.ID))},
				pair{"Level", jen.Lit(string(msg.Level))},
				pair{"Members", sliceLit(tableType("Member"), members)},
			))
		}
		if err := uniqueLabels("levels of "+string(s.ID), levels); err != nil {
			return err
		}
		bySchema = append(bySchema, switchCase{labels: []string{string(s.ID)}, body: []jen.Code{stringSwitch(jen.Id("level"), levels)}})
	}
	if err := uniqueLabels("schemas", bySchema); err != nil {
		return err
	}
	fileComment(f, "Members are the members each schema accepts at each level, in schema then\n"+
		"level order, each level's in message order. A batch's items may accept\n"+
		"fewer than their level (fieldtable and validate apply the overrides).")
	f.Var().Id("Members").Op("=").Add(sliceLit(tableType("LevelMembers"), rows))
	fileComment(f, "MembersOf returns the members schema accepts at level, in message order;\nnil when it accepts no message there. Callers must not modify the slice.")
	f.Func().Id("MembersOf").Params(jen.Id("schema").Add(tableType("SchemaID")), jen.Id("level").Add(tableType("Level"))).
		Index().Add(tableType("Member")).Block(
		stringSwitch(jen.Id("schema"), bySchema),
		jen.Return(jen.Nil()),
	)
	return nil
}

func vocabMemberRow(m *model.Model, level table.Level, mem model.Member, consts map[vocabMemberKey]string) (jen.Code, error) {
	ident, ok := consts[vocabMemberKey{level, mem.Name}]
	if !ok {
		return nil, fmt.Errorf("member %q is no field of any specification", mem.Name)
	}
	definedBy, err := specSchema(m, mem.Spec)
	if err != nil {
		return nil, fmt.Errorf("member %q: %w", mem.Name, err)
	}
	var disposition table.Disposition
	for _, fd := range m.Fields {
		if fd.Spec == mem.Spec && fd.Level == level && fd.Name == mem.Name {
			disposition = fd.Disposition
		}
	}
	if disposition == "" {
		return nil, fmt.Errorf("member %q: its specification %s defines no such field", mem.Name, mem.Spec)
	}
	return structLit(
		pair{"Name", jen.Id(ident)},
		pair{"DefinedBy", jen.Lit(string(definedBy))},
		pair{"Required", optBool(mem.Required)},
		pair{"RequiredUnless", strList(mem.RequiredUnless)},
		pair{"QuestionTypes", questionTypes(mem.QuestionTypes)},
		pair{"Enum", strList(memberEnum(mem.Type))},
		pair{"Removed", optBool(mem.Removed)},
		pair{"Passive", optBool(mem.Passive)},
		pair{"Disposition", jen.Lit(string(disposition))},
	), nil
}

// memberEnum is the enum of a member's values: its own, or its map's
// values' or its array's items' (where the model puts it).
func memberEnum(t model.Type) []string {
	switch {
	case len(t.Enum) > 0:
		return t.Enum
	case t.Values != nil:
		return t.Values.Enum
	case t.Items != nil:
		return t.Items.Enum
	}
	return nil
}
