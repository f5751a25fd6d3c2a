package gen

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestMakeHelp runs `make help` as a user does: every target with a ##
// line is listed, and a make variable a line names is printed with its
// value (PORT as 8100, or as given), never as $(NAME).
func TestMakeHelp(t *testing.T) {
	makeTool, err := exec.LookPath("make")
	if err != nil {
		t.Fatal("no make on PATH: the repository's commands are make targets")
	}
	help := func(args ...string) string {
		cmd := exec.Command(makeTool, append([]string{"-s", "--no-print-directory", "help"}, args...)...)
		cmd.Dir = repoRoot
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("make help: %v", err)
		}
		return string(out)
	}
	out := help()
	if left := regexp.MustCompile(`\$\(\w+\)`).FindAllString(out, -1); len(left) > 0 {
		t.Errorf("make help prints %v unexpanded:\n%s", left, out)
	}
	for _, want := range []string{"localhost:8100 ", "-count 6)", "  test ", "  run "} {
		if !strings.Contains(out, want) {
			t.Errorf("make help lacks %q:\n%s", want, out)
		}
	}
	if out := help("PORT=9123"); !strings.Contains(out, "localhost:9123 ") {
		t.Errorf("make help PORT=9123 does not print the port given:\n%s", out)
	}
}
