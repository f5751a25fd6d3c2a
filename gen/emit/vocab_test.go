package emit

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

func TestVocabCamel(t *testing.T) {
	for in, want := range map[string]string{
		"model":                             "Model",
		"deadline_ms":                       "DeadlineMs",
		"data_base64":                       "DataBase64",
		"api_version":                       "APIVersion",
		"id":                                "ID",
		"TypeSafe-Danger-Zone-Long-Context": "TypeSafeDangerZoneLongContext",
		"retry-after-ms":                    "RetryAfterMs",
		"x-typesafe-request-id":             "XTypesafeRequestID",
		"implicit roles":                    "ImplicitRoles",
		"true":                              "True",
		"":                                  "",
	} {
		if got := vocabCamel(in); got != want {
			t.Errorf("vocabCamel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVocabPathName(t *testing.T) {
	for in, want := range map[string]string{
		"/v1/systemone":       "PathSystemone",
		"/v1/systemone/batch": "PathSystemoneBatch",
		"/health":             "PathHealth",
		"/v2/models":          "PathModels",
		"/v1":                 "PathV1", // a version alone is the path's only segment
	} {
		if got := vocabPathName(in); got != want {
			t.Errorf("vocabPathName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVocabNamesNumberCollisionsInClaimOrder(t *testing.T) {
	n := newVocabNames("Members")
	for _, c := range []struct{ ident, what, want, note string }{
		{"RequestModel", "request.model", "RequestModel", ""},
		{"RequestModel", "request.model_", "RequestModel2", "named RequestModel2 because RequestModel is request.model"},
		{"RequestModel", "request.-model", "RequestModel3", "named RequestModel3 because RequestModel is request.model"},
		{"Members", "level members", "Members2", "named Members2 because Members is a declaration of the package"},
	} {
		got, note := n.claim(c.ident, c.what)
		if got != c.want || note != c.note {
			t.Errorf("claim(%s, %s) = %s, %q; want %s, %q", c.ident, c.what, got, note, c.want, c.note)
		}
	}
}

// vocabCollisionFixture is the emitter fixture plus spellings that
// camel-case alike: within a level (model, model_), across groups (a code
// and a question error kind both named overloaded stay apart by prefix;
// two limits body_bytes and body-bytes do not).
func vocabCollisionFixture(t *testing.T) *model.Model {
	m := fixtureModel(t)
	m.Fields = append(m.Fields, model.Field{Spec: model.SpecContract40, Level: table.LevelRequest, Name: "model_",
		Disposition: table.DispositionLegacy, Schemas: []table.SchemaID{table.SchemaVllmSR40}})
	m.Schemas[2].Messages[0].Members = append(m.Schemas[2].Messages[0].Members, model.Member{Name: "model_", Spec: model.SpecContract40})
	max := int64(5)
	m.Limits = append(m.Limits, model.Limit{Name: "body-bytes", Max: &max, Unit: "bytes"})
	m.QuestionErrors = append(m.QuestionErrors, model.QuestionError{Kind: "overloaded", Status: 529})
	return m
}

// TestVocabGolden pins the vocabulary of a model whose spellings collide;
// the fixture tree (TestEmittersGolden) pins the plain case.
func TestVocabGolden(t *testing.T) {
	files, err := fixtureOptions.vocab(vocabCollisionFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "generated/vocab/zz_generated.vocab.go" {
		t.Fatalf("files = %v, want generated/vocab/zz_generated.vocab.go alone", files)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), files[0].Path, files[0].Data, parser.AllErrors); err != nil {
		t.Fatalf("the vocabulary is not Go: %v", err)
	}
	src := strings.Join(strings.Fields(string(files[0].Data)), " ") // gofmt aligns with runs of blanks
	for _, want := range []string{
		`RequestModel2 = "model_" // defined by vllm-sr/4.0; named RequestModel2 because RequestModel is request.model`,
		`LimitBodyBytes2 int64 = 5 // body-bytes: the maximum, in bytes; named LimitBodyBytes2 because LimitBodyBytes is the maximum of limit body_bytes`,
		`{Name: RequestModel2, DefinedBy: "vllm-sr/4.0", Disposition: "legacy"}`,
		`QuestionErrorOverloaded = "overloaded"`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the vocabulary lacks %q", want)
		}
	}
	testkit.GoldenCheck(t, "testdata/vocab/collisions.go.golden", files[0].Data)
}

// TestVocabRefusesInconsistentModels: a member no field defines, or whose
// spec defines no such field, has no constant or disposition to emit.
func TestVocabRefusesInconsistentModels(t *testing.T) {
	cases := []struct {
		name, want string
		breakIt    func(m *model.Model)
	}{
		{"member without a field", `member "colour" is no field of any specification`, func(m *model.Model) {
			m.Schemas[0].Messages[0].Members = append(m.Schemas[0].Messages[0].Members, model.Member{Name: "colour", Spec: model.SpecStandard})
		}},
		{"member of the wrong spec", `its specification contract_4_0 defines no such field`, func(m *model.Model) {
			m.Schemas[0].Messages[0].Members[0].Spec = model.SpecContract40
		}},
		{"member of no spec", `member "model"`, func(m *model.Model) { m.Schemas[0].Messages[0].Members[0].Spec = "" }},
		{"reason twice", `"invalid_json" appears twice`, func(m *model.Model) { m.ErrorReasons[1].Reason = "invalid_json" }},
		{"part twice", `part "history" appears twice`, func(m *model.Model) { m.ImplicitRoles.Parts[0].Key = "history" }},
		{"no default role", "no default role", func(m *model.Model) { m.ImplicitRoles.Default = "" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := fixtureModel(t)
			tc.breakIt(m)
			_, err := fixtureOptions.vocab(m)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
