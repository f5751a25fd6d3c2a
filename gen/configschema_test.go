package gen

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/configschema"
)

// TestConfigSchemaFollowsFileGo: router.yaml's schema and reference page
// are srgen's output from runtime/routerconfig/file.go, so a key added
// there makes `srgen check` (make check-generated) report both stale
// until `srgen generate` rewrites them with the key.
func TestConfigSchemaFollowsFileGo(t *testing.T) {
	ctx := context.Background()
	root := scratchRepo(t)
	if _, err := Run(ctx, Config{Root: root}); err != nil {
		t.Fatal(err)
	}
	form := filepath.Join(root, filepath.FromSlash(configschema.Source))
	src, err := os.ReadFile(form)
	if err != nil {
		t.Fatal(err)
	}
	const anchor = "type tracingForm struct {\n"
	if !strings.Contains(string(src), anchor) {
		t.Fatalf("%s has no %q", configschema.Source, anchor)
	}
	added := strings.Replace(string(src), anchor, anchor+"\t// ServiceName names the Router in its spans.\n\tServiceName string `yaml:\"service_name\"`\n", 1)
	mustWrite(t, form, added)
	res, err := Run(ctx, Config{Root: root, Check: true})
	if err != nil {
		t.Fatal(err)
	}
	var stale []string
	for _, c := range res.Changes {
		stale = append(stale, c.Path)
	}
	for _, f := range []string{"docs/reference/router-config.schema.json", "docs/reference/router-config.md"} {
		if !slices.Contains(stale, f) {
			t.Errorf("after a key is added to file.go, check reports %v stale; want %s among them", stale, f)
		}
	}
	if _, err := Run(ctx, Config{Root: root}); err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile(filepath.Join(root, "docs/reference/router-config.schema.json"))
	if err != nil || !strings.Contains(string(schema), `"service_name"`) {
		t.Errorf("the regenerated schema has no service_name: %v", err)
	}
}
