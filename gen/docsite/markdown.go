package docsite

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Doc is what the checks read from one Markdown file.
type Doc struct {
	// Anchors are the IDs of the file's headings, as GitHub and Docusaurus
	// make them (Slug), a repeated one numbered -1, -2, ...
	Anchors map[string]bool
	// Links are the link targets outside code, as written.
	Links []Link
	// Blocks are the fenced code blocks.
	Blocks []Block
}

// Link is one link target and the line it is on.
type Link struct {
	Target string
	Line   int
}

// Block is one fenced code block: its language (the info string's first
// word), the line of its first content line, and its content without the
// fence's own indentation (a block inside a list item is indented).
type Block struct {
	Lang string
	Line int
	Text string
}

var (
	headingRE = regexp.MustCompile(`^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)
	// inlineLinkRE matches the target of [text](target) and ![alt](target),
	// with an optional <...> around it and an optional "title".
	inlineLinkRE = regexp.MustCompile(`\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	// refDefRE matches a link reference definition: [label]: target.
	refDefRE = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?`)
	// codeSpanRE matches an inline code span, whose text is no link.
	codeSpanRE = regexp.MustCompile("`+[^`]*`+")
	// linkTargetRE is the part of a link in a heading its ID leaves out.
	linkTargetRE = regexp.MustCompile(`\]\([^)]*\)`)
)

// Scan reads a Markdown file: headings, links and fenced blocks. Front
// matter is skipped, and nothing inside a fenced block counts as a heading
// or a link.
func Scan(data []byte) Doc {
	d := Doc{Anchors: map[string]bool{}}
	lines := strings.Split(string(data), "\n")
	first := 0
	if _, body, ok, _ := ParseFrontMatter(data); ok {
		first = strings.Count(string(data[:len(data)-len(body)]), "\n")
	}
	seen := map[string]int{}
	var block *Block
	var fence string
	var indent int
	for i := first; i < len(lines); i++ {
		line := lines[i]
		trimmed := strings.TrimLeft(line, " \t")
		switch {
		case block != nil && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "":
			d.Blocks = append(d.Blocks, *block)
			block = nil
		case block != nil:
			cut := min(indent, len(line)-len(trimmed))
			block.Text += line[cut:] + "\n"
		case fenceOf(trimmed) != "":
			fence = fenceOf(trimmed)
			indent = len(line) - len(trimmed)
			lang, _, _ := strings.Cut(strings.TrimSpace(trimmed[len(fence):]), " ")
			block = &Block{Lang: lang, Line: i + 2}
		default:
			if m := headingRE.FindStringSubmatch(line); m != nil {
				slug := Slug(m[1])
				if n := seen[slug]; n > 0 {
					d.Anchors[slug+"-"+strconv.Itoa(n)] = true
				} else {
					d.Anchors[slug] = true
				}
				seen[slug]++
			}
			d.Links = append(d.Links, linksIn(line, i+1)...)
		}
	}
	return d
}

// fenceOf returns the fence a line opens (three or more backticks or
// tildes), or "".
func fenceOf(trimmed string) string {
	for _, c := range []string{"`", "~"} {
		n := len(trimmed) - len(strings.TrimLeft(trimmed, c))
		if n >= 3 {
			return trimmed[:n]
		}
	}
	return ""
}

// linksIn returns the link targets of one line outside code spans.
func linksIn(line string, n int) []Link {
	var out []Link
	if m := refDefRE.FindStringSubmatch(line); m != nil {
		return []Link{{Target: m[1], Line: n}}
	}
	text := codeSpanRE.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
	for _, m := range inlineLinkRE.FindAllStringSubmatch(text, -1) {
		out = append(out, Link{Target: m[1], Line: n})
	}
	return out
}

// Slug is a heading's ID as github-slugger makes it, which GitHub and
// Docusaurus both use: the heading's text (a link's target left out),
// lower-cased, with every character that is not a letter, digit, mark,
// space, '-' or '_' removed and each space turned into '-'.
func Slug(heading string) string {
	heading = linkTargetRE.ReplaceAllString(heading, "]")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
