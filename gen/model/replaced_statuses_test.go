package model

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/gen/load"
)

// TestReplacedStatuses: the extension set replaces the standard's 403 for
// a missing key with 401, the status of its unauthorized error.
func TestReplacedStatuses(t *testing.T) {
	m := repoModel(t)
	if len(m.ReplacedStatuses) != 1 || m.ReplacedStatuses[0].Status != 403 || m.ReplacedStatuses[0].ReplacedBy != 401 ||
		!strings.Contains(m.ReplacedStatuses[0].Reason, "missing_api_key") {
		t.Fatalf("replaced statuses %+v", m.ReplacedStatuses)
	}
}

// TestBuildRefusesBrokenReplacedStatuses: a replaced status the standard
// does not document, one replaced twice, or a replacement no request
// error answers with fails the build at its line.
func TestBuildRefusesBrokenReplacedStatuses(t *testing.T) {
	for _, c := range []struct{ line, msg string }{
		{"  - {status: 418, replaced_by: 401, reason: Not the standard's.}", "replaced status 418: the standard documents no such status"},
		{"  - {status: 403, replaced_by: 401, reason: Twice.}", "replaced status 403 is replaced twice"},
		{"  - {status: 429, replaced_by: 418, reason: No error answers 418.}", "replaced status 429: no request error answers 418, its replacement"},
	} {
		t.Run(c.line, func(t *testing.T) {
			fsys := repoFS(t)
			path := load.DefaultPaths().Extensions
			spec := string(fsys[path].Data)
			anchor := "\nreplaced_statuses:\n"
			if !strings.Contains(spec, anchor) {
				t.Fatal("the extension spec has no replaced_statuses section")
			}
			// Appended after the spec's own entry, so "twice" is at this line.
			end := strings.Index(spec, anchor) + len(anchor)
			end += strings.Index(spec[end:], "\n") + 1
			spec = spec[:end] + c.line + "\n" + spec[end:]
			fsys[path] = &fstest.MapFile{Data: []byte(spec)}
			raw, err := load.Load(fsys, load.DefaultPaths())
			if err != nil {
				t.Fatalf("the loader refused it: %v", err)
			}
			_, err = Build(raw)
			line := lineOf(t, []byte(spec), c.line)
			if err == nil || !hasProblem(err, fmt.Sprintf("%s:%d:", path, line), c.msg) {
				t.Fatalf("want %q at line %d, got %v", c.msg, line, err)
			}
		})
	}
}
