package write

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/gen/emit"
)

// ManifestName is the file in which ApplyManifest lists the files it
// wrote, relative to the root of its FS.
const ManifestName = ".srgen-manifest"

const manifestHeader = "# Written by srgen: the files it wrote here, which its next run removes\n" +
	"# when it does not write them again. srgen removes no file this list does not name.\n"

// ApplyManifest makes a directory that srgen shares with other files (the
// doc site's, which also holds what Docusaurus and its user put there)
// hold the produced files: it writes the missing and stale ones, removes
// the files its previous run listed in ManifestName and this run did not
// produce, and then lists the produced files there. A file the manifest
// does not list is never removed; one of the same path as a produced file
// is replaced. A manifest line that is not a clean relative path is an
// error and nothing is touched, since removing it could reach outside.
func ApplyManifest(disk FS, files []emit.File) ([]Change, error) {
	listed, err := readManifest(disk)
	if err != nil {
		return nil, err
	}
	own := Ownership{Files: map[string]bool{}}
	names := make([]string, 0, len(files))
	for _, name := range listed {
		own.Files[name] = true
	}
	for _, f := range files {
		if f.Path == ManifestName {
			return nil, fmt.Errorf("produced path %s is the manifest's", f.Path)
		}
		own.Files[f.Path] = true
		names = append(names, f.Path)
	}
	// The manifest is written last: a run that fails part-way still lists
	// every file it may have left behind.
	changes, err := Apply(disk, own, files)
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	manifest := []byte(manifestHeader + strings.Join(names, "\n") + "\n")
	if have, err := disk.ReadFile(ManifestName); err != nil || !bytes.Equal(have, manifest) {
		if err := disk.WriteFile(ManifestName, manifest); err != nil {
			return nil, fmt.Errorf("write %s: %w", ManifestName, err)
		}
	}
	return changes, nil
}

// readManifest returns the paths the manifest lists; none when there is
// no manifest (a directory srgen has not written into yet).
func readManifest(disk FS) ([]string, error) {
	data, err := disk.ReadFile(ManifestName)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", ManifestName, err)
	}
	var names []string
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case path.IsAbs(line) || path.Clean(line) != line || line == ".." || strings.HasPrefix(line, "../") || line == ManifestName:
			return nil, fmt.Errorf("%s:%d: %q is not a clean relative path of a file srgen wrote; "+
				"remove the manifest to start again (srgen then removes nothing)", ManifestName, i+1, line)
		default:
			names = append(names, line)
		}
	}
	return names, nil
}
