package gen

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// routerCompositionLines bounds runtime/router's hand-written lines: the
// package is the composition of the Router's concerns (issue 25), and
// the transport, the fleet, observation, the LLM pass-through and the
// rules live in packages of their own. A concern growing back into the
// composition fails here first.
const routerCompositionLines = 2600

// lineCountDrift is how far docs/design/architecture.md's line counts may
// be from the tree before the table counts as stale: a tenth, or 150
// lines for small packages, so an ordinary edit does not touch the
// document but a move between packages does.
func lineCountDrift(n int) int { return max(n/10, 150) }

// countRow is one package's row of the line-count table.
var countRow = regexp.MustCompile("^\\| `((?:runtime|generated)/[a-z0-9]+)` \\| ([0-9,]+) \\| ([0-9,]+) \\| ([0-9,]+) \\|$")

// TestArchitectureShowsTheRuntime: docs/design/architecture.md describes
// every runtime and generated package in its package table, and its
// line-count table is the tree's within lineCountDrift (the command that
// prints the figures is beside the table); runtime/router stays the
// composition.
func TestArchitectureShowsTheRuntime(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "docs", "design", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	tabled := map[string][2]int{}
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for sc.Scan() {
		if m := countRow.FindStringSubmatch(sc.Text()); m != nil {
			tabled[m[1]] = [2]int{atoiCommas(t, m[2]), atoiCommas(t, m[3])}
		}
	}
	for _, top := range []string{"runtime", "generated"} {
		dirs, err := filepath.Glob(filepath.Join(repoRoot, top, "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range dirs {
			hand, generated, ok := goLines(t, dir)
			if !ok {
				continue
			}
			pkg := top + "/" + filepath.Base(dir)
			if !bytes.Contains(doc, []byte("| `"+pkg+"` |")) {
				t.Errorf("%s has no row in docs/design/architecture.md's package table", pkg)
			}
			row, ok := tabled[pkg]
			if !ok {
				t.Errorf("%s has no row in docs/design/architecture.md's line counts", pkg)
				continue
			}
			for i, got := range []int{hand, generated} {
				if d := row[i] - got; d > lineCountDrift(got) || -d > lineCountDrift(got) {
					t.Errorf("%s: architecture.md counts %d %s lines, the tree has %d: run the command beside the table and update it",
						pkg, row[i], [2]string{"hand-written", "generated"}[i], got)
				}
			}
			delete(tabled, pkg)
		}
	}
	for pkg := range tabled {
		t.Errorf("architecture.md counts lines of %s, which is not in the tree", pkg)
	}
	if hand, _, _ := goLines(t, filepath.Join(repoRoot, "runtime", "router")); hand > routerCompositionLines {
		t.Errorf("runtime/router has %d hand-written lines, more than the composition's %d: move the concern that grew into its own package",
			hand, routerCompositionLines)
	}
}

// goLines counts a package directory's non-test Go lines, hand-written and
// srgen's (zz_generated.*); ok is false for a directory with no Go file.
func goLines(t *testing.T, dir string) (hand, generated int, ok bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		ok = true
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(data, []byte("\n"))
		if strings.HasPrefix(filepath.Base(f), "zz_generated") {
			generated += n
		} else {
			hand += n
		}
	}
	return hand, generated, ok
}

func atoiCommas(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		t.Fatal(fmt.Errorf("line count %q: %w", s, err))
	}
	return n
}
