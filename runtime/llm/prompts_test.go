package llm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/shapes"
)

// TestPromptsGolden pins every template's output for one question of each
// type (and a set's label): a change to a prompt shows in the diff, and
// must come with a new PromptsVersion. SRGEN_UPDATE_GOLDEN=1 rewrites the
// golden file.
func TestPromptsGolden(t *testing.T) {
	req, _, err := shapes.DecodeRequest([]byte(`{"state": {"request": "My card was charged twice.", "history": "I ordered one item.", "answer": "We refunded it."},
"roles": {"request": "user", "history": "context", "answer": "answer"},
"questions": {
 "team": {"type": "choice", "instructions": "Which team?", "criteria": {"billing": "Charges and refunds", "other": null}},
 "urgent": {"type": "noul", "instructions": "Is it urgent?", "criteria": {"true": "It blocks the user", "false": "It can wait"}},
 "bare": {"type": "noul", "instructions": "Is it polite?"},
 "level": {"type": "score", "instructions": "How angry?", "criteria": ["calm", "angry"]},
 "intents": {"type": "set", "instructions": "What is asked?", "criteria": {"refund": "Return money", "cancel": null}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	model, _ := catalog.Model(TemplateModel)
	var b strings.Builder
	for i := range req.Questions {
		q := &req.Questions[i]
		plan, f := modelcheck.Question(model, req, q)
		if f != nil {
			t.Fatalf("%s: %v", q.Name, f.Message)
		}
		var ps []prompt
		if plan.Type == "set" {
			for _, m := range plan.Criteria.Keyed {
				ps = append(ps, setPrompt(&plan, modelcheck.Render(q.Instructions), m))
			}
		} else {
			ps = append(ps, questionPrompt(&plan, modelcheck.Render(q.Instructions)))
		}
		for _, p := range ps {
			b.WriteString("=== " + q.Name + " (" + p.name + ") labels " + strings.Join(p.labels, ",") + "\n--- system\n" + p.system +
				"\n--- user\n" + p.user + "\n--- cloze\n" + p.cloze + "\n--- continuations\n" + strings.Join(p.texts, "\n") + "\n")
		}
	}
	path := filepath.Join("testdata", "prompts.golden")
	if os.Getenv("SRGEN_UPDATE_GOLDEN") != "" {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (SRGEN_UPDATE_GOLDEN=1 creates it): %v", err)
	}
	if string(want) != b.String() {
		t.Errorf("the prompts changed (a new PromptsVersion, then SRGEN_UPDATE_GOLDEN=1):\n%s", b.String())
	}
}

// TestPromptsVersionIsTheCardsRevision: the catalogue card's revision
// names the prompts' version.
func TestPromptsVersionIsTheCardsRevision(t *testing.T) {
	model, ok := catalog.Model(TemplateModel)
	if !ok || model.Revision != strings.ReplaceAll(PromptsVersion, "/", "-") {
		t.Errorf("card revision %q, prompts %q", model.Revision, PromptsVersion)
	}
}
