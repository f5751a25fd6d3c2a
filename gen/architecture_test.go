package gen

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/vllm-sr/systemone/"

// runtimeImports are the import rules of docs/design/architecture.md: for
// each hand-written runtime package, the module packages its non-test
// files may import. Imports flow one way, from the servers down through
// the engine and the codecs to the IR and the leaves; nothing imports a
// server, and only tests import runtime/testkit (TestTestkitImporters).
var runtimeImports = map[string][]string{
	"runtime/table":     {},
	"runtime/jsonvalue": {},
	"runtime/bodylimit": {},
	"runtime/socket":    {},
	// The standard's answer arithmetic, shared by the engines.
	"runtime/distribution": {},
	// The HTTP front knows no schema: it spells only the paths and headers
	// of the vocabulary.
	"runtime/front":      {"generated/vocab"},
	"runtime/ir":         {"runtime/table", "runtime/jsonvalue", "generated/vocab", "generated/fieldtable"},
	"runtime/shapes":     {"runtime/ir", "runtime/table", "runtime/jsonvalue", "generated/vocab", "generated/fieldtable", "generated/validate"},
	"runtime/modelcheck": {"runtime/ir", "runtime/table", "runtime/jsonvalue", "generated/vocab", "generated/fieldtable", "generated/catalog"},
	"runtime/refscorer":  {"runtime/modelcheck", "runtime/distribution", "runtime/ir", "runtime/table", "runtime/jsonvalue", "generated/vocab", "generated/fieldtable"},
	"runtime/listener": {"runtime/shapes", "runtime/bodylimit", "runtime/ir", "runtime/table", "runtime/jsonvalue",
		"generated/vocab", "generated/fieldtable", "generated/validate"},
	"runtime/target": {"runtime/shapes", "runtime/modelcheck", "runtime/ir", "runtime/table", "runtime/jsonvalue",
		"generated/vocab", "generated/fieldtable", "generated/catalog"},
	"runtime/registry": {"runtime/listener", "runtime/target", "runtime/ir", "runtime/table", "generated/vocab", "generated/fieldtable"},
	"runtime/engine": {"runtime/registry", "runtime/listener", "runtime/target", "runtime/shapes", "runtime/modelcheck",
		"runtime/ir", "runtime/table", "runtime/jsonvalue", "generated/vocab", "generated/fieldtable", "generated/validate"},
	"runtime/routerconfig": {"runtime/registry", "runtime/engine", "runtime/listener", "runtime/target", "runtime/modelcheck",
		"runtime/ir", "runtime/table", "runtime/jsonvalue", "generated/vocab", "generated/fieldtable", "generated/validate", "generated/catalog"},
	// The Router's transport: wire calls out, raw replies back, no codec.
	"runtime/upstream": {"runtime/front", "runtime/socket", "runtime/target", "generated/vocab"},
	// What an operator sees of the Router's requests: metrics, trace
	// context and spans.
	"runtime/observe": {"runtime/routerconfig", "runtime/front", "runtime/target", "runtime/ir"},
	// The deployments as a fleet: circuits, retries, what a request tried,
	// readiness checks.
	"runtime/fleet": {"runtime/upstream", "runtime/routerconfig", "runtime/listener", "runtime/target", "runtime/front",
		"runtime/ir", "runtime/jsonvalue", "generated/vocab"},
	// The LLM pass-through, and the reading of LLM requests for rules.
	"runtime/llmproxy": {"runtime/observe", "runtime/routerconfig", "runtime/registry", "runtime/front", "runtime/ir", "runtime/jsonvalue", "generated/vocab"},
	// The Router's own rules, the Decide path, run through the Router's
	// deployments (rules.Deployments).
	"runtime/rules": {"runtime/llmproxy", "runtime/observe", "runtime/routerconfig", "runtime/listener", "runtime/target", "runtime/front",
		"runtime/ir", "runtime/jsonvalue", "generated/vocab", "generated/fieldtable"},
	// The Router: the composition of the five above and the engine.
	"runtime/router": {"runtime/upstream", "runtime/observe", "runtime/fleet", "runtime/llmproxy", "runtime/rules",
		"runtime/routerconfig", "runtime/registry", "runtime/engine", "runtime/listener", "runtime/front", "runtime/socket", "runtime/target",
		"runtime/modelcheck", "runtime/bodylimit", "runtime/ir", "runtime/table", "runtime/jsonvalue", "generated/vocab", "generated/catalog"},
	// The LLM engine: a client of an OpenAI-compatible server that answers
	// questions from token log-probabilities; vllm-srun plugs it in.
	"runtime/llm": {"runtime/modelcheck", "runtime/distribution", "runtime/shapes", "runtime/ir", "runtime/table", "runtime/jsonvalue",
		"generated/vocab", "generated/fieldtable", "generated/catalog"},
	"runtime/srun": {"runtime/registry", "runtime/engine", "runtime/listener", "runtime/front", "runtime/socket", "runtime/refscorer", "runtime/modelcheck",
		"runtime/shapes", "runtime/bodylimit", "runtime/ir", "runtime/table", "runtime/jsonvalue",
		"generated/vocab", "generated/fieldtable", "generated/catalog", "generated/corpus"},
	// The conformance kit is a client of any server, shipped in
	// `vllm-sr conformance`: it reads the specs' tables and speaks HTTP, and
	// imports no codec, so it checks what a server says, not what our code
	// would say.
	"runtime/conformance": {"runtime/table", "runtime/jsonvalue", "generated/vocab", "generated/fieldtable", "generated/corpus"},
	// The test kit is test support: it may import any runtime package but
	// the servers', and no non-test file imports it (TestTestkitImporters).
	"runtime/testkit": {"runtime/listener", "runtime/front", "runtime/target", "runtime/shapes", "runtime/refscorer", "runtime/modelcheck",
		"runtime/registry", "runtime/engine", "runtime/bodylimit", "runtime/ir", "runtime/table", "runtime/jsonvalue",
		"generated/vocab", "generated/fieldtable", "generated/validate", "generated/catalog", "generated/corpus"},
}

