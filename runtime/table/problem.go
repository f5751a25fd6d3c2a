package table

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// ProblemReason is the fixed word for why a message breaks its schema. It
// never carries request data.
type ProblemReason string

const (
	// ReasonUnknownMember: the schema defines no member of that name there.
	ReasonUnknownMember ProblemReason = "unknown_member"
	// ReasonWrongType: the value has a JSON type the schema does not allow.
	ReasonWrongType ProblemReason = "wrong_type"
	// ReasonMissingMember: a required member is absent.
	ReasonMissingMember ProblemReason = "missing_member"
	// ReasonNotAllowedNull: the value is null where null is not allowed.
	ReasonNotAllowedNull ProblemReason = "not_allowed_null"
	// ReasonNotInEnum: the value is not one of the schema's names.
	ReasonNotInEnum ProblemReason = "not_in_enum"
	// ReasonTooFew: an object or array has fewer entries than Limit.
	ReasonTooFew ProblemReason = "too_few"
	// ReasonTooMany: an object or array has more entries than Limit.
	ReasonTooMany ProblemReason = "too_many"
	// ReasonBelowMinimum: a number is below Limit.
	ReasonBelowMinimum ProblemReason = "below_minimum"
	// ReasonAboveMaximum: a number is above Limit.
	ReasonAboveMaximum ProblemReason = "above_maximum"
	// ReasonRemovedForm: a 4.0 form this schema replaced; Replacement names
	// what to send instead.
	ReasonRemovedForm ProblemReason = "removed_form"
	// ReasonUnknownSchema: the validator has no such body for the schema
	// ID it was given; Expected lists the schema IDs that have one.
	ReasonUnknownSchema ProblemReason = "unknown_schema"
)

// MaxProblems caps the problems one validation reports: a validator stops
// looking once it has found this many, so a hostile body cannot make the
// list (or the work) grow without bound.
const MaxProblems = 100

// Problem is one way a decoded message breaks its schema.
//
// Invariant: no field ever holds a value taken from the message, other than
// member names and question or request names in Path and Member, which the
// client needs to find the problem. Expected and Replacement come from the
// specification.
type Problem struct {
	// Path is an RFC 6901 JSON Pointer to the value concerned: the member
	// itself for unknown, missing and removed members ("/questions/team/colour"),
	// "" for the whole body.
	Path   string
	Reason ProblemReason
	// Member is the member's name for unknown_member, missing_member and
	// removed_form; "" otherwise.
	Member string
	// Expected is what the schema allows: JSON types ("string or object"),
	// or the enum's names ("user, context or answer").
	Expected string
	// Replacement is what replaces a removed form ("criteria").
	Replacement string
	// Limit is the bound that was broken, for too_few, too_many,
	// below_minimum and above_maximum.
	Limit int64
}

// Message says, for a person, where the problem is and what is wrong. It
// names the path and the schema's expectation, never the offending value;
// member names in it are cut to MaxNameBytes (ClipName), so a message is
// small whatever the names the client sent.
func (p Problem) Message() string {
	where := ClipPointer(p.Path)
	if where == "" {
		where = "the body"
	}
	return where + ": " + p.What()
}

// What says what is wrong, without where.
func (p Problem) What() string {
	limit := strconv.FormatInt(p.Limit, 10)
	switch p.Reason {
	case ReasonUnknownMember:
		return "member " + QuoteName(p.Member) + " is not defined by the schema"
	case ReasonWrongType:
		return "wrong type, expected " + p.Expected
	case ReasonMissingMember:
		return "required member " + QuoteName(p.Member) + " is missing"
	case ReasonNotAllowedNull:
		return "must not be null, expected " + p.Expected
	case ReasonNotInEnum:
		return "not an allowed value, expected " + p.Expected
	case ReasonTooFew:
		return "too few entries, at least " + limit
	case ReasonTooMany:
		return "too many entries, at most " + limit
	case ReasonBelowMinimum:
		return "below the minimum " + limit
	case ReasonAboveMaximum:
		return "above the maximum " + limit
	case ReasonRemovedForm:
		return "member " + QuoteName(p.Member) + " was removed, use " + p.Replacement + " instead"
	case ReasonUnknownSchema:
		return "no such body under this schema, expected " + p.Expected
	}
	return "invalid (" + string(p.Reason) + ")"
}

