package write

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/vllm-sr/systemone/gen/emit"
)

// GeneratedPrefix starts the base name of every generated Go file.
const GeneratedPrefix = "zz_generated."

// Ownership says which files on disk srgen owns, and so may overwrite or
// remove. Directories are slash-separated and relative to the root.
type Ownership struct {
	// GeneratedRoots are trees in which every zz_generated.* file is srgen's.
	GeneratedRoots []string
	// OwnedDirs are trees in which every file is srgen's.
	OwnedDirs []string
	// Files are single files that are srgen's wherever they are: the ones
	// a manifest lists (ApplyManifest).
	Files map[string]bool
}

// Owns reports whether srgen owns the file at name.
func (o Ownership) Owns(name string) bool {
	if strings.Contains("/"+name, "/__pycache__/") {
		return false // Python's byte-code cache, written when a test imports a table
	}
	if o.Files[name] {
		return true
	}
	for _, dir := range o.OwnedDirs {
		if under(name, dir) {
			return true
		}
	}
	if !strings.HasPrefix(path.Base(name), GeneratedPrefix) {
		return false
	}
	for _, dir := range o.GeneratedRoots {
		if under(name, dir) {
			return true
		}
	}
	return false
}

func under(name, dir string) bool {
	return strings.HasPrefix(name, path.Clean(dir)+"/")
}

// ChangeKind is how a file on disk differs from what this run produced.
type ChangeKind string

const (
	// ChangeMissing: produced, but absent on disk.
	ChangeMissing ChangeKind = "missing"
	// ChangeStale: on disk with other bytes than produced.
	ChangeStale ChangeKind = "stale"
	// ChangeExtra: an owned file on disk that this run did not produce.
	ChangeExtra ChangeKind = "extra"
)

// Change is one file that differs.
type Change struct {
	Path string
	Kind ChangeKind
	data []byte // what the file should hold; nil for ChangeExtra
}

// String is the line `srgen check` prints: "stale docs/reference/x.md".
func (c Change) String() string { return string(c.Kind) + " " + c.Path }

// Diff compares the produced files with the disk and returns every
// difference, sorted by path. It writes nothing. It fails when a produced
// path is malformed, repeated, or outside the owned area, since writing
// such a file could overwrite a hand-written one.
func Diff(disk FS, own Ownership, files []emit.File) ([]Change, error) {
	produced, err := index(own, files)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, f := range files {
		have, err := disk.ReadFile(f.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			changes = append(changes, Change{Path: f.Path, Kind: ChangeMissing, data: f.Data})
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", f.Path, err)
		case !bytes.Equal(have, f.Data):
			changes = append(changes, Change{Path: f.Path, Kind: ChangeStale, data: f.Data})
		}
	}
	extra, err := extraFiles(disk, own, produced)
	if err != nil {
		return nil, err
	}
	changes = append(changes, extra...)
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	return changes, nil
}

// Apply makes the disk match the produced files: it writes missing and
// stale files and removes extra ones, touching nothing else. It returns the
// changes it made, so a second run with the same files returns none.
func Apply(disk FS, own Ownership, files []emit.File) ([]Change, error) {
	changes, err := Diff(disk, own, files)
	if err != nil {
		return nil, err
	}
	for _, c := range changes {
		if c.Kind == ChangeExtra {
			err = disk.Remove(c.Path)
		} else {
			err = disk.WriteFile(c.Path, c.data)
		}
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", c.Kind, c.Path, err)
		}
	}
	return changes, nil
}

// index checks every produced path and returns the set of them.
func index(own Ownership, files []emit.File) (map[string]bool, error) {
	produced := make(map[string]bool, len(files))
	var errs []error
	for _, f := range files {
		switch {
		case f.Path == "" || path.IsAbs(f.Path) || path.Clean(f.Path) != f.Path || strings.HasPrefix(f.Path, "../"):
			errs = append(errs, fmt.Errorf("produced path %q is not a clean relative path", f.Path))
		case produced[f.Path]:
			errs = append(errs, fmt.Errorf("produced path %s twice", f.Path))
		case !own.Owns(f.Path):
			errs = append(errs, fmt.Errorf("produced path %s is outside the directories srgen owns", f.Path))
		}
		produced[f.Path] = true
	}
	return produced, errors.Join(errs...)
}

// extraFiles lists owned files on disk that were not produced.
func extraFiles(disk FS, own Ownership, produced map[string]bool) ([]Change, error) {
	seen := map[string]bool{}
	var out []Change
	for _, dir := range append(append([]string(nil), own.OwnedDirs...), own.GeneratedRoots...) {
		names, err := disk.Files(dir)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", dir, err)
		}
		for _, name := range names {
			if seen[name] || produced[name] || !own.Owns(name) {
				continue
			}
			seen[name] = true
			out = append(out, Change{Path: name, Kind: ChangeExtra})
		}
	}
	for name := range own.Files {
		if seen[name] || produced[name] {
			continue
		}
		switch _, err := disk.ReadFile(name); {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", name, err)
		default:
			out = append(out, Change{Path: name, Kind: ChangeExtra})
		}
	}
	return out, nil
}
