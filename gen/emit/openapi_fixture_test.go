package emit

import (
	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// smallOpenAPIModel is smallValidationModel (a request, questions of
// three types, options and a batch) with what a server contract adds:
// answers (score answering as a noul), a response, an error body, two
// endpoints (the standard's and the extension set's), statuses, the error
// tables, a body limit and headers of each kind.
func smallOpenAPIModel() *model.Model {
	m := smallValidationModel()
	std, ext := &m.Specs[0], &m.Specs[1]
	std.Title, std.Version = "The small standard", "0.2.0"
	ext.Title, ext.Version = "The small extension set", "5.0"
	s := &m.Schemas[1]
	// A document cannot tell a preset-only question's variant (union).
	s.Messages[2].Members[0].RequiredUnless = nil
	str := model.Type{Kinds: []model.Kind{model.KindString}}
	prob := model.Type{Kinds: []model.Kind{model.KindNumber}, Minimum: new(0.0), Maximum: new(1.0)}
	questionErrors := model.Type{Kinds: []model.Kind{model.KindString}, Enum: []string{"invalid_question", "unavailable"}}
	s.Messages = append(s.Messages,
		model.Message{Level: table.LevelAnswer, Members: []model.Member{
			{Name: "type", Spec: model.SpecStandard, Type: model.Type{Kinds: str.Kinds, Enum: []string{"noul", "choice"}}, Required: true},
			{Name: "noul", Spec: model.SpecStandard, Type: prob, Required: true, QuestionTypes: []table.QuestionType{table.QuestionNoul}},
			{Name: "choice", Spec: model.SpecStandard, Type: str, Required: true, QuestionTypes: []table.QuestionType{table.QuestionChoice}},
			{Name: "error", Spec: model.SpecExtensions, Type: questionErrors},
		}},
		model.Message{Level: table.LevelResponse, Members: []model.Member{
			{Name: "model", Spec: model.SpecStandard, Type: str, Required: true},
			{Name: "answers", Spec: model.SpecStandard, Required: true, Type: model.Type{
				Kinds: []model.Kind{model.KindObject}, MinCount: new(1),
				Values: &model.Type{Kinds: []model.Kind{model.KindObject}, Ref: "answer"}}},
		}},
		model.Message{Level: table.LevelError, Members: []model.Member{
			{Name: "detail", Spec: model.SpecStandard, Type: str},
			{Name: model.ErrorCodeFieldName, Spec: model.SpecExtensions, Type: str},
		}},
	)
	answers := map[table.QuestionType][]string{
		table.QuestionNoul: {"type", "noul", "error"}, table.QuestionChoice: {"type", "choice", "error"}, table.QuestionScore: {"type", "noul", "error"},
	}
	for i := range s.QuestionTypes {
		qt := &s.QuestionTypes[i]
		qt.AnswerMembers = answers[qt.Type]
		if qt.Type == table.QuestionScore {
			qt.AnswersAs = table.QuestionNoul
		}
	}
	both := []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50}
	m.Endpoints = []model.Endpoint{
		{Method: "POST", Path: "/v1/systemone", Spec: model.SpecStandard, Request: table.LevelRequest, Response: table.LevelResponse,
			Statuses: []int{200, 422}, Schemas: both, Description: "Answers one request."},
		{Method: "POST", Path: "/v1/systemone/batch", Spec: model.SpecExtensions, Request: table.LevelBatch, Response: table.LevelResponse,
			Statuses: []int{200, 400, 503}, Schemas: both[1:], Description: "Answers named requests."},
	}
	m.Statuses = []model.Status{
		{Code: 422, Spec: model.SpecStandard, Body: table.LevelError, Meaning: "A schema violation."},
		{Code: 400, Spec: model.SpecExtensions, Body: table.LevelError, Meaning: "A bad request."},
		{Code: 503, Spec: model.SpecExtensions, Body: table.LevelError, Meaning: "Not now."},
	}
	m.QuestionErrors = []model.QuestionError{{Kind: "invalid_question", Status: 422, Description: "A malformed question."}, {Kind: "unavailable", Status: 503, Description: "Not ready."}}
	m.RequestErrors = []model.RequestError{
		{Code: "invalid_request", Status: 400, Description: "A malformed body."},
		{Code: "question_failed", Description: "A question failed."},
		{Code: "starting", Status: 503, RetryAfter: true, Description: "Starting."},
	}
	m.Limits = []model.Limit{{Name: "body_bytes", Max: new(int64(10)), Unit: "bytes", Description: "Ten bytes."}}
	m.Headers = []model.Header{
		{Name: "Authorization", Spec: model.SpecStandard, Direction: "request", Values: []string{"Bearer <key>"}, Description: "The key."},
		{Name: "Content-Type", Spec: model.SpecStandard, Direction: "request", Values: []string{"application/json"}, Description: "JSON."},
		{Name: "X-Long", Spec: model.SpecStandard, Direction: "request", Values: []string{"true"}, Description: "Longer inputs."},
		{Name: "x-request-id", Spec: model.SpecStandard, Direction: "response", Description: "The request's id."},
	}
	m.Fields = []model.Field{
		{Spec: model.SpecStandard, Level: table.LevelRequest, Name: "state", Description: "What the questions are about."},
		{Spec: model.SpecExtensions, Level: table.LevelRequest, Name: "roles", Since: "5.0", Description: "Which keys hold what."},
		{Spec: model.SpecStandard, Level: table.LevelQuestionType, Name: "noul", Description: "A yes-or-no question."},
		{Spec: model.SpecExtensions, Level: table.LevelAnswer, Name: "error", Since: "5.0", Description: "Why the question has no answer."},
	}
	return m
}
