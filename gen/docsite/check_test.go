package docsite

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func TestSplitShell(t *testing.T) {
	for _, c := range []struct {
		in   string
		want [][]string
	}{
		{`vllm-sr config check router.yaml   # a comment`, [][]string{{"vllm-sr", "config", "check", "router.yaml"}}},
		{"vllm-sr decide --rule r \\\n  --input request=\"How do I \\\"reset\\\"?\"", [][]string{{"vllm-sr", "decide", "--rule", "r", "--input", `request=How do I "reset"?`}}},
		{`x --input a="b c" --input 'd e' f`, [][]string{{"x", "--input", "a=b c", "--input", "d e", "f"}}},
		{`vllm-sr config migrate old.yaml > new.yaml 2>/dev/null`, [][]string{{"vllm-sr", "config", "migrate", "old.yaml"}}},
		{`make test && make run; echo done | tee x`, [][]string{{"make", "test"}, {"make", "run"}, {"echo", "done"}, {"tee", "x"}}},
		{`BENCH_COUNT=6 make bench PUBLISHED=x`, [][]string{{"make", "bench", "PUBLISHED=x"}}},
		{"curl -d '{\n\"a\": 1\n}' x >&2\nsrgen check", [][]string{{"curl", "-d", "{\n\"a\": 1\n}", "x"}, {"srgen", "check"}}},
	} {
		cmds, incomplete := splitShell(c.in)
		var got [][]string
		for _, c := range cmds {
			got = append(got, c.args)
		}
		if incomplete || !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitShell(%q) = %q (incomplete %v), want %q", c.in, got, incomplete, c.want)
		}
	}
	for _, in := range []string{`echo 'open`, `echo "open`, "echo \\"} {
		if _, incomplete := splitShell(in); !incomplete {
			t.Errorf("splitShell(%q) is complete; want incomplete", in)
		}
	}
}

func TestCommandsOfBlocks(t *testing.T) {
	md := "```console\n$ vllm-sr convert --from a \\\n  --to b\n{\"out\": 1}\n$ curl -d '{\n\"x\": 1\n}' u\n{}\n```\n\n" +
		"```bash\n# build and test\nmake test \\\n  run\n\nmake lint\n```\n\n```yaml\nvllm-sr: not a command\n```\n\n```text\n$ vllm-sr nope\n```\n"
	cmds, errs := Commands("g.md", Scan([]byte(md)))
	var got []string
	for _, c := range cmds {
		got = append(got, c.String())
	}
	want := []string{"g.md:2: vllm-sr convert --from a --to b", "g.md:5: curl -d {\n\"x\": 1\n} u", "g.md:13: make test run", "g.md:16: make lint"}
	if len(errs) != 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("Commands = %q, %v; want %q", got, errs, want)
	}
	_, errs = Commands("g.md", Scan([]byte("```sh\n$ vllm-sr serve\necho 'open\n```\n")))
	if len(errs) != 2 {
		t.Errorf("a prompt in a sh block and an open quote: %v; want two errors", errs)
	}
}

// TestConsoleExamples: each prompt's first command with the lines it
// printed, after the lines it continues on and up to the next prompt; a
// pipeline is marked.
func TestConsoleExamples(t *testing.T) {
	md := "```console\n$ vllm-sr convert --from a \\\n  --to b\n{\"out\": 1}\n$ curl -d '{\n\"x\": 1\n}' u\n{}\n[]\n" +
		"$ curl u/metrics | grep ^vsr\nvsr_a 1\n$ true\n```\n\n```sh\nmake test\n```\n"
	examples, errs := ConsoleExamples("g.md", Scan([]byte(md)))
	var got []string
	for _, e := range examples {
		got = append(got, fmt.Sprintf("%s => %q %v %q", e.Command, e.Output, e.Pipeline, e.Then))
	}
	want := []string{
		`g.md:2: vllm-sr convert --from a --to b => ["{\"out\": 1}"] false []`,
		"g.md:5: curl -d {\n\"x\": 1\n} u => [\"{}\" \"[]\"] false []",
		`g.md:10: curl u/metrics => ["vsr_a 1"] true [["grep" "^vsr"]]`,
		`g.md:12: true => [] false []`,
	}
	if len(errs) != 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("ConsoleExamples = %q, %v; want %q", got, errs, want)
	}
}

