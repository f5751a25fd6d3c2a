package emit

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/model"
)

// errorsGuideStatus is a row of docs/errors.md's "Statuses and codes"
// table: its statuses, comma-separated, in the first cell.
var errorsGuideStatus = regexp.MustCompile(`(?m)^\| ([0-9]{3}(?:, [0-9]{3})*) \|`)

// TestOpenAPIStatusesAgreeWithTheErrorsGuide: the error statuses the
// generated 5.0 document lists, over every operation, are exactly the
// statuses docs/errors.md says the servers answer; the standard's 403
// for a missing key, which vllm-sr answers 401 (the extension set's
// replaced_statuses), is on no operation, and every operation the
// standard lists it on lists 401 instead.
func TestOpenAPIStatusesAgreeWithTheErrorsGuide(t *testing.T) {
	m, err := model.LoadDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	doc := loadOpenAPI(t, emitOpenAPI(t, m)).OpenAPI()
	var documented []string
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			statuses := op.Responses.Map()
			if statuses["403"] != nil {
				t.Errorf("%s %s lists 403; vllm-sr answers a missing key with 401", method, path)
			}
			for status := range statuses {
				if status != "200" && !slices.Contains(documented, status) {
					documented = append(documented, status)
				}
			}
		}
	}
	for _, e := range m.Endpoints {
		if e.Spec == model.SpecStandard && slices.Contains(e.Statuses, 403) {
			op := doc.Paths.Find(e.Path).GetOperation(e.Method)
			if op == nil || op.Responses.Map()["401"] == nil {
				t.Errorf("%s %s: the standard lists 403, the document no 401", e.Method, e.Path)
			}
		}
	}
	guide, err := os.ReadFile("../../docs/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(guide), "## Statuses and codes")
	table, _, _ = strings.Cut(table, "\n#")
	var answered []string
	for _, row := range errorsGuideStatus.FindAllStringSubmatch(table, -1) {
		for _, s := range strings.Split(row[1], ", ") {
			if !slices.Contains(answered, s) {
				answered = append(answered, s)
			}
		}
	}
	slices.Sort(documented)
	slices.Sort(answered)
	if len(answered) < 10 || !slices.Equal(documented, answered) {
		t.Errorf("the OpenAPI document lists %v, docs/errors.md %v", documented, answered)
	}
}
