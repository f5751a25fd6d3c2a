package table

import (
	"strings"
	"testing"
)

func TestPathPointer(t *testing.T) {
	var root Path
	questions := root.Member("questions")
	team := questions.Member("a/b~c")
	criteria := team.Member("criteria")
	level := criteria.Item(3)
	empty := level.Member("")
	cases := []struct {
		name string
		at   *Path
		want string
	}{
		{"root", &root, ""},
		{"nil", nil, ""},
		{"member", &questions, "/questions"},
		{"escaped", &team, "/questions/a~1b~0c"},
		{"item", &level, "/questions/a~1b~0c/criteria/3"},
		{"empty name", &empty, "/questions/a~1b~0c/criteria/3/"},
	}
	for _, c := range cases {
		if got := c.at.Pointer(); got != c.want {
			t.Errorf("%s: Pointer() = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestProblemMessageNamesPathAndExpectation(t *testing.T) {
	cases := []struct {
		p    Problem
		want string
	}{
		{Problem{Path: "/questions/q/colour", Reason: ReasonUnknownMember, Member: "colour"},
			`/questions/q/colour: member "colour" is not defined by the schema`},
		{Problem{Path: "/state", Reason: ReasonWrongType, Expected: "string, object or array"},
			"/state: wrong type, expected string, object or array"},
		{Problem{Path: "/questions", Reason: ReasonMissingMember, Member: "questions"},
			`/questions: required member "questions" is missing`},
		{Problem{Path: "/state", Reason: ReasonNotAllowedNull, Expected: "string"},
			"/state: must not be null, expected string"},
		{Problem{Path: "/roles/a", Reason: ReasonNotInEnum, Expected: "user, context or answer"},
			"/roles/a: not an allowed value, expected user, context or answer"},
		{Problem{Path: "/questions", Reason: ReasonTooFew, Limit: 1}, "/questions: too few entries, at least 1"},
		{Problem{Path: "/questions/q/criteria", Reason: ReasonTooMany, Limit: 255},
			"/questions/q/criteria: too many entries, at most 255"},
		{Problem{Path: "/options/deadline_ms", Reason: ReasonBelowMinimum, Limit: 0},
			"/options/deadline_ms: below the minimum 0"},
		{Problem{Path: "/questions/q/rate", Reason: ReasonAboveMaximum, Limit: 2},
			"/questions/q/rate: above the maximum 2"},
		{Problem{Path: "/questions/q/choices", Reason: ReasonRemovedForm, Member: "choices", Replacement: "criteria"},
			`/questions/q/choices: member "choices" was removed, use criteria instead`},
		{Problem{Reason: ReasonWrongType, Expected: "object"}, "the body: wrong type, expected object"},
	}
	for _, c := range cases {
		if got := c.p.Message(); got != c.want {
			t.Errorf("%s: Message() = %q, want %q", c.p.Reason, got, c.want)
		}
	}
}

func TestProblemsCapsAndStaysNilWhenClean(t *testing.T) {
	var ps Problems
	if ps.List() != nil || ps.Full() {
		t.Fatal("a fresh Problems must be empty and not full")
	}
	var root Path
	at := root.Member("x")
	for i := 0; i < MaxProblems+5; i++ {
		ps.Add(&at, Problem{Reason: ReasonWrongType, Expected: "object"})
	}
	if got := len(ps.List()); got != MaxProblems {
		t.Fatalf("len = %d, want %d", got, MaxProblems)
	}
	if !ps.Full() {
		t.Error("Full() = false after MaxProblems")
	}
	if p := ps.List()[0]; p.Path != "/x" || !strings.Contains(p.Message(), "/x") {
		t.Errorf("first problem = %+v", p)
	}
}

func TestPathBuildingDoesNotAllocate(t *testing.T) {
	var root Path
	allocs := testing.AllocsPerRun(100, func() {
		a := root.Member("questions")
		b := a.Member("team")
		c := b.Item(2)
		_ = c
	})
	if allocs != 0 {
		t.Errorf("building a Path allocated %v times, want 0", allocs)
	}
}

func TestClipName(t *testing.T) {
	long := strings.Repeat("a", MaxNameBytes)
	cases := []struct{ in, want string }{
		{"", ""},
		{long, long},
		{long + "b", long + ClipMark},
		// A cut never splits a UTF-8 sequence: é is two bytes.
		{strings.Repeat("a", MaxNameBytes-1) + "éé", strings.Repeat("a", MaxNameBytes-1) + ClipMark},
		{strings.Repeat("é", MaxNameBytes), strings.Repeat("é", MaxNameBytes/2) + ClipMark},
	}
	for _, c := range cases {
		if got := ClipName(c.in); got != c.want {
			t.Errorf("ClipName(%d bytes) = %q, want %q", len(c.in), got, c.want)
		}
	}
}

func TestClipPointer(t *testing.T) {
	long := strings.Repeat("a", MaxNameBytes)
	cases := []struct{ in, want string }{
		{"", ""},
		{"/questions/q", "/questions/q"},
		{"/questions/" + long + "x/type", "/questions/" + long + ClipMark + "/type"},
		// A cut never splits an escape: "~1" stays whole or goes.
		{"/" + strings.Repeat("a", MaxNameBytes-1) + "~1b", "/" + strings.Repeat("a", MaxNameBytes-1) + ClipMark},
	}
	for _, c := range cases {
		if got := ClipPointer(c.in); got != c.want {
			t.Errorf("ClipPointer(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	p := Problem{Path: "/questions/" + strings.Repeat("q", 1<<20), Reason: ReasonUnknownMember, Member: strings.Repeat("q", 1<<20)}
	if n := len(p.Message()); n > 4*MaxNameBytes {
		t.Fatalf("a problem with a 1 MiB member name has a %d-byte message", n)
	}
}
