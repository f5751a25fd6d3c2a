package docsite

import (
	"encoding/json"
	"path"
	"strings"
)

// The pages are CommonMark read by Docusaurus with markdown.format
// 'detect'. Text taken from an OpenAPI document is Markdown already
// (descriptions have code spans and lists), so it is kept, with two
// escapes: a '<' outside a code span would open raw HTML ("under
// <question>.<label>" would lose its words), and in a table cell a '|'
// would end the cell and a newline the row.

// prose is a description as a block of Markdown: '<' escaped outside code
// spans, surrounding space trimmed.
func prose(s string) string {
	return escapeOutsideCode(strings.TrimSpace(s), func(r byte) bool { return r == '<' })
}

// cell is text for one table cell: on one line, '<' escaped outside code
// spans and every '|' escaped (GFM reads \| as a pipe in a code span too).
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = escapeOutsideCode(s, func(r byte) bool { return r == '<' })
	return strings.ReplaceAll(s, "|", `\|`)
}

// escapeOutsideCode puts a backslash before every byte esc picks that is
// not inside a code span. A backtick run opens a span only when the same
// run closes it, as CommonMark reads them.
func escapeOutsideCode(s string, esc func(byte) bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '`' {
			n := runOf(s[i:], '`')
			if end := closingRun(s[i+n:], n); end >= 0 {
				b.WriteString(s[i : i+n+end+n])
				i += n + end + n
				continue
			}
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		if esc(s[i]) && (i == 0 || s[i-1] != '\\') {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func runOf(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// closingRun is the offset in s of the first run of exactly n backticks,
// or -1.
func closingRun(s string, n int) int {
	for i := 0; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		m := runOf(s[i:], '`')
		if m == n {
			return i
		}
		i += m
	}
	return -1
}

// code is s as a code span, with a fence longer than any backtick run in
// it.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// value is a JSON value from a document as a code span: a string as it
// is, anything else as JSON.
func value(v any) string {
	if s, ok := v.(string); ok {
		return code(s)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return code("?")
	}
	return code(string(data))
}

// words joins a list as a sentence does: "a", "a or b", "a, b or c".
func words(items []string, last string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + last + " " + items[len(items)-1]
}

// link is a Markdown link from the page from to the page or file to, both
// paths relative to the site's root; the target is relative, so it means
// the same file in the repository tree and on the site.
func link(text, to, from string) string {
	return "[" + text + "](" + relPath(from, to) + ")"
}

// relPath is the relative path from the file from to the file to.
func relPath(from, to string) string {
	fromDir := strings.Split(path.Dir(from), "/")
	toParts := strings.Split(to, "/")
	if fromDir[0] == "." {
		fromDir = nil
	}
	i := 0
	for i < len(fromDir) && i < len(toParts)-1 && fromDir[i] == toParts[i] {
		i++
	}
	return strings.Repeat("../", len(fromDir)-i) + strings.Join(toParts[i:], "/")
}

// table writes a GFM table: the header row, its rule and the rows, whose
// cells must already be cell text.
func table(b *strings.Builder, header []string, rows [][]string) {
	if len(rows) == 0 {
		return
	}
	b.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range rows {
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	b.WriteString("\n")
}
