package routerconfig

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
)

// redacted is what a Secret prints as, wherever it is printed.
const redacted = "[redacted]"

// Secret is a credential read from the environment or a key file when
// the configuration loads. It never prints: String, GoString, Format's verbs through
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

// The settings a credential is given by: the name of an environment
// variable holding it, or the path of a key file; one of the two, never
// both.
const (
	keyAPIKeyEnv   = "api_key_env"   //vocab:not-spec Router config key
	keyAPIKeyFile  = "api_key_file"  //vocab:not-spec Router config key
	keyAPIKeysEnv  = "api_keys_env"  //vocab:not-spec Router config key
	keyAPIKeysFile = "api_keys_file" //vocab:not-spec Router config key
)

// maxKeyFileBytes bounds a key file: keys are short, so a larger file is
// not a key file, and reading it stays bounded.
const maxKeyFileBytes = 64 << 10

// apiKey reads a deployment's or an LLM upstream's key, when given: from
// the environment variable api_key_env names, or from the key file
// api_key_file names, which must hold exactly one key.
func (l *loader) apiKey(s section) (env, file string, key Secret) {
	if bothForms(s, keyAPIKeyEnv, keyAPIKeyFile) {
		return "", "", Secret{}
	}
	if _, has := s.value(keyAPIKeyFile); !has {
		env, key = l.apiKeyEnv(s, keyAPIKeyEnv)
		return env, "", key
	}
	file, keys := l.keyFile(s, keyAPIKeyFile)
	if len(keys) > 1 {
		s.fail(keyAPIKeyFile, "the key file %s holds %d keys; one key is sent upstream, so the file holds one", file, len(keys))
		return "", file, Secret{}
	}
	if len(keys) == 1 {
		key = keys[0]
	}
	return "", file, key
}

// apiKeys reads a listener's keys, when given: from the environment
// variable api_keys_env names (comma-separated), or from the key file
// api_keys_file names (one per line).
func (l *loader) apiKeys(s section) (env, file string, keys []Secret) {
	if bothForms(s, keyAPIKeysEnv, keyAPIKeysFile) {
		return "", "", nil
	}
	if _, has := s.value(keyAPIKeysFile); has {
		file, keys = l.keyFile(s, keyAPIKeysFile)
		return "", file, keys
	}
	env, keys = l.apiKeysEnv(s, keyAPIKeysEnv)
	return env, "", keys
}

// bothForms reports, as a problem, a credential given both by an
// environment variable (envKey) and by a key file (fileKey).
func bothForms(s section, envKey, fileKey string) bool {
	_, hasEnv := s.value(envKey)
	_, hasFile := s.value(fileKey)
	if hasEnv && hasFile {
		s.fail(fileKey, "%s gives the key(s) too; give them by %s or by %s, not both", envKey, envKey, fileKey)
	}
	return hasEnv && hasFile
}

// keyFile reads key, a key file's path, relative to the configuration
// file's directory unless absolute, and returns the path read and its
// keys. A file that cannot be read, that is not a regular file, or that
// holds no key or a line that is not one is a problem naming the file
// (and the line), never a key; a file any user may read or write is a
// warning.
func (l *loader) keyFile(s section, key string) (string, []Secret) {
	name, ok := s.str(key)
	if !ok {
		return "", nil
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(l.file), path)
	}
	keys, mode, err := readKeyFile(path)
	if err != nil {
		s.fail(key, "the key file %s %v", path, err)
		return path, nil
	}
	if runtime.GOOS != "windows" && mode.Perm()&0o007 != 0 {
		s.warn(key, "the key file %s is open to every user (mode %04o); make it readable by the Router's user or group only (chmod o-rwx)", path, mode.Perm())
	}
	return path, keys
}

// readKeyFile reads the keys of the file at path: one per line, spaces
// around it ignored, as are blank lines and lines starting with '#'. The
// error completes "the key file PATH ...".
func readKeyFile(path string) ([]Secret, fs.FileMode, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, errors.New("cannot be read: " + pathErrorCause(err))
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, errors.New("cannot be read: " + pathErrorCause(err))
	}
	if !info.Mode().IsRegular() {
		return nil, 0, errors.New("is not a regular file")
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFileBytes+1))
	switch {
	case err != nil:
		return nil, 0, errors.New("cannot be read: " + pathErrorCause(err))
	case len(data) > maxKeyFileBytes:
		return nil, 0, fmt.Errorf("is larger than %d KiB; a key file holds keys only", maxKeyFileBytes>>10)
	}
	var keys []Secret
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !printableKey(line) {
			return nil, 0, fmt.Errorf("has a line that is not a key (line %d): a key is printable ASCII without spaces, one per line", i+1)
		}
		keys = append(keys, Secret{value: line})
	}
	if len(keys) == 0 {
		return nil, 0, errors.New("holds no key (one key per line; blank lines and lines starting with # are ignored)")
	}
	return keys, info.Mode(), nil
}

// printableKey reports whether k can be a bearer key as it is: printable
// ASCII, no spaces, so it goes into an Authorization header unchanged.
func printableKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] <= ' ' || k[i] > '~' {
			return false
		}
	}
	return true
}

// pathErrorCause is err without the path an *fs.PathError repeats (the
// problem names the file already).
func pathErrorCause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
