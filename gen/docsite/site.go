package docsite

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/vllm-sr/systemone/gen/emit"
)

// Section is one sidebar category of guides: paths under docs/, in the
// order the sidebar lists them.
type Section struct {
	Label  string
	Guides []string
}

// GuideSections are the guides, by sidebar category. Every Markdown file
// under docs/ but the generated reference/ and the site project's site/
// is in exactly one (a test checks), so a new guide cannot be left off
// the site.
var GuideSections = []Section{
	{Label: "Start here", Guides: []string{"getting-started.md", "writing-a-client.md", "serving-an-llm.md", "glossary.md"}},
	{Label: "Operate", Guides: []string{"operating-a-listener.md", "configuring-deployments.md", "scaling.md", "deploying.md", "errors.md", "conformance.md"}},
	{Label: "In depth", Guides: []string{"runtime.md", "router.md", "router-config.md", "deviations.md",
		"reference-scorer.md", "performance.md", "releasing.md"}},
	{Label: "Design", Guides: []string{"design/architecture.md"}},
}

const (
	// ReferenceDir is where the reference pages are, on the site as in
	// docs/.
	ReferenceDir = "reference"
	// ReferenceLabel is the sidebar category of the reference pages.
	ReferenceLabel = "Reference"
	// SiteDir is the Docusaurus project under docs/, which is no guide.
	SiteDir = "site"
	// LandingPage is the site's front page, at its root URL.
	LandingPage = "index.md"
	// SidebarFile is the Docusaurus sidebar: point the docs plugin's
	// sidebarPath at it.
	SidebarFile = "sidebars.js"
	// SidebarName is the one sidebar it defines.
	SidebarName = "docs"
)

// Input is what the site is made of.
type Input struct {
	// Docs is the repository's docs/ directory: the guides and the files
	// they link to.
	Docs fs.FS
	// Readme is the repository's README.md, whose title and first
	// paragraph open the landing page.
	Readme []byte
	// Reference are the files `srgen generate` writes under docs/reference,
	// named relative to it, in emitter order.
	Reference []emit.File
	// Frozen are OpenAPI documents written by hand, copied into
	// reference/ as they are.
	Frozen []Frozen
}

// Frozen is a hand-written OpenAPI document: its name on the site and the
// repository path it comes from.
type Frozen struct {
	Name   string
	Source string
	Data   []byte
}

// Assemble returns the site's files, paths relative to its root: the
// landing page, the guides and the non-Markdown files they link to under
// docs/, the reference pages with front matter, the pages of each OpenAPI
// document, and the sidebar, which lists every page once.
func Assemble(in Input) ([]emit.File, error) {
	files, sections, err := guides(in.Docs)
	if err != nil {
		return nil, err
	}
	files = append(files, linkedAssets(in.Docs, files)...)
	ref, refs, err := reference(in)
	if err != nil {
		return nil, err
	}
	landing, err := landingPage(in.Readme, files, sections, ref, refs)
	if err != nil {
		return nil, err
	}
	files = append(append([]emit.File{landing}, files...), ref...)
	sidebar := []item{docItem(landing.Path)}
	for _, c := range sections {
		sidebar = append(sidebar, item{cat: c})
	}
	data, err := sidebarJS(append(sidebar, item{cat: refs}))
	if err != nil {
		return nil, err
	}
	return append(files, emit.File{Path: SidebarFile, Data: data}), nil
}

// guides returns the guides as they are, and a sidebar category per
// section. A guide must carry front matter whose id is its file name, and
// a description, which the landing page shows.
func guides(docs fs.FS) ([]emit.File, []*category, error) {
	var files []emit.File
	var sidebar []*category
	for _, s := range GuideSections {
		c := &category{Type: "category", Label: s.Label, Collapsed: expanded}
		for _, name := range s.Guides {
			data, err := fs.ReadFile(docs, name)
			if err != nil {
				return nil, nil, err
			}
			fm, _, ok, err := ParseFrontMatter(data)
			switch {
			case err != nil:
				return nil, nil, fmt.Errorf("docs/%s: %w", name, err)
			case !ok || fm.ID != pageID(name) || fm.Description == "":
				return nil, nil, fmt.Errorf("docs/%s: needs front matter with id %q and a description", name, pageID(name))
			}
			files = append(files, emit.File{Path: name, Data: data})
			c.Items = append(c.Items, docItem(name))
		}
		sidebar = append(sidebar, c)
	}
	return files, sidebar, nil
}

