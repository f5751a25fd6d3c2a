package emit

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// tables writes generated/fieldtable/zz_generated.tables.go: the removed
// forms, families, error kinds and codes, limits, implicit roles and
// endpoints, each as a slice in the model's order with a switch lookup.
func (o Options) tables(m *model.Model) ([]File, error) {
	dir, importPath := o.goPackage("fieldtable")
	f := newGoFile(importPath, "fieldtable", specPaths(m))
	for _, add := range []func(*jen.File, *model.Model) error{
		removedForms, familyTable, errorTables, limitTable, implicitRoles, endpointTable, answerTypes,
	} {
		if err := add(f, m); err != nil {
			return nil, err
		}
	}
	file, err := render(dir+"/zz_generated.tables.go", f)
	return []File{file}, err
}

// lookupFunc renders func name(params) (T, bool) { switch subject {...} }
// where case i returns table[i].
func lookupFunc(doc, name string, params []jen.Code, subject jen.Code, result jen.Code, tableName string, keys [][]string) (jen.Code, error) {
	cases := make([]switchCase, len(keys))
	for i, labels := range keys {
		cases[i] = switchCase{labels: labels, body: []jen.Code{jen.Return(jen.Id(tableName).Index(jen.Lit(i)), jen.True())}}
	}
	if err := uniqueLabels(name, cases); err != nil {
		return nil, err
	}
	return docComment(doc).Line().Func().Id(name).Params(params...).Params(result, jen.Bool()).Block(
		stringSwitch(subject, cases),
		jen.Return(jen.Add(result).Values(), jen.False()),
	), nil
}

// levelKey is one row's key in a levelLookupFunc: a level and a name.
type levelKey struct {
	level table.Level
	name  string
}

// levelLookupFunc renders func name(level table.Level, param string) (T,
// bool) as a switch on level holding a switch on param, where key i
// returns table[i]: a lookup on the write path builds no key string.
func levelLookupFunc(doc, name, param string, result jen.Code, tableName string, keys []levelKey) (jen.Code, error) {
	var levels []table.Level
	byLevel := map[table.Level][]switchCase{}
	for i, k := range keys {
		if _, seen := byLevel[k.level]; !seen {
			levels = append(levels, k.level)
		}
		byLevel[k.level] = append(byLevel[k.level], switchCase{labels: []string{k.name},
			body: []jen.Code{jen.Return(jen.Id(tableName).Index(jen.Lit(i)), jen.True())}})
	}
	outer := make([]switchCase, len(levels))
	for i, l := range levels {
		if err := uniqueLabels(name+" at level "+string(l), byLevel[l]); err != nil {
			return nil, err
		}
		outer[i] = switchCase{labels: []string{string(l)}, body: []jen.Code{stringSwitch(jen.Id(param), byLevel[l])}}
	}
	return docComment(doc).Line().Func().Id(name).Params(jen.Id("level").Add(tableType("Level")), jen.Id(param).String()).Params(result, jen.Bool()).Block(
		stringSwitch(jen.Id("level"), outer),
		jen.Return(jen.Add(result).Values(), jen.False()),
	), nil
}

func removedForms(f *jen.File, m *model.Model) error {
	rows := make([]jen.Code, len(m.RemovedForms))
	keys := make([]levelKey, len(m.RemovedForms))
	for i, r := range m.RemovedForms {
		rows[i] = structLit(
			pair{"Form", jen.Lit(r.Form)},
			pair{"Level", jen.Lit(string(r.Level))},
			pair{"ReplacedBy", jen.Lit(r.ReplacedBy)},
			pair{"Note", optStr(r.Note)},
		)
		keys[i] = levelKey{r.Level, r.Form}
	}
	fileComment(f, "RemovedForms are the 4.0 forms vllm-sr/5.0 answers with 400 naming the\nreplacement, in the extension specification's order.")
	f.Var().Id("RemovedForms").Op("=").Add(sliceLit(tableType("RemovedForm"), rows))
	fn, err := levelLookupFunc("Replacement returns what replaces the removed form at level.", "Replacement", "form",
		tableType("RemovedForm"), "RemovedForms", keys)
	f.Add(fn)
	return err
}

