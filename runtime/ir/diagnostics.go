package ir

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// DiagnosticKind is what a codec did to a message, or noticed in it,
// short of refusing it.
type DiagnosticKind string

const (
	// DiagnosticLegacyForm: the message used a vllm-sr/4.0-only form.
	DiagnosticLegacyForm DiagnosticKind = "legacy_form"
	// DiagnosticDropped: a member was left out of the written message.
	DiagnosticDropped DiagnosticKind = "dropped"
	// DiagnosticApproximated: a member was written in a form that means
	// nearly, not exactly, the same.
	DiagnosticApproximated DiagnosticKind = "approximated"
)

// Legacy form names, the fixed words a DiagnosticLegacyForm carries.
const (
	FormChoices       = vocab.QuestionChoices
	FormLevels        = vocab.QuestionLevels
	FormLabels        = vocab.QuestionLabels
	FormImages        = vocab.RequestImages
	FormVideos        = vocab.RequestVideos
	FormStates        = vocab.RequestStates
	FormLongContext   = vocab.OptionsLongContext
	FormImplicitRoles = "implicit_roles"
	FormPresetOnly    = "preset_only"
)

// Diagnostic is one thing a codec recorded. Form is a fixed word (a legacy
// form, or a field name); Path locates it.
type Diagnostic struct {
	Kind DiagnosticKind
	Form string
	Path Path
}

// Diagnostics are a codec's records for one message, in the order made.
type Diagnostics []Diagnostic

// Add records one diagnostic.
func (d *Diagnostics) Add(kind DiagnosticKind, form string, path Path) {
	*d = append(*d, Diagnostic{Kind: kind, Form: form, Path: path})
}

// Forms returns the distinct forms recorded under kind, sorted: what a
// per-listener counter increments once per request.
func (d Diagnostics) Forms(kind DiagnosticKind) []string {
	var out []string
	for _, x := range d {
		if x.Kind == kind {
			out = append(out, x.Form)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
