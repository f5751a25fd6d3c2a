package emit

import (
	"testing"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// fixtureModel is a small model that exercises every emitter: a few fields
// of each spec and disposition, three schemas, endpoints, removed forms,
// families, errors, limits, error reasons, implicit roles and two corpus
// cases.
func fixtureModel(t testing.TB) *model.Model {
	t.Helper()
	hash := func(c byte) string {
		b := make([]byte, 64)
		for i := range b {
			b[i] = c
		}
		return string(b)
	}
	one, ten := int64(1), int64(10)
	body := func(s string) jsonvalue.Value {
		v, err := jsonvalue.Decode([]byte(s), jsonvalue.Options{})
		if err != nil {
			t.Fatalf("fixture body: %v", err)
		}
		return v
	}
	content := model.Type{Kinds: []model.Kind{model.KindString, model.KindObject, model.KindArray}}
	return &model.Model{
		Specs: []model.Spec{
			{Kind: model.SpecStandard, Path: "specs/systemone/std.yaml", SHA256: hash('a'), SchemaID: table.SchemaStandard02, Version: "0.2.0", Title: "The standard",
				Source: &model.Source{URL: "https://example.com/openapi.json", SHA256: hash('d'), OpenAPIVersion: "3.1.0", DocsURL: "https://example.com/docs"}},
			{Kind: model.SpecExtensions, Path: "specs/systemone/ext.yaml", SHA256: hash('b'), SchemaID: table.SchemaVllmSR50, Version: "5.0", Title: "The extension set"},
			{Kind: model.SpecContract40, Path: "specs/systemone/v4.yaml", SHA256: hash('c'), SchemaID: table.SchemaVllmSR40, Version: "4.0.0", Title: "The 4.0 contract"},
		},
		Fields: []model.Field{
			{Spec: model.SpecStandard, Level: table.LevelRequest, Name: "model", Type: model.Type{Kinds: []model.Kind{model.KindString}}, TypeText: "string", Required: true, Since: "0.2",
				Disposition: table.DispositionStandard, Description: "The model | alias.", DocumentedIn: []model.DocSource{model.DocOpenAPI}, Schemas: []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50, table.SchemaVllmSR40}},
			{Spec: model.SpecStandard, Level: table.LevelRequest, Name: "state", Type: content, Required: true, Since: "0.2",
				Disposition: table.DispositionStandard, Description: "What every question is about.", DocumentedIn: []model.DocSource{model.DocOpenAPI, model.DocProse}, Schemas: []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50, table.SchemaVllmSR40}},
			{Spec: model.SpecExtensions, Level: table.LevelRequest, Name: "roles", TypeText: "object of user or context", Since: "5.0", Families: []table.Family{table.FamilyVela3}, FamiliesText: "vela3",
				Disposition: table.DispositionStripped, Description: "Which state keys hold what.", Schemas: []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40}},
			{Spec: model.SpecExtensions, Level: table.LevelQuestion, Name: "head", TypeText: "router or broad", Since: "5.0", Families: []table.Family{table.FamilyVela3}, FamiliesText: "vela3",
				QuestionTypes: []table.QuestionType{table.QuestionSpan}, Disposition: table.DispositionRefusedAtLoad, Description: "The span head.", Schemas: []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40}},
			{Spec: model.SpecExtensions, Level: table.LevelAnswer, Name: "error", TypeText: "invalid_question or unavailable", Since: "5.0", Families: []table.Family{table.FamilyDecision1, table.FamilyVela3}, FamiliesText: "all",
				Disposition: table.DispositionNeverSent, Description: "Why this question has no answer.", Schemas: []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40}},
			{Spec: model.SpecContract40, Level: table.LevelQuestion, Name: "choices", TypeText: "object", Since: "4.0",
				QuestionTypes: []table.QuestionType{table.QuestionChoice, table.QuestionNoul}, Disposition: table.DispositionLegacy, Description: "4.0's options.", Schemas: []table.SchemaID{table.SchemaVllmSR40}},
		},
		Schemas: []model.Schema{
			{ID: table.SchemaStandard02, Messages: []model.Message{
				{Level: table.LevelRequest, Members: []model.Member{{Name: "model", Spec: model.SpecStandard, Required: true}, {Name: "state", Spec: model.SpecStandard, Required: true}}},
			}, Endpoints: []string{"POST /v1/systemone"}},
			{ID: table.SchemaVllmSR50, Messages: []model.Message{
				{Level: table.LevelRequest, Members: []model.Member{{Name: "model", Spec: model.SpecStandard}, {Name: "state", Spec: model.SpecStandard, Required: true}, {Name: "roles", Spec: model.SpecExtensions}}},
				{Level: table.LevelQuestion, Members: []model.Member{{Name: "head", Spec: model.SpecExtensions, QuestionTypes: []table.QuestionType{table.QuestionSpan}}}},
			}, Endpoints: []string{"POST /v1/systemone", "POST /v1/decisions"}},
			{ID: table.SchemaVllmSR40, Messages: []model.Message{
				{Level: table.LevelRequest, Members: []model.Member{{Name: "model", Spec: model.SpecStandard}, {Name: "state", Spec: model.SpecStandard}, {Name: "roles", Spec: model.SpecExtensions}}},
				{Level: table.LevelQuestion, Members: []model.Member{{Name: "head", Spec: model.SpecExtensions, QuestionTypes: []table.QuestionType{table.QuestionSpan}},
					{Name: "choices", Spec: model.SpecContract40, QuestionTypes: []table.QuestionType{table.QuestionChoice, table.QuestionNoul}, Removed: true}}},
			}, Endpoints: []string{"POST /v1/systemone", "POST /v1/decisions"}},
		},
		Endpoints: []model.Endpoint{
			{Method: "POST", Path: "/v1/systemone", Spec: model.SpecStandard, Since: "0.2", Request: table.LevelRequest, Response: table.LevelResponse, Statuses: []int{200, 422},
				DocumentedIn: []model.DocSource{model.DocOpenAPI}, Schemas: []table.SchemaID{table.SchemaStandard02}, Description: "Answers one request."},
			{Method: "POST", Path: "/v1/decisions", Spec: model.SpecExtensions, Since: "5.0", FamiliesText: "all", Request: table.LevelRequest, Response: table.LevelResponse, Statuses: []int{200, 400},
				Schemas: []table.SchemaID{table.SchemaVllmSR50}, Description: "The native form."},
			{Method: "POST", Path: "/v1/systemone", Spec: model.SpecContract40, Since: "4.0", Request: table.LevelRequest, Response: table.LevelResponse, Statuses: []int{200},
				Schemas: []table.SchemaID{table.SchemaVllmSR40}, Description: "4.0's endpoint."},
		},
		Headers: []model.Header{
			{Name: "TypeSafe-Danger-Zone-Long-Context", Symbol: "long_context", Spec: model.SpecStandard, Direction: "request", Values: []string{"true"}, DocumentedIn: []model.DocSource{model.DocProse}, Description: "Long context."},
			{Name: "x-request-id", Spec: model.SpecStandard, Direction: "response", DocumentedIn: []model.DocSource{model.DocProse}, Description: "The request's id."},
		},
		Statuses: []model.Status{
			{Code: 422, Spec: model.SpecStandard, Body: table.LevelError, Meaning: "Validation failed.", DocumentedIn: []model.DocSource{model.DocOpenAPI}},
			{Code: 529, Spec: model.SpecStandard, Meaning: "Overloaded.", DocumentedIn: []model.DocSource{model.DocProse}},
		},
		Conflicts: []model.Conflict{
			{Topic: "Score levels", Readings: []model.Reading{{Source: "api.md", Says: "2 to 10"}, {Source: "openapi.json", Says: "at least 1"}}, Resolution: "2 to 10."},
		},
		RemovedForms: []model.RemovedForm{
			{Form: "choices", Level: table.LevelQuestion, ReplacedBy: "criteria", Replacement: model.Replacement{Kind: model.ReplacedByField, Level: table.LevelQuestion, Name: "criteria"}, Note: "Options of a choice."},
			{Form: "states", Level: table.LevelRequest, ReplacedBy: "POST /v1/systemone/batch", Replacement: model.Replacement{Kind: model.ReplacedByEndpoint, Name: "POST /v1/systemone/batch"}, Note: "One request."},
		},
		Families: []model.Family{
			{Name: table.FamilyDecision1, QuestionTypes: []table.QuestionType{table.QuestionChoice, table.QuestionNoul, table.QuestionScore}, Modalities: []string{"text"}},
			{Name: table.FamilyVela3, QuestionTypes: []table.QuestionType{table.QuestionNoul, table.QuestionSpan}, RoleAware: true, Modalities: []string{"text"}},
		},
		QuestionErrors: []model.QuestionError{{Kind: "invalid_question", Status: 422}, {Kind: "unavailable", Status: 503}},
		RequestErrors:  []model.RequestError{{Code: "invalid_request", Status: 400}, {Code: "question_failed"}, {Code: "overloaded", Status: 529, RetryAfter: true}},
		Limits: []model.Limit{
			{Name: "levels", Min: &one, Max: &ten, Unit: "items", QuestionTypes: []table.QuestionType{table.QuestionScore}},
			{Name: "questions", Min: &one, Unit: "items"},
			{Name: "body_bytes", Max: &ten, Unit: "bytes"},
		},
		ErrorReasons: []model.ErrorReason{
			{Reason: "invalid_json", Description: "The body is not valid JSON."},
			{Reason: "removed_form", Description: "A 4.0 form | its replacement."},
		},
		ImplicitRoles: model.ImplicitRoles{Default: "user", Parts: []model.ImplicitRole{
			{Key: "request", Role: "user"}, {Key: "history", Role: "context"}, {Key: "answer", Role: "answer"}, {Key: "context", Role: "context"},
		}},
		Corpus: model.Corpus{
			Files: []string{"specs/corpus/fixture.yaml"},
			Forms: []model.CorpusForm{{Name: "choices", Description: "Options of a choice.", Removed: true}},
			Cases: []model.CorpusCase{
				{Name: "vela3/relevance", Kind: table.CorpusFamilySelfTest, Family: table.FamilyVela3, Endpoint: "/v1/decisions", Source: "specs/corpus/fixture.yaml",
					Path: "family_self_test/vela3/relevance.json", Description: "A noul.",
					Body: body(`{"state": {"request": "Is it?", "candidate": "Yes"}, "roles": {"request": "user"}, "questions": {"r": {"type": "noul", "threshold": 1.0}}}`)},
				{Name: "choices", Kind: table.CorpusLegacyForm, Form: "choices", Endpoint: "/v1/systemone", Source: "specs/corpus/fixture.yaml",
					Path: "legacy_form/choices.json", Description: "4.0 choices.",
					Body: body(`{"state": "⟦img⟧ \u00e9", "questions": {"c": {"type": "choice", "choices": {"a": null, "b": "B"}}}}`)},
			},
		},
	}
}