// linkedAssets are the files other than Markdown that the guides link to
// under docs/ (docs/examples/router.yaml), outside reference/, which the
// site gets from the generator. A link to a file that does not exist is
// left to the link check, which names its line.
func linkedAssets(docs fs.FS, guides []emit.File) []emit.File {
	var out []emit.File
	seen := map[string]bool{}
	for _, g := range guides {
		for _, l := range Scan(g.Data).Links {
			file, _, external, err := LinkTarget(g.Path, l.Target)
			if external || err != nil || seen[file] || path.Ext(file) == ".md" || strings.HasPrefix(file, ReferenceDir+"/") {
				continue
			}
			seen[file] = true
			data, err := fs.ReadFile(docs, file)
			if err != nil {
				continue
			}
			out = append(out, emit.File{Path: file, Data: data})
		}
	}
	return out
}

// reference returns the reference files under ReferenceDir and their
// sidebar category: the generated pages with front matter, in emitter
// order, then the pages of each OpenAPI document, generated then frozen,
// each document a category of its own.
func reference(in Input) ([]emit.File, *category, error) {
	c := &category{Type: "category", Label: ReferenceLabel, Collapsed: expanded}
	var files []emit.File
	var docs []*apiDoc
	add := func(name string, data []byte) {
		files = append(files, emit.File{Path: path.Join(ReferenceDir, name), Data: data})
	}
	openAPI := func(name string, data []byte, source string) error {
		add(name, data)
		d, err := loadAPIDoc(name, data, source)
		docs = append(docs, d)
		return err
	}
	for _, f := range in.Reference {
		switch {
		case strings.HasSuffix(f.Path, openAPISuffix):
			if err := openAPI(f.Path, f.Data, ""); err != nil {
				return nil, nil, err
			}
		case path.Ext(f.Path) != ".md":
			add(f.Path, f.Data)
		default:
			fm, err := generatedFrontMatter(f.Path, f.Data)
			if err != nil {
				return nil, nil, err
			}
			add(f.Path, fm.Prepend(f.Data))
			c.Items = append(c.Items, docItem(path.Join(ReferenceDir, f.Path)))
		}
	}
	for _, f := range in.Frozen {
		if err := openAPI(f.Name, f.Data, f.Source); err != nil {
			return nil, nil, err
		}
	}
	for _, d := range docs {
		pages, it, err := d.pages()
		if err != nil {
			return nil, nil, err
		}
		files = append(files, pages...)
		c.Items = append(c.Items, it)
	}
	return files, c, nil
}

// generatedFrontMatter is a generated page's front matter: its ID is its
// file name, its title its first heading, its sidebar label the title up
// to a colon ("systemone/0.2: our description of the standard" is listed
// as "systemone/0.2"). The page must start with the generated-file header,
// which the front matter then precedes.
func generatedFrontMatter(name string, data []byte) (FrontMatter, error) {
	if !bytes.HasPrefix(data, []byte(emit.MarkdownHeader)) {
		return FrontMatter{}, fmt.Errorf("%s: a generated page must start with %q", name, emit.MarkdownHeader)
	}
	title := firstHeading(data)
	if title == "" {
		return FrontMatter{}, fmt.Errorf("%s: a generated page needs a # heading for its title", name)
	}
	label, _, _ := strings.Cut(title, ": ")
	return FrontMatter{ID: pageID(name), Title: title, SidebarLabel: label}, nil
}

// firstHeading is the text of the first "# " line, backticks removed (a
// title is plain text).
func firstHeading(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		if t, ok := strings.CutPrefix(line, "# "); ok {
			return strings.TrimSpace(strings.ReplaceAll(t, "`", ""))
		}
	}
	return ""
}
