package gen

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/gen/docsite"
	"github.com/vllm-sr/systemone/gen/write"
)

// The doc site's landing page, its OpenAPI pages and what `srgen docs`
// leaves on disk. TestDocSite (docsite_test.go) checks every page's front
// matter, links and anchors and the sidebar; make site builds the site
// with Docusaurus and checks it in Chromium.

// TestLandingPage: the site has a page at its root URL, opened by the
// README's first paragraph, that links every guide, every generated
// reference page and each OpenAPI document's overview.
func TestLandingPage(t *testing.T) {
	tree := siteTree(t)
	landing := tree[docsite.LandingPage]
	if landing == nil {
		t.Fatalf("the site has no %s", docsite.LandingPage)
	}
	fm, body, ok, err := docsite.ParseFrontMatter(landing.Data)
	if err != nil || !ok || fm.Slug != "/" || fm.Title != "vllm-sr System One schemas" {
		t.Fatalf("%s front matter %+v (%v); want slug / and the README's title", docsite.LandingPage, fm, err)
	}
	if !strings.Contains(string(body), "The System One schema layer of vLLM Semantic Router.") {
		t.Error("the landing page does not open with the README's first paragraph")
	}
	links := map[string]bool{}
	for _, l := range docsite.Scan(landing.Data).Links {
		links[l.Target] = true
	}
	var want []string
	for _, s := range docsite.GuideSections {
		want = append(want, s.Guides...)
	}
	for name := range tree {
		if strings.HasPrefix(name, docsite.ReferenceDir+"/") && path.Ext(name) == ".md" && strings.Count(name, "/") == 1 {
			want = append(want, name)
		}
	}
	for _, w := range want {
		if !links[w] {
			t.Errorf("the landing page does not link %s", w)
		}
	}
	if len(want) < 20 {
		t.Errorf("the landing page should link %d pages; want the 14 guides and 6 reference pages at least", len(want))
	}
}

// openAPIOrder reads a document's operations and component schemas in
// document order with plain YAML, independently of the pages' renderer.
func openAPIOrder(t *testing.T, file string) (ops, schemas []string, requestFields []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, file))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths      yaml.Node `yaml:"paths"`
		Components struct {
			Schemas yaml.Node `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(doc.Paths.Content); i += 2 {
		p, methods := doc.Paths.Content[i].Value, doc.Paths.Content[i+1]
		for j := 0; j < len(methods.Content); j += 2 {
			slug := strings.ReplaceAll(strings.Trim(p, "/"), "/", "-")
			ops = append(ops, methods.Content[j].Value+"-"+slug)
		}
	}
	for i := 0; i < len(doc.Components.Schemas.Content); i += 2 {
		name, s := doc.Components.Schemas.Content[i].Value, doc.Components.Schemas.Content[i+1]
		schemas = append(schemas, name)
		for j := 0; name == "Request" && j < len(s.Content); j += 2 {
			if s.Content[j].Value == "properties" {
				for k := 0; k < len(s.Content[j+1].Content); k += 2 {
					requestFields = append(requestFields, s.Content[j+1].Content[k].Value)
				}
			}
		}
	}
	return ops, schemas, requestFields
}

// TestOpenAPIPagesCoverTheDocuments: each OpenAPI document on the site has
// a page per operation and per component schema, listed in the sidebar in
// document order, and the Request page lists every field, in document
// order, with its type and whether it is required.
func TestOpenAPIPagesCoverTheDocuments(t *testing.T) {
	tree := siteTree(t)
	listed, _, err := docsite.ReadSidebar(tree[docsite.SidebarFile].Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ stem, file string }{
		{"vllm-sr-5.0", "docs/reference/vllm-sr-5.0.openapi.yaml"},
		{"vllm-sr-4.0", "specs/systemone/vllm-sr-4.0.openapi.yaml"},
	} {
		dir := docsite.ReferenceDir + "/" + c.stem + "-openapi"
		ops, schemas, fields := openAPIOrder(t, c.file)
		var want []string
		for _, o := range ops {
			want = append(want, dir+"/operations/"+o)
		}
		for _, s := range schemas {
			want = append(want, dir+"/schemas/"+s)
		}
		var got []string
		for _, id := range listed {
			if strings.HasPrefix(id, dir+"/") {
				got = append(got, id)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the sidebar lists %q; want the operations and schemas in document order, %q", c.file, got, want)
		}
		for _, id := range want {
			if tree[id+".md"] == nil {
				t.Errorf("%s: no page %s.md", c.file, id)
			}
		}
		request := string(tree[dir+"/schemas/Request.md"].Data)
		at := 0
		for _, f := range fields {
			i := strings.Index(request[at:], "| `"+f+"`")
			if i < 0 {
				t.Errorf("%s: the Request page has no row for %s after the row of the field before it", c.file, f)
				continue
			}
			at += i
		}
	}
	if page := string(tree["reference/vllm-sr-5.0-openapi/schemas/Request.md"].Data); !strings.Contains(page,
		"| `questions` (required) | map of [Question](Question.md) |") {
		t.Errorf("the 5.0 Request page does not give questions as a required map of Question:\n%s", page)
	}
}

// TestWriteDocsCleansOnlyItsOwn: `srgen docs --out DIR` run again over its
// own output changes nothing, removes a page its previous run wrote and
// this one does not, and leaves every file it never wrote.
func TestWriteDocsCleansOnlyItsOwn(t *testing.T) {
	out := t.TempDir()
	mine := map[string]string{"docusaurus.config.js": "module.exports = {}\n", "reference/notes.md": "# my notes\n"}
	for name, data := range mine {
		if err := (write.OSFS{Root: out}).WriteFile(name, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	first, err := WriteDocs(t.Context(), repoRoot, out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{docsite.LandingPage, "design/architecture.md", docsite.SidebarFile,
		"reference/vllm-sr-5.0-openapi/operations/post-v1-systemone.md"} {
		if !slices.ContainsFunc(first, func(c write.Change) bool { return c.Path == want }) {
			t.Errorf("the first run did not write %s", want)
		}
	}
	// A page an earlier srgen wrote and this one no longer does.
	stale := "reference/vllm-sr-5.0-openapi/schemas/Gone.md"
	manifest := filepath.Join(out, write.ManifestName)
	listedBefore, err := os.ReadFile(manifest)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(manifest, append(listedBefore, stale+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(stale)), []byte("# gone\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	second, err := WriteDocs(t.Context(), repoRoot, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(second) != 1 || second[0].String() != "extra "+stale {
		t.Errorf("the second run changed %v; want only the stale page removed", second)
	}
	if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(stale))); !os.IsNotExist(err) {
		t.Errorf("%s is still there (%v)", stale, err)
	}
	for name, data := range mine {
		got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil || string(got) != data {
			t.Errorf("%s, which srgen never wrote, is now %q (%v)", name, got, err)
		}
	}
	listedAfter, _ := os.ReadFile(manifest)
	if string(listedAfter) != string(listedBefore) {
		t.Error("the manifest after the second run is not the first run's")
	}
}
