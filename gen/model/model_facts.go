package model

import (
	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The facts the model holds besides fields and schemas: endpoints,
// headers, statuses, conflicts, removed forms, families, errors, limits
// and the implicit-role table.

// Endpoint is one HTTP endpoint.
type Endpoint struct {
	Method string   `json:"method"`
	Path   string   `json:"path"`
	Spec   SpecKind `json:"spec"`
	Since  string   `json:"since"`
	// Families and FamiliesText as on Field.
	Families     []table.Family `json:"families,omitempty"`
	FamiliesText string         `json:"families_text,omitempty"`
	// Request is the level of the request body; empty: no body.
	Request table.Level `json:"request,omitempty"`
	// Response is the level of a 200 body.
	Response table.Level `json:"response"`
	// Statuses it may answer with, ascending.
	Statuses     []int       `json:"statuses"`
	DocumentedIn []DocSource `json:"documented_in"`
	// Schemas serving it, in schema order.
	Schemas     []table.SchemaID `json:"schemas"`
	Description string           `json:"description"`
	Pos         Position         `json:"-"`
}

// Header is one HTTP header a spec names.
type Header struct {
	Name string `json:"name"`
	// Symbol is the header's name in generated code, snake_case without
	// a vendor prefix; empty when the name itself serves.
	Symbol string   `json:"symbol,omitempty"`
	Spec   SpecKind `json:"spec"`
	// Direction is "request" or "response".
	Direction    string      `json:"direction"`
	Values       []string    `json:"values,omitempty"`
	DocumentedIn []DocSource `json:"documented_in"`
	Description  string      `json:"description"`
}

// Status is a status code a spec documents, with its body.
type Status struct {
	Code int      `json:"code"`
	Spec SpecKind `json:"spec"`
	// Body is the level of the error body (error, or legacy_error), or
	// empty when the body is unknown.
	Body         table.Level `json:"body,omitempty"`
	Meaning      string      `json:"meaning"`
	DocumentedIn []DocSource `json:"documented_in"`
}

// Conflict is a point on which the standard's sources disagree.
type Conflict struct {
	Topic string `json:"topic"`
	// Readings are what each source says, in spec order.
	Readings []Reading `json:"readings"`
	// Resolution is what this project does.
	Resolution string `json:"resolution"`
}

// Reading is one source's side of a conflict.
type Reading struct {
	Source string `json:"source"`
	Says   string `json:"says"`
}

// ReplacementKind says what a removed form's replacement is.
type ReplacementKind string

const (
	ReplacedByField    ReplacementKind = "field"
	ReplacedByEndpoint ReplacementKind = "endpoint"
	ReplacedByHeader   ReplacementKind = "header"
)

// RemovedForm is a 4.0 form that vllm-sr/5.0 refuses with 400, naming its
// replacement.
type RemovedForm struct {
	Form  string      `json:"form"`
	Level table.Level `json:"level"`
	// ReplacedBy is the replacement as the seed writes it.
	ReplacedBy string `json:"replaced_by"`
	// Replacement is the resolved replacement.
	Replacement Replacement `json:"replacement"`
	Note        string      `json:"note"`
	Pos         Position    `json:"-"`
}

// Replacement is the resolved target of a removed form.
type Replacement struct {
	Kind ReplacementKind `json:"kind"`
	// Level and Name of the field (Kind field); Name is the header name
	// (Kind header); Name is "METHOD /path" (Kind endpoint).
	Level table.Level `json:"level,omitempty"`
	Name  string      `json:"name"`
	// Value is the header value, for a header replacement.
	Value string `json:"value,omitempty"`
}

// Family is a model family and what it answers.
type Family struct {
	Name  table.Family `json:"name"`
	Title string       `json:"title"`
	// QuestionTypes it answers, in spec order.
	QuestionTypes []table.QuestionType `json:"question_types"`
	// RoleAware families read the state's parts by roles.
	RoleAware bool `json:"role_aware"`
	// Modalities it reads: text, image, video.
	Modalities []string `json:"modalities"`
	// SpanHeads it may have: router, broad.
	SpanHeads   []string `json:"span_heads,omitempty"`
	Description string   `json:"description"`
}

// QuestionError is the kind of one question's failure.
type QuestionError struct {
	Kind        string `json:"kind"`
	Status      int    `json:"status"`
	Description string `json:"description"`
}

// RequestError is a request error code.
type RequestError struct {
	Code string `json:"code"`
	// Status is the HTTP status; 0 when the status is the failed
	// question's own (question_failed).
	Status int `json:"status"`
	// RetryAfter: the response carries Retry-After.
	RetryAfter  bool   `json:"retry_after"`
	Description string `json:"description"`
}

// ReplacedStatus is a status the standard's endpoints document that a
// server of the extension set never answers with: it answers ReplacedBy
// instead (the standard's 403 for a missing key is vllm-sr's 401).
type ReplacedStatus struct {
	Status     int    `json:"status"`
	ReplacedBy int    `json:"replaced_by"`
	Reason     string `json:"reason"`
}

// Limit is one of vllm-sr's limits.
type Limit struct {
	Name string `json:"name"`
	// Min and Max bound it, inclusive; nil: unbounded on that side.
	Min *int64 `json:"min,omitempty"`
	Max *int64 `json:"max,omitempty"`
	// Unit is "items", "bytes", ...
	Unit string `json:"unit"`
	// QuestionTypes whose criteria it bounds; empty for a request limit.
	QuestionTypes []table.QuestionType `json:"question_types,omitempty"`
	Description   string               `json:"description"`
}

// ErrorReason is one fixed word a refusal's reason takes. It never
// carries request data.
type ErrorReason struct {
	Reason      string `json:"reason"`
	Description string `json:"description"`
	// Kind is the question error kind a question failing for this reason
	// takes; Code the request error code a refusal for it answers with;
	// "" when the spec names none.
	Kind string `json:"kind,omitempty"`
	Code string `json:"code,omitempty"`
	// Status is the HTTP status the reason answers with: its code's, or
	// its kind's when the code is the failed question's (or absent); 0
	// when neither says.
	Status int `json:"status,omitempty"`
	// Unit is the unit of the limit the reason names; "" for none.
	Unit string `json:"unit,omitempty"`
	// Members and Problems: a reply's validator problem of one of Problems
	// at one of Members is reported with this reason. A member is a path
	// from a reply level, split: ["answer", "box", "top"], "*" for any key
	// or item.
	Members  [][]string            `json:"members,omitempty"`
	Problems []table.ProblemReason `json:"problems,omitempty"`
}

// Feature is one word of a listing entry's features: the spec word it
// stands for, which a server lists and vllm-sr/auto routes by.
type Feature struct {
	Feature string `json:"feature"`
	// Stands says what the word stands for, for a person: "question type
	// noul", "member question.preset", "endpoint POST /v1/systemone/batch",
	// "header TypeSafe-Danger-Zone-Long-Context".
	Stands      string `json:"stands"`
	Description string `json:"description"`
}

// ImplicitRoles is 4.0's reading of an object state without roles: each
// part name has a role; a key not listed has Default.
type ImplicitRoles struct {
	// Parts in the contract's order.
	Parts []ImplicitRole `json:"parts"`
	// Default is the role of any other key ("user").
	Default string `json:"default"`
}

// ImplicitRole is the role of one Router part name.
type ImplicitRole struct {
	Key  string `json:"key"`
	Role string `json:"role"`
}

// Position is a place in a spec file (file:line:column).
type Position = load.Position
