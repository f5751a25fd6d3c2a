package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// strip writes generated/fieldtable/zz_generated.strip.go: for a
// systemone/0.2 target, the members a Router strips and the fields whose
// presence refuses a rule at load, read from each field's disposition.
func (o Options) strip(m *model.Model) ([]File, error) {
	dir, importPath := o.goPackage("fieldtable")
	f := newGoFile(importPath, "fieldtable", specPaths(m))

	stripped, err := dispositionTable(m, table.DispositionStripped)
	if err != nil {
		return nil, err
	}
	refused, err := dispositionTable(m, table.DispositionRefusedAtLoad)
	if err != nil {
		return nil, err
	}
	fileComment(f, "Stripped are the members a Router removes before sending a request to a\nsystemone/0.2 target: the standard part of the message already expresses them.")
	f.Var().Id("Stripped").Op("=").Add(sliceLit(tableType("StrippedField"), stripped.rows))
	fileComment(f, "RefusedAtLoad are the fields whose presence refuses a rule at load when its\ntarget speaks systemone/0.2: the standard cannot carry them.")
	f.Var().Id("RefusedAtLoad").Op("=").Add(sliceLit(tableType("RefusedField"), refused.rows))

	fileComment(f, "StrippedMembers returns the member names stripped at level, in table order,\nas a new slice.")
	f.Func().Id("StrippedMembers").Params(jen.Id("level").Add(tableType("Level"))).Index().String().Block(
		stringSwitch(jen.Id("level"), stripped.namesByLevel()),
		jen.Return(jen.Nil()),
	)
	strippedOf, err := levelLookupFunc("StrippedField returns the stripped member name at level.", "StrippedField", "name",
		tableType("StrippedField"), "Stripped", stripped.keys)
	if err != nil {
		return nil, err
	}
	f.Add(strippedOf)
	refusedOf, err := levelLookupFunc("Refused returns the refused-at-load field name at level; the rule is refused\nonly when its question type is one of the field's QuestionTypes, or they are empty.", "Refused",
		"name", tableType("RefusedField"), "RefusedAtLoad", refused.keys)
	if err != nil {
		return nil, err
	}
	f.Add(refusedOf)
	file, err := render(dir+"/zz_generated.strip.go", f)
	return []File{file}, err
}

// dispositionRows are the extension fields of one disposition.
type dispositionRows struct {
	rows   []jen.Code
	keys   []levelKey
	levels []table.Level // first-seen order
	names  [][]string    // per entry of levels
}

// standardTargetFields are the extension fields of disposition d, in model
// order. The 4.0 contract repeats some extension members (options,
// preset) with the same disposition; they are the same members, so they
// are left out, and a non-extension field of d without an extension
// counterpart is an inconsistency the list would otherwise miss.
func standardTargetFields(m *model.Model, d table.Disposition) ([]*model.Field, error) {
	var out []*model.Field
	extension := map[model.FieldKey]bool{}
	for i := range m.Fields {
		if fd := &m.Fields[i]; fd.Spec == model.SpecExtensions && fd.Disposition == d {
			out = append(out, fd)
			extension[fd.Key()] = true
		}
	}
	for i := range m.Fields {
		fd := &m.Fields[i]
		if fd.Spec != model.SpecExtensions && fd.Disposition == d && !extension[fd.Key()] {
			return nil, fmt.Errorf("field %s.%s of spec %s is %s, but no extension field is: only an extension field can be", fd.Level, fd.Name, fd.Spec, d)
		}
	}
	return out, nil
}

func dispositionTable(m *model.Model, d table.Disposition) (dispositionRows, error) {
	var out dispositionRows
	fields, err := standardTargetFields(m, d)
	if err != nil {
		return out, err
	}
	for _, fd := range fields {
		out.rows = append(out.rows, structLit(
			pair{"Level", jen.Lit(string(fd.Level))},
			pair{"Name", jen.Lit(fd.Name)},
			pair{"QuestionTypes", questionTypes(fd.QuestionTypes)},
		))
		out.keys = append(out.keys, levelKey{fd.Level, fd.Name})
		i := indexOfLevel(out.levels, fd.Level)
		if i < 0 {
			out.levels = append(out.levels, fd.Level)
			out.names = append(out.names, nil)
			i = len(out.levels) - 1
		}
		out.names[i] = append(out.names[i], fd.Name)
	}
	return out, nil
}

func indexOfLevel(levels []table.Level, l table.Level) int {
	for i, x := range levels {
		if x == l {
			return i
		}
	}
	return -1
}

func (d dispositionRows) namesByLevel() []switchCase {
	cases := make([]switchCase, len(d.levels))
	for i, l := range d.levels {
		cases[i] = switchCase{
			labels: []string{string(l)},
			body: []jen.Code{jen.Return(jen.Index().String().ValuesFunc(func(g *jen.Group) {
				for _, n := range d.names[i] {
					g.Lit(n)
				}
			}))},
		}
	}
	return cases
}
