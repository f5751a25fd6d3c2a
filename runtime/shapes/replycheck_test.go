package shapes

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestReplyCheckSortsProblems: a problem inside one answer is that
// answer's, with the specification's reason for it; any other problem,
// an unknown member even inside an answer, and a reply with more problems
// than a validator looks for, refuse the reply as a whole, naming the path.
func TestReplyCheckSortsProblems(t *testing.T) {
	usage := `"usage":{"input_tokens":1,"output_tokens":0}`
	cases := []struct {
		name   string
		schema table.SchemaID
		batch  bool
		body   string
		path   string            // the refusal's path; "" for none
		answer map[string]string // answer name → reason
	}{
		{"valid", table.SchemaVllmSR50, false, `{"model":"m","answers":{"q":{"type":"noul","noul":0.5}},` + usage + `}`, "", nil},
		{"answer problems", table.SchemaStandard02, false,
			`{"model":"m","answers":{"q":{"type":"noul","noul":2},"r":{"type":"noul"},"s":{"type":"box","confidence":1,"box":{"top":0,"left":0,"right":1,"bottom":"x"}}},` + usage + `}`,
			"", map[string]string{"q": "answer_out_of_range", "r": "noul_missing", "s": "box_edge_missing"}},
		{"a reply problem", table.SchemaStandard02, false, `{"model":1,"answers":{"q":{"type":"noul","noul":0.5}},` + usage + `}`, "model", nil},
		{"an unknown member in an answer", table.SchemaVllmSR50, false,
			`{"model":"m","answers":{"q":{"type":"noul","noul":0.5,"noull":1}},` + usage + `}`, "answers.q.noull", nil},
		{"an unknown member is nothing to the standard", table.SchemaStandard02, false,
			`{"model":"m","answers":{"q":{"type":"noul","noul":0.5,"noull":1}},` + usage + `,"id":"x"}`, "", nil},
		{"a batch item's answer", table.SchemaVllmSR50, true,
			`{"model":"m","responses":{"a":{"model":"m","answers":{"q":{"type":"noul","noul":-1}},` + usage + `}},` + usage + `}`,
			"", map[string]string{"a/q": "answer_out_of_range"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := decodeJSON(t, c.body)
			check, err := CheckResponse(c.schema, root)
			if c.batch {
				check, err = CheckBatchResponse(c.schema, root)
			}
			var pe *ir.ProtocolError
			switch {
			case c.path == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.path != "" && (!errors.As(err, &pe) || pe.Path.String() != c.path):
				t.Fatalf("refusal %v, want one at %s", err, c.path)
			}
			for key, want := range c.answer {
				item, name, ok := strings.Cut(key, "/")
				if !ok {
					item, name = "", key
				}
				if got, what := check.answerProblem(item, name); got != want || what == "" {
					t.Errorf("answer %s: %q (%s), want %q", key, got, what, want)
				}
			}
		})
	}
	var many []string
	for i := range table.MaxProblems {
		many = append(many, `"q`+strconv.Itoa(i)+`":{"type":"noul","noul":2}`)
	}
	root := decodeJSON(t, `{"model":"m","answers":{`+strings.Join(many, ",")+`},`+usage+`}`)
	if _, err := CheckResponse(table.SchemaStandard02, root); err == nil {
		t.Error("a reply with as many problems as a validator looks for is read")
	}
}
