package docsite

import (
	"strings"
	"testing"
	"testing/fstest"
)

// linkTree is a small docs tree the link snippets are checked in.
var linkTree = fstest.MapFS{
	"guide.md": {Data: []byte("---\nid: guide\ntitle: Guide\nsidebar_label: Guide\n---\n\n" +
		"# The Router: `vllm-sr serve`\n\n## Metrics\n\n## Metrics\n\n```sh\n# Not a heading\n```\n")},
	"examples/router.yaml":               {Data: []byte("listeners: []\n")},
	"reference/extension-reference.md":   {Data: []byte("# Extension reference\n\n## Removed forms\n")},
	"reference/vllm-sr-5.0.openapi.yaml": {Data: []byte("openapi: 3.1.0\n")},
}

func TestCheckLinks(t *testing.T) {
	good := "# Page\n\n## Local heading\n\n" +
		"[a](guide.md) [b](guide.md#the-router-vllm-sr-serve) [c](guide.md#metrics-1) [d](#local-heading)\n" +
		"[e](examples/router.yaml) [f](reference/extension-reference.md#removed-forms) ![g](reference/vllm-sr-5.0.openapi.yaml)\n" +
		"[h](https://example.com/x.md) [i]: reference/extension-reference.md\n" +
		"`[not a link](missing.md)`\n\n```md\n[not a link](missing.md)\n```\n"
	fsys := withPage(good)
	if errs := CheckLinks(fsys, "page.md"); len(errs) != 0 {
		t.Errorf("good links refused: %v", errs)
	}
	for _, c := range []struct{ name, link, want string }{
		{"missing file", "[x](gude.md)", "gude.md does not exist"},
		{"missing anchor", "[x](guide.md#metric)", "has no heading #metric"},
		{"heading in a code block", "[x](guide.md#not-a-heading)", "has no heading"},
		{"missing local anchor", "[x](#nowhere)", "page.md has no heading #nowhere"},
		{"anchor into YAML", "[x](examples/router.yaml#top)", "not Markdown"},
		{"directory", "[x](examples)", "is a directory"},
		{"leaves the tree", "[x](../specs/README.md)", "leaves the tree"},
		{"absolute path", "[x](/docs/guide.md)", "absolute path"},
		{"reference definition", "[x]: reference/missing.md", "does not exist"},
	} {
		errs := CheckLinks(withPage("# Page\n\n"+c.link+"\n"), "page.md")
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), c.want) || !strings.HasPrefix(errs[0].Error(), "page.md:3: ") {
			t.Errorf("%s: %q gave %v; want one error at page.md:3 containing %q", c.name, c.link, errs, c.want)
		}
	}
}

func withPage(page string) fstest.MapFS {
	fsys := fstest.MapFS{"page.md": {Data: []byte(page)}}
	for k, v := range linkTree {
		fsys[k] = v
	}
	return fsys
}

func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"The Router: `vllm-sr serve` and `vllm-sr decide`": "the-router-vllm-sr-serve-and-vllm-sr-decide",
		"vllm-sr/auto pools":                   "vllm-srauto-pools",
		"`max_concurrency`":                    "max_concurrency",
		"1. Serve the listener on vllm-sr/4.0": "1-serve-the-listener-on-vllm-sr40",
		"See [the guide](guide.md)":            "see-the-guide",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}
