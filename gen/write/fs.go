package write

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// FS is the disk seam: slash-separated paths relative to the repository
// root. OSFS is the real disk; MemFS serves tests.
type FS interface {
	// ReadFile returns the file's bytes, or an error wrapping fs.ErrNotExist.
	ReadFile(name string) ([]byte, error)
	// WriteFile creates or replaces the file, creating parent directories.
	WriteFile(name string, data []byte) error
	// Remove deletes the file.
	Remove(name string) error
	// Files lists every regular file under dir, sorted; none when dir is
	// absent.
	Files(dir string) ([]string, error)
}

// OSFS is FS on the real disk under Root.
type OSFS struct {
	Root string
}

func (o OSFS) abs(name string) string { return filepath.Join(o.Root, filepath.FromSlash(name)) }

// ReadFile implements FS.
func (o OSFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(o.abs(name)) }

// WriteFile implements FS. Generated files are plain data: mode 0644.
func (o OSFS) WriteFile(name string, data []byte) error {
	p := o.abs(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// Remove implements FS.
func (o OSFS) Remove(name string) error { return os.Remove(o.abs(name)) }

// Files implements FS.
func (o OSFS) Files(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(o.abs(dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(o.Root, p)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	sort.Strings(out)
	return out, err
}

// MemFS is an in-memory FS for tests: path to bytes.
type MemFS map[string][]byte

// ReadFile implements FS.
func (m MemFS) ReadFile(name string) ([]byte, error) {
	data, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return append([]byte(nil), data...), nil
}

// WriteFile implements FS.
func (m MemFS) WriteFile(name string, data []byte) error {
	m[name] = append([]byte(nil), data...)
	return nil
}

// Remove implements FS.
func (m MemFS) Remove(name string) error {
	if _, ok := m[name]; !ok {
		return &fs.PathError{Op: "remove", Path: name, Err: fs.ErrNotExist}
	}
	delete(m, name)
	return nil
}

// Files implements FS.
func (m MemFS) Files(dir string) ([]string, error) {
	prefix := path.Clean(dir) + "/"
	var out []string
	for name := range m {
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out, nil
}
