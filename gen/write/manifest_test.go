package write

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vllm-sr/systemone/gen/emit"
)

func site(paths ...string) []emit.File {
	var out []emit.File
	for _, p := range paths {
		out = append(out, emit.File{Path: p, Data: []byte("page " + p + "\n")})
	}
	return out
}

// TestApplyManifestRemovesOnlyWhatItWrote: a second run removes the files
// the first wrote and it does not, replaces a changed one, and leaves
// every file it never listed, even one beside its own.
func TestApplyManifestRemovesOnlyWhatItWrote(t *testing.T) {
	disk := MemFS{
		"docusaurus.config.js": []byte("module.exports = {}\n"),
		"reference/notes.md":   []byte("# mine\n"),
		"index.md":             []byte("# an old hand-written page\n"),
	}
	changes, err := ApplyManifest(disk, site("index.md", "guide.md", "reference/a.md", "reference/b.md"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"missing guide.md", "missing reference/a.md", "missing reference/b.md", "stale index.md"},
		slices.Sorted(slices.Values(changeLines(changes)))); diff != "" {
		t.Errorf("first run (-want +got):\n%s", diff)
	}
	if want := manifestHeader + "guide.md\nindex.md\nreference/a.md\nreference/b.md\n"; string(disk[ManifestName]) != want {
		t.Errorf("manifest = %q, want %q", disk[ManifestName], want)
	}

	next := site("index.md", "reference/a.md", "reference/c.md")
	next[1].Data = []byte("page a, changed\n")
	changes, err = ApplyManifest(disk, next)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"extra guide.md", "extra reference/b.md", "missing reference/c.md", "stale reference/a.md"},
		slices.Sorted(slices.Values(changeLines(changes)))); diff != "" {
		t.Errorf("second run (-want +got):\n%s", diff)
	}
	want := MemFS{
		"docusaurus.config.js": []byte("module.exports = {}\n"),
		"reference/notes.md":   []byte("# mine\n"),
		"index.md":             []byte("page index.md\n"),
		"reference/a.md":       []byte("page a, changed\n"),
		"reference/c.md":       []byte("page reference/c.md\n"),
		ManifestName:           []byte(manifestHeader + "index.md\nreference/a.md\nreference/c.md\n"),
	}
	if diff := cmp.Diff(want, disk); diff != "" {
		t.Errorf("disk after the second run (-want +got):\n%s", diff)
	}

	changes, err = ApplyManifest(disk, next)
	if err != nil || len(changes) != 0 {
		t.Errorf("a third run with the same files: %v, %v; want no change", changeLines(changes), err)
	}
}

// TestApplyManifestListedFileGone: a listed file someone removed by hand
// is no error and no change.
func TestApplyManifestListedFileGone(t *testing.T) {
	disk := MemFS{}
	if _, err := ApplyManifest(disk, site("a.md", "b.md")); err != nil {
		t.Fatal(err)
	}
	delete(disk, "b.md")
	changes, err := ApplyManifest(disk, site("a.md"))
	if err != nil || len(changes) != 0 {
		t.Errorf("changes %v, %v; want none", changeLines(changes), err)
	}
}

// TestApplyManifestRefusesABadManifest: a manifest line that could name a
// file outside the directory stops the run before anything is touched.
func TestApplyManifestRefusesABadManifest(t *testing.T) {
	for _, line := range []string{"../outside.md", "/etc/passwd", "a/../../b", "./a.md", "a//b.md", ".."} {
		disk := MemFS{
			ManifestName: []byte(manifestHeader + "a.md\n" + line + "\n"),
			"a.md":       []byte("old\n"),
		}
		_, err := ApplyManifest(disk, site("b.md"))
		if err == nil || !strings.Contains(err.Error(), ManifestName+":4:") {
			t.Errorf("manifest line %q: %v; want an error naming line 4", line, err)
		}
		if len(disk) != 2 || string(disk["a.md"]) != "old\n" {
			t.Errorf("manifest line %q: the disk changed: %v", line, disk)
		}
	}
	if _, err := ApplyManifest(MemFS{}, site(ManifestName)); err == nil {
		t.Error("a produced file named like the manifest passed")
	}
}
