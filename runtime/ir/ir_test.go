package ir

import (
	"errors"
	"strings"
	"testing"
	"unsafe"
)

func TestPathString(t *testing.T) {
	cases := []struct {
		path Path
		want string
	}{
		{nil, "body"},
		{Path{}.Key("questions").Key("team").Key("criteria").At(0), "questions.team.criteria[0]"},
		{Path{}.Key("questions").Key("a.b").Key("type"), `questions["a.b"].type`},
		{Path{}.Key("roles").Key(""), `roles[""]`},
		{Path{}.Key("é"), `["é"]`},
	}
	for _, c := range cases {
		if got := c.path.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
}

// Key never shares its result's backing array with a sibling's.
func TestPathKeyDoesNotAlias(t *testing.T) {
	parent := make(Path, 1, 8)
	parent[0] = PathElem{Name: "questions"}
	a, b := parent.Key("a"), parent.Key("b")
	if a.String() != "questions.a" || b.String() != "questions.b" {
		t.Fatalf("siblings aliased: %s, %s", a, b)
	}
}

func TestLayoutNameFor(t *testing.T) {
	l := Layout{Entry: &EntryName{Name: "q", RawName: []byte(`"\u0071"`)}}
	if l.NameFor("q") == nil || l.NameFor("r") != nil {
		t.Error("NameFor must give the recorded quoting only for the name it stands for")
	}
}

func TestDiagnosticsForms(t *testing.T) {
	var d Diagnostics
	d.Add(DiagnosticLegacyForm, FormChoices, Path{}.Key("questions").Key("a"))
	d.Add(DiagnosticLegacyForm, FormImages, nil)
	d.Add(DiagnosticLegacyForm, FormChoices, Path{}.Key("questions").Key("b"))
	d.Add(DiagnosticDropped, "head", nil)
	if got := strings.Join(d.Forms(DiagnosticLegacyForm), ","); got != "choices,images" {
		t.Errorf("forms: %s", got)
	}
	count := func(kind DiagnosticKind, form string) int {
		n := 0
		for _, x := range d {
			if x.Kind == kind && x.Form == form {
				n++
			}
		}
		return n
	}
	if count(DiagnosticLegacyForm, FormChoices) != 2 || count(DiagnosticDropped, "head") != 1 {
		t.Error("counts are wrong")
	}
}

func TestProtocolErrorIsOneLineAndUnwraps(t *testing.T) {
	cause := errors.New("syntax")
	err := &ProtocolError{Category: CategoryInvalidRequest, Reason: ReasonInvalidJSON, Message: "the body is not valid JSON", Cause: cause}
	if got := err.Error(); got != "body: the body is not valid JSON (invalid_json)" {
		t.Errorf("got %q", got)
	}
	if !errors.Is(err, cause) {
		t.Error("Unwrap must give the cause")
	}
	r := Refuse(ReasonUnknownMember, Path{}.Key("stream"), "is not a member")
	if r.Category != CategoryInvalidRequest || r.Error() != "stream: is not a member (unknown_member)" {
		t.Errorf("got %v", r)
	}
}

func TestEnumZeroValuesAreInvalid(t *testing.T) {
	if RoleMode("").Valid() || Role("").Valid() || AssetType("").Valid() || SpanHead("").Valid() ||
		Overflow("").Valid() || QuestionErrorCode("").Valid() {
		t.Error("an enum's zero value must not be a valid member")
	}
	if !RoleModeImplicit.Valid() || !RoleAnswer.Valid() || !AssetVideo.Valid() || !SpanHeadBroad.Valid() ||
		!OverflowTruncate.Valid() || !QuestionErrorUnavailable.Valid() {
		t.Error("known members must be valid")
	}
}

// TestLayoutSize pins a Layout at 32 bytes (its rare entry name behind a
// pointer): every question, asset and request holds one. A Question is
// read in place on the hot path: 264 bytes, of which Extra (the slot that
// carries unbound spec members) is 24.
func TestLayoutSize(t *testing.T) {
	if n := unsafe.Sizeof(Layout{}); n > 32 {
		t.Errorf("a Layout is %d bytes, want at most 32", n)
	}
	if n := unsafe.Sizeof(Question{}); n > 264 {
		t.Errorf("a Question is %d bytes, want at most 264", n)
	}
}
