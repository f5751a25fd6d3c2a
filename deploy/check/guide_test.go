package check

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// guideFile is the deploying guide; its vllm-sr, vllm-srun and make
// commands are checked against the real command trees and Makefile by the
// main module's guide tests (cmd/*/docs_test.go, gen/docsite_test.go).
const guideFile = "docs/deploying.md"

// guideCommands are the shell commands of the guide's sh blocks, with
// continuation lines joined and comments cut, as fields.
func guideCommands(t *testing.T) [][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, guideFile))
	if err != nil {
		t.Fatal(err)
	}
	var cmds [][]string
	in, cont := false, ""
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```sh"):
			in = true
			continue
		case strings.HasPrefix(trimmed, "```"):
			in = false
			continue
		case !in:
			continue
		}
		if i := strings.Index(trimmed, " #"); i >= 0 {
			trimmed = strings.TrimSpace(trimmed[:i])
		}
		if s, ok := strings.CutSuffix(trimmed, "\\"); ok {
			cont += s + " "
			continue
		}
		if f := strings.Fields(cont + trimmed); len(f) > 0 {
			cmds = append(cmds, f)
		}
		cont = ""
	}
	return cmds
}

// TestDeployingGuide: every path under deploy/ the guide's commands name
// exists; its helm commands run with the pinned Helm (helm install as helm
// template with its release, chart and values: there is no cluster), and its promtool commands
// pass.
func TestDeployingGuide(t *testing.T) {
	cmds := guideCommands(t)
	var helmRun, promRun int
	for _, c := range cmds {
		for _, arg := range c {
			if strings.HasPrefix(arg, "deploy/") {
				if _, err := os.Stat(filepath.Join(repoRoot, arg)); err != nil {
					t.Errorf("%s: %q names %s, which does not exist", guideFile, strings.Join(c, " "), arg)
				}
			}
		}
		switch c[0] {
		case "helm":
			args := c[1:]
			if args[0] == "install" {
				// No cluster: the same release, chart and values
				// rendered as helm template renders them.
				args = slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--create-namespace" })
				args[0] = "template"
			}
			helmIn(t, abs(t, repoRoot), args...)
			helmRun++
		case "promtool":
			if promtool := needToolOrEmpty("promtool"); promtool != "" {
				run(t, time.Minute, repoRoot, promtool, c[1:]...)
				promRun++
			}
		}
	}
	if helmRun < 3 {
		t.Errorf("%s: ran %d helm commands; the guide shows install, lint and template", guideFile, helmRun)
	}
	t.Logf("%d commands read, %d helm and %d promtool commands run", len(cmds), helmRun, promRun)
}
