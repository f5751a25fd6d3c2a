package jsonvalue

import (
	"strconv"
)

// The fixed words a SyntaxError's Reason takes. They never carry input data.
const (
	ReasonEmptyInput      = "empty_input"      // no value at all, or only whitespace
	ReasonUnexpectedEnd   = "unexpected_end"   // the input ends inside a value
	ReasonInvalidSyntax   = "invalid_syntax"   // a byte the JSON grammar does not allow here
	ReasonInvalidUTF8     = "invalid_utf8"     // invalid UTF-8, or an escaped lone surrogate
	ReasonDuplicateMember = "duplicate_member" // two members of one object share a decoded name
	ReasonTooDeep         = "too_deep"         // nesting beyond Options.MaxDepth
	ReasonTrailingData    = "trailing_data"    // more than whitespace after the value
)

// SyntaxError is why Decode refused its input.
type SyntaxError struct {
	// Offset is the byte offset of the fault in the input: the first byte
	// that cannot be read (len(input) when the input ends early), the start
	// of the duplicate name, or the opening bracket one level too deep.
	Offset int64
	// Path is the JSONPath of the value being read: "$" for the top-level
	// value, ".name" for a member whose name is an identifier, ["name"] (a
	// JSON string) for any other member, [2] for an array item. A fault in a
	// member's name, or after a member's value (a missing ',' or '}'), is
	// located at its object; one after the name (the ':' or the value) and a
	// duplicate_member at the member. Names longer than
	// maxPathName bytes are cut there and end in "...".
	Path string
	// Reason is one of the Reason* words.
	Reason string
	// Detail is a fixed phrase for a person ("leading zero in number"); it
	// never holds input bytes.
	Detail string
}

// Error names the reason, path and byte offset; it copies no input bytes
// other than member names on the path.
func (e *SyntaxError) Error() string {
	msg := "jsonvalue: " + e.Reason + " at " + e.Path + " (byte " + strconv.FormatInt(e.Offset, 10) + ")"
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// maxPathName bounds how much of a member name an error path repeats.
const maxPathName = 64

// pathSegment is one step of a path: a member name or an array index.
type pathSegment struct {
	name    string
	index   int
	isIndex bool
}

// formatPath writes the path whose segments were collected innermost first
// (the decoder records them while unwinding after a fault).
func formatPath(innermostFirst []pathSegment) string {
	b := []byte{'$'}
	for i := len(innermostFirst) - 1; i >= 0; i-- {
		seg := innermostFirst[i]
		switch {
		case seg.isIndex:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(seg.index), 10)
			b = append(b, ']')
		case isIdentifier(seg.name):
			b = append(b, '.')
			b = append(b, seg.name...)
		default:
			b = append(b, '[')
			b = AppendString(b, shortName(seg.name))
			b = append(b, ']')
		}
	}
	return string(b)
}

// shortName cuts a name to maxPathName bytes, at a UTF-8 boundary.
func shortName(name string) string {
	if len(name) <= maxPathName {
		return name
	}
	cut := maxPathName
	for cut > 0 && name[cut]&0xC0 == 0x80 {
		cut--
	}
	return name[:cut] + "..."
}

// isIdentifier reports whether name can follow a '.' in a path unquoted.
func isIdentifier(name string) bool {
	if name == "" || len(name) > maxPathName {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || !isDigit(c)) {
			return false
		}
	}
	return true
}
