package routerconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	yaml "go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaPath is router.yaml's published JSON Schema, srgen's output
// (gen/configschema) from file.go.
const schemaPath = "../../docs/reference/router-config.schema.json"

// compileSchema compiles the published schema with santhosh-tekuri's
// validator, the JSON Schema library the module already links.
func compileSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("router-config.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("router-config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// instanceOf is a YAML document as the JSON value the schema checks: a
// mapping's first value for a key the file repeats (the loader refuses
// the repeat itself), aliases followed.
func instanceOf(t testing.TB, data []byte) any {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Content) == 0 {
		return nil
	}
	raw, err := json.Marshal(nodeValue(doc.Content[0]))
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var english = message.NewPrinter(language.English)

// schemaErrors validates v and returns where each error is, as
// "pointer: message" lines of the innermost causes, sorted.
func schemaErrors(s *jsonschema.Schema, v any) []string {
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{err.Error()}
	}
	var out []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, "/"+strings.Join(e.InstanceLocation, "/")+": "+e.ErrorKind.LocalizedString(english))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	slices.Sort(out)
	return slices.Compact(out)
}

// configFiles are every router.yaml of the repository: the examples, the
// deploy image's, and the test configurations.
func configFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{
		"../../docs/examples/*.yaml",
		"../../deploy/container/router.yaml",
		"testdata/check/*.yaml",
		"testdata/migrate/*.yaml",
		"../router/testdata/*.yaml",
		"../conformance/testdata/router*.yaml",
	} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, files...)
	}
	return out
}

// envNames are the environment variables a configuration names.
var envNames = regexp.MustCompile(`(?m)_env:\s*([A-Za-z_][A-Za-z0-9_]*)`)

// placeholder is what a test fills into a configuration template: a port
// after "host:", else an upstream's URL.
var placeholder = regexp.MustCompile(`:?(\{\{[A-Z0-9]+\}\}|\bUPSTREAM\b|\bSTANDARD\b)`)

// fillTemplate fills the templates the Router's and the conformance
// kit's tests write their configurations from, each placeholder with a
// port of its own, as those tests do.
func fillTemplate(data []byte) []byte {
	ports := map[string]int{}
	return placeholder.ReplaceAllFunc(data, func(m []byte) []byte {
		name := strings.TrimPrefix(string(m), ":")
		port, ok := ports[name]
		if !ok {
			port = 20000 + len(ports)
			ports[name] = port
		}
		if m[0] == ':' {
			return []byte(":" + strconv.Itoa(port))
		}
		return []byte("http://127.0.0.1:" + strconv.Itoa(port))
	})
}

// TestSchemaAcceptsWhatTheLoaderAccepts: the schema refuses no
// configuration the Router runs (every example and test configuration
// the loader accepts), so an editor never flags a good file. Its
// environment variables are set, so a key is not what refuses it.
func TestSchemaAcceptsWhatTheLoaderAccepts(t *testing.T) {
	schema := compileSchema(t)
	accepted := 0
	for _, file := range configFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		data = fillTemplate(data)
		for _, m := range envNames.FindAllSubmatch(data, -1) {
			t.Setenv(string(m[1]), "test-key")
		}
		_, loadErr := Load(file, data, BuiltinRegistries())
		if strings.HasPrefix(file, "../../docs/examples/") && loadErr != nil {
			t.Errorf("%s: the loader refuses an example: %v", file, loadErr)
		}
		if loadErr != nil {
			continue
		}
		accepted++
		if errs := schemaErrors(schema, instanceOf(t, data)); len(errs) > 0 {
			t.Errorf("%s loads, but the schema refuses it:\n%s", file, strings.Join(errs, "\n"))
		}
	}
	if accepted < 13 {
		t.Errorf("only %d configurations load; the check needs the examples and the test configurations", accepted)
	}
}

