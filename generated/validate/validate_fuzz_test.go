package validate

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// FuzzRequestNeverPanics checks any JSON body under every schema, as a
// request and as a batch: no panic, at most table.MaxProblems problems,
// each message naming its path, and exactly what the oracle reports.
// Seeds are every test body and the JSON files of generated/corpus/.
func FuzzRequestNeverPanics(f *testing.F) {
	for _, body := range seedBodies() {
		f.Add([]byte(body))
	}
	for _, body := range corpusBodies(f) {
		f.Add(body)
	}
	schemas := loadOracle(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonvalue.Decode(data, jsonvalue.Options{})
		if err != nil {
			return
		}
		for _, id := range allSchemas {
			for _, problems := range [][]table.Problem{Request(id, v), BatchRequest(id, v)} {
				if len(problems) > table.MaxProblems {
					t.Fatalf("%s: %d problems, over the cap", id, len(problems))
				}
				for _, p := range problems {
					if p.Reason == "" || !strings.Contains(p.Message(), p.Path) {
						t.Fatalf("%s: malformed problem %+v", id, p)
					}
				}
			}
		}
		compareWithOracle(t, schemas, v)
	})
}

// corpusBodies reads the JSON files under generated/corpus/, if any.
func corpusBodies(t testing.TB) [][]byte {
	root := filepath.Join("..", "corpus")
	var bodies [][]byte
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		data, err := os.ReadFile(path)
		bodies = append(bodies, data)
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("read the corpus: %v", err)
	}
	return bodies
}
