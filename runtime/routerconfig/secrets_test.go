package routerconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// keyFileConfig has a listener, an LLM upstream and a deployment, each
// given its key(s) by a key file under the configuration's directory;
// {{LISTENER}}, {{UPSTREAM}} and {{DEPLOYMENT}} are their key settings.
const keyFileConfig = `listeners:
  - name: edge
    address: 127.0.0.1:8080
{{LISTENER}}
upstreams:
  llm:
    api_format: openai
    endpoint: http://127.0.0.1:9/v1
    models: [gpt-4o]
{{UPSTREAM}}
deployments:
  vela:
    provider: systemone
    endpoint: http://127.0.0.1:9/v1/systemone
    model: vllm-sr/vela3-fast
{{DEPLOYMENT}}
`

// keyFileSettings are the settings of keyFileConfig that read the files
// writeKeyFiles writes: relative paths, and one absolute.
func keyFileSettings(dir string) map[string]string {
	return map[string]string{
		"{{LISTENER}}":   "    api_keys_file: keys/clients.keys",
		"{{UPSTREAM}}":   "    api_key_file: " + filepath.Join(dir, "keys", "llm.key"),
		"{{DEPLOYMENT}}": "    api_key_file: keys/vela.key",
	}
}

// loadKeyConfig writes keyFileConfig with settings into dir and loads it.
func loadKeyConfig(t *testing.T, dir string, settings map[string]string) (*Config, error) {
	t.Helper()
	body := keyFileConfig
	for k, v := range settings {
		body = strings.ReplaceAll(body, k, v)
	}
	path := filepath.Join(dir, "router.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return LoadFile(path, builtin())
}

// writeKey writes a key file under dir/keys with mode perm.
func writeKey(t *testing.T, dir, name, content string, perm os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "keys"), 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "keys", name)
	if err := os.WriteFile(path, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, perm); err != nil { // WriteFile's mode is under the umask
		t.Fatal(err)
	}
	return path
}

// The key files give each credential: a listener's one key per line
// (spaces around a key, CRLF line ends, blank lines and # comments
// ignored), a deployment's and an upstream's one key; the paths are
// relative to the configuration file's directory unless absolute.
// Describe names the files, never a key.
func TestKeyFilesLoad(t *testing.T) {
	dir := t.TempDir()
	writeKey(t, dir, "clients.keys", "# the clients' keys\r\n\r\n  sk-client-one  \r\nsk-client-two\n# sk-commented-out\n", 0o600)
	writeKey(t, dir, "llm.key", "sk-llm-7\n", 0o600)
	writeKey(t, dir, "vela.key", "sk-vela-9", 0o640)
	c, err := loadKeyConfig(t, dir, keyFileSettings(dir))
	if err != nil {
		t.Fatal(err)
	}
	l := c.Listeners[0]
	if len(l.APIKeys) != 2 || l.APIKeys[0].Reveal() != "sk-client-one" || l.APIKeys[1].Reveal() != "sk-client-two" ||
		l.APIKeysFile != filepath.Join(dir, "keys", "clients.keys") || l.APIKeysEnv != "" {
		t.Errorf("listener keys: %d %q %q", len(l.APIKeys), l.APIKeysFile, l.APIKeysEnv)
	}
	if u := c.Upstreams[0]; u.APIKey.Reveal() != "sk-llm-7" || u.APIKeyFile != filepath.Join(dir, "keys", "llm.key") {
		t.Errorf("upstream key from %q", u.APIKeyFile)
	}
	if d, _ := c.Deployment("vela"); d.APIKey.Reveal() != "sk-vela-9" || d.APIKeyFile != filepath.Join(dir, "keys", "vela.key") {
		t.Errorf("deployment key from %q", d.APIKeyFile)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("files only their owner (and group) read are not warned of: %v", c.Warnings)
	}
	described := Describe(c)
	if strings.Contains(described, "sk-") || !strings.Contains(described, "api_keys_file="+l.APIKeysFile) ||
		!strings.Contains(described, "api_key_file="+filepath.Join(dir, "keys", "vela.key")) {
		t.Errorf("Describe:\n%s", described)
	}
}

