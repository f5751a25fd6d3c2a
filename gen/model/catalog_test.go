package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// catalogFS holds the repository's catalogue and its format schema, with
// the catalogue's text replaced by edit.
func catalogFS(t *testing.T, edit func(string) string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	for _, p := range []string{load.CatalogPath, load.CatalogSchema} {
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		if p == load.CatalogPath && edit != nil {
			data = []byte(edit(string(data)))
		}
		fsys[p] = &fstest.MapFile{Data: data}
	}
	return fsys
}

func buildCatalog(t *testing.T, edit func(string) string) (*Catalog, error) {
	t.Helper()
	raw, err := load.LoadCatalog(catalogFS(t, edit))
	if err != nil {
		return nil, err
	}
	return BuildCatalog(repoModel(t), raw)
}

func TestRepositoryCatalogBuilds(t *testing.T) {
	c, err := buildCatalog(t, nil)
	if err != nil {
		t.Fatalf("the repository's catalogue does not build:\n%v", err)
	}
	families := map[table.Family]bool{}
	for _, m := range c.Models {
		families[m.Family] = true
	}
	for _, f := range []table.Family{table.FamilyDecision1, table.FamilyDecision2, table.FamilyDecision3,
		table.FamilyVela2, table.FamilyVela3, table.FamilyVela3D3} {
		if !families[f] {
			t.Errorf("no model of family %s", f)
		}
	}
	if c.Models[0].Name != "vllm-sr/decision1" || c.Presets[0].Name != "jailbreak" {
		t.Errorf("catalogue order is not the file's: first model %q, first preset %q", c.Models[0].Name, c.Presets[0].Name)
	}
}

// inModel replaces the first old after the model named name's entry.
func inModel(name, old, new string) func(string) string {
	return func(s string) string {
		at := strings.Index(s, "- name: "+name+"\n")
		if at < 0 {
			panic("no model " + name)
		}
		i := strings.Index(s[at:], old)
		if i < 0 {
			panic("model " + name + " has no " + old)
		}
		return s[:at+i] + new + s[at+i+len(old):]
	}
}

