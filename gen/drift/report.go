package drift

import (
	"fmt"
	"strings"
)

// Change says how a facet differs.
type Change string

const (
	// Added: the document has what our description does not expect.
	Added Change = "added"
	// Removed: the document lacks what our description expects.
	Removed Change = "removed"
	// Changed: both have it, with different values.
	Changed Change = "changed"
)

// Difference is one way the published document differs from what our
// description says it says. Every Difference touches something our
// description takes from the document, so any one fails the check.
type Difference struct {
	// Where is the place: "document", "paths", a path, "METHOD /path", a
	// component, or a component's property path ("ScoreQuestion.criteria",
	// with "[]" for an array's items and "{}" for a map's members).
	Where string
	// Facet is what differs there ("minItems", "type", "property", ...),
	// and Item which one of a facet's several (a property or enum value,
	// a status, a media type, a discriminator value).
	Facet, Item string
	Change      Change
	// Ours is what our description expects, Published what the document
	// says; each empty where that side has nothing.
	Ours, Published string
	// Reading: the spec records an openapi reading of this point, which
	// the document no longer bears out; Conflict names the recorded
	// conflict the reading belongs to, which then needs a second look.
	Reading  bool
	Conflict string
	// Note says more for a person: a property the spec describes from the
	// prose docs alone, for instance.
	Note string
}

func (d Difference) String() string {
	what := d.Facet
	if d.Item != "" {
		what += " " + d.Item
	}
	var line string
	switch d.Change {
	case Added:
		line = fmt.Sprintf("%s: %s added", d.Where, what)
		if d.Published != "" {
			line += ": " + d.Published
		}
	case Removed:
		line = fmt.Sprintf("%s: %s removed", d.Where, what)
		if d.Ours != "" {
			line += " (was " + d.Ours + ")"
		}
	default:
		line = fmt.Sprintf("%s: %s changed from %s to %s", d.Where, what, d.Ours, d.Published)
	}
	switch {
	case d.Conflict != "":
		line += fmt.Sprintf("; the spec's openapi reading (conflict %q) no longer holds", d.Conflict)
	case d.Reading:
		line += "; the spec's openapi reading no longer holds"
	}
	if d.Note != "" {
		line += "; " + d.Note
	}
	return line
}

// Known is a point where our description deliberately differs from the
// document, as the spec records it (an openapi reading): reported, never
// failing, while the document still says what the reading says.
type Known struct {
	Where, Facet, Item string
	// Document is what the document says, Ours what the project follows.
	Document, Ours string
	// Conflict is the recorded conflict the difference comes from; empty
	// when the spec adds to what the document states (a bound the prose
	// docs or the meaning give, kinds other statuses' bodies take).
	Conflict string
}

// at reports whether a Difference is at the same point.
func (k Known) at(d Difference) bool {
	return k.Where == d.Where && k.Facet == d.Facet && k.Item == d.Item
}

func (k Known) String() string {
	what := k.Facet
	if k.Item != "" {
		what += " " + k.Item
	}
	why := "the spec adds it beyond the document"
	if k.Conflict != "" {
		why = fmt.Sprintf("conflict %q", k.Conflict)
	}
	return fmt.Sprintf("%s: %s is %s in the document, %s in ours (known: %s)", k.Where, what, orNone(k.Document), orNone(k.Ours), why)
}

// Report is the outcome of one comparison.
type Report struct {
	// Source names the document: a file path or the URL fetched.
	Source string
	// SHA256 is the document's; Recorded is the spec's source.sha256.
	SHA256, Recorded string
	// Differences fail the check; Known do not. Both are empty when the
	// hashes match, since the document is then the one the spec describes.
	Differences []Difference
	Known       []Known
}

// Matches reports whether the document is the one the spec was checked
// against.
func (r Report) Matches() bool { return r.SHA256 == r.Recorded }

// Failed reports whether the check fails: some difference touches what our
// description takes from the document.
func (r Report) Failed() bool { return len(r.Differences) > 0 }

// Summary is the report for a person, one line per difference.
func (r Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "published document: %s\n", r.Source)
	if r.Matches() {
		fmt.Fprintf(&b, "sha256 %s matches the spec's source.sha256: it is the document our description was checked against\n", r.SHA256)
		return b.String()
	}
	fmt.Fprintf(&b, "sha256 %s differs from the spec's source.sha256 %s\n", r.SHA256, r.Recorded)
	if len(r.Differences) > 0 {
		fmt.Fprintf(&b, "%d differences in what our description takes from the document:\n", len(r.Differences))
		for _, d := range r.Differences {
			b.WriteString("  " + d.String() + "\n")
		}
	}
	if len(r.Known) > 0 {
		fmt.Fprintf(&b, "%d known differences, recorded in the spec's openapi readings (not failing):\n", len(r.Known))
		for _, k := range r.Known {
			b.WriteString("  " + k.String() + "\n")
		}
	}
	if r.Failed() {
		b.WriteString("update specs/systemone/systemone-0.2.schema.yaml in our own words (specs/README.md, \"Bumping the standard pin\"), then source.sha256\n")
	} else {
		fmt.Fprintf(&b, "nothing our description takes from the document differs; review the rest of the document, then set source.sha256 to %s\n", r.SHA256)
	}
	return b.String()
}
