package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const publishedSchema = "../../docs/reference/router-config.schema.json"

// TestConfigCheckSchema: `config check --schema` validates against router.yaml's
// published schema without reporting anything twice, and against a narrower
// schema of one's own (a policy) adds its problems at their line and column,
// with the loader's, all at once.
func TestConfigCheckSchema(t *testing.T) {
	if out, stderr, err := runCmd(t, "config", "check", "--schema", publishedSchema, exampleFile); err != nil {
		t.Fatalf("the example against the published schema: %v\n%s%s", err, out, stderr)
	}
	strict := "../../runtime/routerconfig/testdata/check/strict.yaml"
	plain, _, plainErr := runCmd(t, "config", "check", strict)
	withSchema, _, schemaErr := runCmd(t, "config", "check", "--schema", publishedSchema, strict)
	if plainErr == nil || schemaErr == nil || plain != withSchema {
		t.Errorf("strict.yaml with the published schema differs from without it:\n%s\nversus\n%s", withSchema, plain)
	}

	// A policy: every LLM upstream names its key's variable.
	dir := t.TempDir()
	published, err := os.ReadFile(publishedSchema)
	if err != nil {
		t.Fatal(err)
	}
	mustWriteFile(t, filepath.Join(dir, "router-config.schema.json"), string(published))
	policy := filepath.Join(dir, "policy.json")
	mustWriteFile(t, policy, `{"$schema": "https://json-schema.org/draft/2020-12/schema",
  "allOf": [{"$ref": "router-config.schema.json"}],
  "properties": {"upstreams": {"additionalProperties": {"required": ["api_key_env"]}}}}`)
	out, _, err := runCmd(t, "config", "check", "--schema", policy, exampleFile)
	if err == nil || err.Error() != exampleFile+": 2 problems, 0 refused rules" {
		t.Fatalf("the example against the policy: %v\n%s", err, out)
	}
	var want []string
	for _, name := range []string{"openai-main", "local-mini"} {
		line, col := firstKeyUnder(t, exampleFile, "  "+name+":")
		want = append(want, fmt.Sprintf("%s:%d:%d: upstreams.%s: missing required key api_key_env", exampleFile, line, col, name))
	}
	if got := strings.Split(strings.TrimSpace(out), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	if _, _, err := runCmd(t, "config", "check", "--schema", filepath.Join(dir, "none.json"), exampleFile); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("a missing schema: %v", err)
	}
}

// firstKeyUnder is the line and column of the first key of the mapping
// under the line that is exactly key (its value's position in YAML).
func firstKeyUnder(t *testing.T, file, key string) (int, int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if l == key && i+1 < len(lines) {
			next := lines[i+1]
			return i + 2, len(next) - len(strings.TrimLeft(next, " ")) + 1
		}
	}
	t.Fatalf("%s has no line %q", file, key)
	return 0, 0
}

func mustWriteFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
