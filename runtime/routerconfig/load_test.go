package routerconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/target"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

func builtin() Registries { return BuiltinRegistries() }

// TestBuiltinRegistriesAgree: every schema the API registry lets a
// configuration name has its codec in the schema registry.
func TestBuiltinRegistriesAgree(t *testing.T) {
	regs := builtin()
	for _, api := range regs.APIs.All() {
		if api.Kind != registry.KindDecision {
			continue
		}
		for _, s := range api.Schemas {
			if _, err := regs.Schemas.Listener(s); err != nil {
				t.Errorf("%s listener schema: %v", api.Name, err)
			}
		}
		for _, id := range api.UpstreamSchemas {
			if _, err := regs.Schemas.Target(id); err != nil {
				t.Errorf("%s upstream schema: %v", api.Name, err)
			}
		}
	}
}

// TestLoadGolden loads every configuration under testdata/check and
// compares what it describes, or every problem it reports, with its
// golden file.
func TestLoadGolden(t *testing.T) {
	setCheckEnv(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "check", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no configurations under testdata/check")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			c, err := LoadFile(filepath.ToSlash(file), builtin())
			var got string
			if err != nil {
				var le *LoadError
				if !errors.As(err, &le) {
					t.Fatalf("not a *LoadError: %v", err)
				}
				got = err.Error() + "\n"
			} else {
				got = Describe(c)
			}
			if strings.Contains(got, checkKey) || strings.Contains(got, "sk-second") {
				t.Errorf("a key from the environment is in the output:\n%s", got)
			}
			testkit.GoldenCheck(t, strings.TrimSuffix(file, ".yaml")+".golden", []byte(got))
		})
	}
}

// checkKey is the key testdata/check's configurations read from
// VSR_CHECK_KEY; it must appear in no output.
const checkKey = "sk-check-4f1c9a"

// setCheckEnv sets the variables testdata/check reads and unsets
// VSR_CHECK_UNSET.
func setCheckEnv(t *testing.T) {
	t.Helper()
	t.Setenv("VSR_CHECK_KEY", checkKey)
	t.Setenv("VSR_CHECK_KEYS", " sk-first, sk-second ,")
	t.Setenv("VSR_CHECK_UNSET", "")
	if err := os.Unsetenv("VSR_CHECK_UNSET"); err != nil {
		t.Fatal(err)
	}
}

// TestRequiredConfigurationLoads pins the facts of the configuration the
// design fixes, beyond its golden description.
func TestRequiredConfigurationLoads(t *testing.T) {
	c, err := LoadFile("testdata/check/required.yaml", builtin())
	if err != nil {
		t.Fatal(err)
	}
	l := c.Listeners[0]
	sys, ok := l.Serves("systemone", registry.BuiltinAPIs())
	if !ok || len(l.APIs) != 1 || sys.Schema != "vllm-sr/5.0" || sys.Codec == nil {
		t.Fatalf("listener: %+v", l)
	}
	if v, ok := sys.Setting("max_deadline_ms"); !ok || v != 5000 {
		t.Errorf("max_deadline_ms %d %v", v, ok)
	}
	if _, ok := l.Serves("openai", registry.BuiltinAPIs()); ok {
		t.Error("a listener with apis serves only those")
	}
	d, _ := c.Deployment("gateway-d3")
	if d.Codec.Traits().Schema != "systemone/0.2" || len(d.Deviations) != 1 || d.Deviations[0].ID() != "state_text" || d.Model != "d3" {
		t.Errorf("gateway-d3: %+v", d)
	}
	vela, _ := c.Deployment("local-vela")
	if vela.MaxConcurrency != target.DefaultMaxConcurrency || vela.Card == nil {
		t.Errorf("local-vela: %+v", vela)
	}
	route, ok := c.Route("vllm-sr/auto")
	if !ok || len(route) != 2 || route[0].Name != "local-vela" || route[1].Name != "gateway-d3" {
		t.Errorf("vllm-sr/auto routes to %v", route)
	}
	if _, ok := c.Route("d3"); ok {
		t.Error("a client's model names a deployment key, not its upstream model")
	}
	r := c.Rules[0]
	if r.Roles.Mode != "explicit" || len(r.Roles.Parts) != 2 || r.Roles.Parts[1].Role != "context" || r.OnUnknown != OnUnknownSkip {
		t.Errorf("rule: %+v", r)
	}
}

func TestDefaultListenerServesTheLLMAPIs(t *testing.T) {
	c, err := Load("inline.yaml", []byte("listeners:\n  - {name: a, address: ':80'}\n"), builtin())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range c.Listeners[0].APIs {
		names = append(names, a.API.Name)
		if a.Models != nil {
			t.Errorf("%s restricted to %v", a.API.Name, a.Models)
		}
	}
	if got := strings.Join(names, ","); got != "chat_completions,images,messages,responses" || c.Listeners[0].Listed {
		t.Fatalf("default APIs %s", got)
	}
}

