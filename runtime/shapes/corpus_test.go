package shapes

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/corpus"
)

// generatedCases returns srgen's round-trip corpus, named after each case.
func generatedCases(t testing.TB) []corpusCase {
	t.Helper()
	if len(corpus.Cases) == 0 {
		t.Fatal("the generated corpus is empty")
	}
	cases := make([]corpusCase, 0, len(corpus.Cases))
	for _, c := range corpus.Cases {
		body, err := corpus.FS.ReadFile(c.Path)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		cases = append(cases, corpusCase{name: "corpus/" + string(c.Kind) + "/" + c.Name, body: body})
	}
	return cases
}

// corpusCase is one body of the round-trip corpus.
type corpusCase struct {
	name string // unique; also the golden file's name
	body []byte
}

// fixtureCases returns the hand-written bodies under testdata/<dir>: the
// spellings a generated corpus written canonically never holds (escaped
// names, number literals, unusual member orders).
func fixtureCases(t testing.TB, dir string) []corpusCase {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		t.Fatalf("no fixtures under testdata/%s", dir)
	}
	cases := make([]corpusCase, 0, len(paths))
	for _, p := range paths {
		body, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, corpusCase{name: dir + "/" + strings.TrimSuffix(filepath.Base(p), ".json"), body: body})
	}
	return cases
}
