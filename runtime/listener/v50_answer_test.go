package listener_test

import (
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

func content(t *testing.T, s string) jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Decode([]byte(s), jsonvalue.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// outcomeFor builds a response answering the given question names, one of
// each answer kind in turn.
func answersFor(t *testing.T, names ...string) []ir.Answer {
	legend := content(t, `{"0":"lo","1":"hi"}`)
	kinds := []ir.Answer{
		{Type: "noul", Noul: fl(0.88), AbstainProbability: fl(0.01)},
		{Type: "choice", Choice: str("y"), Probabilities: []ir.Probability{{Key: "x", P: 0.1}, {Key: "y", P: 0.9}}, Confidence: fl(0.8)},
		{Type: "score", Score: fl(0.7), Probabilities: []ir.Probability{{Key: "0", P: 0.3}, {Key: "1", P: 0.7}}, Confidence: fl(0.4), Legend: legend.Members()},
		{Type: "noul", Noul: fl(0.5), InputCoverage: ir.CoverageComplete},
	}
	out := make([]ir.Answer, len(names))
	for i, n := range names {
		out[i] = kinds[i%len(kinds)]
		out[i].Name = n
	}
	return out
}

// TestV50AnswerGolden: outcomes in, bodies out (testdata/v50/answer/<name>.json).
func TestV50AnswerGolden(t *testing.T) {
	meta := content(t, `{"engine":"test","device":"cpu"}`)
	cases := []struct {
		name, request string
		out           func(cr *listener.ClientRequest) listener.Outcome
	}{
		{"response", "std-js-sdk", func(*listener.ClientRequest) listener.Outcome {
			return listener.Outcome{Response: &ir.Response{Model: str("jev-1.0"), Answers: answersFor(t, "a", "b", "s", "n"),
				Usage: &ir.Usage{InputTokens: 212}}}
		}},
		{"response-extensions", "extension-members", func(*listener.ClientRequest) listener.Outcome {
			return listener.Outcome{Response: &ir.Response{Answers: []ir.Answer{
				{Name: "p", Type: "span", Noul: fl(0.9)}, {Name: "s", Type: "set", Noul: fl(0.6)},
				{Name: "c", Type: "choice", Choice: str("a"), Probabilities: []ir.Probability{{Key: "a", P: 1}}, Confidence: fl(1)},
				{Name: "b", Type: "box", Box: &ir.Box{Top: 0.25, Bottom: 0.82, Left: 0.44, Right: 0.84}, Confidence: fl(0.92)},
				{Name: "t", Type: "track", Track: content(t, `{"rate":1,"moments":[{"second":0,"box":{"top":0.25,"bottom":0.82,"left":0.44,"right":0.84},"confidence":0.9}]}`)}},
				Spans:      []ir.QuestionSpans{{Question: "p", Spans: []ir.Span{{Label: "email", Start: 3, End: 9, Text: "a@b.co", Probability: 0.9}}}},
				Sets:       []ir.QuestionSet{{Question: "s", Selected: []string{"a"}, Probabilities: []ir.Probability{{Key: "a", P: 0.6}, {Key: "b", P: 0.1}}}},
				Thresholds: []ir.QuestionThreshold{{Question: "p", Threshold: 0.5}, {Question: "s", Threshold: 0.4}},
				SpanHeads:  []ir.QuestionSpanHead{{Question: "p", Head: ir.SpanHeadBroad}},
				Meta:       meta}}
		}},
		{"decisions-failures", "decisions-question-failures", func(*listener.ClientRequest) listener.Outcome {
			ans := answersFor(t, "ok", "ok2")
			ans[1] = ir.Answer{Name: "ok2", Type: "choice", Error: ir.QuestionErrorDeadlineExceeded, Reason: "deadline", Message: "the deadline passed before the question ran"}
			return listener.Outcome{Response: &ir.Response{Model: str("m"), Answers: ans, Usage: &ir.Usage{InputTokens: 5}}}
		}},
		{"batch", "batch-guide", func(*listener.ClientRequest) listener.Outcome {
			return listener.Outcome{Batch: &ir.BatchResponse{Model: str("vllm-sr/vela3-fast"), Responses: []ir.NamedResponse{
				{Name: "doc_1", Response: ir.Response{Model: str("vllm-sr/vela3-fast"), Answers: answersFor(t, "relevance"), Usage: &ir.Usage{InputTokens: 10, OutputTokens: 1}}},
				{Name: "doc_2", Response: ir.Response{Model: str("vllm-sr/vela3-fast"), Answers: answersFor(t, "relevance"), Usage: &ir.Usage{InputTokens: 7}}},
			}}}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rc := findCase(t, c.request)
			cr, err := listener.V50.Read(rc.Path, rc.Body, rc.Header)
			if err != nil {
				t.Fatal(err)
			}
			body, err := listener.V50.AnswerSuccess(cr, c.out(cr))
			if err != nil {
				t.Fatal(err)
			}
			testkit.GoldenCheck(t, "testdata/v50/answer/"+c.name+".json", []byte(indent(body)))
		})
	}
}

func TestV50AnswerErrorGolden(t *testing.T) {
	limit := int64(33554432)
	cases := map[string]ir.ErrorBody{
		"error-too-large":  {Code: ir.ErrorRequestTooLarge, Message: "the body is too large", Reason: "body_too_large", Limit: &limit},
		"error-overloaded": {Code: ir.ErrorOverloaded, Message: "the server is overloaded, retry later"},
		"error-starting":   {Code: "starting", Status: 503, Message: "the model is starting"},
		"error-question-deadline": {Status: 504, Code: ir.ErrorQuestionFailed, Question: "team", State: "doc_1",
			Reason: "deadline", Message: "question \"team\" passed its deadline"},
		"error-question-422": {Status: 422, Code: ir.ErrorQuestionFailed, Question: "team", Reason: "question_malformed",
			Message: "question \"team\" cannot be answered: the question is malformed"},
	}
	for name, e := range cases {
		t.Run(name, func(t *testing.T) {
			status, body := listener.V50.AnswerError(nil, &e)
			testkit.GoldenCheck(t, "testdata/v50/answer/"+name+".json", []byte("status "+itoa(status)+"\n"+indent(body)))
		})
	}
}

func itoa(n int) string { return string(jsonvalue.Compact(jsonvalue.Int(int64(n)))) }

func TestV50AnswerListingGolden(t *testing.T) {
	body, err := listener.V50.AnswerListing(listingFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	testkit.GoldenCheck(t, "testdata/v50/answer/listing.json", []byte(indent(body)))
}

func listingFixture(t *testing.T) *ir.Listing {
	return &ir.Listing{Models: []ir.ListedModel{
		{Name: "vllm-sr/vela3-fast", Description: "Vela 3.0 fast", ReleaseDate: "2026-10-01", Version: str("5.0"),
			Features: []string{"noul", "choice", "score", "span"}, Card: content(t, `{"limits":{"choices":{"min":2,"max":255}}}`)},
		{Name: "jev-latest", Description: "A standard model", ReleaseDate: "2026-09-15"},
	}}
}

// TestV50AnswerRefusesNonFinite: NaN cannot be written as JSON.
func TestV50AnswerRefusesNonFinite(t *testing.T) {
	rc := findCase(t, "std-bare-noul")
	cr, _ := listener.V50.Read(rc.Path, rc.Body, rc.Header)
	nan := 0.0
	nan = nan / nan
	if _, err := listener.V50.AnswerSuccess(cr, listener.Outcome{Response: &ir.Response{Answers: []ir.Answer{{Name: "q", Type: "noul", Noul: &nan}}}}); err == nil {
		t.Fatal("a NaN answer was written")
	}
	if _, err := listener.V50.AnswerSuccess(cr, listener.Outcome{}); err == nil {
		t.Fatal("an empty outcome was written")
	}
}