// Every way a key setting can be wrong is a problem at the setting,
// naming the file (and the line), never a key: a file that is missing,
// unreadable, a directory, too large, holding no key or a line that is
// not one, a deployment's or upstream's file holding two keys, and both
// forms of one credential.
func TestKeyFileProblems(t *testing.T) {
	t.Setenv("VSR_TEST_KEYS", "sk-env-1")
	for _, c := range []struct {
		name, content string
		perm          os.FileMode
		setting, key  string
		want          string
	}{
		{"missing", "", 0, "{{LISTENER}}", "api_keys_file: keys/none.keys", "listeners[0].api_keys_file: the key file {{DIR}}/keys/none.keys cannot be read: no such file or directory"},
		{"unreadable", "sk-secret-1\n", 0o000, "{{LISTENER}}", "api_keys_file: keys/unreadable.keys", "listeners[0].api_keys_file: the key file {{DIR}}/keys/unreadable.keys cannot be read: permission denied"},
		{"directory", "", 0, "{{DEPLOYMENT}}", "api_key_file: keys", "deployments.vela.api_key_file: the key file {{DIR}}/keys is not a regular file"},
		{"no key", "# nothing yet\n\n   \n", 0o600, "{{LISTENER}}", "api_keys_file: keys/no key", "listeners[0].api_keys_file: the key file {{DIR}}/keys/no key holds no key (one key per line; blank lines and lines starting with # are ignored)"},
		{"two on a line", "sk-secret-1\nsk-secret-2 sk-secret-3\n", 0o600, "{{LISTENER}}", "api_keys_file: keys/two on a line", "listeners[0].api_keys_file: the key file {{DIR}}/keys/two on a line has a line that is not a key (line 2): a key is printable ASCII without spaces, one per line"},
		{"control", "sk-secret-\x1b1\n", 0o600, "{{UPSTREAM}}", "api_key_file: keys/control", "upstreams.llm.api_key_file: the key file {{DIR}}/keys/control has a line that is not a key (line 1): a key is printable ASCII without spaces, one per line"},
		{"too large", strings.Repeat("sk-secret-1\n", 6000), 0o600, "{{LISTENER}}", "api_keys_file: keys/too large", "listeners[0].api_keys_file: the key file {{DIR}}/keys/too large is larger than 64 KiB; a key file holds keys only"},
		{"two keys", "sk-secret-1\nsk-secret-2\n", 0o600, "{{DEPLOYMENT}}", "api_key_file: keys/two keys", "deployments.vela.api_key_file: the key file {{DIR}}/keys/two keys holds 2 keys; one key is sent upstream, so the file holds one"},
		{"both", "sk-secret-1\n", 0o600, "{{LISTENER}}", "api_keys_env: VSR_TEST_KEYS\n    api_keys_file: keys/both", "listeners[0].api_keys_file: api_keys_env gives the key(s) too; give them by api_keys_env or by api_keys_file, not both"},
		{"both upstream", "sk-secret-1\n", 0o600, "{{UPSTREAM}}", "api_key_env: VSR_TEST_KEYS\n    api_key_file: keys/both upstream", "upstreams.llm.api_key_file: api_key_env gives the key(s) too; give them by api_key_env or by api_key_file, not both"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.content != "" {
				writeKey(t, dir, c.name, c.content, c.perm)
			} else if c.name == "directory" {
				writeKey(t, dir, "unused", "sk-secret-1", 0o600)
			}
			if c.perm == 0o000 && c.content != "" && os.Geteuid() == 0 {
				t.Skip("root reads a file of mode 0000")
			}
			settings := map[string]string{"{{LISTENER}}": "", "{{UPSTREAM}}": "", "{{DEPLOYMENT}}": ""}
			settings[c.setting] = "    " + c.key
			_, err := loadKeyConfig(t, dir, settings)
			var le *LoadError
			if !errors.As(err, &le) || len(le.Problems) != 1 {
				t.Fatalf("want one problem, got %v", err)
			}
			p := le.Problems[0]
			if want := strings.ReplaceAll(c.want, "{{DIR}}", dir); p.Path+": "+p.Message != want {
				t.Errorf("got  %s: %s\nwant %s", p.Path, p.Message, want)
			}
			if p.File != filepath.Join(dir, "router.yaml") || p.Line == 0 || p.Column == 0 {
				t.Errorf("the problem is not located: %+v", p)
			}
			if strings.Contains(err.Error(), "sk-") {
				t.Errorf("a key is in the problem: %v", err)
			}
		})
	}
}

// A key file every user may read or write loads, with a warning naming
// the file and its mode.
func TestKeyFileOpenToEveryoneWarns(t *testing.T) {
	dir := t.TempDir()
	writeKey(t, dir, "clients.keys", "sk-client-one\n", 0o644)
	writeKey(t, dir, "llm.key", "sk-llm-7\n", 0o600)
	writeKey(t, dir, "vela.key", "sk-vela-9\n", 0o602)
	c, err := loadKeyConfig(t, dir, keyFileSettings(dir))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range c.Warnings {
		got = append(got, w.Path+": "+w.Message)
	}
	want := []string{
		"listeners[0].api_keys_file: the key file " + filepath.Join(dir, "keys", "clients.keys") + " is open to every user (mode 0644); make it readable by the Router's user or group only (chmod o-rwx)",
		"deployments.vela.api_key_file: the key file " + filepath.Join(dir, "keys", "vela.key") + " is open to every user (mode 0602); make it readable by the Router's user or group only (chmod o-rwx)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// The configuration's SHA-256 is its bytes'.
func TestConfigSHA256(t *testing.T) {
	c, err := Load("x.yaml", []byte("listeners: []\n"), builtin())
	if err != nil {
		t.Fatal(err)
	}
	// printf 'listeners: []\n' | sha256sum
	if c.SHA256 != "84ce1e5cb983eb306fef398a735b6fcdf37f4aa09ed7192f117d8b3764c4ba1f" {
		t.Errorf("sha256 %s", c.SHA256)
	}
}
