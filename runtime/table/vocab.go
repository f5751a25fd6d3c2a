package table

import "strings"

// The types below are the rows of srgen's generated vocabulary
// (generated/vocab). Slices in a row are in the specification's order and
// must not be modified by callers.

// Member is one member a schema accepts at one level: what the runtime
// binds or carries for it.
type Member struct {
	Name string
	// DefinedBy is the schema whose specification defines the member
	// (the first to, in spec order: the standard, the extension set, the
	// 4.0 contract). A member DefinedBy vllm-sr/4.0 is a 4.0-only form.
	DefinedBy SchemaID
	// Required: a message of the level must carry it, on the question
	// types in QuestionTypes, unless one of RequiredUnless is present.
	Required bool
	// RequiredUnless names members whose presence excuses Required
	// (4.0's question type, which a preset implies).
	RequiredUnless []string
	// QuestionTypes it applies to (question and answer levels); empty:
	// every question type.
	QuestionTypes []QuestionType
	// Enum lists the values the member takes (a map's values', an array's
	// items'), as the specification spells them; empty: any value.
	Enum []string
	// Removed: a 4.0 form vllm-sr/5.0 refuses naming its replacement (a
	// removed form); only vllm-sr/4.0 and internal list such members.
	Removed bool
	// Passive: the member has no runtime semantics. The runtime binds no
	// IR field to it: it reads it into its object's Extra, in order, and
	// writes it back (a systemone/0.2 target gets it as Disposition says).
	// A member without it is bound by a hand-written function of the
	// package that binds its shape (runtime/shapes).
	Passive bool
	// Disposition is what a Router does with the member for a
	// systemone/0.2 target (legacy for a 4.0-only form).
	Disposition Disposition
}

// LevelMembers are the members one schema accepts at one level, in
// message order: the standard's, then the extension set's, then 4.0's.
type LevelMembers struct {
	Schema  SchemaID
	Level   Level
	Members []Member
}

// ImplicitRole is 4.0's implicit role of one Router part name: the role
// an object state's key of that name has when the request sends no roles.
type ImplicitRole struct {
	Part string
	Role string
}

// ErrorReason is one fixed word an error's or a failed answer's reason
// takes, with what it means. It never carries request data.
type ErrorReason struct {
	Reason      string
	Description string
	// Kind is the question error kind a question failing for this reason
	// takes; Code the request error code a refusal for it answers with;
	// "" when the specification names none.
	Kind, Code string
	// Status is the HTTP status the reason answers with (its code's, or
	// its kind's for a failed question); 0 when the specification says
	// none.
	Status int
	// Unit is the unit of the limit the reason names ("tokens", "pixels",
	// "options"); "" for none.
	Unit string
}

// Clause is r's description as a clause of a message: its first letter
// lower-cased (unless the word is an acronym) and no final period.
func (r ErrorReason) Clause() string {
	d := strings.TrimSuffix(r.Description, ".")
	if d != "" && d[0] >= 'A' && d[0] <= 'Z' && (len(d) < 2 || d[1] < 'A' || d[1] > 'Z') {
		d = string(d[0]+'a'-'A') + d[1:]
	}
	return d
}

// ReplyProblem says which reason word reports a validator's problem in a
// reply: one of Problems at the member Member (error_reasons' members and
// problems).
type ReplyProblem struct {
	// Member is a path from a reply level: the level, then member names,
	// "*" for any key of a map or item of an array.
	Member   []string
	Problems []ProblemReason
	Reason   string
}

// ReplyProblemOf is the first row in order that names problem p of the
// member at path (split, unescaped JSON Pointer segments) inside a value
// of level; false when none does.
func ReplyProblemOf(rows []ReplyProblem, level Level, path []string, p ProblemReason) (ReplyProblem, bool) {
	for i := range rows {
		r := &rows[i]
		if len(r.Member) != len(path)+1 || r.Member[0] != string(level) {
			continue
		}
		match := true
		for j, seg := range path {
			match = match && (r.Member[j+1] == "*" || r.Member[j+1] == seg)
		}
		for _, want := range r.Problems {
			if match && want == p {
				return *r, true
			}
		}
	}
	return ReplyProblem{}, false
}
