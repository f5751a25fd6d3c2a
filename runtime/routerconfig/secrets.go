package routerconfig

import (
	"log/slog"
	"os"
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// redacted is what a Secret prints as, wherever it is printed.
const redacted = "[redacted]"

// Secret is a credential read from the environment when the configuration
// loads. It never prints: String, GoString, Format's verbs through
// String, LogValue, MarshalText and MarshalJSON all write "[redacted]", so
// a Secret reaching a log line, an error or `config check` output shows
// no key. Reveal is the one way to its value, for the Authorization
// header.
type Secret struct{ value string }

// NewSecret wraps a key (tests, and keys read by hand).
func NewSecret(value string) Secret { return Secret{value: value} }

// Reveal returns the key, for the one header that carries it.
func (s Secret) Reveal() string { return s.value }

// IsZero reports whether no key is set.
func (s Secret) IsZero() bool { return s.value == "" }

func (s Secret) String() string               { return redacted }
func (s Secret) GoString() string             { return redacted }
func (s Secret) LogValue() slog.Value         { return slog.StringValue(redacted) }
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// envVarProblem is why an environment variable's name is not one: the
// POSIX portable names, letters, digits and '_', not starting with a
// digit.
func envVarProblem(name string) string {
	for i, c := range name {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return "must be an environment variable's name: letters, digits and '_', not starting with a digit"
		}
	}
	return ""
}

// apiKeyEnv reads an api_key_env: the name of the environment variable
// whose value is the key, read now. An unset or empty variable is a
// problem naming the variable, never a value.
func (l *loader) apiKeyEnv(n *yaml.Node, path string) (string, Secret) {
	name, ok := l.envName(n, path)
	if !ok {
		return "", Secret{}
	}
	value, set := os.LookupEnv(name)
	switch {
	case !set:
		l.fail(n, path, "the environment variable %s is not set", name)
	case strings.TrimSpace(value) == "":
		l.fail(n, path, "the environment variable %s is empty", name)
	}
	return name, Secret{value: strings.TrimSpace(value)}
}

// apiKeysEnv reads a listener's api_keys_env: the environment variable
// holding the keys a client may present, comma-separated (spaces around
// a key are ignored). Unset, or holding no key, is a problem.
func (l *loader) apiKeysEnv(n *yaml.Node, path string) (string, []Secret) {
	name, ok := l.envName(n, path)
	if !ok {
		return "", nil
	}
	value, set := os.LookupEnv(name)
	if !set {
		l.fail(n, path, "the environment variable %s is not set", name)
		return name, nil
	}
	var keys []Secret
	for _, k := range strings.Split(value, ",") {
		if k = strings.TrimSpace(k); k != "" {
			keys = append(keys, Secret{value: k})
		}
	}
	if len(keys) == 0 {
		l.fail(n, path, "the environment variable %s holds no key (keys are comma-separated)", name)
	}
	return name, keys
}

func (l *loader) envName(n *yaml.Node, path string) (string, bool) {
	name, ok := l.str(n, path)
	if !ok {
		return "", false
	}
	if why := envVarProblem(name); why != "" {
		l.fail(n, path, "%s", why)
		return "", false
	}
	return name, true
}
