package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/docsite"
	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// routerGuide is the guide whose session this file replays.
const routerGuide = "docs/router.md"

// startRouterFrom starts the Router of a configuration's text through the
// functions `vllm-sr serve` calls, and returns it with the file it loaded.
func startRouterFrom(t *testing.T, config string) (*router.Running, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "router.yaml")
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := router.LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	run, err := router.Start(ctx, cfg, router.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = run.Wait() })
	return run, path
}

// replaceAll replaces each key of the map by its value, failing the test
// when the text lacks one, so a test follows the guide it replays.
func replaceAll(t *testing.T, text string, values map[string]string) string {
	t.Helper()
	for from, to := range values {
		if !strings.Contains(text, from) {
			t.Fatalf("the guide no longer has %q: update the test", from)
		}
		text = strings.ReplaceAll(text, from, to)
	}
	return text
}

// startRouterSession starts the session of the Router guide as it says:
// its configuration with its two runtimes (vllm-srun serving vela3-fast
// and decision1), each listener on a free port in place of 18080 and
// 18081. It returns the Router and the configuration file it loaded.
func startRouterSession(t *testing.T) (*router.Running, string) {
	t.Helper()
	data, err := os.ReadFile("../../" + routerGuide)
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "The session below was run as written")
	_, after, ok2 := strings.Cut(after, "```yaml\n")
	config, _, ok3 := strings.Cut(after, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("the guide has no session configuration")
	}
	config = replaceAll(t, config, map[string]string{
		"address: 127.0.0.1:18080":         "address: 127.0.0.1:0",
		"address: 127.0.0.1:18081":         "address: 127.0.0.1:0",
		"endpoint: http://127.0.0.1:18100": "endpoint: " + startRuntimeWith(t, srun.Config{Model: "vllm-sr/vela3-fast"}),
		"endpoint: http://127.0.0.1:18101": "endpoint: " + startRuntimeWith(t, srun.Config{Model: "vllm-sr/decision1"}),
	})
	return startRouterFrom(t, config)
}

// The session of the Router guide, replayed as written: its configuration
// with its two runtimes (vllm-srun serving vela3-fast and decision1), each
// listener on a free port in place of 18080 and 18081. Every curl of the
// guide sent to those listeners prints what the guide shows ("..." elides
// parts of an answer; a request the guide abridges is left out), and
// vllm-sr decide prints its JSON exactly.
func TestRouterGuideSession(t *testing.T) {
	data, err := os.ReadFile("../../" + routerGuide)
	if err != nil {
		t.Fatal(err)
	}
	run, path := startRouterSession(t)
	listeners := map[string]string{"localhost:18080": run.URL("public"), "localhost:18081": run.URL("legacy")}

	examples, errs := docsite.ConsoleExamples(routerGuide, docsite.Scan(data))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	curls, decides := 0, 0
	for _, ex := range examples {
		shown := strings.Join(ex.Output, "\n")
		switch {
		case ex.Args[0] == "curl" && !ex.Pipeline && !strings.Contains(strings.Join(ex.Args, " "), "..."):
			host := ""
			for h := range listeners {
				if strings.Contains(strings.Join(ex.Args, " "), h+"/") {
					host = h
				}
			}
			if host == "" {
				continue // another session's (its set-up is in its own test)
			}
			curls++
			_, got := testkit.GuideCurl(t, listeners[host], host, ex.Args[1:])
			if !testkit.MatchElided(shown, got) {
				t.Errorf("%s:\n got %s\nwant %s (the guide)", ex.Command, got, shown)
			}
		case ex.Args[0] == "vllm-sr" && len(ex.Args) > 1 && ex.Args[1] == "decide":
			decides++
			args := replaceAll(t, strings.Join(ex.Args[1:], "\x00"), map[string]string{"router.yaml": path})
			got, _, err := runCmd(t, strings.Split(args, "\x00")...)
			if err != nil || strings.TrimSpace(got) != shown {
				t.Errorf("%s: %v\n got %s\nwant %s (the guide)", ex.Command, err, got, shown)
			}
		}
	}
	if curls < 5 || decides != 1 {
		t.Errorf("replayed %d curls and %d decide commands; the guide's session has at least 5 and 1", curls, decides)
	}
}
