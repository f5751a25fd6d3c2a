package model

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/table"
)

// The extension reference seed is the text the extension spec was written
// from. testdata keeps a copy so the test runs anywhere; where the shared
// original exists, the copy must match it.
const (
	seedCopy   = "testdata/extension-reference.txt"
	seedShared = "/work/shared/seeds/extension-reference.txt"
)

// seedLevels maps the seed's section titles to levels.
var seedLevels = map[string]table.Level{
	"Request":       table.LevelRequest,
	"Question":      table.LevelQuestion,
	"Question type": table.LevelQuestionType,
	"Asset type":    table.LevelAssetType,
	"Answer":        table.LevelAnswer,
	"Response":      table.LevelResponse,
	"Error":         table.LevelError,
	"Listing entry": table.LevelListingEntry,
}

// seedTable is one table of the seed: its section title and its rows'
// cells.
type seedTable struct {
	section string
	rows    [][]string
}

// parseSeed reads the seed's tables. A table starts at a "| ... |" header
// line, skips the "|---|" line, and runs while lines contain " | ". Its
// section is the nearest line above that is a title, not a sentence.
func parseSeed(t *testing.T, text string) []seedTable {
	t.Helper()
	lines := strings.Split(text, "\n")
	var tables []seedTable
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "| ") || i == 0 {
			continue
		}
		tb := seedTable{section: seedTitle(lines[:i])}
		i += 2 // header and separator
		for ; i < len(lines) && strings.Contains(lines[i], " | "); i++ {
			tb.rows = append(tb.rows, splitRow(lines[i]))
		}
		tables = append(tables, tb)
	}
	return tables
}

func seedTitle(above []string) string {
	for i := len(above) - 1; i >= 0; i-- {
		if line := strings.TrimSpace(above[i]); line != "" && !strings.HasSuffix(line, ".") {
			return line
		}
	}
	return ""
}

func splitRow(line string) []string {
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "|"))
	parts := strings.Split(strings.TrimSuffix(line, "|"), " | ")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func readSeed(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(seedCopy)
	if err != nil {
		t.Fatal(err)
	}
	if shared, err := os.ReadFile(seedShared); err == nil && !bytes.Equal(shared, data) {
		t.Fatalf("%s differs from %s: refresh the copy and review the extension spec", seedCopy, seedShared)
	}
	return string(data)
}

// seedName splits "head (span)" into the field name and its question
// types, in the seed's order, which the spec keeps.
func seedName(cell string) (string, []table.QuestionType) {
	name, rest, ok := strings.Cut(cell, " (")
	if !ok {
		return cell, nil
	}
	var qts []table.QuestionType
	for _, q := range strings.Split(strings.TrimSuffix(rest, ")"), ", ") {
		qts = append(qts, table.QuestionType(q))
	}
	return name, qts
}

var seedDisposition = map[string]table.Disposition{
	"stripped":        table.DispositionStripped,
	"refused at load": table.DispositionRefusedAtLoad,
	"never sent":      table.DispositionNeverSent,
}

// TestExtensionSpecCarriesTheSeed: every row of the seed is in the
// extension spec as the seed gives it (compareWithSeed), and a row missing
// or given differently fails naming the row. The spec may grow past the
// seed, as the procedures of specs/README.md grow it: what it adds is
// logged (go test -v -run TestExtensionSpecCarriesTheSeed ./gen/model/),
// never failed.
func TestExtensionSpecCarriesTheSeed(t *testing.T) {
	m := repoModel(t)
	tables := parseSeed(t, readSeed(t))
	rows := map[string]int{}
	for _, tb := range tables {
		rows[tb.section] += len(tb.rows)
	}
	fieldRows := 0
	for section := range seedLevels {
		fieldRows += rows[section]
	}
	if fieldRows < 30 || rows["Endpoint"] == 0 || rows["Removed forms"] == 0 {
		t.Fatalf("parsed %d field rows and the sections %v; the seed parser is broken", fieldRows, rows)
	}
	report := compareWithSeed(m, tables)
	for _, p := range report.problems {
		t.Error(p)
	}
	for _, a := range report.additions {
		t.Log("beyond the seed: " + a)
	}
}