// TestSchemaRefusesTheInvalidConfigs: the test configurations the
// loader refuses are refused by the schema too, at the same places,
// where the schema can state the rule (a key, a type, a bound, a word,
// a required key); what needs the other sections or the registries
// stays the loader's alone (testdata/check's golden files list those).
func TestSchemaRefusesTheInvalidConfigs(t *testing.T) {
	schema := compileSchema(t)
	for file, want := range map[string][]string{
		"testdata/check/strict.yaml": {
			"/: additional properties 'extra' not allowed",
			"/listeners/0: additional properties 'models' not allowed",
			"/listeners/0/apis/systemone/max_deadline_ms: minimum",
			"/upstreams/openai-main/models: items at",
			"/deployments/gateway-d3/max_concurrency: got string, want integer",
			"/deployments/local-vela: additional properties 'region' not allowed",
			"/rules/urgent/input/1: value must be one of",
			"/rules/urgent/timeout_ms: minimum",
			"/rules/urgent/on_unknown: value must be",
			"/rules/empty: missing properties",
			"/rules/empty/input: got string, want array",
		},
		"testdata/check/fleet-bad.yaml": {
			"/deployments/local-vela/required: got string, want boolean",
			"/deployments/local-vela/retries: maximum",
			"/deployments/local-vela/timeout_ms: minimum",
			"/deployments/local-vela/circuit/failures: minimum",
			"/deployments/local-vela/circuit/cool_down_ms: maximum",
			"/deployments/local-vela/circuit: additional properties 'half_open' not allowed",
			"/deployments/other-vela/circuit: got number, want object",
			"/deployments/other-vela/retries: got number, want integer",
		},
		"testdata/check/connections-bad.yaml": {
			"/deployments/range-d3/connections: additional properties 'idle_ms' not allowed",
			"/deployments/range-d3/connections/reuse: got string, want boolean",
			"/deployments/range-d3/connections/stray_pause_ms: maximum",
			"/deployments/scalar-d3/connections: got boolean, want object",
		},
		"testdata/check/production.yaml":          {"/upstreams/openai-main/api_key_env: '"},
		"testdata/migrate/capabilities.yaml":      {"/deployments/gateway/capabilities/2: value must be one of"},
		"testdata/migrate/legacy.yaml":            {"/listeners/0: 'models'"},
		"testdata/check/tracing-no-endpoint.yaml": {"/tracing: missing property 'otlp_endpoint'"},
		"testdata/check/tracing-problems.yaml": {
			"/tracing/otlp_endpoint: ",
			"/tracing/sample_ratio: maximum",
			"/tracing: additional properties 'service' not allowed",
		},
		"testdata/check/tracing-credentials.yaml":  {"/tracing/sample_ratio: got string, want number"},
		"testdata/check/broken-listener-item.yaml": {"/listeners/0: got string, want object"},
		"testdata/check/media.yaml":                {"/rules/twice/input: items at"},
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Load(file, data, BuiltinRegistries()); err == nil {
			t.Errorf("%s: the loader accepts it; the table is for refused configurations", file)
		}
		got := schemaErrors(schema, instanceOf(t, data))
		for _, w := range want {
			if !slices.ContainsFunc(got, refuses(w)) {
				t.Errorf("%s: the schema does not refuse %q; its errors:\n%s", file, w, strings.Join(got, "\n"))
			}
		}
	}
}

// refuses returns whether a schema error is want, "pointer: text": an
// error at that pointer whose message holds text (the validator lists
// several unknown keys in no fixed order).
func refuses(want string) func(string) bool {
	at, text, _ := strings.Cut(want, ": ")
	return func(got string) bool {
		gotAt, msg, _ := strings.Cut(got, ": ")
		return gotAt == at && strings.Contains(msg, text)
	}
}

// TestSchemaRefusesAMutatedExample: the schema accepts the example and
// refuses it once broken, each break at its place, so the check above
// can fail.
func TestSchemaRefusesAMutatedExample(t *testing.T) {
	schema := compileSchema(t)
	data, err := os.ReadFile("../../docs/examples/router.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if errs := schemaErrors(schema, instanceOf(t, data)); len(errs) > 0 {
		t.Fatalf("the example is refused:\n%s", strings.Join(errs, "\n"))
	}
	for _, c := range []struct{ from, to, want string }{
		{"    max_concurrency: 8\n", "    max_concurrency: 0\n", "/deployments/gateway-d3/max_concurrency: minimum"},
		{"    retries: 1\n", "    retries: 1\n    retry: 2\n", "/deployments/gateway-d3: additional properties 'retry'"},
		{"    on_unknown: fail\n", "    on_unknown: fial\n", "/rules/pii/on_unknown: value must be one of"},
		{"    provider: systemone\n", "    provider: openai\n", "/deployments/gateway-d3/provider: value must be"},
		{"    timeout_ms: 400\n", "", "/rules/billing: missing property 'timeout_ms'"},
		{"    required: true\n", "    required: yes please\n", "/deployments/local-vela/required: got string, want boolean"},
		{"    route: {upstream: local-mini, model: gpt-4o-mini}\n", "", "/rules/billing: 'route'"},
		{"    action: block            # a flagged request never reaches the LLM\n", "    action: block\n    route: {model: gpt-4o}\n", "/rules/jailbreak: 'not' failed"},
		{"    models: [gpt-4o, gpt-4o-mini]\n", "    models: [gpt-4o, gpt-4o-mini]\n    api_key_env: K\n    api_key_file: /k\n", "/upstreams/openai-main: 'not' failed"},
	} {
		mutated := strings.Replace(string(data), c.from, c.to, 1)
		if mutated == string(data) {
			t.Fatalf("the example has no %q to break", c.from)
		}
		errs := schemaErrors(schema, instanceOf(t, []byte(mutated)))
		if !slices.ContainsFunc(errs, refuses(c.want)) {
			t.Errorf("%q -> %q: want %q, the schema says:\n%s", c.from, c.to, c.want, strings.Join(errs, "\n"))
		}
	}
}

