package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCmd runs the command line in process, as main does, and returns its
// standard output and error streams.
func runCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	root := newRoot()
	root.SetArgs(args)
	root.SetIn(strings.NewReader(""))
	root.SetOut(&out)
	root.SetErr(&errOut)
	err = root.Execute()
	return out.String(), errOut.String(), err
}

// TestConfigCheckAcceptsTheDocumentedExample keeps docs/examples/router.yaml
// (the configuration guide's complete example) loadable.
func TestConfigCheckAcceptsTheDocumentedExample(t *testing.T) {
	out, _, err := runCmd(t, "config", "check", "../../docs/examples/router.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"listener public 0.0.0.0:8080 (listed APIs) rules=[jailbreak]",
		"deployment gateway-d3 systemone/0.2", "rule pii deployment=local-vela", "action=route upstream=local-mini model=gpt-4o-mini"} {
		if !strings.Contains(out, want) {
			t.Errorf("the description lacks %q:\n%s", want, out)
		}
	}
}

// config check accepts a configuration whose key file any user can read,
// with a warning on standard error naming the file, never its key.
func TestConfigCheckWarnsOfAnOpenKeyFile(t *testing.T) {
	dir := t.TempDir()
	keys := dir + "/clients.keys"
	if err := os.WriteFile(keys, []byte("sk-open-1\n"), 0o644); err != nil || os.Chmod(keys, 0o644) != nil {
		t.Fatal(err)
	}
	config := dir + "/router.yaml"
	if err := os.WriteFile(config, []byte("listeners:\n  - name: edge\n    address: 127.0.0.1:8080\n    api_keys_file: clients.keys\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "config", "check", config)
	want := "warning: " + config + ":4:20: listeners[0].api_keys_file: the key file " + keys + " is open to every user (mode 0644)"
	if err != nil || !strings.HasPrefix(errOut, want) || !strings.Contains(out, "api_keys_file="+keys) || strings.Contains(out+errOut, "sk-open-1") {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, out, errOut)
	}
}

// TestConfigCheckSpecs: --specs hashes the specification files under a
// root, so a root with other bytes fails before the configuration loads.
func TestConfigCheckSpecs(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(root+"/specs/systemone", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"systemone-0.2.schema.yaml", "vllm-sr-5.0.extensions.yaml", "vllm-sr-4.0.openapi.yaml"} {
		if err := os.WriteFile(root+"/specs/systemone/"+name, []byte("changed: true\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, _, err := runCmd(t, "config", "check", "--specs", root, "../../docs/examples/router.yaml")
	if err == nil || !strings.Contains(err.Error(), "specs/systemone/systemone-0.2.schema.yaml has sha256") {
		t.Fatalf("got %v", err)
	}
}

func TestConfigCheckPrintsEveryRefusal(t *testing.T) {
	out, _, err := runCmd(t, "config", "check", "../../runtime/routerconfig/testdata/check/span-on-standard.yaml")
	if err == nil || !strings.Contains(err.Error(), "4 problems, 4 refused rules") {
		t.Fatalf("got %v", err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 lines, got:\n%s", out)
	}
	if !strings.Contains(lines[0], `rule "pii" refused: deployment "gateway-d3" (systemone/0.2, model "d3") cannot carry span question`) {
		t.Errorf("first refusal: %s", lines[0])
	}
}

// TestConfigCheckRefusesCardLimits: a 33-option choice and 33 span labels
// on vela3-fast (its card: 32) fail config check, one line each naming
// the rule, the deployment and the limit; 32 pass.
func TestConfigCheckRefusesCardLimits(t *testing.T) {
	out, _, err := runCmd(t, "config", "check", "../../runtime/routerconfig/testdata/check/card-limits.yaml")
	if err == nil || !strings.Contains(err.Error(), "3 problems, 3 refused rules") {
		t.Fatalf("got %v\n%s", err, out)
	}
	for _, want := range []string{
		`rule "topic33" refused: deployment "local-vela" (vllm-sr/5.0, model "vllm-sr/vela3-fast") does not answer a choice question with 33 options (the model reads 1 to 32)`,
		`rule "entities33" refused: deployment "local-vela" (vllm-sr/5.0, model "vllm-sr/vela3-fast") does not answer a span question with 33 labels (the model reads 1 to 32)`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "topic32") || strings.Contains(out, "entities32") {
		t.Errorf("a rule within the limits is refused:\n%s", out)
	}
}

func TestConfigMigrate(t *testing.T) {
	const legacy = "../../runtime/routerconfig/testdata/migrate/legacy.yaml"
	out, _, err := runCmd(t, "config", "migrate", legacy)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../runtime/routerconfig/testdata/migrate/legacy.golden")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/migrated.yaml", []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if desc, _, err := runCmd(t, "config", "check", dir+"/migrated.yaml"); err != nil {
		t.Fatalf("the migrated configuration does not pass check: %v\n%s", err, desc)
	}

	same, stderr, err := runCmd(t, "config", "migrate", "../../docs/examples/router.yaml")
	original, _ := os.ReadFile("../../docs/examples/router.yaml")
	if err != nil || same != string(original) || !strings.Contains(stderr, "nothing to migrate") {
		t.Errorf("a current configuration must come back unchanged: %v %q", err, stderr)
	}

	_, stderr, err = runCmd(t, "config", "migrate", "../../runtime/routerconfig/testdata/migrate/conflict.yaml")
	if err == nil || !strings.Contains(err.Error(), "3 listeners to migrate by hand") || strings.Count(stderr, "\n") != 3 {
		t.Errorf("conflicts: %v\n%s", err, stderr)
	}
}

func TestConvertAcrossSchemas(t *testing.T) {
	body := `{"model":"vllm-sr/vela3","state":{"request":"hi","context":"doc"},"roles":{"request":"user","context":"context"},"questions":{"grounded":{"type":"noul","instructions":"Is the reply grounded?","preset":"grounded"}}}`
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--from", "vllm-sr/5.0", "--to", "systemone/0.2"},
			`{"model":"vllm-sr/vela3","state":{"request":"hi","context":"doc"},"questions":{"grounded":{"type":"noul","instructions":"Is the reply grounded?"`},
		{[]string{"--from", "vllm-sr/5.0", "--to", "systemone/0.2", "--deviation", "state_text"},
			`{"model":"vllm-sr/vela3","state":"{\"request\": \"hi\", \"context\": \"doc\"}","questions"`},
		{[]string{"--from", "vllm-sr/5.0", "--to", "internal"},
			`{"model":"vllm-sr/vela3","state":{"request":"hi","context":"doc"},"roles":{"request":"user","context":"context"}`},
	}
	for _, c := range cases {
		out, err := runConvert(t, body, c.args...)
		if err != nil || !strings.HasPrefix(out, c.want) {
			t.Errorf("%v: got %s (%v)\nwant prefix %s", c.args, out, err, c.want)
		}
	}
}

// TestGuideExampleIsTheExampleFile keeps the guide's complete example and
// docs/examples/router.yaml the same text.
func TestGuideExampleIsTheExampleFile(t *testing.T) {
	guide, err := os.ReadFile("../../docs/router-config.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("../../docs/examples/router.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(guide), "## Complete example")
	if !ok {
		t.Fatal("the guide has no complete example")
	}
	_, block, _ := strings.Cut(section, "```yaml\n")
	block, _, _ = strings.Cut(block, "```")
	if block != string(example) {
		t.Error("docs/router-config.md's complete example differs from docs/examples/router.yaml")
	}
}

// A deployment declares its capabilities in the listing's feature words:
// `preset` is one; an unknown word is refused with the words it takes,
// and the earlier `presets` and `extensions` with the feature words they
// stand for.
func TestConfigCheckCapabilityWords(t *testing.T) {
	write := func(caps string) string {
		path := t.TempDir() + "/router.yaml"
		body := `listeners:
  - name: public
    address: 127.0.0.1:8080
    apis:
      systemone: {}
deployments:
  partner:
    provider: systemone
    endpoint: https://partner.example/v1/systemone
    model: partner-decide-2
    schema: vllm-sr/5.0
    capabilities: ` + caps + "\n"
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	out, _, err := runCmd(t, "config", "check", write("[score, noul, preset]"))
	if err != nil || !strings.Contains(out, "capabilities(declared)=[noul,preset,score]") {
		t.Fatalf("%v\n%s", err, out)
	}
	out, _, err = runCmd(t, "config", "check", write("[noul, presets, extensions, answers]"))
	if err == nil || strings.Count(out, "is no longer a capability word") != 2 || strings.Count(out, "(vllm-sr config migrate rewrites it)") != 2 ||
		strings.Count(out, "unknown capability; allowed: noul, choice, score, box, set, span, track, image, video, roles, preset, over, head,") != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// TestConfigCheckReportsEveryDeviationProblem: deviations [bogus,
// state_text, state_text] are two problems, both reported at once at their
// items: the unknown ID and the one listed twice.
func TestConfigCheckReportsEveryDeviationProblem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "router.yaml")
	config := `listeners:
  - {name: public, address: "127.0.0.1:0", apis: {systemone: {}}}
deployments:
  gateway:
    provider: systemone
    endpoint: http://127.0.0.1:9/v1/systemone
    model: d3
    schema: systemone/0.2
    deviations: [bogus, state_text, state_text]
`
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCmd(t, "config", "check", path)
	if err == nil || !strings.Contains(err.Error(), "2 problems") {
		t.Fatalf("got %v\n%s", err, out)
	}
	for _, want := range []string{
		`router.yaml:9:18: deployments.gateway.deviations: unknown deviation "bogus"`,
		"router.yaml:9:37: deployments.gateway.deviations[2]: is listed twice",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("config check does not report %q:\n%s", want, out)
		}
	}
}
