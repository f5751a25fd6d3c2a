package docsite

import (
	"fmt"
	"strings"

	"github.com/vllm-sr/systemone/gen/emit"
)

// landingPage is the site's front page (LandingPage, at "/", first in the
// sidebar): the README's title and first paragraph, then each sidebar
// section with its pages, a guide with its description and an OpenAPI
// document with its operations and schemas counted. It is made from the
// same data as the sidebar, so it lists every page the sidebar lists at
// the top of each category.
func landingPage(readme []byte, guides []emit.File, sections []*category, ref []emit.File, refs *category) (emit.File, error) {
	title, intro := firstHeading(readme), firstParagraph(readme)
	if title == "" || intro == "" {
		return emit.File{}, fmt.Errorf("README.md: the landing page needs its # title and a paragraph after it")
	}
	pages := map[string]FrontMatter{}
	for _, f := range append(append([]emit.File(nil), guides...), ref...) {
		if fm, _, ok, err := ParseFrontMatter(f.Data); ok && err == nil {
			pages[docID(f.Path)] = fm
		}
	}
	var b strings.Builder
	b.WriteString(prose(intro) + "\n\n")
	for _, c := range sections {
		b.WriteString("## " + c.Label + "\n\n")
		for _, it := range c.Items {
			fm := pages[it.doc]
			b.WriteString("- " + link(fm.Title, it.doc+".md", LandingPage) + ": " + prose(fm.Description) + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("## " + refs.Label + "\n\nsrgen generates these pages from the specifications.\n\n")
	for _, it := range refs.Items {
		if it.cat == nil {
			b.WriteString("- " + link(pages[it.doc].Title, it.doc+".md", LandingPage) + "\n")
			continue
		}
		overview := it.cat.Link.ID
		var counts []string
		for _, sub := range it.cat.Items {
			counts = append(counts, fmt.Sprintf("%d %s", len(sub.cat.Items), strings.ToLower(sub.cat.Label)))
		}
		b.WriteString("- " + link(pages[overview].Title, overview+".md", LandingPage) + ": " + words(counts, "and") + "\n")
	}
	fm := FrontMatter{ID: pageID(LandingPage), Title: title, SidebarLabel: "Overview", Slug: "/"}
	return page(LandingPage, fm, b.String()), nil
}

// firstParagraph is the paragraph after a Markdown file's first "# "
// heading, on one line; "" when a heading, list, table or block comes
// first.
func firstParagraph(data []byte) string {
	var lines []string
	heading := false
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case !heading:
			heading = strings.HasPrefix(line, "# ")
		case t == "" && len(lines) == 0:
		case t == "":
			return strings.Join(lines, " ")
		case len(lines) == 0 && strings.ContainsAny(t[:1], "#-*|>`<!"):
			return ""
		default:
			lines = append(lines, t)
		}
	}
	return strings.Join(lines, " ")
}
