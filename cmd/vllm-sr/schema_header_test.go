package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// schemaHeader is the first line of every example router.yaml: the
// yaml-language-server modeline naming router.yaml's JSON Schema,
// relative to docs/examples.
const schemaHeader = "# yaml-language-server: $schema=../reference/router-config.schema.json\n"

// TestExamplesNameTheSchemaAndCheck: every example router.yaml starts
// with the modeline, the file it names is the published schema, and
// `vllm-sr config check` accepts the example with it, as it accepts a
// file without it.
func TestExamplesNameTheSchemaAndCheck(t *testing.T) {
	examples, err := filepath.Glob("../../docs/examples/*.yaml")
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, file := range examples {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(data), schemaHeader) {
			t.Errorf("%s does not start with %q", file, schemaHeader)
			continue
		}
		target := strings.TrimSpace(strings.TrimPrefix(schemaHeader, "# yaml-language-server: $schema="))
		schema, err := os.ReadFile(filepath.Join(filepath.Dir(file), target))
		if err != nil || !strings.Contains(string(schema), `"$schema": "https://json-schema.org/draft/2020-12/schema"`) {
			t.Errorf("%s names %s, which is not the JSON Schema: %v", file, target, err)
		}
		if _, stderr, err := runCmd(t, "config", "check", file); err != nil {
			t.Errorf("config check %s with the modeline: %v\n%s", file, err, stderr)
		}
		// The same file without the line checks the same way.
		bare := filepath.Join(t.TempDir(), filepath.Base(file))
		if err := os.WriteFile(bare, []byte(strings.TrimPrefix(string(data), schemaHeader)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, stderr, err := runCmd(t, "config", "check", bare); err != nil {
			t.Errorf("config check %s without the modeline: %v\n%s", file, err, stderr)
		}
	}
}
