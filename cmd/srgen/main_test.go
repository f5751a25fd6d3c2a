package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/gen/load"
)

const (
	repoRoot = "../.."
	fixture  = "../../gen/drift/testdata/published-3.1.json"
)

// srgen runs the command as main would and returns its exit code and
// output.
func srgen(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// cleanDocument is the drift fixture without its one drift: a document
// our description matches in everything it takes from the document.
func cleanDocument(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc["components"].(map[string]any)["schemas"].(map[string]any)["ModelMetadata"].(map[string]any)["properties"].(map[string]any)
	props["release_date"] = map[string]any{"type": "string"}
	out, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDriftUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"drift"},
		{"drift", "--published", fixture, "--fetch"},
		{"drift", "--published", fixture, "--url", "https://example.invalid/openapi.json"},
		{"drift", "--no-such-flag"},
	} {
		code, _, stderr := srgen(t, append([]string{"--root", repoRoot}, args...)...)
		if code != 2 || !strings.HasPrefix(stderr, "srgen: ") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and the reason", args, code, stderr)
		}
	}
}

func TestDriftFileExitCodes(t *testing.T) {
	code, stdout, stderr := srgen(t, "--root", repoRoot, "drift", "--published", fixture)
	if code != 1 || !strings.Contains(stdout, "ModelMetadata.release_date: nullable changed from false to true") ||
		!strings.Contains(stderr, "1 differences between") {
		t.Errorf("fixture: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	clean := writeTemp(t, "openapi.json", cleanDocument(t))
	if code, stdout, stderr := srgen(t, "--root", repoRoot, "drift", "--published", clean); code != 0 {
		t.Errorf("matching document: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, _, stderr := srgen(t, "--root", repoRoot, "drift", "--published", filepath.Join(t.TempDir(), "absent.json")); code != 1 {
		t.Errorf("missing file: exit %d, stderr %q", code, stderr)
	}
}

// A document whose sha256 is the recorded one passes without comparison:
// checked on a copy of the specs whose source.sha256 is the fixture's.
func TestDriftPinnedHashExit0(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	root := t.TempDir()
	p := load.DefaultPaths()
	for _, path := range []string{p.Standard, p.Extensions, p.Contract, p.StandardSchema, p.ExtensionsSchema} {
		b, err := os.ReadFile(filepath.Join(repoRoot, path))
		if err != nil {
			t.Fatal(err)
		}
		if path == p.Standard {
			b = []byte(strings.Replace(string(b), "sha256: 7265a2387f653b3584cae10db45365cf3fadaac3262e12eba4a415b5d32e3c46",
				"sha256: "+hex.EncodeToString(sum[:]), 1))
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, path), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := srgen(t, "--root", root, "drift", "--published", fixture)
	if code != 0 || !strings.Contains(stdout, "matches the spec's source.sha256") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

func TestDriftFetchExitCodes(t *testing.T) {
	clean := cleanDocument(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			_, _ = w.Write(clean)
		case "/slow":
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		default:
			http.Error(w, "broken", http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	cases := []struct {
		path    string
		code    int
		message string
	}{
		{"/ok", 0, "nothing our description takes from the document differs"},
		{"/broken", 1, "the server answered 500 Internal Server Error"},
		{"/slow", 1, "no complete answer within 200ms"},
	}
	for _, tc := range cases {
		code, stdout, stderr := srgen(t, "--root", repoRoot, "drift", "--fetch", "--url", srv.URL+tc.path, "--timeout", "200ms")
		if code != tc.code || !strings.Contains(stdout+stderr, tc.message) {
			t.Errorf("%s: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", tc.path, code, tc.code, stdout, stderr)
		}
	}
}
