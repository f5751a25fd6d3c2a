package main

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/docsite"
)

// guidesRoot is the repository root, whose README.md and docs/*.md are
// the guides.
const guidesRoot = "../.."

// TestGuideCommands: every vllm-sr command in a guide's shell block (run
// by name or with go run ./cmd/vllm-sr) names a real subcommand, real
// flags with values of their types, and the arguments the command takes,
// as cobra parses them from the real command tree.
func TestGuideCommands(t *testing.T) {
	cmds, errs := docsite.GuideCommands(guidesRoot)
	for _, err := range errs {
		t.Error(err)
	}
	n, errs := docsite.CheckCommands(cmds, "vllm-sr", newRoot)
	for _, err := range errs {
		t.Error(err)
	}
	if n == 0 {
		t.Error("no guide runs vllm-sr: the check checked nothing")
	}
}

// TestGuideCommandsRefuseBadSnippets: the same check refuses a guide with
// a misspelt flag, subcommand or missing argument, and passes the good
// forms of the same commands.
func TestGuideCommandsRefuseBadSnippets(t *testing.T) {
	for _, c := range []struct {
		snippet string
		bad     bool
	}{
		{"```sh\nvllm-sr serve --config router.yaml\n```", false},
		{"```sh\ngo run ./cmd/vllm-sr config check --specs . router.yaml\n```", false},
		{"```console\n$ vllm-sr convert --from vllm-sr/5.0 --to systemone/0.2 --deviation state_text --headers request.json\n{}\n```", false},
		{"```sh\nvllm-sr serve --confg router.yaml\n```", true},
		{"```sh\nvllm-sr serve\n```", true},
		{"```sh\nvllm-sr srve --config router.yaml\n```", true},
		{"```bash\ngo run ./cmd/vllm-sr config chek router.yaml\n```", true},
		{"```sh\nvllm-sr config check\n```", true},
		{"```console\n$ vllm-sr convert --from vllm-sr/5.0 --to systemone/0.2 --deviations state_text request.json\n```", true},
		{"```sh\nvllm-sr decide --config router.yaml --input request=hi\n```", true},
		{"```sh\nvllm-sr conformance --server http://127.0.0.1:8100\n```", true},
	} {
		cmds, errs := docsite.Commands("snippet.md", docsite.Scan([]byte(c.snippet+"\n")))
		n, bad := docsite.CheckCommands(cmds, "vllm-sr", newRoot)
		if len(errs) != 0 || n != 1 || (len(bad) > 0) != c.bad {
			t.Errorf("%q: checked %d, errors %v %v; want bad=%v", c.snippet, n, errs, bad, c.bad)
		}
		if c.bad && len(bad) == 1 && !strings.HasPrefix(bad[0].Error(), "snippet.md:2: ") {
			t.Errorf("%q: %v does not name the file and line", c.snippet, bad[0])
		}
	}
}
