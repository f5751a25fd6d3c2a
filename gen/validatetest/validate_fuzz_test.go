package validatetest_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// FuzzRequestNeverPanics checks any JSON body under every schema, as a
// request, as a batch and as each reply: no panic, at most table.MaxProblems problems,
// each message naming its path (with names over the quoting limit cut,
// table.ClipPointer). Seeds are every test body and the JSON
// files of generated/corpus/. That the problems are exactly the model's is
// gen/emit's FuzzValidatorsMatchOracle.
func FuzzRequestNeverPanics(f *testing.F) {
	for _, body := range seedBodies() {
		f.Add([]byte(body))
	}
	for _, body := range corpusBodies(f) {
		f.Add(body)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := jsonvalue.Decode(data, jsonvalue.Options{})
		if err != nil {
			return
		}
		for _, id := range everySchema {
			for _, problems := range [][]table.Problem{validate.Request(id, v), validate.BatchRequest(id, v),
				validate.Response(id, v), validate.BatchResponse(id, v), validate.Answer(id, v), validate.ErrorBody(id, v),
				validate.Listing(id, v), validate.Health(id, v)} {
				if len(problems) > table.MaxProblems {
					t.Fatalf("%s: %d problems, over the cap", id, len(problems))
				}
				for _, p := range problems {
					if p.Reason == "" || !strings.Contains(p.Message(), table.ClipPointer(p.Path)) {
						t.Fatalf("%s: malformed problem %+v", id, p)
					}
				}
			}
		}
	})
}

// corpusBodies reads the JSON files under generated/corpus/. srgen always
// writes some, so finding none means the path is wrong.
func corpusBodies(t testing.TB) [][]byte {
	root := filepath.Join("..", "..", "generated", "corpus")
	var bodies [][]byte
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		data, err := os.ReadFile(path)
		bodies = append(bodies, data)
		return err
	})
	if err != nil {
		t.Fatalf("read the corpus: %v", err)
	}
	if len(bodies) == 0 {
		t.Fatalf("no JSON file under %s", root)
	}
	return bodies
}

// seedBodies are every body the tests use. gen/emit's oracle test keeps a
// copy (gen/emit/testdata/oracle/bodies.json, and replies.json for the
// replies) to compare the validators with the model on.
func seedBodies() []string {
	bodies := []string{guideRequest, jsSDKRequest, guideBatch, benchRequest()}
	for _, cases := range [][]requestCase{standardClientCases, extensionCases, unknownMemberCases, typeCases, enumCases, limitCases, batchCases, decisionCases,
		responseCases, batchResponseCases, errorBodyCases, listingCases, healthCases} {
		for _, c := range cases {
			bodies = append(bodies, c.body)
		}
	}
	for _, f := range removedForms {
		bodies = append(bodies, f.body)
	}
	return bodies
}
