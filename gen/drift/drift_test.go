package drift

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/model"
)

const fixture = "testdata/published-3.1.json"

func repoModel(t *testing.T) *model.Model {
	t.Helper()
	m, err := model.LoadDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// edited returns the fixture with edit applied to its component schemas.
func edited(t *testing.T, edit func(schemas map[string]any)) []byte {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc["components"].(map[string]any)["schemas"].(map[string]any))
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func props(schemas map[string]any, component string) map[string]any {
	return schemas[component].(map[string]any)["properties"].(map[string]any)
}

func lines(r Report) []string {
	var out []string
	for _, d := range r.Differences {
		out = append(out, d.String())
	}
	return out
}

// The fixture has one deliberate drift: release_date may be null, as a
// FastAPI 3.1 document writes it (anyOf with a null alternative).
func TestFixtureHasOneDrift(t *testing.T) {
	r, err := CompareFile(repoModel(t), fixture)
	if err != nil {
		t.Fatal(err)
	}
	if r.Matches() {
		t.Fatal("the fixture's sha256 matches the spec's; it must not")
	}
	want := "ModelMetadata.release_date: nullable differs: ours false, published true"
	if got := lines(r); len(got) != 1 || got[0] != want {
		t.Fatalf("differences = %q, want only %q", got, want)
	}
	if !strings.Contains(r.Summary(), "1 differences") || !strings.Contains(r.Summary(), r.Recorded) {
		t.Errorf("summary %q does not give the count and the recorded hash", r.Summary())
	}
}

// Without the drift, nothing differs: the comparison has no false
// positives on the document's shape (anyOf content, const types, $refs,
// discriminated oneOf, a property without a type).
func TestFixtureWithoutDriftMatchesOurDescription(t *testing.T) {
	data := edited(t, func(s map[string]any) {
		props(s, "ModelMetadata")["release_date"] = map[string]any{"type": "string"}
	})
	r, err := Compare(repoModel(t), data)
	if err != nil {
		t.Fatal(err)
	}
	if r.Matches() || len(r.Differences) != 0 {
		t.Fatalf("matches=%v differences=%q, want a different hash and no differences", r.Matches(), lines(r))
	}
	if !strings.Contains(r.Summary(), "update source.sha256") {
		t.Errorf("summary %q does not say to update the hash", r.Summary())
	}
}

// Each kind of drift is found and named.
func TestEveryKindOfDrift(t *testing.T) {
	data := edited(t, func(s map[string]any) {
		props(s, "ModelMetadata")["release_date"] = map[string]any{"type": "string"}
		props(s, "Usage")["input_tokens"] = map[string]any{"type": "string"}
		props(s, "Usage")["cached_tokens"] = map[string]any{"type": "integer"}
		delete(props(s, "NoulAnswer"), "noul")
		s["ChoiceQuestion"].(map[string]any)["required"] = []any{"type"}
		props(s, "SystemOneRequest")["model"] = map[string]any{"type": []any{"string", "null"}}
		delete(s, "ScoreAnswer")
		answers := props(s, "SystemOneResponse")["answers"].(map[string]any)
		answers["additionalProperties"] = map[string]any{"oneOf": []any{
			map[string]any{"$ref": "#/components/schemas/NoulAnswer"}, map[string]any{"$ref": "#/components/schemas/ChoiceAnswer"}}}
		s["BoxQuestion"] = map[string]any{"type": "object"}
	})
	r, err := Compare(repoModel(t), data)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"SystemOneRequest.model: nullable differs: ours false, published true",
		"ChoiceQuestion.criteria: required differs: ours true, published false",
		"NoulAnswer.noul: field we describe is gone from the document",
		"ScoreAnswer: component listed in the spec is gone from the document",
		"Usage.input_tokens: type differs: ours integer, published string",
		"Usage.cached_tokens: field in the document is not in our description (integer, optional)",
		"BoxQuestion: component in the document is not listed in the spec's source.components",
	}
	got := lines(r)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("differences:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A document whose hash is the recorded one is not compared at all.
func TestRecordedHashMatches(t *testing.T) {
	m := repoModel(t)
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	m.Spec(model.SpecStandard).Source.SHA256 = hex.EncodeToString(sum[:])
	r, err := Compare(m, data)
	if err != nil || !r.Matches() || r.Differences != nil {
		t.Fatalf("Compare = %+v, %v; want a match and no comparison", r, err)
	}
}

func TestNotAnOpenAPIDocument(t *testing.T) {
	if _, err := Compare(repoModel(t), []byte("{not json")); err == nil {
		t.Fatal("a broken document was accepted")
	}
	if _, err := CompareFile(repoModel(t), "testdata/absent.json"); err == nil {
		t.Fatal("a missing file was accepted")
	}
}
