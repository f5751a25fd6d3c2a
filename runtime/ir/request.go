package ir

import (
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Request is one System One request: a state, or in vllm-sr/4.0's states
// form several named states, and the questions asked of it.
type Request struct {
	// Model names the model; nil when the request names none.
	Model *string
	// State is what every question is about; the zero Value when the
	// request uses the states form instead.
	State jsonvalue.Value
	// States are the named states of vllm-sr/4.0's states form, in order:
	// every question is asked of each, and answered under the same names.
	// nil when the request has a single State.
	States []jsonvalue.Member
	// Roles says how the state's parts get their roles.
	Roles Roles
	// Questions are the request's questions, in order.
	Questions []Question
	// Assets are the images and videos the state or questions place by
	// their placeholders, in order.
	Assets []Asset
	// Options are the request's options; nil when it has none.
	Options *Options
	// Extra are the members the specs define at this level that no
	// binding gives a field of its own (an extension member with no
	// runtime semantics), in the order read, as read. Every lossless
	// codec and every vllm-sr/5.0 write carries them unchanged; a
	// systemone/0.2 write leaves out those on the generated strip list.
	Extra []jsonvalue.Member
	// Layout is how the request object was spelled on the wire it was read
	// from; zero for a request built in code.
	Layout Layout
}

// Roles are the roles of a request's state parts.
type Roles struct {
	// Mode is implicit, none or explicit. Its zero value is unset, which
	// no encoder accepts: every codec says which mode it means.
	Mode RoleMode
	// Parts are the explicit roles, state key to role, in order; empty
	// unless Mode is RoleModeExplicit.
	Parts []RolePart
}

// RolePart gives one state key its role.
type RolePart struct {
	Key  string
	Role Role
}

// Question is one named question.
type Question struct {
	// Name is the question's name; its answer comes back under it.
	Name string
	// Type is the question type; empty only for a preset-only question
	// that names no type (its preset implies one).
	Type table.QuestionType
	// Instructions are the question in plain language: the zero Value when
	// absent, jsonvalue.Null() when null, else content.
	Instructions jsonvalue.Value
	// Criteria are the question's options, levels or labels.
	Criteria Criteria

	// The extension fields; nil when absent.
	Preset           *string
	Head             *SpanHead
	DecisionAdapter  *bool
	Over             []string // the state keys the question reads; nil when absent
	Overflow         *Overflow
	RequireFullInput *bool
	Threshold        *float64
	At               *float64
	Rate             *int64
	// Extra: see Request.Extra.
	Extra []jsonvalue.Member

	// Layout is how the question object was spelled on the wire it was
	// read from, including its legacy criteria spelling.
	Layout Layout
}

// CriteriaForm is the shape a question's criteria were given in.
type CriteriaForm string

const (
	// CriteriaKeyed: an object of keys to content or null: a choice's
	// options, a noul's true and false, a set's or span's labels.
	CriteriaKeyed CriteriaForm = "keyed"
	// CriteriaLevels: an array of a score's levels, lowest first.
	CriteriaLevels CriteriaForm = "levels" //vocab:not-spec the IR's name for a criteria shape, never written
	// CriteriaNull: criteria written as JSON null (a noul's).
	CriteriaNull CriteriaForm = "null"
)

// Criteria are a question's criteria, whichever spelling carried them
// (criteria, or vllm-sr/4.0's choices, levels and labels; the spelling is
// Layout data). A zero Criteria (empty Form) means absent.
type Criteria struct {
	Form CriteriaForm
	// Keyed holds CriteriaKeyed entries in order; a description is content
	// or jsonvalue.Null().
	Keyed []jsonvalue.Member
	// Levels holds CriteriaLevels entries, lowest first.
	Levels []jsonvalue.Value
}

// Present reports whether the question has criteria (null counts).
func (c Criteria) Present() bool { return c.Form != "" }

// Asset is one image or video, placed wherever its placeholder occurs.
type Asset struct {
	// Placeholder is the string that stands for the asset.
	Placeholder string
	Type        AssetType
	// Format is the file format (png, jpeg, mp4, ...); nil when absent.
	Format *string
	// DataBase64 is the base64 file as the JSON string it was read as,
	// kept as a value so multi-megabyte payloads are never copied or
	// re-escaped.
	DataBase64 jsonvalue.Value
	// Extra: see Request.Extra.
	Extra []jsonvalue.Member
	// Layout is how the asset object was spelled, including whether it
	// carried an explicit type inside vllm-sr/4.0's images or videos.
	Layout Layout
}

// Options are a request's or a batch's options; a nil field is absent.
type Options struct {
	DeadlineMs *int64
	ReturnMeta *bool
	MaxTokens  *int64
	// LongContext is the standard's TypeSafe-Danger-Zone-Long-Context
	// header or vllm-sr/4.0's options.long_context: which carried it is a
	// codec's business.
	LongContext *bool
	// Extra: see Request.Extra.
	Extra  []jsonvalue.Member
	Layout Layout
}

// Batch is several named requests answered in one call: vllm-sr/5.0's
// POST /v1/systemone/batch and the internal bundle body.
type Batch struct {
	Model *string
	// Items are the named requests, in order.
	Items []BatchItem
	// Options are the batch's own: vllm-sr/5.0's batch carries them here
	// (its items have none), while the internal bundle carries options per
	// item and leaves this nil.
	Options *Options
	// Extra: see Request.Extra.
	Extra  []jsonvalue.Member
	Layout Layout
}

// BatchItem is one named request of a batch.
type BatchItem struct {
	Name    string
	Request Request
}

// HasObjectState reports whether the request has an object state, or in
// the states form at least one: the only kind of state implicit roles
// give parts to.
func (r *Request) HasObjectState() bool {
	if r.State.Kind() == jsonvalue.KindObject {
		return true
	}
	for _, s := range r.States {
		if s.Value.Kind() == jsonvalue.KindObject {
			return true
		}
	}
	return false
}
