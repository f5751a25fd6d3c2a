package listener_test

import (
	"github.com/vllm-sr/systemone/runtime/testkit"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// The answer writers' cost: a response of every answer kind with the
// extension members, a batch of them, an error and a listing, each as
// vllm-sr/5.0 writes it.

func benchResponse(b *testing.B) ir.Response {
	legend, _ := jsonvalue.Decode([]byte(`{"0":"lo","1":"hi"}`), jsonvalue.Options{})
	meta, _ := jsonvalue.Decode([]byte(`{"engine":"test","device":"cpu"}`), jsonvalue.Options{})
	return ir.Response{Model: str("jev-1.0"), Usage: &ir.Usage{InputTokens: 212, OutputTokens: 3}, Answers: []ir.Answer{
		{Name: "a", Type: "noul", Noul: fl(0.88), AbstainProbability: fl(0.01)},
		{Name: "b", Type: "choice", Choice: str("y"), Probabilities: []ir.Probability{{Key: "x", P: 0.1}, {Key: "y", P: 0.9}}, Confidence: fl(0.8)},
		{Name: "c", Type: "score", Score: fl(0.7), Probabilities: []ir.Probability{{Key: "0", P: 0.3}, {Key: "1", P: 0.7}}, Confidence: fl(0.4), Legend: legend.Members()},
		{Name: "d", Type: "box", Box: &ir.Box{Top: 0.25, Bottom: 0.82, Left: 0.44, Right: 0.84}, Confidence: fl(0.92)},
		{Name: "e", Type: "span", Noul: fl(0.9)},
		{Name: "f", Type: "choice", Error: ir.QuestionErrorDeadlineExceeded, Reason: "deadline", Message: "the deadline passed before the question ran"},
	},
		Spans:      []ir.QuestionSpans{{Question: "e", Spans: []ir.Span{{Label: "email", Start: 3, End: 9, Text: "a@b.co", Probability: 0.9}}}},
		Thresholds: []ir.QuestionThreshold{{Question: "e", Threshold: 0.5}},
		Meta:       meta,
	}
}

func BenchmarkAnswerResponse(b *testing.B) {
	c := findCase(b, "extension-members")
	cr, err := listener.V50.Read(c.Path, c.Body, c.Header)
	if err != nil {
		b.Fatal(err)
	}
	out := listener.Outcome{Response: new(benchResponse(b))}
	b.ReportAllocs()
	done := testkit.CPUPerOp(b)
	for b.Loop() {
		if _, err := listener.V50.AnswerSuccess(cr, out); err != nil {
			b.Fatal(err)
		}
	}
	done()
}

func BenchmarkAnswerBatch(b *testing.B) {
	c := findCase(b, "batch-guide")
	cr, err := listener.V50.Read(c.Path, c.Body, c.Header)
	if err != nil {
		b.Fatal(err)
	}
	r := benchResponse(b)
	out := listener.Outcome{Batch: &ir.BatchResponse{Model: str("m"), Responses: []ir.NamedResponse{{Name: "doc_1", Response: r}, {Name: "doc_2", Response: r}}}}
	b.ReportAllocs()
	done := testkit.CPUPerOp(b)
	for b.Loop() {
		if _, err := listener.V50.AnswerSuccess(cr, out); err != nil {
			b.Fatal(err)
		}
	}
	done()
}

func BenchmarkAnswerError(b *testing.B) {
	limit := int64(16)
	e := &ir.ErrorBody{Status: 422, Code: ir.ErrorQuestionFailed, Question: "q", State: "s", Reason: "too_many", Limit: &limit,
		Message: "question \"q\" cannot be answered", Detail: []ir.DetailItem{{Loc: ir.Path{{Name: "body"}, {Name: "questions"}, {Name: "q"}}, Msg: "too many", Type: "invalid_question"}}}
	b.ReportAllocs()
	done := testkit.CPUPerOp(b)
	for b.Loop() {
		listener.V40.AnswerError(nil, e)
	}
	done()
}

func BenchmarkAnswerListing(b *testing.B) {
	card, _ := jsonvalue.Decode([]byte(`{"limits":{"tokens":8192}}`), jsonvalue.Options{})
	l := &ir.Listing{Models: []ir.ListedModel{
		{Name: "a", Description: "the a model", ReleaseDate: "2025-01-01", Version: str("5.0"), Features: []string{"noul", "choice"}, Card: card},
		{Name: "b", Description: "the b model", ReleaseDate: "2025-02-01"},
	}}
	b.ReportAllocs()
	done := testkit.CPUPerOp(b)
	for b.Loop() {
		if _, err := listener.V40.AnswerListing(l); err != nil {
			b.Fatal(err)
		}
	}
	done()
}
