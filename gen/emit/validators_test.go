package emit

import (
	"bytes"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// smallValidationModel is a two-schema model small enough to read its
// generated validator whole: a standard schema with noul, choice and a
// removed-form-free request, and an extended schema that adds roles,
// options, a numeric enum, a question type a preset excuses, batch items
// without options, and refuses removed forms.
func smallValidationModel() *model.Model {
	content := model.Type{Kinds: []model.Kind{model.KindString, model.KindObject, model.KindArray}, Ref: "content"}
	nullableContent := content
	nullableContent.Nullable = true
	one, two, ten := 1, 2, 10
	minOne := 1.0
	questionType := model.Type{Kinds: []model.Kind{model.KindString}, Enum: []string{"noul", "choice", "score"}}
	standardQuestion := []model.Member{
		{Name: "type", Spec: model.SpecStandard, Type: questionType, Required: true},
		{Name: "instructions", Spec: model.SpecStandard, Type: nullableContent},
		{Name: "criteria", Spec: model.SpecStandard, Type: model.Type{Kinds: []model.Kind{model.KindObject, model.KindArray}, Nullable: true}},
	}
	standardRequest := []model.Member{
		{Name: "model", Spec: model.SpecStandard, Type: model.Type{Kinds: []model.Kind{model.KindString}}, Required: true},
		{Name: "state", Spec: model.SpecStandard, Type: content, Required: true},
		{Name: "questions", Spec: model.SpecStandard, Required: true, Type: model.Type{
			Kinds: []model.Kind{model.KindObject}, MinCount: &one,
			Values: &model.Type{Kinds: []model.Kind{model.KindObject}, Ref: "question"},
		}},
	}
	questionTypes := []model.QuestionTypeShape{
		{Type: table.QuestionNoul, Members: []string{"type", "instructions", "criteria", "rate", "preset"}, Criteria: model.Criteria{
			Kind: model.CriteriaNoul, Nullable: true, Keys: []string{"true", "false"}, Values: &nullableContent}},
		{Type: table.QuestionChoice, Members: []string{"type", "instructions", "criteria"}, Criteria: model.Criteria{
			Kind: model.CriteriaOptions, Required: true, Values: &nullableContent, MinCount: &one, MaxCount: &ten}},
		{Type: table.QuestionScore, Members: []string{"type", "instructions", "criteria"}, Criteria: model.Criteria{
			Kind: model.CriteriaLevels, Required: true, Values: &content, MinCount: &two, MaxCount: &ten}},
	}
	extRequest := append(append([]model.Member(nil), standardRequest...),
		model.Member{Name: "roles", Spec: model.SpecExtensions, Type: model.Type{
			Kinds: []model.Kind{model.KindObject}, Values: &model.Type{Kinds: []model.Kind{model.KindString}, Enum: []string{"user", "context"}}}},
		model.Member{Name: "options", Spec: model.SpecExtensions, Type: model.Type{Kinds: []model.Kind{model.KindObject}, Ref: "options"}},
	)
	extQuestion := append(append([]model.Member(nil), standardQuestion...),
		model.Member{Name: "rate", Spec: model.SpecExtensions, Type: model.Type{Kinds: []model.Kind{model.KindInteger}, Enum: []string{"1", "2"}}},
		model.Member{Name: "preset", Spec: model.SpecExtensions, Type: model.Type{Kinds: []model.Kind{model.KindString}}})
	extQuestion[0].RequiredUnless = []string{"preset"}
	batchItem := append([]model.Member(nil), extRequest[:len(extRequest)-1]...) // no options
	batchItem[0].Required = false                                               // the batch's model
	return &model.Model{
		Specs: []model.Spec{
			{Kind: model.SpecStandard, Path: "specs/small/standard.yaml", SchemaID: table.SchemaStandard02},
			{Kind: model.SpecExtensions, Path: "specs/small/extensions.yaml", SchemaID: table.SchemaVllmSR50},
		},
		NamedTypes: []model.NamedType{{Name: "content", Spec: model.SpecStandard, Type: model.Type{Kinds: content.Kinds}}},
		RemovedForms: []model.RemovedForm{
			{Form: "choices", Level: table.LevelQuestion, Replacement: model.Replacement{Kind: model.ReplacedByField, Level: table.LevelQuestion, Name: "criteria"}},
			{Form: "states", Level: table.LevelRequest, Replacement: model.Replacement{Kind: model.ReplacedByEndpoint, Name: "POST /v1/systemone/batch"}},
			{Form: "long_context", Level: table.LevelOptions, Replacement: model.Replacement{Kind: model.ReplacedByHeader, Name: "TypeSafe-Danger-Zone-Long-Context", Value: "true"}},
		},
		Schemas: []model.Schema{
			{ID: table.SchemaStandard02, Specs: []model.SpecKind{model.SpecStandard},
				Messages: []model.Message{
					{Level: table.LevelRequest, Members: standardRequest},
					{Level: table.LevelQuestion, Members: standardQuestion},
				},
				QuestionTypes: []model.QuestionTypeShape{questionTypes[0], questionTypes[1], questionTypes[2]},
			},
			{ID: table.SchemaVllmSR50, Specs: []model.SpecKind{model.SpecStandard, model.SpecExtensions},
				Messages: []model.Message{
					{Level: table.LevelRequest, Members: extRequest},
					{Level: table.LevelOptions, Members: []model.Member{
						{Name: "deadline_ms", Spec: model.SpecExtensions, Type: model.Type{Kinds: []model.Kind{model.KindInteger}, Minimum: &minOne}},
					}},
					{Level: table.LevelQuestion, Members: extQuestion},
					{Level: model.LevelBatchName, Members: []model.Member{
						{Name: "model", Spec: model.SpecExtensions, Type: model.Type{Kinds: []model.Kind{model.KindString}}},
						{Name: "requests", Spec: model.SpecExtensions, Required: true, Type: model.Type{
							Kinds: []model.Kind{model.KindObject}, Values: &model.Type{Kinds: []model.Kind{model.KindObject}, Ref: "request"}}},
					}},
				},
				QuestionTypes: questionTypes,
				Entries: []model.EntryMessage{{Container: table.LevelBatch, Member: "requests",
					Message: model.Message{Level: table.LevelRequest, Members: batchItem}}},
			},
		},
	}
}

func TestValidatorsGoldenSmallModel(t *testing.T) {
	files, err := DefaultOptions().validators(smallValidationModel())
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0].Path != "generated/validate/zz_generated.validate.go" {
		t.Fatalf("files = %v", files)
	}
	src := files[0].Data
	if _, err := parser.ParseFile(token.NewFileSet(), "zz_generated.validate.go", src, parser.AllErrors); err != nil {
		t.Fatalf("generated code does not parse: %v", err)
	}
	first, _, _ := bytes.Cut(src, []byte("\n"))
	wantHeader := "// Code generated by srgen from specs/small/standard.yaml, specs/small/extensions.yaml. DO NOT EDIT."
	if string(first) != wantHeader {
		t.Errorf("first line = %q, want %q", first, wantHeader)
	}
	testkit.GoldenCheck(t, "testdata/validators/small.go.golden", src)
}

