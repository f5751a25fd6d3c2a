package target

import (
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// The capabilities a codec or a deployment declares are the listing's
// feature words (generated/vocab's Feature*, the extension spec's
// features): what a server lists as a model's features is what the Router
// routes by and a deployment declares, in one spelling. The question types
// and media are their type names.
const (
	CapNoul   Capability = vocab.FeatureNoul
	CapChoice Capability = vocab.FeatureChoice
	CapScore  Capability = vocab.FeatureScore
	CapBox    Capability = vocab.FeatureBox
	CapSet    Capability = vocab.FeatureSet
	CapSpan   Capability = vocab.FeatureSpan
	CapTrack  Capability = vocab.FeatureTrack
	CapImage  Capability = vocab.FeatureImage
	CapVideo  Capability = vocab.FeatureVideo
	// CapBatch: one call answers a batch (POST /v1/systemone/batch or
	// /v1/bundle).
	CapBatch Capability = vocab.FeatureBatch
	// CapRoles: explicit roles reach the model.
	CapRoles Capability = vocab.FeatureRoles
	// CapPreset: a preset reaches a trained head.
	CapPreset Capability = vocab.FeaturePreset
	// CapLongContext: the long-context header is carried.
	CapLongContext Capability = vocab.FeatureLongContext
)

// AllCapabilities returns every feature word, sorted: what a codec whose
// schema carries all the runtime answers (vllm-sr/5.0, internal)
// declares. A deployment's card narrows it to what its model answers.
func AllCapabilities() CapabilitySet {
	out := make(CapabilitySet, len(vocab.Features))
	for i, f := range vocab.Features {
		out[i] = Capability(f)
	}
	slices.Sort(out)
	return out
}

// Listed are caps as a listing's features: in the vocabulary's order
// (vocab.Features), the order every server lists a model's features in.
// A capability that is no feature word is left out.
func Listed(caps CapabilitySet) []string {
	out := []string{}
	for _, f := range vocab.Features {
		if caps.Has(Capability(f)) {
			out = append(out, f)
		}
	}
	return out
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
// cut: the line reaches clients. Each thing is named once, in its first
// place, though two checks found it (the schema's carry check and the
// deployment's media both refuse a video asset on systemone/0.2).
func (e *CarryError) What() string {
	missing := make([]string, 0, len(e.Missing))
	for _, m := range e.Missing {
		if line := m.What + " at " + m.Path.Clipped(len(m.Path)).String(); !slices.Contains(missing, line) {
			missing = append(missing, line)
		}
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
