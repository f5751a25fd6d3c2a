package routerconfig

import (
	"log/slog"
	"os"
	"regexp"
	"strings"
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

// envNamePattern is an environment variable's name: the POSIX portable
// names, letters, digits and '_', not starting with a digit.
var envNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// apiKeyEnv reads key, an api_key_env, when present: the name of the
// environment variable whose value is the key, read now. An unset or
// empty variable is a problem naming the variable, never a value.
func (l *loader) apiKeyEnv(s section, key string) (string, Secret) {
	name, value, ok := l.env(s, key)
	if ok && strings.TrimSpace(value) == "" {
		s.fail(key, "the environment variable %s is empty", name)
	}
	return name, Secret{value: strings.TrimSpace(value)}
}

// apiKeysEnv reads key, a listener's api_keys_env, when present: the
// environment variable holding the keys a client may present,
// comma-separated (spaces around a key are ignored). Unset, or holding no
// key, is a problem.
func (l *loader) apiKeysEnv(s section, key string) (string, []Secret) {
	name, value, ok := l.env(s, key)
	if !ok {
		return name, nil
	}
	var keys []Secret
	for _, k := range strings.Split(value, ",") {
		if k = strings.TrimSpace(k); k != "" {
			keys = append(keys, Secret{value: k})
		}
	}
	if len(keys) == 0 {
		s.fail(key, "the environment variable %s holds no key (keys are comma-separated)", name)
	}
	return name, keys
}

// env reads key as an environment variable's name and looks it up; ok is
// false when key is absent, or after reporting a bad name or an unset
// variable.
func (l *loader) env(s section, key string) (name, value string, ok bool) {
	name, ok = s.str(key)
	switch {
	case !ok:
		return "", "", false
	case !envNamePattern.MatchString(name):
		s.fail(key, "must be an environment variable's name: letters, digits and '_', not starting with a digit")
		return "", "", false
	}
	if value, ok = os.LookupEnv(name); !ok {
		s.fail(key, "the environment variable %s is not set", name)
	}
	return name, value, ok
}
