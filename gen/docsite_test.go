package gen

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vllm-sr/systemone/gen/docsite"
	"github.com/vllm-sr/systemone/gen/emit"
)

// The doc site `srgen docs --out DIR` writes, and the guides it is made
// of. The commands of the guides that run vllm-sr, vllm-srun and srgen are
// checked against their command trees by the docs tests in cmd/*.

// siteTree builds the site in memory.
func siteTree(t *testing.T) fstest.MapFS {
	t.Helper()
	m, err := Build(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	files, err := SiteFiles(m, repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	tree := fstest.MapFS{}
	for _, f := range files {
		if _, dup := tree[f.Path]; dup {
			t.Errorf("the site writes %s twice", f.Path)
		}
		tree[f.Path] = &fstest.MapFile{Data: f.Data}
	}
	return tree
}

// TestEveryGuideIsOnTheSite: the Markdown files under docs/ (but the
// generated reference/ and the site project) and the sidebar's guide
// sections name the same files, each once.
func TestEveryGuideIsOnTheSite(t *testing.T) {
	docs := filepath.Join(repoRoot, "docs")
	var disk, listed []string
	err := filepath.WalkDir(docs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(docs, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && (rel == docsite.ReferenceDir || rel == docsite.SiteDir):
			return filepath.SkipDir
		case !d.IsDir() && path.Ext(rel) == ".md":
			disk = append(disk, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range docsite.GuideSections {
		listed = append(listed, s.Guides...)
	}
	slices.Sort(disk)
	slices.Sort(listed)
	if !slices.Equal(disk, listed) {
		t.Errorf("docs/ holds the guides %q; docsite.GuideSections list %q", disk, listed)
	}
	if !slices.Contains(listed, "design/architecture.md") {
		t.Error("docs/design/architecture.md is not on the site")
	}
}

// TestDocSite: every page has front matter whose id is its file name, a
// generated page keeps its header right after the front matter, the
// sidebar lists every page exactly once and nothing else, and every
// relative link of every page resolves on the site, anchors included.
func TestDocSite(t *testing.T) {
	tree := siteTree(t)
	var pages []string
	for name, f := range tree {
		if path.Ext(name) != ".md" {
			continue
		}
		pages = append(pages, strings.TrimSuffix(name, ".md"))
		fm, body, ok, err := docsite.ParseFrontMatter(f.Data)
		switch {
		case err != nil || !ok:
			t.Errorf("%s: no valid front matter (%v)", name, err)
		case fm.ID != path.Base(strings.TrimSuffix(name, ".md")):
			t.Errorf("%s: front matter id %q, want its file name", name, fm.ID)
		case strings.HasPrefix(name, docsite.ReferenceDir+"/") && !bytes.HasPrefix(body, []byte("\n"+emit.MarkdownHeader+"\n")):
			t.Errorf("%s: the generated-file header does not follow the front matter", name)
		}
		for _, err := range docsite.CheckLinks(tree, name) {
			t.Error(err)
		}
	}
	listed, labels, err := docsite.ReadSidebar(tree[docsite.SidebarFile].Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) == 0 || listed[0] != strings.TrimSuffix(docsite.LandingPage, ".md") {
		t.Errorf("the sidebar starts with %q; want the landing page", listed[:min(1, len(listed))])
	}
	slices.Sort(pages)
	slices.Sort(listed)
	if !slices.Equal(pages, listed) {
		t.Errorf("the site's pages are %q; the sidebar lists %q", pages, listed)
	}
	if want := len(docsite.GuideSections) + 1; len(labels) != want || labels[len(labels)-1] != docsite.ReferenceLabel {
		t.Errorf("sidebar categories %q; want the %d guide sections, then %s", labels, want-1, docsite.ReferenceLabel)
	}
}

// TestSiteReferenceIsWhatGenerateWrites: the site's reference/ holds every
// file `srgen generate` writes into docs/reference, the same bytes but for
// the front matter, and the frozen 4.0 OpenAPI document as it is.
func TestSiteReferenceIsWhatGenerateWrites(t *testing.T) {
	tree := siteTree(t)
	m, err := Build(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	o := emit.DefaultOptions()
	files, err := emit.All(m, emit.Emitters(o))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range files {
		rel, ok := strings.CutPrefix(f.Path, o.DocsDir+"/")
		if !ok {
			continue
		}
		seen++
		site, ok := tree[path.Join(docsite.ReferenceDir, rel)]
		if !ok {
			t.Errorf("%s is not on the site", f.Path)
			continue
		}
		_, body, hasFM, _ := docsite.ParseFrontMatter(site.Data)
		if hasFM {
			body = bytes.TrimPrefix(body, []byte("\n"))
		}
		if !bytes.Equal(body, f.Data) {
			t.Errorf("reference/%s differs from %s beyond its front matter", rel, f.Path)
		}
	}
	if seen < 5 {
		t.Errorf("generate writes %d files under %s; want the four pages and the OpenAPI document", seen, o.DocsDir)
	}
	frozen, err := os.ReadFile(filepath.Join(repoRoot, "specs", "systemone", "vllm-sr-4.0.openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if got := tree["reference/vllm-sr-4.0.openapi.yaml"]; got == nil || !bytes.Equal(got.Data, frozen) {
		t.Error("the site's reference/vllm-sr-4.0.openapi.yaml is not the frozen specification")
	}
}

// TestRepositoryLinks: every relative link of README.md and the Markdown
// under docs/ resolves in the repository, and every reference page a
// guide links to is one `srgen docs` writes.
func TestRepositoryLinks(t *testing.T) {
	repo := os.DirFS(repoRoot)
	files, err := docsite.GuideFiles(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(repoRoot, "docs", "*", "*.md"))
	for _, f := range more {
		rel, _ := filepath.Rel(repoRoot, f)
		files = append(files, filepath.ToSlash(rel))
	}
	for _, f := range files {
		for _, err := range docsite.CheckLinks(repo, f) {
			t.Error(err)
		}
	}
	tree := siteTree(t)
	for _, s := range docsite.GuideSections {
		for _, g := range s.Guides {
			data, _ := os.ReadFile(filepath.Join(repoRoot, "docs", g))
			for _, l := range docsite.Scan(data).Links {
				file, _, external, err := docsite.LinkTarget(g, l.Target)
				if err == nil && !external && strings.HasPrefix(file, docsite.ReferenceDir+"/") && tree[file] == nil {
					t.Errorf("docs/%s:%d: links %s, which srgen docs does not write", g, l.Line, file)
				}
			}
		}
	}
}

// TestGuideMakeAndGoRunCommands: every make command of the guides names
// targets the Makefile defines, every "go run ./cmd/NAME" a command of
// this repository, and every block the checks read could be read.
func TestGuideMakeAndGoRunCommands(t *testing.T) {
	makefile, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	targets := docsite.MakeTargets(makefile)
	cmds, errs := docsite.GuideCommands(repoRoot)
	for _, err := range errs {
		t.Error(err)
	}
	makes := 0
	for _, c := range cmds {
		prog, args, goRun := docsite.Program(c.Args)
		switch {
		case prog == "make":
			makes++
			if err := docsite.CheckMake(targets, args); err != nil {
				t.Errorf("%s: %v", c, err)
			}
		case goRun && !slices.Contains(docsite.RepoCommands, prog):
			t.Errorf("%s: cmd/%s is not a command of this repository (%q)", c, prog, docsite.RepoCommands)
		}
	}
	if makes == 0 {
		t.Error("no guide runs make; the guides lost make test and make run")
	}
	for _, bad := range []string{"make tset", "make test rnu", "make check-generatd"} {
		_, args, _ := docsite.Program(strings.Fields(bad))
		if docsite.CheckMake(targets, args) == nil {
			t.Errorf("%q passed the make check; want it refused", bad)
		}
	}
}

// TestEveryCommandHasADocsTest: each command under cmd/ is one the guides
// may run by name, and has a test that checks the guides' commands
// against its command tree (docsite.CheckCommands).
func TestEveryCommandHasADocsTest(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join(repoRoot, "cmd", "*"))
	var names []string
	for _, d := range dirs {
		name := filepath.Base(d)
		names = append(names, name)
		tests, _ := filepath.Glob(filepath.Join(d, "*_test.go"))
		found := false
		for _, f := range tests {
			data, err := os.ReadFile(f)
			found = found || err == nil && bytes.Contains(data, []byte("docsite.CheckCommands("))
		}
		if !found {
			t.Errorf("cmd/%s has no test calling docsite.CheckCommands", name)
		}
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(docsite.RepoCommands))
	if !slices.Equal(names, want) {
		t.Error(errors.New("cmd/ holds " + strings.Join(names, ", ") + "; docsite.RepoCommands names " + strings.Join(want, ", ")))
	}
}
