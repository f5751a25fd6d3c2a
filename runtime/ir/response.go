package ir

import (
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Response answers one request.
type Response struct {
	// Model is the model that answered; nil when absent.
	Model *string
	// Answers are the answers, in the order of the request's questions.
	Answers []Answer
	// Usage is nil when absent.
	Usage *Usage
	// Spans, Sets, Thresholds and SpanHeads are the extension response
	// members, each keyed by question name in order; nil when absent.
	Spans      []QuestionSpans
	Sets       []QuestionSet
	Thresholds []QuestionThreshold
	SpanHeads  []QuestionSpanHead
	// Meta (with options.return_meta) and Routing (added by vllm-sr/auto)
	// are content; the zero Value when absent.
	Meta    jsonvalue.Value
	Routing jsonvalue.Value
	// Extra: the passive members the specs define here, in the order
	// read, as read (see Request.Extra); a vllm-sr/5.0 writer writes them
	// back at their slots, a systemone/0.2 writer never.
	Extra []jsonvalue.Member
}

// Usage counts a call's tokens.
type Usage struct {
	InputTokens  int64
	OutputTokens int64
	// Extra: see Response.Extra.
	Extra []jsonvalue.Member
}

// Answer is one question's answer. Which fields are set follows Type:
// noul sets Noul; choice sets Choice, Probabilities and Confidence; score
// sets Score, Probabilities, Confidence and Legend; box sets Box and
// Confidence; set and span answer a Noul and contribute to the response's
// Sets and Spans. On /v1/decisions a failed question sets Error, Reason and
// Message instead.
type Answer struct {
	Name string
	Type table.QuestionType

	Noul       *float64
	Choice     *string
	Score      *float64
	Confidence *float64
	// Probabilities are keyed by option, or by level index as a string
	// ("0", "1", ...), in the order answered.
	Probabilities []Probability
	// Legend echoes a score's levels: level key to content, in order.
	Legend []jsonvalue.Member
	Box    *Box
	// Track is a track answer: family-specific, kept as content; the zero
	// Value when absent.
	Track jsonvalue.Value

	AbstainProbability *float64
	// InputCoverage is empty when absent.
	InputCoverage Coverage

	// Error is empty for an answered question. Reason is a fixed word and
	// Message a sentence for a person; neither carries request data.
	Error   QuestionErrorCode
	Reason  string
	Message string
	// Limit is the limit Reason names, when one was broken; nil otherwise.
	Limit *int64
	// Extra: see Response.Extra.
	Extra []jsonvalue.Member
}

// Probability is one key's probability.
type Probability struct {
	Key string
	P   float64
}

// Box is a box answer: edges as fractions from the top-left corner.
type Box struct {
	Top, Bottom, Left, Right float64
	// Extra: see Response.Extra.
	Extra []jsonvalue.Member
}

// Span is one span of a span question.
type Span struct {
	Label string
	// Start and End are Unicode code points into the text the question
	// read, End exclusive.
	Start, End  int64
	Text        string
	Probability float64
	// Extra: see Response.Extra.
	Extra []jsonvalue.Member
}

// QuestionSpans are one span question's spans.
type QuestionSpans struct {
	Question string
	Spans    []Span
}

// QuestionSet is one set question's result.
type QuestionSet struct {
	Question string
	// Selected are the labels that apply, in order.
	Selected []string
	// Probabilities has every label's probability.
	Probabilities []Probability
	// Extra: see Response.Extra.
	Extra []jsonvalue.Member
}

// QuestionThreshold is the threshold applied to a set or span question.
type QuestionThreshold struct {
	Question  string
	Threshold float64
}

// QuestionSpanHead is the span head that answered a span question.
type QuestionSpanHead struct {
	Question string
	Head     SpanHead
}

// BatchResponse answers a batch, or a vllm-sr/4.0 states request: each
// request's (or state's) response under its name, in order.
type BatchResponse struct {
	Model     *string
	Responses []NamedResponse
	// Usage sums every response's usage; nil when absent.
	Usage *Usage
	// Extra: see Response.Extra.
	Extra []jsonvalue.Member
}

// NamedResponse is one named response of a batch.
type NamedResponse struct {
	Name     string
	Response Response
}
