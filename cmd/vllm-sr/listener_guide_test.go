package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/docsite"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// listenerGuide is the guide whose walk-through this file replays.
const listenerGuide = "docs/operating-a-listener.md"

// The walk-through of Operating a listener, as written: its configuration
// (step 1) checked and served, with make run's runtime as local-vela and
// the listener on a free port in place of 18080; its old.yaml migrated to
// exactly what it shows; its 4.0 request and the legacy-form counter it
// greps; then the switched configuration (step 4) served, refusing the
// same request as it shows.
func TestOperatingAListenerGuide(t *testing.T) {
	data, err := os.ReadFile("../../" + listenerGuide)
	if err != nil {
		t.Fatal(err)
	}
	doc := docsite.Scan(data)
	var yamls []string
	for _, b := range doc.Blocks {
		if b.Lang == "yaml" {
			yamls = append(yamls, b.Text)
		}
	}
	if len(yamls) != 3 {
		t.Fatalf("%d yaml blocks; the guide has step 1's configuration, old.yaml and step 4's line", len(yamls))
	}
	runtime := startRuntime(t)
	serve := func(config string) string {
		config = replaceAll(t, config, map[string]string{
			"address: 127.0.0.1:18080":        "address: 127.0.0.1:0",
			"endpoint: http://127.0.0.1:8100": "endpoint: " + runtime,
		})
		run, path := startRouterFrom(t, config)
		if out, _, err := runCmd(t, "config", "check", path); err != nil {
			t.Fatalf("vllm-sr config check: %v\n%s", err, out)
		}
		return run.URL("public")
	}
	step1 := yamls[0]
	listener := serve(step1)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "old.yaml"), []byte(yamls[1]), 0o600); err != nil {
		t.Fatal(err)
	}
	_, switchAt, _ := strings.Cut(string(data), "## 4. Switch")
	switchLine := strings.Count(string(data), "\n") - strings.Count(switchAt, "\n") + 1

	examples, errs := docsite.ConsoleExamples(listenerGuide, doc)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	replayed := 0
	for _, ex := range examples {
		shown := strings.Join(ex.Output, "\n")
		var got string
		switch {
		case ex.Args[0] == "vllm-sr" && strings.Join(ex.Args[1:], " ") == "config migrate old.yaml":
			var err error
			got, _, err = runCmd(t, "config", "migrate", filepath.Join(dir, "old.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			got = strings.TrimSuffix(got, "\n")
		case ex.Args[0] == "curl":
			if ex.Line > switchLine && listener != "" {
				step4 := strings.TrimSpace(yamls[2])
				listener = serve(replaceAll(t, step1, map[string]string{"systemone: {schema: vllm-sr/4.0, max_deadline_ms: 5000}": step4}))
				switchLine = 1 << 30 // switched once
			}
			_, got = testkit.GuideCurl(t, listener, "localhost:18080", ex.Args[1:])
			for _, then := range ex.Then {
				if len(then) != 2 || then[0] != "grep" {
					t.Fatalf("%s: the replay reads no %q", ex.Command, then)
				}
				var kept []string
				for _, line := range strings.Split(got, "\n") {
					if strings.Contains(line, then[1]) {
						kept = append(kept, line)
					}
				}
				got = strings.Join(kept, "\n")
			}
		default:
			t.Fatalf("%s: the test does not replay this command", ex.Command)
		}
		replayed++
		if got != shown {
			t.Errorf("%s:\n got %s\nwant %s (the guide)", ex.Command, got, shown)
		}
	}
	if replayed != 4 {
		t.Errorf("replayed %d examples; the guide shows 4", replayed)
	}
}