// MaxNameBytes is how much of a name from a request (a member, question
// or request name) an error message quotes: a name is the client's own
// words, needed to find the problem, but a message that copied it whole
// would let a request of one huge name make a huge answer (or, gzip
// inflated, an amplified one).
const MaxNameBytes = 64

// ClipMark ends a name ClipName cut.
const ClipMark = "…"

// ClipName returns s when it is at most MaxNameBytes long, else its first
// MaxNameBytes bytes or fewer, cut where a UTF-8 sequence starts, followed
// by ClipMark.
func ClipName(s string) string { return Clip(s, MaxNameBytes) }

// Clip returns s when it is at most n bytes long, else its first n bytes
// or fewer, cut where a UTF-8 sequence starts, followed by ClipMark.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:cutAt(s, n)] + ClipMark
}

// QuoteName is ClipName(s) in double quotes, escaped as Go (and JSON, for
// printable text) escapes it.
func QuoteName(s string) string { return strconv.Quote(ClipName(s)) }

// cutAt is the largest cut of s at or below n that splits neither a UTF-8
// sequence nor a JSON Pointer escape ("~0", "~1").
func cutAt(s string, n int) int {
	i := n
	for i > 0 && (!utf8.RuneStart(s[i]) || s[i-1] == '~') {
		i--
	}
	return i
}

// ClipPointer returns the JSON Pointer p with every segment longer than
// MaxNameBytes cut as ClipName cuts names.
func ClipPointer(p string) string {
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		segs[i] = ClipName(seg)
	}
	return strings.Join(segs, "/")
}

// Path is a location inside a message, built on the caller's stack while a
// validator descends. It becomes a JSON Pointer only when a problem is
// recorded, so checking a valid message spends nothing on paths.
//
// The zero Path is the root. A Path must not outlive the values it was built
// from (it points at its parent).
type Path struct {
	parent *Path
	name   string
	index  int // the array index when name is ""; ignored otherwise
	isItem bool
}

// Member returns the location of member name inside p.
func (p *Path) Member(name string) Path { return Path{parent: p, name: name} }

// Item returns the location of array item i inside p.
func (p *Path) Item(i int) Path { return Path{parent: p, index: i, isItem: true} }

// Pointer renders p as an RFC 6901 JSON Pointer ("" for the root). It
// walks up the parents twice (to size, then to fill from the end) rather
// than recursing, so a Path never escapes to the heap.
func (p *Path) Pointer() string {
	n := 0
	for q := p; q != nil && q.parent != nil; q = q.parent {
		n += 1 + q.segmentLen()
	}
	if n == 0 {
		return ""
	}
	buf := make([]byte, n)
	end := n
	for q := p; q != nil && q.parent != nil; q = q.parent {
		start := end - q.segmentLen()
		q.fillSegment(buf[start:end])
		buf[start-1] = '/'
		end = start - 1
	}
	return string(buf)
}

// segmentLen is the length of p's own segment, escaped.
func (p *Path) segmentLen() int {
	if p.isItem {
		return len(strconv.Itoa(p.index))
	}
	return len(p.name) + strings.Count(p.name, "~") + strings.Count(p.name, "/")
}

// fillSegment writes p's own segment, escaped ("~" as "~0", "/" as "~1"),
// into dst, which is exactly segmentLen long.
func (p *Path) fillSegment(dst []byte) {
	if p.isItem {
		copy(dst, strconv.Itoa(p.index))
		return
	}
	i := 0
	for j := 0; j < len(p.name); j++ {
		switch c := p.name[j]; c {
		case '~':
			dst[i], dst[i+1] = '~', '0'
			i += 2
		case '/':
			dst[i], dst[i+1] = '~', '1'
			i += 2
		default:
			dst[i] = c
			i++
		}
	}
}

// Problems collects a validation's problems in the order they were found,
// at most MaxProblems. The zero value is ready to use and allocates nothing
// until the first problem.
type Problems struct {
	list []Problem
}

// Add records p at location at (its Path is set from at). Past MaxProblems
// it does nothing.
func (ps *Problems) Add(at *Path, p Problem) {
	if len(ps.list) >= MaxProblems {
		return
	}
	p.Path = at.Pointer()
	ps.list = append(ps.list, p)
}

// Full reports whether MaxProblems were found, so a validator can stop.
func (ps *Problems) Full() bool { return len(ps.list) >= MaxProblems }

// List returns the problems found, or nil when there were none.
func (ps *Problems) List() []Problem { return ps.list }