func familyTable(f *jen.File, m *model.Model) error {
	rows := make([]jen.Code, len(m.Families))
	keys := make([][]string, len(m.Families))
	for i, fam := range m.Families {
		rows[i] = structLit(
			pair{"Name", jen.Lit(string(fam.Name))},
			pair{"QuestionTypes", questionTypes(fam.QuestionTypes)},
			pair{"RoleAware", optBool(fam.RoleAware)},
			pair{"Modalities", strList(fam.Modalities)},
		)
		keys[i] = []string{string(fam.Name)}
	}
	fileComment(f, "Families are the model families with the question types they answer.")
	f.Var().Id("Families").Op("=").Add(sliceLit(tableType("FamilyInfo"), rows))
	fn, err := lookupFunc("FamilyOf returns the family named name.", "FamilyOf",
		[]jen.Code{jen.Id("name").Add(tableType("Family"))}, jen.Id("name"),
		tableType("FamilyInfo"), "Families", keys)
	f.Add(fn)
	return err
}

func errorTables(f *jen.File, m *model.Model) error {
	qrows := make([]jen.Code, len(m.QuestionErrors))
	qkeys := make([][]string, len(m.QuestionErrors))
	for i, q := range m.QuestionErrors {
		if q.Status < 100 || q.Status > 599 {
			return fmt.Errorf("question error %q: status %d is not an HTTP status", q.Kind, q.Status)
		}
		qrows[i] = structLit(pair{"Kind", jen.Lit(q.Kind)}, pair{"Status", jen.Lit(q.Status)})
		qkeys[i] = []string{q.Kind}
	}
	fileComment(f, "QuestionErrors are the kinds of per-question failure and the status each\nanswers POST /v1/systemone with.")
	f.Var().Id("QuestionErrors").Op("=").Add(sliceLit(tableType("QuestionErrorKind"), qrows))
	fn, err := lookupFunc("QuestionError returns the question error of kind.", "QuestionError",
		[]jen.Code{jen.Id("kind").String()}, jen.Id("kind"), tableType("QuestionErrorKind"), "QuestionErrors", qkeys)
	if err != nil {
		return err
	}
	f.Add(fn)

	rrows := make([]jen.Code, len(m.RequestErrors))
	rkeys := make([][]string, len(m.RequestErrors))
	for i, r := range m.RequestErrors {
		rrows[i] = structLit(pair{"Code", jen.Lit(r.Code)}, pair{"Status", optInt(r.Status)}, pair{"RetryAfter", optBool(r.RetryAfter)})
		rkeys[i] = []string{r.Code}
	}
	fileComment(f, "RequestErrors are the request error codes and their statuses.")
	f.Var().Id("RequestErrors").Op("=").Add(sliceLit(tableType("RequestErrorCode"), rrows))
	fn, err = lookupFunc("RequestError returns the request error of code.", "RequestError",
		[]jen.Code{jen.Id("code").String()}, jen.Id("code"), tableType("RequestErrorCode"), "RequestErrors", rkeys)
	f.Add(fn)
	return err
}

func limitTable(f *jen.File, m *model.Model) error {
	rows := make([]jen.Code, len(m.Limits))
	keys := make([][]string, len(m.Limits))
	for i, l := range m.Limits {
		var lo, hi jen.Code
		if l.Min != nil {
			lo = jen.Op(strconv.FormatInt(*l.Min, 10))
		}
		if l.Max != nil {
			hi = jen.Op(strconv.FormatInt(*l.Max, 10))
		}
		if l.Min != nil && l.Max != nil && *l.Min > *l.Max {
			return fmt.Errorf("limit %q: min %d is above max %d", l.Name, *l.Min, *l.Max)
		}
		rows[i] = structLit(
			pair{"Name", jen.Lit(l.Name)},
			pair{"Min", lo}, pair{"Max", hi},
			pair{"HasMin", optBool(l.Min != nil)}, pair{"HasMax", optBool(l.Max != nil)},
			pair{"Unit", optStr(l.Unit)},
			pair{"QuestionTypes", questionTypes(l.QuestionTypes)},
		)
		keys[i] = []string{l.Name}
	}
	fileComment(f, "Limits are vllm-sr's request limits, inclusive.")
	f.Var().Id("Limits").Op("=").Add(sliceLit(tableType("Limit"), rows))
	fn, err := lookupFunc("LimitOf returns the limit named name.", "LimitOf",
		[]jen.Code{jen.Id("name").String()}, jen.Id("name"), tableType("Limit"), "Limits", keys)
	f.Add(fn)
	return err
}