// The comparison fails on a seed row the spec gives differently or lacks,
// naming the row, and reports what the spec adds without failing on it.
func TestSeedComparisonFailsAndReports(t *testing.T) {
	tables := parseSeed(t, readSeed(t))
	m := repoModel(t)
	m.Field(SpecExtensions, table.LevelRequest, "roles").Description = "Changed."
	m.Endpoints = slices.DeleteFunc(m.Endpoints, func(e Endpoint) bool { return e.Path == "/health" })
	m.Fields = append(m.Fields, Field{Spec: SpecExtensions, Level: table.LevelQuestion, Name: "drill_extra"})
	m.Endpoints = append(m.Endpoints, Endpoint{Spec: SpecExtensions, Method: "GET", Path: "/v1/drill"})
	report := compareWithSeed(m, tables)
	wantProblems := []string{
		`seed row Request "roles": description = "Changed.", seed "Which state keys hold`,
		`seed row Endpoint "GET /health": not in the extension spec`,
	}
	if len(report.problems) != len(wantProblems) {
		t.Fatalf("problems %q, want %d", report.problems, len(wantProblems))
	}
	for i, want := range wantProblems {
		if !strings.HasPrefix(report.problems[i], want) {
			t.Errorf("problem %q, want it to start %q", report.problems[i], want)
		}
	}
	for _, want := range []string{"field question.drill_extra", "endpoint GET /v1/drill"} {
		if !slices.ContainsFunc(report.additions, func(a string) bool { return strings.HasPrefix(a, want) }) {
			t.Errorf("the additions %q do not name %s", report.additions, want)
		}
	}
}

// seedReport is what comparing the spec with the seed found: problems, a
// seed row the spec lacks or gives differently, which fail; and additions,
// what the spec defines that no seed row names, which are reported.
type seedReport struct {
	problems, additions []string
}

// compareWithSeed compares every row of every seed table with the
// extension spec: a field row with the field defined once at its level
// with the row's type text, since, families, disposition, description and
// question types; an endpoint row with the endpoint and its since,
// families and description; a removed form row with the form at its level
// and its replacement and note. A table it does not know is a problem, so
// no seed row goes unchecked. Then it lists the spec's additions.
func compareWithSeed(m *Model, tables []seedTable) seedReport {
	var r seedReport
	fields := map[FieldKey]bool{}
	endpoints := map[string]bool{}
	forms := map[string]bool{}
	for _, tb := range tables {
		level, isField := seedLevels[tb.section]
		for _, row := range tb.rows {
			at := fmt.Sprintf("seed row %s %q", tb.section, row[0])
			var problems []string
			switch {
			case isField && len(row) == 6:
				name, qts := seedName(row[0])
				fields[FieldKey{Level: level, Name: name}] = true
				problems = seedFieldProblems(m, level, name, qts, row)
			case tb.section == "Endpoint" && len(row) == 4:
				endpoints[row[0]] = true
				problems = seedEndpointProblems(m, row)
			case tb.section == "Removed forms" && len(row) == 4:
				forms[row[1]+"."+row[0]] = true
				problems = seedFormProblems(m, row)
			default:
				problems = []string{fmt.Sprintf("a row of %d cells in a table the test does not read", len(row))}
			}
			for _, p := range problems {
				r.problems = append(r.problems, at+": "+p)
			}
		}
	}
	r.additions = seedAdditions(m, fields, endpoints, forms)
	return r
}

func seedFieldProblems(m *Model, level table.Level, name string, qts []table.QuestionType, row []string) []string {
	count := 0
	for _, f := range m.SpecFields(SpecExtensions) {
		if f.Name == name && f.Level == level {
			count++
		}
	}
	switch count {
	case 0:
		return []string{fmt.Sprintf("%s.%s is not in the extension spec", level, name)}
	case 1:
	default:
		return []string{fmt.Sprintf("%s.%s is defined %d times in the extension spec, want once", level, name, count)}
	}
	f := m.Field(SpecExtensions, level, name)
	var out []string
	differs := func(what string, got any, seed string) {
		out = append(out, fmt.Sprintf("%s = %q, seed %q", what, got, seed))
	}
	if f.TypeText != row[1] {
		differs("type text", f.TypeText, row[1])
	}
	if f.Since != row[2] {
		differs("since", f.Since, row[2])
	}
	if p := seedFamiliesProblem(m, f.Families, f.FamiliesText, row[3]); p != "" {
		out = append(out, p)
	}
	if got, want := f.Disposition, seedDisposition[row[4]]; got != want || want == "" {
		differs("disposition", got, row[4])
	}
	if f.Description != row[5] {
		differs("description", f.Description, row[5])
	}
	if got, want := strings.Join(qtStrings(f.QuestionTypes), ", "), strings.Join(qtStrings(qts), ", "); got != want {
		differs("question types", got, want)
	}
	return out
}

