package emit

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
)

// This file names the vocabulary's constants: Go CamelCase from the specs'
// spellings, and one allocator that keeps every name of the package unique.

// vocabInitialisms are the words Go spells in capitals (golint's list), so
// "request_id" is RequestID and "api_version" APIVersion. A naming rule of
// the language, not a list of the specs' words.
var vocabInitialisms = map[string]bool{
	"acl": true, "api": true, "ascii": true, "cpu": true, "css": true, "dns": true,
	"eof": true, "guid": true, "html": true, "http": true, "https": true, "id": true,
	"ip": true, "json": true, "lhs": true, "qps": true, "ram": true, "rhs": true,
	"rpc": true, "sla": true, "smtp": true, "sql": true, "ssh": true, "tcp": true,
	"tls": true, "ttl": true, "udp": true, "ui": true, "uid": true, "uuid": true,
	"uri": true, "url": true, "utf8": true, "vm": true, "xml": true, "xmpp": true,
	"xsrf": true, "xss": true,
}

// camel joins the words of s (split at every rune that is neither a letter
// nor a digit) in Go CamelCase: "data_base64" is DataBase64,
// "TypeSafe-Danger-Zone" TypeSafeDangerZone, "x-request-id" XRequestID. A
// word keeps its own capitals after the first letter.
func vocabCamel(s string) string {
	var b strings.Builder
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		if vocabInitialisms[strings.ToLower(w)] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		r, size := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[size:])
	}
	return b.String()
}

// vocabVersionSegment is an API version path segment, such as "v1".
var vocabVersionSegment = regexp.MustCompile(`^v[0-9]+$`)

// pathName is an endpoint path's constant name: Path, then the path's
// segments without a leading version segment ("/v1/systemone/batch" is
// PathSystemoneBatch, "/health" PathHealth).
func vocabPathName(p string) string {
	segs := strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
	if len(segs) > 1 && vocabVersionSegment.MatchString(segs[0]) {
		segs = segs[1:]
	}
	return "Path" + vocabCamel(strings.Join(segs, "_"))
}

// names allocates the package's identifiers. Every constant, variable and
// function the vocabulary declares claims its name through one names, in
// emission order, so two spellings that camel-case alike are caught
// whichever groups they come from.
type vocabNames struct {
	// owner is what claimed each identifier, for the collision note.
	owner map[string]string
}

func newVocabNames(reserved ...string) *vocabNames {
	n := &vocabNames{owner: map[string]string{}}
	for _, r := range reserved {
		n.owner[r] = "a declaration of the package"
	}
	return n
}

// claim returns ident for what (such as "request.model"). When another
// spelling already holds ident, it returns ident with the smallest number
// from 2 that is free, and a note for the constant's comment naming what
// holds ident: the first claimant in emission order keeps the plain name.
func (n *vocabNames) claim(ident, what string) (name, note string) {
	holder, taken := n.owner[ident]
	if !taken {
		n.owner[ident] = what
		return ident, ""
	}
	for i := 2; ; i++ {
		name = ident + strconv.Itoa(i)
		if _, taken := n.owner[name]; !taken {
			n.owner[name] = what
			return name, "named " + name + " because " + ident + " is " + holder
		}
	}
}

// lineComment joins the non-empty parts of a constant's line comment.
func vocabComment(parts ...string) string {
	var kept []string
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "; ")
}

// vocabWithComment ends s with a line comment, unless text is empty.
func vocabWithComment(s *jen.Statement, text string) *jen.Statement {
	if text == "" {
		return s
	}
	return s.Comment(text)
}
