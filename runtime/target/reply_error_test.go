package target

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/ir"
)

func TestRetryAfter(t *testing.T) {
	cases := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After-Ms": {"50"}, "Retry-After": {"9"}}, 50 * time.Millisecond},
		{http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{http.Header{"Retry-After": {"Wed, 21 Oct 2026 07:28:05 GMT"}, "Date": {"Wed, 21 Oct 2026 07:28:00 GMT"}}, 5 * time.Second},
		{http.Header{"Retry-After": {"600"}}, MaxRetryAfter},
		{http.Header{"Retry-After": {"99999999999999999999999"}}, MaxRetryAfter},
		{http.Header{"Retry-After-Ms": {"1e12"}}, MaxRetryAfter},
		{http.Header{"Retry-After-Ms": {"NaN"}, "Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"Wed, 21 Oct 2026 09:00:00 GMT"}, "Date": {"Wed, 21 Oct 2026 07:28:00 GMT"}}, MaxRetryAfter},
		{http.Header{"Retry-After": {"-1"}}, 0},
		{http.Header{"Retry-After": {"0"}}, 0},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{}, 0},
	}
	for _, c := range cases {
		if got := RetryAfter(c.h); got != c.want {
			t.Errorf("%v: got %s, want %s", c.h, got, c.want)
		}
	}
}

// TestRetryDelay: 429, 503 and 529 always ask for a delay, capped; no
// other status does.
func TestRetryDelay(t *testing.T) {
	cases := []struct {
		status int
		h      http.Header
		want   time.Duration
	}{
		{529, nil, DefaultRetryAfter},
		{529, http.Header{"Retry-After": {"600"}}, MaxRetryAfter},
		{503, http.Header{"Retry-After": {"-5"}}, DefaultRetryAfter},
		{429, http.Header{"Retry-After-Ms": {"1500"}}, 1500 * time.Millisecond},
		{502, http.Header{"Retry-After": {"5"}}, 0},
		{400, nil, 0},
	}
	for _, c := range cases {
		if got := RetryDelay(c.status, c.h); got != c.want {
			t.Errorf("%d %v: got %s, want %s", c.status, c.h, got, c.want)
		}
	}
}

// marker stands for the upstream's own words: it must never be in an
// error body the Router answers with.
const marker = "db7.internal.example SECRET-TRACE"

// TestErrorTable: every upstream status maps to its row of the error
// table, keeps only what the call vouches for, and carries none of the
// upstream's words.
func TestErrorTable(t *testing.T) {
	items := []PlannedItem{{Name: "a", Questions: []QuestionRef{{Name: "q"}, {Name: "r"}}}, {Name: "b", Questions: []QuestionRef{{Name: "s"}}}}
	cases := []struct {
		name   string
		status int
		ext    bool
		body   string
		want   ir.ErrorBody // Status, Code, Reason, Question, State
		retry  time.Duration
	}{
		{"redirect", 302, false, `<a href="http://` + marker + `">moved</a>`, ir.ErrorBody{Status: 502, Code: "upstream_error", Reason: "upstream_redirect"}, 0},
		{"standard 400", 400, false, `{"detail":{"error_type":"api_usage_error","message":"` + marker + `"}}`,
			ir.ErrorBody{Status: 400, Code: "invalid_request", Reason: "upstream_invalid_input"}, 0},
		{"5.0 400 question", 400, true, `{"detail":"` + marker + `","code":"question_failed","question":"r","reason":"max_length_exceeded","limit":512}`,
			ir.ErrorBody{Status: 400, Code: "question_failed", Reason: "max_length_exceeded", Question: "r"}, 0},
		{"5.0 400 unknown words", 400, true, `{"detail":"x","code":"` + "secret_code" + `","question":"nope","reason":"db7_internal","state":"zz"}`,
			ir.ErrorBody{Status: 400, Code: "invalid_request", Reason: "upstream_invalid_input"}, 0},
		{"standard 422 list", 422, false, `{"detail":[{"loc":["body","questions","q","criteria"],"msg":"` + marker + `","type":"too_short"}]}`,
			ir.ErrorBody{Status: 422, Code: "question_failed", Reason: "upstream_invalid_question", Question: "q"}, 0},
		{"422 without a question", 422, false, `{"detail":[{"loc":["body","state"],"msg":"` + marker + `","type":"missing"}]}`,
			ir.ErrorBody{Status: 422, Code: "validation_failed", Reason: "upstream_invalid_input"}, 0},
		{"5.0 422 validation", 422, true, `{"detail":[{"loc":["body","questions"],"msg":"` + marker + `","type":"missing_member"}],"code":"validation_failed","reason":"missing_member"}`,
			ir.ErrorBody{Status: 422, Code: "validation_failed", Reason: "missing_member"}, 0},
		{"5.0 batch 422", 422, true, `{"detail":[{"loc":["body","requests","b","questions","s"],"msg":"` + marker + `","type":"invalid_question"}],"code":"question_failed","question":"s","state":"b","reason":"over_not_answered"}`,
			ir.ErrorBody{Status: 422, Code: "question_failed", Reason: "over_not_answered", Question: "s", State: "b"}, 0},
		{"413", 413, true, `{"detail":"` + marker + `","limit":1000}`, ir.ErrorBody{Status: 413, Code: "request_too_large", Reason: "body_too_large"}, 0},
		{"429", 429, false, `{"detail":"` + marker + `"}`, ir.ErrorBody{Status: 429, Code: "overloaded", Reason: "upstream_rate_limited"}, DefaultRetryAfter},
		{"503 starting", 503, true, `{"detail":"` + marker + `","code":"starting","reason":"starting"}`, ir.ErrorBody{Status: 503, Code: "unavailable", Reason: "upstream_unavailable"}, DefaultRetryAfter},
		{"529", 529, false, `overloaded ` + marker, ir.ErrorBody{Status: 529, Code: "overloaded", Reason: "upstream_overloaded"}, DefaultRetryAfter},
		{"504", 504, false, `<html>` + marker + `</html>`, ir.ErrorBody{Status: 504, Code: "question_failed", Reason: "upstream_deadline_exceeded"}, 0},
		{"500 JSON", 500, false, `{"detail":"Traceback: ` + marker + `"}`, ir.ErrorBody{Status: 502, Code: "upstream_error", Reason: "upstream_server_error"}, 0},
		{"500 HTML", 500, true, `<html><body>` + marker + `</body></html>`, ir.ErrorBody{Status: 502, Code: "upstream_error", Reason: "upstream_server_error"}, 0},
		{"5.0 500 question", 500, true, `{"detail":"` + marker + `","code":"question_failed","question":"q","reason":"invalid_model_output"}`,
			ir.ErrorBody{Status: 500, Code: "question_failed", Reason: "invalid_model_output", Question: "q"}, 0},
		{"401", 401, false, `{"detail":"` + marker + `"}`, ir.ErrorBody{Status: 502, Code: "upstream_error", Reason: "upstream_refused"}, 0},
		{"404", 404, true, `{"detail":"` + marker + `","code":"model_not_found"}`, ir.ErrorBody{Status: 502, Code: "upstream_error", Reason: "upstream_refused"}, 0},
		{"502", 502, false, marker, ir.ErrorBody{Status: 502, Code: "upstream_error", Reason: "upstream_server_error"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, retry := readerOf(c.ext).Error(c.status, nil, []byte(c.body), items)
			got := ir.ErrorBody{Status: e.Status, Code: e.Code, Reason: e.Reason, Question: e.Question, State: e.State}
			if !reflect.DeepEqual(got, c.want) || retry != c.retry {
				t.Errorf("got %+v retry %s, want %+v retry %s", got, retry, c.want, c.retry)
			}
			if e.Message == "" || strings.Contains(e.Message, "SECRET") || strings.Contains(e.Message, "db7") {
				t.Errorf("message %q", e.Message)
			}
			for _, d := range e.Detail {
				if strings.Contains(d.Msg, "SECRET") || d.Type == "too_short" {
					t.Errorf("detail %+v", d)
				}
			}
			if e.Status == 422 && len(e.Detail) != 1 {
				t.Errorf("a 422 has one detail item: %+v", e.Detail)
			}
		})
	}
}

func TestNoReplyError(t *testing.T) {
	for _, c := range []struct {
		err          error
		status       int
		code, reason string
	}{
		{ErrReplyTooLarge, 502, "upstream_error", "upstream_reply_too_large"},
		{ErrReplyCut, 502, "upstream_error", "upstream_reply_cut"},
		{context.DeadlineExceeded, 504, "question_failed", "deadline_exceeded"},
		{http.ErrHandlerTimeout, 503, "unavailable", "upstream_unreachable"},
	} {
		e := NoReplyError(c.err)
		if e.Status != c.status || string(e.Code) != c.code || e.Reason != c.reason {
			t.Errorf("%v: got %d %s %s", c.err, e.Status, e.Code, e.Reason)
		}
	}
}
