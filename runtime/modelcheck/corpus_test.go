package modelcheck

import (
	"io/fs"
	"testing"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestFamilySelfTestsPassTheirModel: every family's self-test request is
// answerable by the catalogue model it names (a server runs them at
// start-up and is never ready if one fails).
func TestFamilySelfTestsPassTheirModel(t *testing.T) {
	checked := 0
	for _, c := range corpus.Cases {
		if c.Kind != table.CorpusFamilySelfTest {
			continue
		}
		data, err := fs.ReadFile(corpus.FS, c.Path)
		if err != nil {
			t.Fatal(err)
		}
		req := decode(t, string(data))
		m := model(t, *req.Model)
		if m.Family != c.Family {
			t.Errorf("%s: model %s is of family %s", c.Name, m.Name, m.Family)
		}
		for _, o := range checkAll(m, req) {
			checked++
			if o.Failure != nil {
				t.Errorf("%s %s: %v", c.Name, o.Question.Name, o.Failure)
			}
		}
	}
	if checked < 18 {
		t.Fatalf("checked %d questions; the corpus lost its self-tests?", checked)
	}
}
