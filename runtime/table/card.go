package table

import "slices"

// The types below are the rows of srgen's generated model catalogue
// (generated/catalog), built from specs/models/models.yaml. Slices in a row
// are in the specification's order and must not be modified by callers.

// Modality is a medium a model reads.
type Modality string

const (
	ModalityText  Modality = "text"
	ModalityImage Modality = "image"
	ModalityVideo Modality = "video"
)

// OverScope says which questions a model answers the over field on.
type OverScope string

const (
	// OverNone: over is refused on every question (the Decision families).
	OverNone OverScope = "none"
	// OverAny: over is answered on any question (Vela 2.0).
	OverAny OverScope = "any"
	// OverSpansAndPresets: over is answered on a span question and on a
	// preset question (a trained head), and refused elsewhere (Vela 3.0).
	OverSpansAndPresets OverScope = "spans_and_presets"
)

// Model is one model of the catalogue: the standard's listing facts
// (name, description, release date) and the extension's card.
type Model struct {
	// Name is what a request's model member names, such as
	// "vllm-sr/vela3-fast".
	Name   string
	Family Family
	// Description is one line for GET /v1/models.
	Description string
	// ReleaseDate is YYYY-MM-DD.
	ReleaseDate string
	// Revision identifies the weights the card describes.
	Revision string
	Card     Card
}

// Card is what one model answers and reads. Generation checks every claim
// against the model's family in the extension specification, so a card
// never claims a question type or feature its family does not answer.
type Card struct {
	// QuestionTypes it answers, in question type order.
	QuestionTypes []QuestionType
	// Presets are the questions it was trained on, each answered by its
	// trained head.
	Presets []CardPreset
	// Modalities it reads.
	Modalities []Modality
	Limits     CardLimits
	// SpanHeads it has (router, broad); empty when it answers no span.
	SpanHeads []string
	// DecisionAdapter: it ships the opt-in decision adapter
	// (question.decision_adapter).
	DecisionAdapter bool
	// RoleAware models read the state's parts by roles.
	RoleAware bool
	// Over is which questions it answers the over field on.
	Over OverScope
	// Abstain: its choice and noul answers carry abstain_probability.
	Abstain bool
	// SetThreshold and SpanThreshold are its decision thresholds for set
	// and span questions (0 when it answers none of that type).
	SetThreshold  float64
	SpanThreshold float64
	// TrackRates are the track rates (updates a second) it answers.
	TrackRates []int64
	// PlaceholdersInQuestions: an asset placeholder may sit in a question's
	// instructions or criteria, not only in the state.
	PlaceholdersInQuestions bool
	// Precision and Numerics describe the weights and arithmetic, for meta.
	Precision string
	Numerics  string
}

// CardPreset is one trained question of a card and the type it answers.
type CardPreset struct {
	Name string
	Type QuestionType
}

// CountRange bounds a count, inclusive. The zero range means the model
// answers no question the range applies to.
type CountRange struct {
	Min, Max int
}

// CardLimits are one model's input limits. Token counts are those of the
// runtime's documented tokenizer (docs/reference-scorer.md).
type CardLimits struct {
	// MaxInputTokens is the validated length of one input: the text a
	// question reads plus the question itself and its media.
	MaxInputTokens int64
	// LongContextMaxInputTokens replaces MaxInputTokens for a request that
	// sends TypeSafe-Danger-Zone-Long-Context: true.
	LongContextMaxInputTokens int64
	// ScanBudget is the default scan budget (tokens) of a model that reads
	// a long part in windows; 0: the model reads no part in windows.
	ScanBudget int64
	// MaxScanBudget caps options.max_tokens.
	MaxScanBudget int64
	// Choices, Labels and Levels bound a question's options, labels and
	// levels, within the extension set's global limits.
	Choices, Labels, Levels CountRange
	// Image and Video are zero when the model does not read the medium.
	Image ImageLimits
	Video VideoLimits
}

// ImageLimits bound the images of one request.
type ImageLimits struct {
	MaxCount  int
	MinSide   int64 // pixels, each side
	MaxSide   int64
	MinPixels int64 // width × height
	MaxPixels int64
	MaxBytes  int64 // the decoded file
	// Tokens is what one image counts in an input.
	Tokens int64
}

// VideoLimits bound the videos of one request.
type VideoLimits struct {
	MaxCount   int
	MaxBytes   int64
	MaxSeconds int64
	// Tokens is what one video counts in an input.
	Tokens int64
}

// Preset is the canonical text of a trained question: what a standard
// (systemone/0.2) target gets when the Router expands the preset into
// explicit instructions and criteria.
type Preset struct {
	Name         string
	Type         QuestionType
	Description  string
	Instructions string
	// Criteria are keyed criteria in order: a choice's options, a noul's
	// "true" and "false", a set's or span's labels. Empty for a score.
	Criteria []PresetCriterion
	// Levels are a score's levels, lowest first.
	Levels []string
}

// PresetCriterion is one option, label or noul key and its description.
type PresetCriterion struct {
	Key  string
	Text string
}

// Answers reports whether the card answers question type t.
func (c *Card) Answers(t QuestionType) bool { return slices.Contains(c.QuestionTypes, t) }

// Reads reports whether the card reads modality m.
func (c *Card) Reads(m Modality) bool { return slices.Contains(c.Modalities, m) }

// Preset returns the card's preset named name.
func (c *Card) Preset(name string) (CardPreset, bool) {
	for _, p := range c.Presets {
		if p.Name == name {
			return p, true
		}
	}
	return CardPreset{}, false
}

// HasSpanHead reports whether the card has the span head named head.
func (c *Card) HasSpanHead(head string) bool { return slices.Contains(c.SpanHeads, head) }

// Range returns the count range that bounds question type t's criteria,
// and false for a type whose criteria have no count (noul, box, track).
func (l *CardLimits) Range(t QuestionType) (CountRange, bool) {
	switch t {
	case QuestionChoice:
		return l.Choices, true
	case QuestionSet, QuestionSpan:
		return l.Labels, true
	case QuestionScore:
		return l.Levels, true
	}
	return CountRange{}, false
}
