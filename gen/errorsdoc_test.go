package gen

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestErrorTableIsComplete: docs/errors.md, the error table an operator
// reads, names every request error code with its status, every question
// error kind, and every reason word of the Router's upstream calls
// (upstream_*, answer_*), as the specification defines them. A code or
// reason added to the spec fails here until the table has its row.
func TestErrorTableIsComplete(t *testing.T) {
	m, err := Build(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "errors.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	rows := strings.Split(doc, "\n")
	for _, re := range m.RequestErrors {
		if re.Status == 0 {
			if !strings.Contains(doc, "`"+re.Code+"`") {
				t.Errorf("docs/errors.md does not name code %s", re.Code)
			}
			continue
		}
		if !hasRow(rows, "| "+strconv.Itoa(re.Status)+" | `"+re.Code+"`") {
			t.Errorf("docs/errors.md has no row | %d | `%s` |", re.Status, re.Code)
		}
	}
	for _, qe := range m.QuestionErrors {
		if !strings.Contains(doc, "`"+qe.Kind+"`") {
			t.Errorf("docs/errors.md does not name question error %s", qe.Kind)
		}
	}
	for _, r := range m.ErrorReasons {
		upstream := strings.HasPrefix(r.Reason, "upstream_") || strings.HasPrefix(r.Reason, "answer_") ||
			strings.Contains(r.Reason, "upstream")
		if upstream && !strings.Contains(doc, "`"+r.Reason+"`") {
			t.Errorf("docs/errors.md does not name the upstream reason %s", r.Reason)
		}
	}
}

func hasRow(rows []string, prefix string) bool {
	for _, r := range rows {
		if strings.HasPrefix(r, prefix) {
			return true
		}
	}
	return false
}
