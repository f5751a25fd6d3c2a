package router

import (
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// The configuration member's status words in GET /ready.
const (
	configLoaded        = "loaded"
	configReloadRefused = "reload_refused"
)

// Bounds of the last refused reload's problems in GET /ready: an answer
// stays small whatever the configuration's problems (problem_count says
// how many there were).
const (
	readyProblems      = 20
	readyProblemLength = 512
)

// configState is what GET /ready and the metrics say of the
// configuration: the one in force (its SHA-256 and when it was loaded)
// and the problems of the last refused reload since the last applied one.
// One lives as long as the Router's process, shared by the Routers a
// reload makes (withConfig). It is safe for concurrent use.
type configState struct {
	mu       sync.Mutex
	sha256   string
	loadedAt time.Time
	// refusedAt and problems are the last refused reload's, until one is
	// applied; problems is nil when none is refused.
	refusedAt time.Time
	problems  []string
}

// applied records cfg as the configuration in force, loaded at, and
// clears any refused reload.
func (c *configState) applied(cfg *routerconfig.Config, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sha256, c.loadedAt = cfg.SHA256, at
	c.refusedAt, c.problems = time.Time{}, nil
}

// refused records a reload refused at, with its problems, one per line
// of err (as they are logged).
func (c *configState) refused(err error, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refusedAt, c.problems = at, strings.Split(err.Error(), "\n")
}

// member is GET /ready's configuration member: its status (loaded, or
// reload_refused while the last reload's problems stand), the SHA-256 of
// the configuration in force and when it was loaded, and the last
// refused reload's time and problems (at most readyProblems, each cut at
// readyProblemLength bytes) with their count.
func (c *configState) member() jsonvalue.Value {
	c.mu.Lock()
	defer c.mu.Unlock()
	status := configLoaded
	if c.problems != nil {
		status = configReloadRefused
	}
	members := []jsonvalue.Member{
		{Name: "status", Value: jsonvalue.String(status)}, //vocab:not-spec the Router's readiness body
		{Name: "sha256", Value: jsonvalue.String(c.sha256)},
		{Name: "loaded_at", Value: jsonvalue.String(c.loadedAt.UTC().Format(time.RFC3339))},
	}
	if c.problems != nil {
		shown := make([]jsonvalue.Value, 0, min(len(c.problems), readyProblems))
		for _, p := range c.problems[:min(len(c.problems), readyProblems)] {
			shown = append(shown, jsonvalue.String(cutUTF8(p, readyProblemLength)))
		}
		refused, _ := jsonvalue.Object(
			jsonvalue.Member{Name: "at", Value: jsonvalue.String(c.refusedAt.UTC().Format(time.RFC3339))}, //vocab:not-spec the Router's readiness body
			jsonvalue.Member{Name: "problem_count", Value: jsonvalue.Int(int64(len(c.problems)))},
			jsonvalue.Member{Name: "problems", Value: jsonvalue.Array(shown...)})
		members = append(members, jsonvalue.Member{Name: "last_refused", Value: refused})
	}
	out, _ := jsonvalue.Object(members...)
	return out
}

// cutUTF8 is s cut to at most n bytes, at a character's start.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n]
}

// logWarnings logs each of cfg's warnings (a key file any user can read)
// on its own line: they do not refuse the configuration.
func logWarnings(log *slog.Logger, cfg *routerconfig.Config) {
	for _, w := range cfg.Warnings {
		log.Warn("configuration warning", slog.String("problem", w.String()))
	}
}
