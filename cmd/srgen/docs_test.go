package main

import (
	"testing"

	"github.com/vllm-sr/systemone/gen/docsite"
)

// guidesRoot is the repository root, whose README.md and docs/*.md are
// the guides.
const guidesRoot = "../.."

// TestGuideCommands: every srgen command in a guide's shell block names a
// real subcommand and real flags, as cobra parses them from srgen's
// command tree. (The guides may show none; the bad snippets below keep
// the check itself honest.)
func TestGuideCommands(t *testing.T) {
	cmds, errs := docsite.GuideCommands(guidesRoot)
	for _, err := range errs {
		t.Error(err)
	}
	_, errs = docsite.CheckCommands(cmds, "srgen", newRoot)
	for _, err := range errs {
		t.Error(err)
	}
	for snippet, bad := range map[string]bool{
		"go run ./cmd/srgen docs --out /tmp/site":         false,
		"go run ./cmd/srgen drift --fetch --timeout 30s":  false,
		"go run ./cmd/srgen docs --output /tmp/site":      true,
		"go run ./cmd/srgen docs":                         true,
		"go run ./cmd/srgen genrate":                      true,
		"go run ./cmd/srgen drift --fetch --timeout soon": true,
	} {
		cmds, _ := docsite.Commands("snippet.md", docsite.Scan([]byte("```sh\n"+snippet+"\n```\n")))
		if n, errs := docsite.CheckCommands(cmds, "srgen", newRoot); n != 1 || (len(errs) > 0) != bad {
			t.Errorf("%q: checked %d, errors %v; want bad=%v", snippet, n, errs, bad)
		}
	}
}
