package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// notLinked are packages no command may link: test code, which a _test.go
// file may use and a binary must not carry. A path ending in "/" is a
// prefix.
var notLinked = []struct {
	pkg string
	// in are the commands (cmd/<name>) it must stay out of; nil: all.
	in  []string
	why string
}{
	{"testing", nil, "the test framework"},
	{"testing/", nil, "the test framework's helpers"},
	{"net/http/httptest", nil, "HTTP test servers and recorders"},
	{"github.com/google/go-cmp/", nil, "go-cmp, the tests' comparer"},
	// srgen reads OpenAPI documents (the 4.0 contract, the published
	// standard) with kin-openapi: a product dependency of the generator.
	// The servers validate against no OpenAPI document at run time, not
	// even `vllm-sr conformance`, whose checks are its own; only tests do.
	{"github.com/getkin/kin-openapi/", []string{"cmd/vllm-sr", "cmd/vllm-srun"}, "the OpenAPI validator the tests use"},
}

// TestCommandsLinkNoTestCode: the import graph of every command under
// cmd/, as `go list -deps` gives it (what the linker links), holds no
// package of notLinked; a failure names the chain of imports that brings
// it in.
func TestCommandsLinkNoTestCode(t *testing.T) {
	graph, mains := commandGraph(t)
	if len(mains) < 3 {
		t.Fatalf("go list found the commands %v; want vllm-sr, vllm-srun and srgen at least", mains)
	}
	for _, main := range mains {
		if len(graph[main]) == 0 || importChain(graph, main, "net/http") == nil {
			t.Fatalf("%s: the graph go list gave is not the command's (no imports, or no path to net/http)", main)
		}
	}
	for _, problem := range testCodeLinks(graph, mains) {
		t.Error(problem)
	}
}

// The check itself, on a graph where a command links the test framework
// through a kit and go-cmp directly, and another is clean.
func TestTestCodeLinksNamesTheChain(t *testing.T) {
	graph := map[string][]string{
		module + "cmd/vllm-sr":         {"fmt", module + "runtime/kit"},
		module + "runtime/kit":         {"net/http", "testing"},
		"testing":                      {"fmt"},
		module + "cmd/vllm-srun":       {"fmt", "github.com/google/go-cmp/cmp"},
		"github.com/google/go-cmp/cmp": {},
		module + "cmd/srgen":           {"github.com/getkin/kin-openapi/openapi3"},
	}
	got := testCodeLinks(graph, []string{module + "cmd/vllm-sr", module + "cmd/vllm-srun", module + "cmd/srgen"})
	want := []string{
		"cmd/vllm-sr links testing (the test framework): cmd/vllm-sr → runtime/kit → testing",
		"cmd/vllm-srun links github.com/google/go-cmp/cmp (go-cmp, the tests' comparer): cmd/vllm-srun → github.com/google/go-cmp/cmp",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// testCodeLinks returns one line per command and package of notLinked it
// reaches, with the shortest chain of imports that reaches it.
func testCodeLinks(graph map[string][]string, mains []string) []string {
	var out []string
	for _, main := range mains {
		cmd := strings.TrimPrefix(main, module)
		reach := reachable(graph, main)
		for _, rule := range notLinked {
			if rule.in != nil && !slices.Contains(rule.in, cmd) {
				continue
			}
			for _, pkg := range reach {
				if pkg != rule.pkg && !(strings.HasSuffix(rule.pkg, "/") && strings.HasPrefix(pkg, rule.pkg)) {
					continue
				}
				chain := importChain(graph, main, pkg)
				for i := range chain {
					chain[i] = strings.TrimPrefix(chain[i], module)
				}
				out = append(out, cmd+" links "+pkg+" ("+rule.why+"): "+strings.Join(chain, " → "))
				break // one chain per rule says enough
			}
		}
	}
	return out
}

// reachable lists every package from imports, in breadth-first order.
func reachable(graph map[string][]string, from string) []string {
	seen := map[string]bool{from: true}
	order := []string{from}
	for i := 0; i < len(order); i++ {
		for _, imp := range graph[order[i]] {
			if !seen[imp] {
				seen[imp] = true
				order = append(order, imp)
			}
		}
	}
	return order
}

// importChain is a shortest chain of imports from one package to another,
// both included; nil when there is none.
func importChain(graph map[string][]string, from, to string) []string {
	parent := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		pkg := queue[0]
		queue = queue[1:]
		if pkg == to {
			var chain []string
			for p := to; p != ""; p = parent[p] {
				chain = append(chain, p)
			}
			slices.Reverse(chain)
			return chain
		}
		for _, imp := range graph[pkg] {
			if _, seen := parent[imp]; !seen {
				parent[imp] = pkg
				queue = append(queue, imp)
			}
		}
	}
	return nil
}

// commandGraph runs `go list -deps` over ./cmd/... (at most two minutes)
// and returns each listed package's imports and the commands' import
// paths, sorted.
func commandGraph(t *testing.T) (map[string][]string, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-json=ImportPath,Name,Imports", "./cmd/...")
	cmd.Dir = repoRoot
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/...: %v\n%s", err, stderr.String())
	}
	graph := map[string][]string{}
	var mains []string
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Name string
			Imports          []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list's output: %v", err)
		}
		graph[p.ImportPath] = p.Imports
		if p.Name == "main" && strings.HasPrefix(p.ImportPath, module+"cmd/") {
			mains = append(mains, p.ImportPath)
		}
	}
	slices.Sort(mains)
	dirs, _ := filepath.Glob(filepath.Join(repoRoot, "cmd", "*", "main.go"))
	if len(dirs) != len(mains) {
		t.Fatalf("cmd/ has %d main.go files, go list listed the commands %v", len(dirs), mains)
	}
	return graph, mains
}
