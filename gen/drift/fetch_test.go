package drift

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/gen/model"
)

// serve answers every GET with status and body, after delay.
func serve(t *testing.T, status int, body []byte, delay time.Duration) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// A 200 with a document is compared like a file, named by its URL.
func TestCheckFetchesTheDocument(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, http.StatusOK, data, 0)
	r, err := Check(context.Background(), repoModel(t), Input{URL: srv.URL + "/openapi.json", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := "ModelMetadata.release_date: nullable changed from false to true"
	if got := lines(r); len(got) != 1 || got[0] != want || r.Source != srv.URL+"/openapi.json" {
		t.Fatalf("source %s, differences %q; want %s and %q", r.Source, got, srv.URL, want)
	}
}

// Every way the fetch can fail is an error naming the URL and the cause,
// so the check never passes on a document it did not read.
func TestFetchFailures(t *testing.T) {
	cases := []struct {
		name    string
		srv     *httptest.Server
		timeout time.Duration
		want    string
	}{
		{"500", serve(t, http.StatusInternalServerError, []byte("oops"), 0), time.Second, "the server answered 500 Internal Server Error, not 200 OK"},
		{"404", serve(t, http.StatusNotFound, nil, 0), time.Second, "the server answered 404 Not Found"},
		{"timeout", serve(t, http.StatusOK, []byte("{}"), 5*time.Second), 100 * time.Millisecond, "no complete answer within 100ms (raise it with --timeout)"},
		{"empty", serve(t, http.StatusOK, nil, 0), time.Second, "the server answered 200 with an empty body"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.srv.URL + "/openapi.json"
			start := time.Now()
			r, err := Check(context.Background(), repoModel(t), Input{URL: url, Timeout: tc.timeout})
			if err == nil {
				t.Fatalf("no error; report %+v", r)
			}
			if !strings.Contains(err.Error(), "fetching "+url) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not name the URL and %q", err, tc.want)
			}
			if time.Since(start) > 3*time.Second {
				t.Errorf("took %s; the timeout did not bound the fetch", time.Since(start))
			}
		})
	}
	closed := serve(t, http.StatusOK, nil, 0)
	closed.Close()
	if _, err := Fetch(context.Background(), nil, closed.URL, time.Second); err == nil || !strings.Contains(err.Error(), "fetching "+closed.URL) {
		t.Errorf("a refused connection: %v", err)
	}
}

// Without a URL, Check fetches the spec's source.url.
func TestCheckDefaultsToTheSourceURL(t *testing.T) {
	var asked string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = r.URL.Path
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	m := repoModel(t)
	src := m.Spec(model.SpecStandard).Source
	if !strings.HasPrefix(src.URL, "https://") {
		t.Fatalf("source.url %q", src.URL)
	}
	src.URL = srv.URL + "/pinned/openapi.json"
	if _, err := Check(context.Background(), m, Input{Timeout: time.Second}); err == nil || asked != "/pinned/openapi.json" {
		t.Fatalf("err %v, asked %q; want a 503 error for /pinned/openapi.json", err, asked)
	}
}
