package model

import (
	"bytes"
	"os"
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

// TestExtensionSpecMatchesSeed: every field the seed names is defined
// exactly once by the extension spec, at its level, with the seed's type
// text, version, families, question types, disposition and description;
// and the spec defines no field at those levels the seed lacks, except an
// answer member that a question type the seed names declares as part of
// its own definition.
func TestExtensionSpecMatchesSeed(t *testing.T) {
	m := repoModel(t)
	tables := parseSeed(t, readSeed(t))
	named := map[FieldKey]bool{}
	checked := 0
	for _, tb := range tables {
		level, ok := seedLevels[tb.section]
		if !ok {
			continue
		}
		for _, row := range tb.rows {
			if len(row) != 6 {
				t.Fatalf("%s row %v: want 6 cells", tb.section, row)
			}
			name, qts := seedName(row[0])
			named[FieldKey{Level: level, Name: name}] = true
			checkSeedField(t, m, level, name, qts, row)
			checked++
		}
	}
	if checked < 30 {
		t.Fatalf("parsed only %d seed fields; the seed parser is broken", checked)
	}
	for _, f := range m.SpecFields(SpecExtensions) {
		levelInSeed := false
		for _, l := range seedLevels {
			levelInSeed = levelInSeed || l == f.Level
		}
		if !levelInSeed || named[f.Key()] {
			continue
		}
		if f.DeclaredBy != "" && named[FieldKey{Level: table.LevelQuestionType, Name: string(f.DeclaredBy)}] {
			continue
		}
		t.Errorf("the extension spec defines %s.%s, which the seed does not name", f.Level, f.Name)
	}
}

func checkSeedField(t *testing.T, m *Model, level table.Level, name string, qts []table.QuestionType, row []string) {
	t.Helper()
	count := 0
	for _, f := range m.SpecFields(SpecExtensions) {
		if f.Name == name && f.Level == level {
			count++
		}
	}
	if count != 1 {
		t.Errorf("%s.%s is defined %d times in the extension spec, want once", level, name, count)
		return
	}
	f := m.Field(SpecExtensions, level, name)
	if f.TypeText != row[1] {
		t.Errorf("%s.%s type text = %q, seed %q", level, name, f.TypeText, row[1])
	}
	if f.Since != row[2] {
		t.Errorf("%s.%s since = %q, seed %q", level, name, f.Since, row[2])
	}
	checkSeedFamilies(t, m, f, row[3])
	if got, want := f.Disposition, seedDisposition[row[4]]; got != want || want == "" {
		t.Errorf("%s.%s disposition = %q, seed %q", level, name, got, row[4])
	}
	if f.Description != row[5] {
		t.Errorf("%s.%s description = %q, seed %q", level, name, f.Description, row[5])
	}
	if strings.Join(qtStrings(f.QuestionTypes), ",") != strings.Join(qtStrings(qts), ",") {
		t.Errorf("%s.%s question types = %v, seed %v", level, name, f.QuestionTypes, qts)
	}
}

func checkSeedFamilies(t *testing.T, m *Model, f *Field, cell string) {
	t.Helper()
	switch cell {
	case "all":
		if f.FamiliesText != "all" || len(f.Families) != len(m.Families) {
			t.Errorf("%s.%s families = %v (%q), seed all", f.Level, f.Name, f.Families, f.FamiliesText)
		}
	case "the Router":
		if f.FamiliesText != cell || len(f.Families) != 0 {
			t.Errorf("%s.%s families = %v (%q), seed %q", f.Level, f.Name, f.Families, f.FamiliesText, cell)
		}
	default:
		var got []string
		for _, fam := range f.Families {
			got = append(got, string(fam))
		}
		if strings.Join(got, ", ") != cell {
			t.Errorf("%s.%s families = %v, seed %q", f.Level, f.Name, got, cell)
		}
	}
}

func qtStrings(qts []table.QuestionType) []string {
	out := make([]string, len(qts))
	for i, q := range qts {
		out[i] = string(q)
	}
	return out
}

// TestEndpointsAndRemovedFormsMatchSeed: the seed's endpoint and removed
// form tables, row for row.
func TestEndpointsAndRemovedFormsMatchSeed(t *testing.T) {
	m := repoModel(t)
	seen := map[string]bool{}
	for _, tb := range parseSeed(t, readSeed(t)) {
		seen[tb.section] = true
		switch tb.section {
		case "Endpoint":
			for _, row := range tb.rows {
				ep := extensionEndpoint(m, row[0])
				if ep == nil {
					t.Errorf("seed endpoint %s is not in the extension spec", row[0])
					continue
				}
				if ep.Since != row[1] || ep.FamiliesText != row[2] || ep.Description != row[3] {
					t.Errorf("endpoint %s = %q %q %q, seed %v", row[0], ep.Since, ep.FamiliesText, ep.Description, row[1:])
				}
			}
		case "Removed forms":
			if len(tb.rows) != len(m.RemovedForms) {
				t.Fatalf("%d removed forms, seed %d", len(m.RemovedForms), len(tb.rows))
			}
			for i, row := range tb.rows {
				rf := m.RemovedForms[i]
				if rf.Form != row[0] || string(rf.Level) != row[1] || rf.ReplacedBy != row[2] || rf.Note != row[3] {
					t.Errorf("removed form %d = %q %q %q %q, seed %v", i, rf.Form, rf.Level, rf.ReplacedBy, rf.Note, row)
				}
			}
		}
	}
	if !seen["Endpoint"] || !seen["Removed forms"] {
		t.Fatalf("the seed parser found sections %v, not the endpoint and removed form tables", seen)
	}
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
