package gen

import (
	"os"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/emit"
)

// seedRow is one row of a table: its section and its cells.
type seedRow struct {
	section string
	cells   []string
}

// parseSeedTables reads the seed's extension reference: a section title on
// its own line (a few words, no full stop), perhaps a line of prose, a
// "| Field |" header, a "|---|" line, then rows written without the
// leading pipe.
func parseSeedTables(text string) []seedRow {
	var rows []seedRow
	section := ""
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "|"):
		case !strings.Contains(line, " | "):
			if line != "" && !strings.Contains(line, ".") && len(strings.Fields(line)) <= 4 {
				section = strings.TrimSpace(line)
			}
		default:
			rows = append(rows, seedRow{section, splitCells(line)})
		}
	}
	return rows
}

// parseMarkdownTables reads generated Markdown: "## Title" headings and
// tables whose rows start and end with a pipe.
func parseMarkdownTables(text string) []seedRow {
	var rows []seedRow
	section := ""
	header := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			section, header = strings.TrimPrefix(line, "## "), true
		case strings.HasPrefix(line, "|---"):
			header = false
		case strings.HasPrefix(line, "|") && !header:
			rows = append(rows, seedRow{section, splitCells(line)})
		}
	}
	return rows
}

func splitCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	cells := strings.Split(line, " | ")
	for i := range cells {
		cells[i] = strings.TrimSpace(strings.ReplaceAll(cells[i], "`", ""))
	}
	return cells
}

// TestExtensionReferenceCarriesTheSeed requires every row of the seed's
// extension reference exactly once in the generated page, in the same
// section, under the same label (question types in the seed's order, as in
// "decision_adapter (choice, noul, score)"), with the same type, since,
// families and disposition (the endpoint and removed-form tables compare
// their own columns).
func TestExtensionReferenceCarriesTheSeed(t *testing.T) {
	seed, err := os.ReadFile("testdata/seed-extension-reference.txt")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Build(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	files, err := emit.All(m, []emit.Emitter{emit.Docs(emit.DefaultOptions())})
	if err != nil {
		t.Fatal(err)
	}
	var page string
	for _, f := range files {
		if strings.HasSuffix(f.Path, "/extension-reference.md") {
			page = string(f.Data)
		}
	}
	generated := parseMarkdownTables(page)
	seedRows := parseSeedTables(string(seed))
	if len(seedRows) != 47 {
		t.Fatalf("parsed %d rows from the seed, want its 47", len(seedRows))
	}
	sectionOf := map[string]string{"Endpoint": "Endpoints", "Removed forms": "Removed forms"}
	for _, want := range seedRows {
		section := want.section
		if s, ok := sectionOf[section]; ok {
			section = s
		}
		var found []seedRow
		for _, got := range generated {
			if got.section == section && got.cells[0] == want.cells[0] {
				found = append(found, got)
			}
		}
		if len(found) != 1 {
			t.Errorf("seed row %q appears %d times under %q in the generated reference, want once", want.cells[0], len(found), section)
			continue
		}
		got := found[0]
		compare := len(want.cells) - 1 // every column but the description or note
		if section == "Removed forms" {
			compare = 3
		}
		for i := 1; i < compare && i < len(got.cells); i++ {
			if got.cells[i] != want.cells[i] {
				t.Errorf("%s %q column %d = %q, seed says %q", section, want.cells[0], i+1, got.cells[i], want.cells[i])
			}
		}
	}
}
