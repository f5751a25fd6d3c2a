package routerconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// TestMigrateGolden migrates every configuration under testdata/migrate
// and compares the result, or its problems, with the golden file.
func TestMigrateGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "migrate", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no configurations under testdata/migrate")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			out, changed, err := Migrate(filepath.ToSlash(file), data, registry.BuiltinAPIs())
			var got string
			switch {
			case err != nil:
				var le *LoadError
				if !errors.As(err, &le) {
					t.Fatalf("not a *LoadError: %v", err)
				}
				got = "error:\n" + err.Error() + "\n"
			case !changed:
				if string(out) != string(data) {
					t.Fatal("an unchanged configuration came back different")
				}
				got = "unchanged\n"
			default:
				got = string(out)
			}
			testkit.GoldenCheck(t, strings.TrimSuffix(file, ".yaml")+".golden", []byte(got))
		})
	}
}

// TestMigratedConfigurationLoads: what migrate writes is a configuration
// the loader accepts, serving what the old one served.
func TestMigratedConfigurationLoads(t *testing.T) {
	data, err := os.ReadFile("testdata/migrate/legacy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, changed, err := Migrate("legacy.yaml", data, registry.BuiltinAPIs())
	if err != nil || !changed {
		t.Fatalf("migrate: %v (changed %v)", err, changed)
	}
	if _, err := Load("legacy.yaml", data, builtin()); err == nil || !strings.Contains(err.Error(), "vllm-sr config migrate") {
		t.Fatalf("the legacy configuration must point at migrate, got %v", err)
	}
	c, err := Load("migrated.yaml", out, builtin())
	if err != nil {
		t.Fatalf("the migrated configuration does not load:\n%v\n%s", err, out)
	}
	public := c.Listeners[0]
	sys, ok := public.Serves("systemone", registry.BuiltinAPIs())
	if !ok || sys.Schema != "vllm-sr/4.0" || strings.Join(sys.Models, ",") != "vllm-sr/auto" {
		t.Errorf("public systemone: %+v", sys)
	}
	if v, _ := sys.Setting("max_deadline_ms"); v != 5000 {
		t.Errorf("max_deadline_ms %d", v)
	}
	chat, ok := public.Serves("chat_completions", registry.BuiltinAPIs())
	if !ok || strings.Join(chat.Models, ",") != "gpt-4o" {
		t.Errorf("public chat_completions: %+v", chat)
	}
	internal := c.Listeners[1]
	if len(internal.APIs) != 5 || !internal.Listed {
		t.Errorf("internal serves %d APIs, want the 4 defaults and systemone", len(internal.APIs))
	}
	if _, ok := c.Listeners[2].Serves("systemone", registry.BuiltinAPIs()); ok {
		t.Error("chat-only had systemone off")
	}
	if c.Listeners[3].Listed {
		t.Error("untouched had nothing to migrate")
	}
}

// TestRetiredCapabilitiesPointAtMigrate: the capability words from before
// the feature vocabulary are refused naming the words they stand for and
// migrate, and the migrated configuration declares exactly those words.
func TestRetiredCapabilitiesPointAtMigrate(t *testing.T) {
	data, err := os.ReadFile("testdata/migrate/capabilities.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Load("capabilities.yaml", data, builtin())
	want := []string{
		`deployments.gateway.capabilities[2]: "presets" is no longer a capability word: it stands for preset`,
		`deployments.gateway.capabilities[3]: "extensions" is no longer a capability word: it stands for preset, over, head, decision_adapter, overflow, require_full_input`,
	}
	for _, w := range want {
		if err == nil || !strings.Contains(err.Error(), w) || !strings.Contains(err.Error(), "vllm-sr config migrate") {
			t.Errorf("load: %v\nwant a problem %q", err, w)
		}
	}
	out, changed, err := Migrate("capabilities.yaml", data, registry.BuiltinAPIs())
	if err != nil || !changed {
		t.Fatalf("migrate: %v (changed %v)", err, changed)
	}
	c, err := Load("migrated.yaml", out, builtin())
	if err != nil {
		t.Fatalf("the migrated configuration does not load:\n%v\n%s", err, out)
	}
	d, _ := c.Deployment("gateway")
	got := make([]string, len(d.Declared))
	for i, w := range d.Declared {
		got[i] = string(w)
	}
	if strings.Join(got, ",") != "batch,choice,decision_adapter,head,noul,over,overflow,preset,require_full_input" {
		t.Errorf("declared %v", got)
	}
}
