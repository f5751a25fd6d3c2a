package main

import (
	"testing"

	"github.com/vllm-sr/systemone/gen/docsite"
)

// guidesRoot is the repository root, whose README.md and docs/*.md are
// the guides.
const guidesRoot = "../.."

// TestGuideCommands: every vllm-srun command in a guide's shell block (run
// by name, with go run ./cmd/vllm-srun, or behind make run's recipe in the
// guides' words) names a real subcommand, real flags with values of their
// types and one MODEL, as cobra parses them from the real command tree.
func TestGuideCommands(t *testing.T) {
	cmds, errs := docsite.GuideCommands(guidesRoot)
	for _, err := range errs {
		t.Error(err)
	}
	n, errs := docsite.CheckCommands(cmds, "vllm-srun", newRoot)
	for _, err := range errs {
		t.Error(err)
	}
	if n == 0 {
		t.Error("no guide runs vllm-srun: the check checked nothing")
	}
	for _, bad := range []string{
		"vllm-srun serve vllm-sr/vela3-fast --prot 8100",
		"vllm-srun serve vllm-sr/vela3-fast --port eighty",
		"vllm-srun serve",
		"vllm-srun run vllm-sr/vela3-fast",
	} {
		cmds, _ := docsite.Commands("snippet.md", docsite.Scan([]byte("```sh\n"+bad+"\n```\n")))
		if n, errs := docsite.CheckCommands(cmds, "vllm-srun", newRoot); n != 1 || len(errs) != 1 {
			t.Errorf("%q: checked %d, errors %v; want it refused", bad, n, errs)
		}
	}
}
