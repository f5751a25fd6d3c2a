package ir

import (
	"strconv"
	"strings"
)

// PathElem is one step of a JSON path: a member name or an array index.
type PathElem struct {
	Name    string
	Index   int
	IsIndex bool
}

// Path locates a member of a message, from its root.
type Path []PathElem

// Key returns the path extended by a member name. It never aliases p's
// backing array, so sibling paths built from one parent stay independent.
func (p Path) Key(name string) Path { return p.with(PathElem{Name: name}) }

// At returns the path extended by an array index, as Key does.
func (p Path) At(i int) Path { return p.with(PathElem{Index: i, IsIndex: true}) }

func (p Path) with(e PathElem) Path {
	out := make(Path, len(p), len(p)+1)
	copy(out, p)
	return append(out, e)
}

// String writes the path as questions.team.criteria[0]; a name that is not
// a plain identifier is quoted (questions["a.b"]). The root is "body".
func (p Path) String() string {
	if len(p) == 0 {
		return "body"
	}
	var b strings.Builder
	for i, e := range p {
		switch {
		case e.IsIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.Index))
			b.WriteByte(']')
		case plainName(e.Name):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.Name)
		default:
			b.WriteByte('[')
			b.WriteString(strconv.Quote(e.Name))
			b.WriteByte(']')
		}
	}
	return b.String()
}

func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}
