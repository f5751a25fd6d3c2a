package jsonvalue

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The benchmark requests are System One requests built deterministically
// (fixed seed) and written compact with raw UTF-8, as JSON.stringify sends
// them: small has one question and a ~150-byte text state; medium an
// object state of ~5 KB and five questions; large an object state of 1 MiB.

// benchWords are plain ASCII words; benchRareWords need an escape (quotes,
// newline, tab) or are non-ASCII UTF-8 (two-, three- and four-byte). The
// texts are English-like chat text: about one word in twenty is rare.
var (
	benchWords = []string{
		"the", "export", "button", "fails", "with", "a", "500", "since", "this", "morning",
		"invoice", "refund", "window", "is", "thirty", "days", "please", "open", "ticket",
		"customer", "says", "and", "of", "to", "in", "for", "on", "account", "payment",
		"error", "page", "shows", "when", "I", "click", "download", "report", "again",
		"we", "need", "it", "by", "Friday", "order", "#4821", "was", "charged", "twice,",
		"can", "you", "check?", "thanks.", "my", "team", "cannot", "log", "in", "today.",
	}
	benchRareWords = []string{
		"\"urgent\"", "line\nbreak", "tab\there", "café", "naïve", "Zürich",
		"日本語", "запрос", "🙂", "déjà-vu",
	}
)

// benchText returns words drawn from benchWords, and one in twenty from
// benchRareWords, until the text reaches n bytes.
func benchText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if rng.IntN(20) == 0 {
			b.WriteString(benchRareWords[rng.IntN(len(benchRareWords))])
		} else {
			b.WriteString(benchWords[rng.IntN(len(benchWords))])
		}
	}
	return b.String()
}

func mustObject(tb testing.TB, members ...Member) Value {
	v, ok := Object(members...)
	if !ok {
		tb.Fatalf("building a benchmark object failed")
	}
	return v
}

func textObject(tb testing.TB, pairs ...string) Value {
	members := make([]Member, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		members = append(members, Member{Name: pairs[i], Value: String(pairs[i+1])})
	}
	return mustObject(tb, members...)
}

func benchQuestion(tb testing.TB, rng *rand.Rand, kind string) Value {
	members := []Member{
		{Name: "type", Value: String(kind)},
		{Name: "instructions", Value: String(benchText(rng, 80))},
	}
	switch kind {
	case "choice", "set", "span":
		members = append(members, Member{Name: "criteria", Value: textObject(tb,
			"billing", benchText(rng, 30), "engineering", benchText(rng, 30),
			"sales", benchText(rng, 30), "other", benchText(rng, 20))})
	case "score":
		members = append(members, Member{Name: "criteria", Value: Array(
			String("not at all"), String("somewhat"), String("clearly"), String("absolutely"))})
	}
	if kind == "set" || kind == "span" {
		threshold, _ := Number("0.35")
		members = append(members, Member{Name: "threshold", Value: threshold})
	}
	return mustObject(tb, members...)
}

func benchRequest(tb testing.TB, state Value, roles Value, kinds ...string) []byte {
	rng := rand.New(rand.NewPCG(7, 11))
	questions := make([]Member, len(kinds))
	for i, kind := range kinds {
		questions[i] = Member{Name: fmt.Sprintf("q%d_%s", i, kind), Value: benchQuestion(tb, rng, kind)}
	}
	deadline, _ := Number("1500")
	members := []Member{
		{Name: "model", Value: String("vllm-sr/vela3-fast")},
		{Name: "state", Value: state},
	}
	if roles.IsValid() {
		members = append(members, Member{Name: "roles", Value: roles})
	}
	members = append(members,
		Member{Name: "questions", Value: mustObject(tb, questions...)},
		Member{Name: "options", Value: mustObject(tb, Member{Name: "deadline_ms", Value: deadline})})
	return Compact(mustObject(tb, members...))
}

func smallRequest(tb testing.TB) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	return benchRequest(tb, String(benchText(rng, 150)), Value{}, "noul")
}

func mediumRequest(tb testing.TB) []byte {
	rng := rand.New(rand.NewPCG(3, 4))
	state := textObject(tb,
		"request", benchText(rng, 700), "history", benchText(rng, 1500),
		"previous_turns", benchText(rng, 1200), "candidate", benchText(rng, 800),
		"context", benchText(rng, 800))
	roles := textObject(tb, "request", "user", "history", "context",
		"previous_turns", "context", "candidate", "answer", "context", "context")
	return benchRequest(tb, state, roles, "choice", "noul", "score", "set", "span")
}

func largeRequest(tb testing.TB) []byte {
	rng := rand.New(rand.NewPCG(5, 6))
	parts := make([]string, 0, 2*256)
	for i := range 256 {
		parts = append(parts, fmt.Sprintf("part_%03d", i), benchText(rng, 4096))
	}
	return benchRequest(tb, textObject(tb, parts...), Value{}, "choice", "noul")
}

// typedRequest is the request as a typed encoding/json reader declares it:
// S is string for a text state and map[string]string for an object state.
type typedRequest[S any] struct {
	Model     string                   `json:"model"`
	State     S                        `json:"state"`
	Roles     map[string]string        `json:"roles,omitempty"`
	Questions map[string]typedQuestion `json:"questions"`
	Options   *typedOptions            `json:"options,omitempty"`
}

type typedQuestion struct {
	Type         string   `json:"type"`
	Instructions string   `json:"instructions"`
	Criteria     any      `json:"criteria,omitempty"` // an object or an array
	Threshold    *float64 `json:"threshold,omitempty"`
}

type typedOptions struct {
	DeadlineMS int  `json:"deadline_ms"`
	ReturnMeta bool `json:"return_meta,omitempty"`
	MaxTokens  int  `json:"max_tokens,omitempty"`
}