// maxRuntimePackages bounds the runtime's hand-written packages.
const maxRuntimePackages = 25

// TestRuntimeImportRules: every runtime package is in the rules, and its
// non-test files import no module package the rules do not allow it.
func TestRuntimeImportRules(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(repoRoot, "runtime", "*"))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		pkg := "runtime/" + filepath.Base(dir)
		allowed, ok := runtimeImports[pkg]
		if !ok {
			t.Errorf("%s is not in the import rules (gen/architecture_test.go, docs/design/architecture.md)", pkg)
			continue
		}
		seen++
		for imp, at := range moduleImports(t, dir) {
			if !slices.Contains(allowed, imp) {
				t.Errorf("%s imports %s, which the import rules do not allow", at, imp)
			}
		}
	}
	if seen != len(runtimeImports) {
		t.Errorf("the rules name %d packages, runtime/ has %d of them", len(runtimeImports), seen)
	}
	// 20 until the Router was split along its seams (issue 25): its
	// transport, fleet, LLM pass-through, observation and rules are
	// packages of their own, each one concern, rather than files of one
	// 6.6k-line package; the bound keeps the layout from growing further
	// unasked.
	if len(runtimeImports) > maxRuntimePackages {
		t.Errorf("the runtime has %d packages; the layout allows at most %d", len(runtimeImports), maxRuntimePackages)
	}
}

// TestTestkitImporters: no non-test file of the module outside
// runtime/testkit imports it, so test support (and the testing package,
// go-cmp and kin-openapi it brings) stays out of every command;
// TestCommandsLinkNoTestCode checks the commands' whole import graphs.
func TestTestkitImporters(t *testing.T) {
	for _, top := range []string{"cmd", "gen", "generated", "runtime"} {
		err := filepath.WalkDir(filepath.Join(repoRoot, top), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			rel, _ := filepath.Rel(repoRoot, path)
			rel = filepath.ToSlash(rel)
			if strings.HasPrefix(rel, "runtime/testkit/") {
				return nil
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			for _, imp := range parsed.Imports {
				if p, _ := strconv.Unquote(imp.Path.Value); p == module+"runtime/testkit" {
					t.Errorf("%s imports runtime/testkit; only _test.go files may", rel)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// moduleImports returns the module packages the non-test files of dir
// import, each with the first file that does.
func moduleImports(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	out := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if rel, ok := strings.CutPrefix(path, module); ok {
				if _, seen := out[rel]; !seen {
					rel2, _ := filepath.Rel(repoRoot, f)
					out[rel] = rel2
				}
			}
		}
	}
	return out
}
