package gen

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/gen/docsite"
)

// glossaryTerms are words the docs use without explaining them, each with
// its anchor in docs/glossary.md.
var glossaryTerms = map[string]string{
	"Jev 1.14":      "jev-114",
	"Decision 3":    "decision-1-decision-2-decision-3",
	"the IR":        "ir",
	"internal form": "internal-form",
}

// TestGlossaryIsLinkedWhereItsWordsAppear: the glossary defines each of
// glossaryTerms under its anchor, and every page of the site (the guides
// and the generated reference pages, outside code) that uses a term links
// to the glossary, so a newcomer who meets the word can look it up.
func TestGlossaryIsLinkedWhereItsWordsAppear(t *testing.T) {
	docs := filepath.Join(repoRoot, "docs")
	glossary, err := os.ReadFile(filepath.Join(docs, "glossary.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := docsite.Scan(glossary).Anchors
	pages, _ := filepath.Glob(filepath.Join(docs, "*.md"))
	refs, _ := filepath.Glob(filepath.Join(docs, "reference", "*.md"))
	design, _ := filepath.Glob(filepath.Join(docs, "design", "*.md"))
	refs = append(refs, design...)
	fence := regexp.MustCompile("(?s)```.*?```|`[^`\n]*`")
	used := 0
	for term, anchor := range glossaryTerms {
		if !anchors[anchor] {
			t.Errorf("the glossary has no #%s for %q", anchor, term)
		}
		for _, p := range append(pages, refs...) {
			if filepath.Base(p) == "glossary.md" {
				continue
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			prose := fence.ReplaceAllString(string(data), "")
			if !strings.Contains(prose, term) {
				continue
			}
			used++
			if !strings.Contains(prose, "glossary.md#"+anchor) {
				rel, _ := filepath.Rel(repoRoot, p)
				t.Errorf("%s uses %q without a link to glossary.md#%s", rel, term, anchor)
			}
		}
	}
	if used == 0 {
		t.Error("no page uses a glossary term: the check checked nothing")
	}
}

// apiGuide matches the words "API guide" and, when they are a link's
// text, the link around them.
var apiGuide = regexp.MustCompile(`(?i)\[[^\]]*API guide[^\]]*\]\([^)]+\)|API guide`)

// TestAPIGuideMentionsAreLinks: the README and the guides never cite "the
// API guide" as text: each mention is a link to the page meant.
func TestAPIGuideMentionsAreLinks(t *testing.T) {
	files, err := docsite.GuideFiles(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range apiGuide.FindAllString(string(data), -1) {
			if !strings.HasPrefix(m, "[") {
				t.Errorf("%s cites %q without a link", f, m)
			}
		}
	}
}