// TestSchemaProblemsAreWhereTheLoaderPutsThem: Schema.Problems maps each
// schema error back through the YAML node tree to the line and column,
// and the key path, the loader gives the same mistake.
func TestSchemaProblemsAreWhereTheLoaderPutsThem(t *testing.T) {
	schema, err := CompileSchema(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"testdata/check/strict.yaml", "testdata/check/fleet-bad.yaml", "testdata/check/connections-bad.yaml",
		"testdata/check/tracing-problems.yaml", "testdata/check/tracing-no-endpoint.yaml", "testdata/check/tracing-credentials.yaml",
		"testdata/check/broken-listener-item.yaml", "testdata/check/production.yaml", "testdata/check/media.yaml", mutatedExample} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if file == mutatedExample {
			data = mutateExample(t, data)
		}
		var le *LoadError
		if _, err := Load(file, data, BuiltinRegistries()); !errors.As(err, &le) {
			t.Fatalf("%s loads", file)
		}
		got := schema.Problems(file, data)
		if len(got) == 0 || file == mutatedExample && len(got) != 3 {
			t.Errorf("%s: the schema finds %d problems: %v", file, len(got), got)
		}
		for _, p := range got {
			if !slices.ContainsFunc(le.Problems, func(l Problem) bool { return SamePlace(l, p) }) {
				t.Errorf("%s: the loader has no problem at %d:%d %s", p, p.Line, p.Column, p.Path)
			}
		}
	}
}

// mutatedExample is the example given keys the loader and the schema
// refuse together: a key by two forms, a route without action route, a
// route rule without route.
const mutatedExample = "../../docs/examples/router.yaml"

func mutateExample(t *testing.T, data []byte) []byte {
	t.Helper()
	out := string(data)
	for _, c := range [][2]string{
		{"    models: [gpt-4o, gpt-4o-mini]\n", "    models: [gpt-4o, gpt-4o-mini]\n    api_key_env: HOME\n    api_key_file: /dev/null\n"},
		{"    action: block            # a flagged request never reaches the LLM\n", "    action: block\n    route: {model: gpt-4o}\n"},
		{"    route: {upstream: local-mini, model: gpt-4o-mini}\n", ""},
	} {
		if !strings.Contains(out, c[0]) {
			t.Fatalf("the example has no %q", c[0])
		}
		out = strings.Replace(out, c[0], c[1], 1)
	}
	return []byte(out)
}

// TestSchemaCapabilitiesAreTheFeatures: the capability words the
// published schema lists (srgen fills them in from the specifications'
// feature words) are the ones the loader accepts.
func TestSchemaCapabilitiesAreTheFeatures(t *testing.T) {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Properties struct {
			Deployments struct {
				AdditionalProperties struct {
					Properties struct {
						Capabilities struct {
							Items struct {
								Enum []string `json:"enum"`
							} `json:"items"`
						} `json:"capabilities"`
					} `json:"properties"`
				} `json:"additionalProperties"`
			} `json:"deployments"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Properties.Deployments.AdditionalProperties.Properties.Capabilities.Items.Enum
	var want []string
	for _, c := range declarable {
		want = append(want, string(c))
	}
	if !slices.Equal(got, want) {
		t.Errorf("the schema's capabilities %v, the loader's %v", got, want)
	}
}