// TestCatalogRefusesCardsTheFamilyDoesNotAnswer: every claim a card makes
// beyond its family's facts in the extension set fails the build, naming
// the model and the line.
func TestCatalogRefusesCardsTheFamilyDoesNotAnswer(t *testing.T) {
	cases := []struct {
		name string
		edit func(string) string
		want string
	}{
		{"set on decision3", inModel("vllm-sr/decision3", "[noul, choice, score, box, track]", "[noul, choice, score, box, track, set]"),
			`model "vllm-sr/decision3": family decision3 does not answer set questions`},
		{"over on a decision family", inModel("vllm-sr/decision2", "over: none", "over: any"),
			`model "vllm-sr/decision2": family decision2 does not answer over (question.over)`},
		{"broad head on vela3", inModel("vllm-sr/vela3", "span_heads: [router]", "span_heads: [router, broad]"),
			`model "vllm-sr/vela3": family vela3 has no broad span head`},
		{"preset on decision2", inModel("vllm-sr/decision2", "modalities: [text]", "presets: [{name: domain, type: choice}]\n      modalities: [text]"),
			`model "vllm-sr/decision2": family decision2 does not answer preset questions`},
		{"decision adapter on vela3", inModel("vllm-sr/vela3", "role_aware: true", "role_aware: true\n      decision_adapter: true"),
			`model "vllm-sr/vela3": family vela3 does not answer the decision adapter (question.decision_adapter)`},
		{"image on decision1", inModel("vllm-sr/decision1", "modalities: [text]", "modalities: [text, image]"),
			`model "vllm-sr/decision1": family decision1 does not read the image modality`},
		{"abstain on vela3_d3", inModel("vllm-sr/vela3-d3", "role_aware: true", "role_aware: true\n      abstain: true"),
			`model "vllm-sr/vela3-d3": family vela3_d3 does not answer abstain probabilities (answer.abstain_probability)`},
		{"scan budget on decision2", inModel("vllm-sr/decision2", "max_input_tokens: 32768", "scan_budget: 1000\n        max_scan_budget: 2000\n        max_input_tokens: 32768"),
			`family decision2 does not answer reading long parts in windows (scan_budget) (question.overflow)`},
		{"role-aware mismatch", inModel("vllm-sr/vela2", "role_aware: true", "role_aware: false"),
			`model "vllm-sr/vela2": role_aware is false, but family vela2 has role_aware true`},
		{"choices beyond the global limit", inModel("vllm-sr/decision2", "choices: {min: 1, max: 255}", "choices: {min: 1, max: 300}"),
			`limits.choices 1 to 300 is outside the global limit 1 to 255`},
		{"levels range on a card without score", inModel("vllm-sr/vela3-d3-mini", "[noul, choice, score, box, span]", "[noul, choice, box, span]"),
			`limits.levels is given, but the card answers no question it bounds`},
		{"preset with another type", inModel("vllm-sr/vela2", "{name: relevance, type: noul}", "{name: relevance, type: choice}"),
			`preset "relevance" answers choice here, but its canonical text is a noul question`},
		{"unknown preset", inModel("vllm-sr/vela2", "{name: relevance, type: noul}", "{name: sarcasm, type: noul}"),
			`preset "sarcasm" has no canonical text under presets`},
		{"track rate the extension set lacks", inModel("vllm-sr/decision3", "track_rates: [1, 2]", "track_rates: [1, 3]"),
			`track rate 3 is not one of question.rate's values [1 2]`},
		{"a family without a model", inModel("vllm-sr/decision2", "family: decision2", "family: decision1"),
			"family decision2 has no model in the catalogue"},
		{"unknown family", inModel("vllm-sr/decision2", "family: decision2", "family: decision9"),
			`model "vllm-sr/decision2": family "decision9" is not a family of the extension set`},
		{"model twice", inModel("vllm-sr/decision2", "name: vllm-sr/decision2", "name: vllm-sr/decision1"),
			`model "vllm-sr/decision1" already defined at specs/models/models.yaml:`},
		{"score preset with three levels", func(s string) string {
			return strings.Replace(s, "      - It can wait\n", "", 1)
		}, ""}, // still within the global limit
		{"score preset beyond the global limit", func(s string) string {
			return strings.Replace(s, "      - It can wait\n", strings.Repeat("      - It can wait\n", 8), 1)
		}, `preset "urgency": 11 levels, the global limit levels is 2 to 10`},
		{"noul preset with other keys", func(s string) string {
			return strings.Replace(s, `"true": Insults`, `"yes": Insults`, 1)
		}, `preset "toxicity": a noul's criteria are "true" and "false", not "yes"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := buildCatalog(t, c.edit)
			if c.want == "" {
				if err != nil {
					t.Fatalf("want no error, got:\n%v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want an error containing %q, got none", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error does not contain %q:\n%v", c.want, err)
			}
			if !strings.Contains(err.Error(), load.CatalogPath+":") {
				t.Errorf("error names no position in %s:\n%v", load.CatalogPath, err)
			}
		})
	}
}

// TestCatalogFormatIsChecked: the loader validates the file against its
// JSON Schema, naming the line.
func TestCatalogFormatIsChecked(t *testing.T) {
	cases := []struct {
		name string
		edit func(string) string
		want string
	}{
		{"unknown key", inModel("vllm-sr/vela2", "abstain: true", "abstains: true"), "models[3].card.abstains: unknown key"},
		{"bad release date", inModel("vllm-sr/vela2", `release_date: "2026-04-15"`, `release_date: "2026-4-15"`), "models[3].release_date: does not match the pattern"},
		{"bad question type", inModel("vllm-sr/vela2", "[noul, choice, score, set, span]", "[noul, choice, score, sets, span]"), "models[3].card.question_types[3]: must be one of"},
		{"missing limits", inModel("vllm-sr/vela2", "      limits:\n        max_input_tokens: 8192\n        long_context_max_input_tokens: 32768\n", "      limit_s:\n        max_input_tokens: 8192\n        long_context_max_input_tokens: 32768\n"), `missing required key "limits"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := load.LoadCatalog(catalogFS(t, c.edit))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error containing %q, got:\n%v", c.want, err)
			}
		})
	}
}
