package docsite

import (
	"strings"
	"testing"
)

func TestFrontMatterRoundTrip(t *testing.T) {
	for _, fm := range []FrontMatter{
		{ID: "router", Title: "The Router: vllm-sr serve", SidebarLabel: "The Router"},
		{ID: "systemone-0.2", Title: "systemone/0.2: our description", SidebarLabel: "systemone/0.2"},
		{ID: "x", Title: "# not a comment", SidebarLabel: "5.0"},
		{ID: "y", Title: `say "yes"`, SidebarLabel: "true"},
		{ID: "index", Title: "Home", SidebarLabel: "Overview", Description: "Where to start: the guides.", Slug: "/"},
	} {
		data := fm.Prepend([]byte("# Body\n"))
		got, body, ok, err := ParseFrontMatter(data)
		if err != nil || !ok || got != fm || string(body) != "\n# Body\n" {
			t.Errorf("%+v: read back %+v, body %q, ok %v, err %v from\n%s", fm, got, body, ok, err, data)
		}
	}
}

func TestFrontMatterRefusals(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"misspelt key", "---\nid: a\ntitle: A\nsidebar-label: A\n---\n", "is not id, title, sidebar_label, description or slug"},
		{"empty description", "---\nid: a\ntitle: A\nsidebar_label: A\ndescription: \"\"\n---\n", "description is empty"},
		{"missing key", "---\nid: a\ntitle: A\n---\n", "sidebar_label is missing"},
		{"key twice", "---\nid: a\nid: b\ntitle: A\nsidebar_label: A\n---\n", "id given twice"},
		{"unquoted colon", "---\nid: a\ntitle: A: B\nsidebar_label: A\n---\n", "must be double-quoted"},
		{"not closed", "---\nid: a\ntitle: A\nsidebar_label: A\n# Body\n", "no closing"},
	} {
		_, _, ok, err := ParseFrontMatter([]byte(c.data))
		if !ok || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: ok %v, err %v; want an error containing %q", c.name, ok, err, c.want)
		}
	}
	if _, _, ok, err := ParseFrontMatter([]byte("# No front matter\n")); ok || err != nil {
		t.Errorf("a page without front matter: ok %v, err %v", ok, err)
	}
}
