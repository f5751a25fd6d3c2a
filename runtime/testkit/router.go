package testkit

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// Markers in a request body script the RouterRecorder's reply.
const (
	// SlowMarker makes the recorder hold the call past any test deadline.
	SlowMarker = "SLOW"
	// NoAnswerMarker in a question's instructions makes the recorder's 200
	// leave that question out of its answers, as a faulty upstream would.
	NoAnswerMarker = "NOANSWER"
	// OverloadedMarker makes the recorder answer 529 with Retry-After-Ms
	// OverloadedRetryAfterMs, the standard's overloaded reply.
	OverloadedMarker = "OVERLOADED"
	// RateLimitedMarker makes the recorder answer 429 with Retry-After
	// RateLimitedRetryAfter (seconds).
	RateLimitedMarker = "RATELIMITED"
)

// The delays the recorder's 529 and 429 replies ask for.
const (
	OverloadedRetryAfterMs = "1500"
	RateLimitedRetryAfter  = "3"
)

// RouterRecorder is a Router test upstream that speaks only
// systemone/0.2: it validates every POST /v1/systemone body with the
// generated systemone/0.2 validator, refuses any other member (every
// extension field) with 400 naming it, records each call and the most
// calls it saw in flight, and answers valid requests with the reference
// scorer, or as the markers above script it.
type RouterRecorder struct {
	Server *httptest.Server
	hold   time.Duration // how long each call is held, to show concurrency

	mu          sync.Mutex
	bodies      [][]byte
	refused     []string
	inFlight    int
	maxInFlight int
}

func NewRouterRecorder(t testing.TB, hold time.Duration) *RouterRecorder {
	rec := &RouterRecorder{hold: hold}
	rec.Server = httptest.NewServer(http.HandlerFunc(rec.serve))
	t.Cleanup(rec.Server.Close)
	return rec
}

func (rec *RouterRecorder) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == vocab.PathModels:
		writeBody(w, 200, standardListing)
	case r.Method == http.MethodPost && r.URL.Path == vocab.PathSystemone:
		rec.systemOne(w, r)
	default:
		writeBody(w, 404, `{"detail":"not found"}`)
	}
}

func (rec *RouterRecorder) systemOne(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.bodies = append(rec.bodies, body)
	rec.inFlight++
	rec.maxInFlight = max(rec.maxInFlight, rec.inFlight)
	rec.mu.Unlock()
	defer func() {
		rec.mu.Lock()
		rec.inFlight--
		rec.mu.Unlock()
	}()
	switch {
	case bytes.Contains(body, []byte(OverloadedMarker)):
		w.Header().Set(vocab.HeaderRetryAfterMs, OverloadedRetryAfterMs)
		writeBody(w, 529, `{"detail":"Overloaded"}`)
		return
	case bytes.Contains(body, []byte(RateLimitedMarker)):
		w.Header().Set(vocab.HeaderRetryAfter, RateLimitedRetryAfter)
		writeBody(w, http.StatusTooManyRequests, `{"detail":"Rate limited"}`)
		return
	}
	hold := rec.hold
	if bytes.Contains(body, []byte(SlowMarker)) {
		hold = 5 * time.Second
	}
	select {
	case <-time.After(hold):
	case <-r.Context().Done():
		return
	}
	root, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: 64})
	if err != nil {
		writeBody(w, 400, `{"detail":"invalid JSON"}`)
		return
	}
	if problems := validate.RequestStandard02(root); len(problems) > 0 {
		rec.mu.Lock()
		rec.refused = append(rec.refused, problems[0].Message())
		rec.mu.Unlock()
		detail, _ := json.Marshal(map[string]string{vocab.ErrorDetail: problems[0].Message()})
		writeBody(w, 400, string(detail))
		return
	}
	out, status := scoreStandard(r, body, func(req *ir.Request, resp *ir.Response) {
		resp.Answers = withoutMarked(req.Questions, resp.Answers)
	})
	switch status {
	case 400:
		writeBody(w, 400, `{"detail":"unreadable"}`)
	case 500:
		writeBody(w, 500, `{"detail":"scorer failed"}`)
	default:
		writeBody(w, 200, string(out))
	}
}

// withoutMarked drops the answers of the questions whose instructions
// carry NoAnswerMarker.
func withoutMarked(qs []ir.Question, answers []ir.Answer) []ir.Answer {
	marked := map[string]bool{}
	for _, q := range qs {
		if q.Instructions.Kind() == jsonvalue.KindString && strings.Contains(q.Instructions.Str(), NoAnswerMarker) {
			marked[q.Name] = true
		}
	}
	kept := answers[:0:0]
	for _, a := range answers {
		if !marked[a.Name] {
			kept = append(kept, a)
		}
	}
	return kept
}

// Refused are the validator messages of the bodies refused, in order.
func (rec *RouterRecorder) Refused() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]string(nil), rec.refused...)
}

// ResetPeak forgets the most calls seen in flight.
func (rec *RouterRecorder) ResetPeak() {
	rec.mu.Lock()
	rec.maxInFlight = rec.inFlight
	rec.mu.Unlock()
}

// URL is the recorder's root URL.
func (rec *RouterRecorder) URL() string { return rec.Server.URL }

// Calls are the POST /v1/systemone bodies received, in arrival order.
func (rec *RouterRecorder) Calls() [][]byte {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([][]byte(nil), rec.bodies...)
}

// Peak is the most calls seen in flight at once.
func (rec *RouterRecorder) Peak() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.maxInFlight
}

func writeBody(w http.ResponseWriter, status int, body string) {
	w.Header().Set(vocab.HeaderContentType, "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}
