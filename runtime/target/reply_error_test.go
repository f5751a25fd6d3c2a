package target

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	cases := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After-Ms": {"50"}, "Retry-After": {"9"}}, 50 * time.Millisecond},
		{http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{http.Header{"Retry-After": {"Wed, 21 Oct 2026 07:28:05 GMT"}, "Date": {"Wed, 21 Oct 2026 07:28:00 GMT"}}, 5 * time.Second},
		{http.Header{"Retry-After": {"600"}}, 0},
		{http.Header{"Retry-After": {"-1"}}, 0},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{}, 0},
	}
	for _, c := range cases {
		if got := RetryAfter(c.h); got != c.want {
			t.Errorf("%v: got %s, want %s", c.h, got, c.want)
		}
	}
}

func TestErrorShapes(t *testing.T) {
	cases := []struct {
		status          int
		body, msg, code string
		ext             bool
	}{
		{400, `{"detail":{"error_type":"api_usage_error","message":"Invalid request."}}`, "Invalid request.", "invalid_request", false},
		{422, `{"detail":[{"loc":["body","state"],"msg":"Field required","type":"missing"}]}`, "Field required", "invalid_request", false},
		{404, `{"detail":"Not Found"}`, "Not Found", "", false},
		{500, `not json`, "Internal Server Error", "", false},
		{400, `{"error":{"code":"invalid_request","message":"legacy"}}`, "legacy", "invalid_request", false},
		{503, `{"detail":"starting","code":"starting","reason":"starting"}`, "starting", "starting", true},
		{503, `{"detail":"starting","code":"starting"}`, "starting", "unavailable", false},
	}
	for _, c := range cases {
		e, _ := ReplyReader{Extensions: c.ext}.Error(c.status, nil, []byte(c.body))
		if e.Status != c.status || e.Message != c.msg || string(e.Code) != c.code {
			t.Errorf("%s: got %d %q %q", c.body, e.Status, e.Message, e.Code)
		}
	}
}
