package drift

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// The report a maintainer reads, for a document that moved in many ways
// at once (refresh with SRGEN_UPDATE_GOLDEN=1 and review).
func TestSummaryGolden(t *testing.T) {
	d := cleanDoc(t)
	get(t, d, "info")["version"] = "0.2.1"
	props(t, d, "ScoreQuestion")["criteria"].(map[string]any)["minItems"] = 2
	props(t, d, "ChoiceAnswer")["confidence"].(map[string]any)["maximum"] = 1
	props(t, d, "SystemOneRequest")["assets"] = obj("type", "object")
	schema(t, d, "ChoiceQuestion")["required"] = list("type")
	schema(t, d, "SystemOneRequest")["additionalProperties"] = false
	get(t, d, "paths", "/v1/systemone", "post", "responses")["401"] = obj("description", "No key.")
	r := compare(t, repoModel(t), d)
	testkit.GoldenCheck(t, "testdata/summary.golden.txt", []byte(r.Summary()))
}

// A document whose hash is the recorded one is not compared at all, and
// the summary says so.
func TestRecordedHashMatches(t *testing.T) {
	m := repoModel(t)
	data := encode(t, fixtureDoc(t))
	sum := sha256.Sum256(data)
	m.Spec(model.SpecStandard).Source.SHA256 = hex.EncodeToString(sum[:])
	r, err := Compare(m, data, "pinned.json")
	if err != nil || !r.Matches() || r.Failed() || r.Differences != nil || r.Known != nil {
		t.Fatalf("Compare = %+v, %v; want a match and no comparison", r, err)
	}
	if !strings.Contains(r.Summary(), "matches the spec's source.sha256") {
		t.Errorf("summary does not say the hash matches:\n%s", r.Summary())
	}
}
