package table

// The types below are the rows of srgen's generated field tables
// (generated/fieldtable). Slices in a row are in the specification's
// order and must not be modified by callers.

// Field is one field of one specification at one level.
type Field struct {
	Name  string
	Level Level
	// DefinedBy is the schema whose specification defines the field:
	// systemone/0.2 (the standard), vllm-sr/5.0 (the extension set) or
	// vllm-sr/4.0 (the frozen 4.0 contract).
	DefinedBy SchemaID
	// Type is the type as the specification writes it for people.
	Type     string
	Required bool
	// Passive: the field has no runtime semantics; the runtime carries it
	// in its object's Extra and binds no IR field to it.
	Passive bool
	// Since is the version that introduced it: "0.2", "5.0" or "4.0".
	Since string
	// Families honour it; empty for a standard field every server answers.
	Families []Family
	// QuestionTypes it applies to; empty: every question type.
	QuestionTypes []QuestionType
	// Disposition is what a Router does with it for a systemone/0.2 target.
	Disposition Disposition
	// Schemas accept it.
	Schemas []SchemaID
}

// RemovedForm is a 4.0 form that vllm-sr/5.0 answers with 400 naming its
// replacement.
type RemovedForm struct {
	Form  string
	Level Level
	// ReplacedBy is the replacement as people read it: a field, an endpoint
	// ("POST /v1/systemone/batch") or a header ("Name: value").
	ReplacedBy string
	Note       string
}

// FamilyInfo is what a model family answers and reads.
type FamilyInfo struct {
	Name          Family
	QuestionTypes []QuestionType
	// RoleAware families read the state's parts by roles.
	RoleAware bool
	// Modalities it reads: text, image, video.
	Modalities []string
}

// QuestionErrorKind is one kind of per-question failure and the status it
// answers POST /v1/systemone with.
type QuestionErrorKind struct {
	Kind   string
	Status int
}

// RequestErrorCode is a request error code and its status; Status is 0
// when the status is the failed question's own (question_failed).
type RequestErrorCode struct {
	Code       string
	Status     int
	RetryAfter bool
}

// Limit bounds a count or size, inclusive. HasMin or HasMax false: the
// limit is unbounded on that side.
type Limit struct {
	Name          string
	Min, Max      int64
	HasMin        bool
	HasMax        bool
	Unit          string
	QuestionTypes []QuestionType
}

// Endpoint is one HTTP endpoint of a specification.
type Endpoint struct {
	Method string
	Path   string
	// DefinedBy is the schema whose specification defines it.
	DefinedBy SchemaID
	Since     string
	Schemas   []SchemaID
}

// StrippedField is a member a Router removes before sending a request to a
// systemone/0.2 target, because the standard part already expresses it.
type StrippedField struct {
	Level Level
	Name  string
	// QuestionTypes it applies to; empty: every question type.
	QuestionTypes []QuestionType
}

// RefusedField is a field whose presence refuses a rule at load when the
// rule's target speaks systemone/0.2, because the standard cannot carry it.
type RefusedField struct {
	Level Level
	Name  string
	// QuestionTypes it applies to; empty: every question type.
	QuestionTypes []QuestionType
}

// SpecHash is one specification file and the sha256 of its exact bytes.
type SpecHash struct {
	Schema SchemaID
	// Path is repository-relative and slash-separated.
	Path   string
	SHA256 string
}