func TestValidatorsDeterministic(t *testing.T) {
	a, errA := DefaultOptions().validators(smallValidationModel())
	b, errB := DefaultOptions().validators(smallValidationModel())
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	if !bytes.Equal(a[0].Data, b[0].Data) {
		t.Error("two runs over the same model gave different bytes")
	}
}

// TestValidatorsFactsComeFromTheModel renames a member and an enum value in
// the model and expects the generated code to follow: nothing is typed in
// the emitter.
func TestValidatorsFactsComeFromTheModel(t *testing.T) {
	m := smallValidationModel()
	for _, members := range [][]model.Member{m.Schemas[1].Messages[0].Members, m.Schemas[1].Entries[0].Message.Members} {
		roles := &members[3]
		roles.Name = "parts"
		roles.Type.Values = &model.Type{Kinds: []model.Kind{model.KindString}, Enum: []string{"user", "witness"}}
	}
	files, err := DefaultOptions().validators(m)
	if err != nil {
		t.Fatal(err)
	}
	src := string(files[0].Data)
	for _, want := range []string{`case "parts":`, `isText(m1.Value, "witness")`, `Expected: "user or witness"`} {
		if !strings.Contains(src, want) {
			t.Errorf("generated code lacks %s", want)
		}
	}
	if strings.Contains(src, `case "roles":`) {
		t.Error("generated code still names roles")
	}
}

func TestValidatorsRefuseBrokenModels(t *testing.T) {
	cases := []struct {
		name   string
		breaks func(*model.Model)
		want   string
	}{
		{"unknown reference", func(m *model.Model) {
			m.Schemas[0].Messages[0].Members[2].Type.Values.Ref = "nothing"
		}, `unknown reference "nothing"`},
		{"non-integer enum", func(m *model.Model) {
			m.Schemas[1].Messages[2].Members[3].Type.Enum = []string{"one"}
		}, `enum value "one" is not an integer`},
		{"no discriminator", func(m *model.Model) {
			m.Schemas[0].Messages[1].Members[0].Type.Enum = nil
		}, "no member names every question type"},
	}
	for _, c := range cases {
		m := smallValidationModel()
		c.breaks(m)
		_, err := DefaultOptions().validators(m)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// TestValidatorsRealSpecs emits the validators of the repository's own
// specifications and compares them with the committed package, which
// -update (or SRGEN_UPDATE_GOLDEN=1) rewrites.
func TestValidatorsRealSpecs(t *testing.T) {
	m, err := model.LoadDir("../..")
	if err != nil {
		t.Fatal(err)
	}
	files, err := DefaultOptions().validators(m)
	if err != nil {
		t.Fatal(err)
	}
	testkit.GoldenCheck(t, "../../"+files[0].Path, files[0].Data)
}
