package front_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// A request in flight when its server cuts its requests (Front.Cut, which
// Timeouts.Shutdown calls past the shutdown timeout) is counted with
// status 0 and no code, and logged at ERROR as cut, whatever its handler
// wrote after the cut; one that began after the cut is not.
func TestCutRequestsAreCountedAndLoggedAsCut(t *testing.T) {
	logs := &testkit.LogBuffer{}
	f := &front.Front{Metrics: front.NewMetrics("test"), IDs: front.NewRequestIDs(),
		Log: front.WithRequestIDs(slog.New(slog.NewJSONHandler(logs, nil)))}
	serve := func(id string, before func()) {
		req := httptest.NewRequest(http.MethodPost, "/v1/systemone", strings.NewReader("{}"))
		req.Header.Set(front.HeaderXRequestID, id)
		s, r := f.Begin(httptest.NewRecorder(), req, "edge")
		s.Endpoint = "/v1/systemone"
		before()
		front.SetError(s, "unavailable", "upstream_unavailable")
		front.WriteJSON(s, http.StatusServiceUnavailable, []byte(`{}`))
		f.Finish(s, r)
	}
	serve("cut-one", func() { f.Cut(time.Now()) })
	time.Sleep(time.Millisecond) // the next request starts after the cut
	serve("after-the-cut", func() {})

	text := logs.String()
	for _, want := range []string{
		`"level":"ERROR","msg":"request","method":"POST","path":"/v1/systemone","listener":"edge","api":"","model":"","status":0,"code":"","reason":""`,
		`"cut":"shutdown_timeout","request_id":"cut-one"`,
		`"status":503,"code":"unavailable","reason":"upstream_unavailable"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the log lacks %s:\n%s", want, text)
		}
	}
	if strings.Count(text, `"cut":`) != 1 {
		t.Errorf("want one cut line:\n%s", text)
	}
	srv := httptest.NewServer(f.Metrics.Handler())
	defer srv.Close()
	m := testkit.ScrapeMetrics(t, srv.URL)
	if v, _ := m.Value(front.MetricRequests, "status", "0", "code", ""); v != 1 {
		t.Errorf("cut requests counted: %v, want 1", v)
	}
	if v, _ := m.Value(front.MetricRequests, "status", "503", "code", "unavailable"); v != 1 {
		t.Errorf("503s counted: %v, want 1", v)
	}
}
