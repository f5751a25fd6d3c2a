package target

import (
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// The capabilities a codec or a deployment declares: the question types
// by their type names, the media by their asset types, and the features
// below.
const (
	CapNoul   Capability = vocab.QuestionTypeNoul
	CapChoice Capability = vocab.QuestionTypeChoice
	CapScore  Capability = vocab.QuestionTypeScore
	CapBox    Capability = vocab.QuestionTypeBox
	CapSet    Capability = vocab.QuestionTypeSet
	CapSpan   Capability = vocab.QuestionTypeSpan
	CapTrack  Capability = vocab.QuestionTypeTrack
	CapImage  Capability = vocab.AssetTypeImage
	CapVideo  Capability = vocab.AssetTypeVideo
	// CapBatch: one call answers a batch (POST /v1/systemone/batch or
	// /v1/bundle).
	CapBatch Capability = "batch"
	// CapRoles: explicit roles reach the model.
	CapRoles Capability = vocab.RequestRoles
	// CapPresets: a preset reaches a trained head.
	CapPresets Capability = "presets"
	// CapExtensions: every vllm-sr/5.0 question field is carried.
	CapExtensions Capability = "extensions"
	// CapLongContext: the long-context flag is carried.
	CapLongContext Capability = vocab.OptionsLongContext
)

// AllCapabilities returns every capability, sorted: what a codec whose
// schema carries all the runtime answers (vllm-sr/5.0, internal)
// declares. A deployment's card narrows it to what its model answers.
func AllCapabilities() CapabilitySet {
	return CapabilitySet{CapBatch, CapBox, CapChoice, CapExtensions, CapImage,
		CapLongContext, CapNoul, CapPresets, CapRoles, CapScore, CapSet, CapSpan,
		CapTrack, CapVideo}
}

// Missing is one thing a request needs that a target cannot carry: a
// fixed description (a question type, an asset type, a field name) and
// where the request asks for it.
type Missing struct {
	What string
	Path ir.Path
}

// CarryError refuses a request or rule for a target that cannot carry it,
// before any upstream call: at configuration load (the Router prefixes
// the rule's name) and per request (400 unsupported_capability). Its text
// is one line naming the deployment and what is missing; it carries no
// request values, only member names.
type CarryError struct {
	Deployment string
	Schema     string
	Missing    []Missing
}

// Error returns one line: deployment "d" (schema) cannot carry: what at
// path; what at path.
func (e *CarryError) Error() string {
	return "deployment " + quote(e.Deployment) + " (" + e.Schema + ") cannot carry: " + e.What()
}

// What is the list of what is missing, "what at path; what at path", names
// cut: the line reaches clients.
func (e *CarryError) What() string {
	missing := make([]string, len(e.Missing))
	for i, m := range e.Missing {
		missing[i] = m.What + " at " + m.Path.Clipped(len(m.Path)).String()
	}
	return strings.Join(missing, "; ")
}

// Unbatched is m with the requests.<item> prefix of paths inside a
// batch body dropped: the paths of a single request, as its client wrote
// it (a request alone travels as the batch item SingleItem).
func Unbatched(m []Missing) []Missing {
	out := make([]Missing, len(m))
	for i, x := range m {
		if len(x.Path) >= 2 && x.Path[0].Name == vocab.BatchRequests {
			x.Path = x.Path[2:]
		}
		out[i] = x
	}
	return out
}

// ErrorBody is the refusal a client gets: 400 unsupported_capability with
// the one-line message.
func (e *CarryError) ErrorBody() *ir.ErrorBody {
	return &ir.ErrorBody{Status: 400, Code: ir.ErrorUnsupportedCapability, Reason: vocab.ReasonNotCarried, Message: e.Error()}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