func TestRefusalsNameRuleAndDeployment(t *testing.T) {
	_, err := LoadFile("testdata/check/span-on-standard.yaml", builtin())
	var le *LoadError
	if !errors.As(err, &le) {
		t.Fatalf("got %v", err)
	}
	refusals := le.Refusals()
	if len(refusals) == 0 {
		t.Fatal("no refusal")
	}
	found := false
	for _, p := range refusals {
		line := p.String()
		if strings.Contains(line, "\n") || !strings.Contains(line, `rule "`+p.Rule+`"`) || !strings.Contains(line, `deployment "`+p.Deployment+`"`) || p.Line == 0 {
			t.Errorf("refusal not one line naming rule and deployment with a position: %q", line)
		}
		if p.Rule == "pii" && p.Deployment == "gateway-d3" && strings.Contains(line, "span question") {
			found = true
		}
	}
	if !found {
		t.Errorf("the span question on systemone/0.2 is not refused: %v", err)
	}
}

// TestOddDocumentsAreProblems: malformed shapes are reported, never a panic.
func TestOddDocumentsAreProblems(t *testing.T) {
	for _, doc := range []string{"", "[]", "listeners: 3", "listeners: [3]", "deployments: {a: }", "rules: {r: {questions: []}}",
		"a: &x {b: *x}", "listeners:\n  - name: a\n    address: ':1'\n    apis: {systemone: {models: 3}}", "rules: {r: {deployment: d, input: [request], timeout_ms: 1, questions: {q: [1, 2]}}}",
		"<<: {a: 1}",
		"deployments: {d: {provider: systemone, endpoint: 'http://h/v1/systemone', model: m}}\nrules: {r: {deployment: d, input: [request], timeout_ms: 1, questions: {q: &x {type: noul, instructions: [*x]}}}}",
		"deployments: {d: {provider: systemone, endpoint: 'http://h/v1/systemone', model: m}}\nrules: {r: {deployment: d, input: [request], timeout_ms: 1, questions: {q: {type: noul, criteria: {a: &a [x, x, x, x, x, x, x, x, x, x], b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a], c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b], d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]}}}}}", "listeners: [{name: a, address: ':1', apis: {}}]", "deployments: {d: {provider: systemone, endpoint: 'http://h', model: m, max_concurrency: 1e99}}"} {
		_, err := Load("odd.yaml", []byte(doc), builtin())
		var le *LoadError
		if !errors.As(err, &le) || len(le.Problems) == 0 {
			t.Errorf("%q: got %v, want a *LoadError", doc, err)
		}
	}
}

// TestListenerMaxInFlight: a listener's bound is DefaultMaxInFlight
// unless it sets one from 1 to MaxMaxInFlight; anything else is refused
// at its position naming the range.
func TestListenerMaxInFlight(t *testing.T) {
	c, err := Load("inline.yaml", []byte("listeners:\n  - {name: a, address: ':80'}\n  - {name: b, address: ':81', max_in_flight: 8}\n"), builtin())
	if err != nil {
		t.Fatal(err)
	}
	if c.Listeners[0].MaxInFlight != DefaultMaxInFlight || c.Listeners[1].MaxInFlight != 8 {
		t.Fatalf("max_in_flight %d and %d, want %d and 8", c.Listeners[0].MaxInFlight, c.Listeners[1].MaxInFlight, DefaultMaxInFlight)
	}
	if d := Describe(c); !strings.Contains(d, "listener b :81 (default APIs) max_in_flight=8\n") || strings.Contains(d, "listener a :80 (default APIs) max_in_flight") {
		t.Errorf("describe shows the bound only where it is not the default:\n%s", d)
	}
	for value, want := range map[string]string{
		"0":     "inline.yaml:1:54: listeners[0].max_in_flight: must be between 1 and 65536",
		"65537": "inline.yaml:1:54: listeners[0].max_in_flight: must be between 1 and 65536",
		"many":  "inline.yaml:1:54: listeners[0].max_in_flight: must be an integer, not a string",
	} {
		_, err := Load("inline.yaml", []byte("listeners: [{name: a, address: ':80', max_in_flight: "+value+"}]\n"), builtin())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("max_in_flight %s: %v; want %q", value, err, want)
		}
	}
}

// TestFlowQuestionMarkNeedsQuotes pins the one input go.yaml.in/yaml/v3
// refuses that YAML 1.2 allows: a plain value with '?' inside a flow
// mapping. The refusal says what to write; its line is the parser's
// (v3 counts it from the mapping's start, one line early).
func TestFlowQuestionMarkNeedsQuotes(t *testing.T) {
	const plain = "rules:\n  r: {instructions: Is it urgent?}\n"
	_, err := Load("q.yaml", []byte(plain), BuiltinRegistries())
	if err == nil || !strings.Contains(err.Error(), "q.yaml: line ") || !strings.Contains(err.Error(), "must be quoted") {
		t.Fatalf("unquoted '?' in a flow mapping: got %v, want a refusal with a line asking for quotes", err)
	}
	const quoted = "rules:\n  r: {instructions: \"Is it urgent?\"}\n"
	_, err = Load("q.yaml", []byte(quoted), BuiltinRegistries())
	if err != nil && strings.Contains(err.Error(), "must be quoted") {
		t.Fatalf("quoted '?': %v", err)
	}
}
