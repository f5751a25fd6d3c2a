package check

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestReleaseVersion: in a clone of the repository, `make build` stamps
// what docs/releasing.md says --version prints: with no v* tag the module
// pseudo-version Go stamps; on the tag the tag; a commit past it and a
// change not committed as git describe names them. The revision is the
// commit's either way.
func TestReleaseVersion(t *testing.T) {
	git := needTool(t, "git", "git")
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "repo")
	run(t, 5*time.Minute, "", git, "clone", "--quiet", "--no-tags", root, clone)
	gitIn := func(args ...string) string {
		cmd := exec.Command(git, args...)
		cmd.Dir = clone
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=check", "GIT_AUTHOR_EMAIL=check@example.com",
			"GIT_COMMITTER_NAME=check", "GIT_COMMITTER_EMAIL=check@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	version := func() string {
		run(t, 10*time.Minute, clone, "make", "build", "CMDS=./cmd/vllm-sr") // the one binary it reads
		return strings.TrimSpace(run(t, time.Minute, clone, filepath.Join(clone, "bin", "vllm-sr"), "--version"))
	}
	head := gitIn("rev-parse", "HEAD")

	pseudo := regexp.MustCompile(`^vllm-sr v0\.0\.0-\d{14}-` + head[:12] + `, revision ` + head + `, go`)
	if v := version(); !pseudo.MatchString(v) {
		t.Errorf("no tag: --version %q, want the pseudo-version of %s", v, head)
	}
	gitIn("tag", "-a", "v9.9.9", "-m", "check")
	if v := version(); !strings.HasPrefix(v, "vllm-sr v9.9.9, revision "+head+", go") {
		t.Errorf("on the tag v9.9.9: --version %q", v)
	}
	gitIn("commit", "--quiet", "--allow-empty", "-m", "past the tag")
	next := gitIn("rev-parse", "HEAD")
	if err := os.WriteFile(filepath.Join(clone, "CHANGELOG.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if v := version(); !strings.HasPrefix(v, "vllm-sr v9.9.9-1-g"+next[:7]) || !strings.Contains(v, "-dirty, revision "+next+"+dirty") {
		t.Errorf("a commit past v9.9.9, with a change: --version %q, want v9.9.9-1-g%s-dirty and revision %s+dirty", v, next[:7], next)
	}
}