func implicitRoles(f *jen.File, m *model.Model) error {
	roles := m.ImplicitRoles
	if roles.Default == "" {
		return fmt.Errorf("implicit roles: no default role")
	}
	byRole := map[string]int{}
	var cases []switchCase
	for _, p := range roles.Parts {
		i, ok := byRole[p.Role]
		if !ok {
			i = len(cases)
			byRole[p.Role] = i
			cases = append(cases, switchCase{body: []jen.Code{jen.Return(jen.Lit(p.Role))}})
		}
		cases[i].labels = append(cases[i].labels, p.Key)
	}
	if err := uniqueLabels("implicit roles", cases); err != nil {
		return err
	}
	fileComment(f, "DefaultImplicitRole is 4.0's role of an object state's key that is not a\nRouter part name.")
	f.Const().Id("DefaultImplicitRole").Op("=").Lit(roles.Default)
	fileComment(f, "ImplicitRole is 4.0's role of the state key partName in an object state\nsent without roles.")
	f.Func().Id("ImplicitRole").Params(jen.Id("partName").String()).String().Block(
		stringSwitch(jen.Id("partName"), cases),
		jen.Return(jen.Id("DefaultImplicitRole")),
	)
	return nil
}

func endpointTable(f *jen.File, m *model.Model) error {
	rows := make([]jen.Code, len(m.Endpoints))
	keys := make([][]string, len(m.Endpoints))
	for i, e := range m.Endpoints {
		definedBy, err := specSchema(m, e.Spec)
		if err != nil {
			return fmt.Errorf("endpoint %s %s: %w", e.Method, e.Path, err)
		}
		rows[i] = structLit(
			pair{"Method", jen.Lit(e.Method)},
			pair{"Path", jen.Lit(e.Path)},
			pair{"DefinedBy", jen.Lit(string(definedBy))},
			pair{"Since", optStr(e.Since)},
			pair{"Schemas", schemaIDs(e.Schemas)},
		)
		keys[i] = []string{string(definedBy) + " " + e.Method + " " + e.Path}
	}
	fileComment(f, "Endpoints are every endpoint of the three specifications.")
	f.Var().Id("Endpoints").Op("=").Add(sliceLit(tableType("Endpoint"), rows))
	fn, err := lookupFunc("EndpointOf returns the endpoint of method and path that the specification\nof schema definedBy defines.", "EndpointOf",
		[]jen.Code{jen.Id("definedBy").Add(tableType("SchemaID")), jen.Id("method").String(), jen.Id("path").String()},
		jen.String().Parens(jen.Id("definedBy")).Op("+").Lit(" ").Op("+").Id("method").Op("+").Lit(" ").Op("+").Id("path"),
		tableType("Endpoint"), "Endpoints", keys)
	f.Add(fn)
	return err
}

// answerTypes writes AnswerType: the type an answer to a question of each
// type carries, from the question types' answers_as (a span answers as a
// noul). The same question type must answer alike in every schema.
func answerTypes(f *jen.File, m *model.Model) error {
	answersAs := map[table.QuestionType]table.QuestionType{}
	var order []table.QuestionType
	for _, s := range m.Schemas {
		for _, qt := range s.QuestionTypes {
			if qt.AnswersAs == "" {
				continue
			}
			if prev, ok := answersAs[qt.Type]; ok {
				if prev != qt.AnswersAs {
					return fmt.Errorf("question type %s answers as %s in one schema and %s in another", qt.Type, prev, qt.AnswersAs)
				}
				continue
			}
			answersAs[qt.Type] = qt.AnswersAs
			order = append(order, qt.Type)
		}
	}
	cases := make([]switchCase, len(order))
	for i, qt := range order {
		cases[i] = switchCase{labels: []string{string(qt)}, body: []jen.Code{jen.Return(jen.Lit(string(answersAs[qt])))}}
	}
	fileComment(f, "AnswerType is the type an answer to a question of type qt carries: its\nown, or the type whose answer shape it answers with.")
	body := []jen.Code{jen.Return(jen.Id("qt"))}
	if len(cases) > 0 {
		body = append([]jen.Code{stringSwitch(jen.Id("qt"), cases)}, body...)
	}
	f.Func().Id("AnswerType").Params(jen.Id("qt").Add(tableType("QuestionType"))).Add(tableType("QuestionType")).Block(body...)
	return nil
}
