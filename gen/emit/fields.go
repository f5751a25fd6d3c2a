package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// fields writes generated/fieldtable/zz_generated.fields.go: every field of
// the three specifications, FieldOf and Known.
func (o Options) fields(m *model.Model) ([]File, error) {
	dir, importPath := o.goPackage("fieldtable")
	f := newGoFile(importPath, "fieldtable", specPaths(m))
	packageComment(f, "Package fieldtable is srgen's table of every field, form, family, error,\n"+
		"limit and endpoint of the three System One specifications, with the\n"+
		"lookups the runtime uses. It is generated: edit the specs, not this package.")

	rows := make([]jen.Code, 0, len(m.Fields))
	for i := range m.Fields {
		row, err := fieldRow(m, &m.Fields[i])
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	fileComment(f, "Fields is every field of the three specifications: by specification, then\nlevel, then the order the specification lists them in.")
	f.Var().Id("Fields").Op("=").Add(sliceLit(tableType("Field"), rows))

	fieldOf, err := fieldOfFunc(m)
	if err != nil {
		return nil, err
	}
	f.Add(fieldOf)
	known, err := knownFunc(m)
	if err != nil {
		return nil, err
	}
	f.Add(known)
	file, err := render(dir+"/zz_generated.fields.go", f)
	return []File{file}, err
}

// specSchema is the schema ID of the specification kind.
func specSchema(m *model.Model, kind model.SpecKind) (table.SchemaID, error) {
	for _, s := range m.Specs {
		if s.Kind == kind {
			return s.SchemaID, nil
		}
	}
	return "", fmt.Errorf("spec %q is not one of the model's specifications", kind)
}

func fieldRow(m *model.Model, fd *model.Field) (jen.Code, error) {
	definedBy, err := specSchema(m, fd.Spec)
	if err != nil {
		return nil, fmt.Errorf("field %s.%s: %w", fd.Level, fd.Name, err)
	}
	return structLit(
		pair{"Name", jen.Lit(fd.Name)},
		pair{"Level", jen.Lit(string(fd.Level))},
		pair{"DefinedBy", jen.Lit(string(definedBy))},
		pair{"Type", optStr(fd.TypeText)},
		pair{"Required", optBool(fd.Required)},
		pair{"Passive", optBool(fd.Passive)},
		pair{"Since", optStr(fd.Since)},
		pair{"Families", families(fd.Families)},
		pair{"QuestionTypes", questionTypes(fd.QuestionTypes)},
		pair{"Disposition", jen.Lit(string(fd.Disposition))},
		pair{"Schemas", schemaIDs(fd.Schemas)},
	), nil
}

// fieldOfFunc renders FieldOf(definedBy, level, name): a switch per
// specification and level that returns the field's row of Fields.
func fieldOfFunc(m *model.Model) (jen.Code, error) {
	type key struct {
		schema table.SchemaID
		level  table.Level
	}
	var order []key
	index := map[key][]switchCase{}
	for i := range m.Fields {
		fd := &m.Fields[i]
		schema, err := specSchema(m, fd.Spec)
		if err != nil {
			return nil, err
		}
		k := key{schema, fd.Level}
		if _, ok := index[k]; !ok {
			order = append(order, k)
		}
		index[k] = append(index[k], switchCase{
			labels: []string{fd.Name},
			body:   []jen.Code{jen.Return(jen.Id("Fields").Index(jen.Lit(i)), jen.True())},
		})
	}
	var bySchema []switchCase
	levels := map[table.SchemaID][]switchCase{}
	for _, k := range order {
		if err := uniqueLabels(fmt.Sprintf("fields of %s at %s", k.schema, k.level), index[k]); err != nil {
			return nil, err
		}
		if _, ok := levels[k.schema]; !ok {
			bySchema = append(bySchema, switchCase{labels: []string{string(k.schema)}})
		}
		levels[k.schema] = append(levels[k.schema], switchCase{
			labels: []string{string(k.level)},
			body:   []jen.Code{stringSwitch(jen.Id("name"), index[k])},
		})
	}
	for i := range bySchema {
		bySchema[i].body = []jen.Code{stringSwitch(jen.Id("level"), levels[table.SchemaID(bySchema[i].labels[0])])}
	}
	return docComment("FieldOf returns the field the specification of schema definedBy defines at\nlevel under name.").Line().
		Func().Id("FieldOf").Params(
		jen.Id("definedBy").Add(tableType("SchemaID")),
		jen.Id("level").Add(tableType("Level")),
		jen.Id("name").String(),
	).Params(tableType("Field"), jen.Bool()).Block(
		stringSwitch(jen.Id("definedBy"), bySchema),
		jen.Return(tableType("Field").Values(), jen.False()),
	), nil
}

// knownFunc renders Known(schema, level, name) from the schemas' messages.
func knownFunc(m *model.Model) (jen.Code, error) {
	var bySchema []switchCase
	for _, s := range m.Schemas {
		var levels []switchCase
		for _, msg := range s.Messages {
			names := make([]string, len(msg.Members))
			for i, mem := range msg.Members {
				names[i] = mem.Name
			}
			if err := uniqueLabels(fmt.Sprintf("members of %s at %s", s.ID, msg.Level), []switchCase{{labels: names}}); err != nil {
				return nil, err
			}
			levels = append(levels, switchCase{
				labels: []string{string(msg.Level)},
				body:   []jen.Code{stringSwitch(jen.Id("name"), []switchCase{{labels: names, body: []jen.Code{jen.Return(jen.True())}}})},
			})
		}
		if err := uniqueLabels("levels of "+string(s.ID), levels); err != nil {
			return nil, err
		}
		bySchema = append(bySchema, switchCase{
			labels: []string{string(s.ID)},
			body:   []jen.Code{stringSwitch(jen.Id("level"), levels)},
		})
	}
	if err := uniqueLabels("schemas", bySchema); err != nil {
		return nil, err
	}
	return docComment("Known reports whether a message at level may carry member name under schema.").Line().
		Func().Id("Known").Params(
		jen.Id("schema").Add(tableType("SchemaID")),
		jen.Id("level").Add(tableType("Level")),
		jen.Id("name").String(),
	).Bool().Block(
		stringSwitch(jen.Id("schema"), bySchema),
		jen.Return(jen.False()),
	), nil
}

// uniqueLabels refuses a label repeated across cases: the generated
// switch would not compile, and it means the model holds a duplicate.
func uniqueLabels(where string, cases []switchCase) error {
	seen := map[string]bool{}
	for _, c := range cases {
		for _, l := range c.labels {
			if seen[l] {
				return fmt.Errorf("%s: %q appears twice", where, l)
			}
			seen[l] = true
		}
	}
	return nil
}
