package front_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

func TestRequestIDsAreFixedFormatAndDistinct(t *testing.T) {
	ids := front.NewRequestIDs()
	format := regexp.MustCompile(`^req_[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for range 1000 {
		id := ids.New()
		if !format.MatchString(id) || seen[id] {
			t.Fatalf("id %q: malformed or repeated", id)
		}
		seen[id] = true
	}
}

// A client's id is taken when it is 1 to 128 printable ASCII characters.
func TestWellFormedRequestID(t *testing.T) {
	for id, want := range map[string]bool{
		"abc-123": true, "req_01a0ef7943d5773b95a79eb92583c025": true, "a b": true, strings.Repeat("x", 128): true,
		"": false, strings.Repeat("x", 129): false, "tab\there": false, "line\nbreak": false, "é": false, "\x7f": false,
	} {
		if got := front.WellFormedRequestID(id); got != want {
			t.Errorf("%q: got %v, want %v", id, got, want)
		}
	}
}

func TestAccessLevel(t *testing.T) {
	for status, want := range map[int]slog.Level{200: slog.LevelInfo, 304: slog.LevelInfo, 404: slog.LevelWarn, 413: slog.LevelWarn,
		500: slog.LevelError, 529: slog.LevelError} {
		if got := front.AccessLevel(status); got != want {
			t.Errorf("%d: got %v, want %v", status, got, want)
		}
	}
}

// NewLogger takes the documented formats and levels, refuses others in
// one line, and its writer keeps every line, in order, once closed.
func TestNewLoggerAndLogWriter(t *testing.T) {
	for _, c := range [][2]string{{"yaml", "info"}, {"json", "loud"}} {
		if _, _, err := front.NewLogger(&bytes.Buffer{}, c[0], c[1]); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: got %v, want a one-line error", c, err)
		}
	}
	var out testkit.LogBuffer
	log, w, err := front.NewLogger(&out, "text", "warn")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				log.Warn("line", slog.Int("g", g), slog.Int("i", i))
				log.Info("dropped below the level")
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 8000 {
		t.Fatalf("got %d lines, want 8000", len(lines))
	}
	next := map[string]int{}
	for _, l := range lines {
		var g, i int
		if _, err := fmt.Sscanf(l[strings.Index(l, " g=")+1:], "g=%d i=%d", &g, &i); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if key := fmt.Sprint(g); next[key] != i {
			t.Fatalf("goroutine %d: line %d came before %d", g, i, next[key])
		}
		next[fmt.Sprint(g)]++
	}
}
