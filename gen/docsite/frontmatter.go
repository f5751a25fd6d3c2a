package docsite

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// FrontMatter is a page's Docusaurus front matter. Every page of the site
// carries id, title and sidebar_label; description and slug are optional.
type FrontMatter struct {
	// ID is the page's file name without .md: links name files, the
	// sidebar names IDs, and the two must agree.
	ID           string
	Title        string
	SidebarLabel string
	// Description is one sentence on what the page is for: the page's meta
	// description, and what the landing page says of a guide.
	Description string
	// Slug is the page's URL path when it is not its file's: "/" for the
	// landing page.
	Slug string
}

const fenceLine = "---"

// Format is the front matter block, ending with its closing "---" line.
func (fm FrontMatter) Format() string {
	return fenceLine + "\n" +
		"id: " + yamlScalar(fm.ID) + "\n" +
		"title: " + yamlScalar(fm.Title) + "\n" +
		"sidebar_label: " + yamlScalar(fm.SidebarLabel) + "\n" +
		optional("description", fm.Description) + optional("slug", fm.Slug) +
		fenceLine + "\n"
}

func optional(key, value string) string {
	if value == "" {
		return ""
	}
	return key + ": " + yamlScalar(value) + "\n"
}

// Prepend puts the front matter before body, a blank line between: a
// generated page's header comment then follows the block, as Docusaurus
// reads front matter only at the very start of a file.
func (fm FrontMatter) Prepend(body []byte) []byte {
	return append([]byte(fm.Format()+"\n"), body...)
}

// ParseFrontMatter splits data into its front matter and the rest. ok is
// false when data has none (it does not start with a "---" line). The
// block is "key: value" lines, each value a plain or double-quoted YAML
// scalar; a key other than FrontMatter's, a key twice, a missing or empty
// id, title or sidebar_label, or a plain value YAML would not read as that
// string is an error, so a misspelt key cannot pass unnoticed.
func ParseFrontMatter(data []byte) (fm FrontMatter, body []byte, ok bool, err error) {
	rest, found := bytes.CutPrefix(data, []byte(fenceLine+"\n"))
	if !found {
		return FrontMatter{}, data, false, nil
	}
	block, body, found := bytes.Cut(rest, []byte("\n"+fenceLine+"\n"))
	if !found {
		return FrontMatter{}, data, true, fmt.Errorf("front matter: no closing %q line", fenceLine)
	}
	fields := map[string]*string{"id": &fm.ID, "title": &fm.Title, "sidebar_label": &fm.SidebarLabel,
		"description": &fm.Description, "slug": &fm.Slug}
	seen := map[string]bool{}
	for i, line := range strings.Split(string(block), "\n") {
		key, raw, found := strings.Cut(line, ":")
		dst, known := fields[key]
		switch {
		case !found || !known:
			return fm, body, true, fmt.Errorf("front matter line %d: %q is not id, title, sidebar_label, description or slug", i+2, line)
		case seen[key]:
			return fm, body, true, fmt.Errorf("front matter line %d: %s given twice", i+2, key)
		}
		seen[key] = true
		if *dst, err = parseScalar(strings.TrimSpace(raw)); err != nil {
			return fm, body, true, fmt.Errorf("front matter line %d: %s: %w", i+2, key, err)
		}
		if *dst == "" {
			return fm, body, true, fmt.Errorf("front matter line %d: %s is empty", i+2, key)
		}
	}
	for _, key := range []string{"id", "title", "sidebar_label"} {
		if *fields[key] == "" {
			return fm, body, true, fmt.Errorf("front matter: %s is missing or empty", key)
		}
	}
	return fm, body, true, nil
}

func parseScalar(raw string) (string, error) {
	if strings.HasPrefix(raw, `"`) {
		return strconv.Unquote(raw)
	}
	if needsQuotes(raw) {
		return "", fmt.Errorf("%q must be double-quoted to be read as text", raw)
	}
	return raw, nil
}

// yamlScalar writes s plain when YAML reads it back as the same string,
// double-quoted otherwise (Go's quoting is valid YAML for printable text).
func yamlScalar(s string) string {
	if needsQuotes(s) {
		return strconv.Quote(s)
	}
	return s
}

// needsQuotes reports whether a plain YAML scalar s would not read back as
// the string s: empty, padded, starting with an indicator, holding ": " or
// " #", or a word YAML reads as a boolean, null or number.
func needsQuotes(s string) bool {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") ||
		strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return true
	}
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "~":
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}
