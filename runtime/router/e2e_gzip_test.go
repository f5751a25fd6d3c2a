package router_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
)

// testGzipBody: a System One body sent with Content-Encoding: gzip is
// decoded and answered; the 32 MiB limit holds for the decoded size, and
// a body that is not gzip or a coding the Router does not undo is 400.
func testGzipBody(t *testing.T, e *env) {
	url := e.url("public5", "/v1/systemone")
	before := len(e.rec.Calls())
	body := `{"model":"gateway-d3","state":"the gzip-only export fails","questions":{"ok":{"type":"noul","instructions":"Is all well?"}}}`
	status, out := postCoded(t, url, "gzip", gzipBytes(t, []byte(body)))
	if status != 200 || decodeJSON(t, out)["answers"].(map[string]any)["ok"] == nil {
		t.Fatalf("a gzip body: %d %s", status, out)
	}
	calls := e.rec.Calls()[before:]
	if len(calls) != 1 || !bytes.Contains(calls[0], []byte("the gzip-only export fails")) {
		t.Fatalf("the upstream did not get the decoded state: %q", calls)
	}

	const limit = 32 << 20
	bomb := gzipBytes(t, []byte(body[:len(body)-1]+`,"pad":"`+strings.Repeat(" ", limit)+`"}`))
	status, out = postCoded(t, url, "gzip", bomb)
	if r := decodeJSON(t, out); status != 413 || r["code"] != "request_too_large" || r["limit"] != float64(limit) {
		t.Fatalf("a %d-byte gzip body inflating past the limit: %d %s", len(bomb), status, out)
	}

	for _, tc := range []struct{ coding, reason string }{{"gzip", "invalid_gzip"}, {"br", "unsupported_content_encoding"}} {
		status, out = postCoded(t, url, tc.coding, []byte(body))
		if r := decodeJSON(t, out); status != 400 || r["code"] != "invalid_request" || r["reason"] != tc.reason {
			t.Fatalf("plain JSON sent as %s: %d %s", tc.coding, status, out)
		}
	}
}

func postCoded(t *testing.T, url, coding string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Content-Encoding", coding)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func gzipBytes(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