// seedFamiliesProblem compares families with the seed's cell: "all" (every
// family), "the Router" (none: the Router adds it) or a list.
func seedFamiliesProblem(m *Model, families []table.Family, text, cell string) string {
	var names []string
	for _, fam := range families {
		names = append(names, string(fam))
	}
	ok := false
	switch cell {
	case "all":
		ok = text == "all" && len(families) == len(m.Families)
	case "the Router":
		ok = text == cell && len(families) == 0
	default:
		ok = strings.Join(names, ", ") == cell
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("families = %v (%q), seed %q", names, text, cell)
}

func seedEndpointProblems(m *Model, row []string) []string {
	ep := extensionEndpoint(m, row[0])
	if ep == nil {
		return []string{"not in the extension spec"}
	}
	var out []string
	if ep.Since != row[1] {
		out = append(out, fmt.Sprintf("since = %q, seed %q", ep.Since, row[1]))
	}
	if ep.FamiliesText != row[2] {
		out = append(out, fmt.Sprintf("families = %q, seed %q", ep.FamiliesText, row[2]))
	}
	if ep.Description != row[3] {
		out = append(out, fmt.Sprintf("description = %q, seed %q", ep.Description, row[3]))
	}
	return out
}

// seedFormProblems: the form is removed at the row's level, with its
// replacement and note.
func seedFormProblems(m *Model, row []string) []string {
	for _, rf := range m.RemovedForms {
		if rf.Form != row[0] || string(rf.Level) != row[1] {
			continue
		}
		var out []string
		if rf.ReplacedBy != row[2] {
			out = append(out, fmt.Sprintf("replaced by = %q, seed %q", rf.ReplacedBy, row[2]))
		}
		if rf.Note != row[3] {
			out = append(out, fmt.Sprintf("note = %q, seed %q", rf.Note, row[3]))
		}
		return out
	}
	return []string{fmt.Sprintf("no removed form %s at level %s in the extension spec", row[0], row[1])}
}

// seedAdditions lists what the extension spec defines beyond the seed's
// rows, in spec order: each field at a level the seed tabulates; the
// fields of each level it does not (the members of objects it describes in
// prose, such as options); endpoints; removed forms; and the vocabularies
// the seed has no table of (error reasons, listing features).
func seedAdditions(m *Model, fields map[FieldKey]bool, endpoints, forms map[string]bool) []string {
	var out []string
	seedLevel := map[table.Level]bool{}
	for _, l := range seedLevels {
		seedLevel[l] = true
	}
	untabulated := map[table.Level][]string{}
	var levels []table.Level
	for _, f := range m.SpecFields(SpecExtensions) {
		switch {
		case fields[f.Key()]:
		case !seedLevel[f.Level]:
			if untabulated[f.Level] == nil {
				levels = append(levels, f.Level)
			}
			untabulated[f.Level] = append(untabulated[f.Level], f.Name)
		case f.DeclaredBy != "":
			out = append(out, fmt.Sprintf("field %s.%s (an answer member of question type %s)", f.Level, f.Name, f.DeclaredBy))
		default:
			out = append(out, fmt.Sprintf("field %s.%s", f.Level, f.Name))
		}
	}
	for _, l := range levels {
		out = append(out, fmt.Sprintf("fields of %s, a level the seed has no table of: %s", l, strings.Join(untabulated[l], ", ")))
	}
	for _, e := range m.Endpoints {
		if e.Spec == SpecExtensions && !endpoints[e.Method+" "+e.Path] {
			out = append(out, fmt.Sprintf("endpoint %s %s", e.Method, e.Path))
		}
	}
	for _, rf := range m.RemovedForms {
		if !forms[string(rf.Level)+"."+rf.Form] {
			out = append(out, fmt.Sprintf("removed form %s at level %s", rf.Form, rf.Level))
		}
	}
	var reasons, features []string
	for _, r := range m.ErrorReasons {
		reasons = append(reasons, r.Reason)
	}
	for _, f := range m.Features {
		features = append(features, f.Feature)
	}
	out = append(out,
		fmt.Sprintf("%d error reasons, which the seed has no table of: %s", len(reasons), strings.Join(reasons, ", ")),
		fmt.Sprintf("%d listing features, which the seed has no table of: %s", len(features), strings.Join(features, ", ")))
	return out
}

func qtStrings(qts []table.QuestionType) []string {
	out := make([]string, len(qts))
	for i, q := range qts {
		out[i] = string(q)
	}
	return out
}

// extensionEndpoint finds an extension spec endpoint by "METHOD /path".
func extensionEndpoint(m *Model, methodPath string) *Endpoint {
	for i := range m.Endpoints {
		e := &m.Endpoints[i]
		if e.Spec == SpecExtensions && e.Method+" "+e.Path == methodPath {
			return e
		}
	}
	return nil
}