// fakeRoot is a small tree with what the real ones use: a required flag,
// a subcommand group, positional-argument rules, typed flags, and a
// persistent flag.
func fakeRoot() *cobra.Command {
	run := func(*cobra.Command, []string) error { return nil }
	root := &cobra.Command{Use: "vllm-sr"}
	root.PersistentFlags().String("root", ".", "")
	serve := &cobra.Command{Use: "serve", Args: cobra.NoArgs, RunE: run}
	serve.Flags().String("config", "", "")
	serve.Flags().Int("port", 8100, "")
	_ = serve.MarkFlagRequired("config")
	config := &cobra.Command{Use: "config"}
	check := &cobra.Command{Use: "check FILE", Args: cobra.ExactArgs(1), RunE: run}
	check.Flags().String("specs", "", "")
	check.Flags().Bool("quiet", false, "")
	config.AddCommand(check)
	root.AddCommand(serve, config)
	return root
}

func TestCheckCobra(t *testing.T) {
	for _, good := range []string{
		"serve --config r.yaml", "serve --config=r.yaml --port 0", "config check r.yaml",
		"config check --specs . r.yaml", "config check --quiet r.yaml", "--root . config check r.yaml",
		"config --help", "serve --help", "help serve",
	} {
		if err := CheckCobra(fakeRoot(), strings.Fields(good)); err != nil {
			t.Errorf("vllm-sr %s: %v", good, err)
		}
	}
	for _, c := range []struct{ args, want string }{
		{"serve --confg r.yaml", "unknown flag: --confg"},
		{"serve", `required flag(s) "config" not set`},
		{"serve --config r.yaml --port abc", "invalid argument"},
		{"serve --config r.yaml extra", "unknown command"},
		{"srve --config r.yaml", "unknown command"},
		{"config chek r.yaml", `unknown command "chek" for "vllm-sr config"`},
		{"config", "runs nothing"},
		{"config check", "accepts 1 arg"},
		{"config check a.yaml b.yaml", "accepts 1 arg"},
		{"config check -s . r.yaml", "unknown shorthand flag"},
	} {
		err := CheckCobra(fakeRoot(), strings.Fields(c.args))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("vllm-sr %s: %v; want an error containing %q", c.args, err, c.want)
		}
	}
}

const makefile = `GO ?= go
PKGS := ./...
.PHONY: test run
test: ## Run every test
	$(GO) test $(PKGS)
check-generated: generate ## Fail when stale
	@echo x: y
run bench:
`

func TestCheckMake(t *testing.T) {
	targets := MakeTargets([]byte(makefile))
	if want := map[string]bool{"test": true, "check-generated": true, "run": true, "bench": true}; !reflect.DeepEqual(targets, want) {
		t.Errorf("MakeTargets = %v, want %v", targets, want)
	}
	for _, good := range []string{"test", "check-generated run", "bench BENCH_COUNT=6", "-C . test", ""} {
		if err := CheckMake(targets, strings.Fields(good)); err != nil {
			t.Errorf("make %s: %v", good, err)
		}
	}
	for _, bad := range []string{"tests", "generate", "GO", "test rnu"} {
		if err := CheckMake(targets, strings.Fields(bad)); err == nil {
			t.Errorf("make %s passed; want an error", bad)
		}
	}
}

func TestProgram(t *testing.T) {
	for _, c := range []struct {
		cmd, prog string
		goRun     bool
	}{
		{"vllm-sr serve --config x", "vllm-sr", false},
		{"go run ./cmd/vllm-srun serve m", "vllm-srun", true},
		{"go run -race ./cmd/srgen/ check", "srgen", true},
		{"go run ./cmd/nothing", "nothing", true},
		{"make test", "make", false},
		{"go test ./...", "", false},
		{"curl -s x", "", false},
	} {
		prog, _, goRun := Program(strings.Fields(c.cmd))
		if prog != c.prog || goRun != c.goRun {
			t.Errorf("Program(%q) = %q, %v; want %q, %v", c.cmd, prog, goRun, c.prog, c.goRun)
		}
	}
}
