package modelcheck

import (
	"io/fs"
	"testing"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestFamilySelfTestsPassTheirModel: every family's self-test request is
// answerable by the catalogue model it names, but for the track
// self-test, whose video is an MP4 header without a duration.
func TestFamilySelfTestsPassTheirModel(t *testing.T) {
	wantFailures := map[string]Reason{"vela3_d3/track-video cyclist": ReasonUnreadableVideo}
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
		for _, o := range Request(m, req) {
			checked++
			key := c.Name + " " + o.Question.Name
			switch want, expected := wantFailures[key]; {
			case expected && (o.Failure == nil || o.Failure.Reason != want):
				t.Errorf("%s: failure %v, want %s", key, o.Failure, want)
			case !expected && o.Failure != nil:
				t.Errorf("%s: %v", key, o.Failure)
			}
		}
	}
	if checked < 18 {
		t.Fatalf("checked %d questions; the corpus lost its self-tests?", checked)
	}
}
