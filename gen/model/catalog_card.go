package model

import (
	"strconv"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// model converts one catalogue entry and checks its card against its
// family in the extension set.
func (c *catalogBuilder) model(e load.ModelEntry, presets []table.Preset) table.Model {
	card := e.Card
	out := table.Model{
		Name: e.Name, Family: table.Family(e.Family), Description: e.Description,
		ReleaseDate: e.ReleaseDate, Revision: e.Revision,
		Card: table.Card{
			DecisionAdapter: card.DecisionAdapter, RoleAware: card.RoleAware,
			Over: table.OverScope(card.Over), Abstain: card.Abstain,
			TrackRates: card.TrackRates, PlaceholdersInQuestions: card.PlaceholdersInQuestions,
			Precision: card.Precision, Numerics: card.Numerics, SpanHeads: card.SpanHeads,
			Limits: cardLimits(card.Limits),
		},
	}
	for _, t := range card.QuestionTypes {
		out.Card.QuestionTypes = append(out.Card.QuestionTypes, table.QuestionType(t))
	}
	for _, m := range card.Modalities {
		out.Card.Modalities = append(out.Card.Modalities, table.Modality(m))
	}
	for _, p := range card.Presets {
		out.Card.Presets = append(out.Card.Presets, table.CardPreset{Name: p.Name, Type: table.QuestionType(p.Type)})
	}
	if card.SetThreshold != nil {
		out.Card.SetThreshold = *card.SetThreshold
	}
	if card.SpanThreshold != nil {
		out.Card.SpanThreshold = *card.SpanThreshold
	}
	fam := c.family(out.Family)
	if fam == nil {
		c.problems.Add(e.Pos, "model %q: family %q is not a family of the extension set", e.Name, e.Family)
		return out
	}
	k := cardCheck{c: c, name: e.Name, fam: fam, raw: card, card: &out.Card}
	k.questionTypes()
	k.modalitiesAndRoles()
	k.presets(presets)
	k.spanHeads()
	k.fields()
	k.thresholdsAndRates()
	k.limits()
	return out
}

func cardLimits(l load.LimitsEntry) table.CardLimits {
	out := table.CardLimits{
		MaxInputTokens: l.MaxInputTokens, LongContextMaxInputTokens: l.LongContextMaxInputTokens,
		ScanBudget: l.ScanBudget, MaxScanBudget: l.MaxScanBudget,
		Choices: countRange(l.Choices), Labels: countRange(l.Labels), Levels: countRange(l.Levels),
	}
	if i := l.Image; i != nil {
		out.Image = table.ImageLimits{MaxCount: i.MaxCount, MinSide: i.MinSide, MaxSide: i.MaxSide,
			MinPixels: i.MinPixels, MaxPixels: i.MaxPixels, MaxBytes: i.MaxBytes, Tokens: i.Tokens}
	}
	if v := l.Video; v != nil {
		out.Video = table.VideoLimits{MaxCount: v.MaxCount, MaxBytes: v.MaxBytes, MaxSeconds: v.MaxSeconds, Tokens: v.Tokens}
	}
	return out
}

func countRange(r *load.RangeEntry) table.CountRange {
	if r == nil {
		return table.CountRange{}
	}
	return table.CountRange{Min: r.Min, Max: r.Max}
}

// cardCheck checks one card; every method adds its problems at the card.
type cardCheck struct {
	c    *catalogBuilder
	name string
	fam  *Family
	raw  load.CardEntry
	card *table.Card
}

func (k cardCheck) fail(pos load.Position, format string, args ...any) {
	k.c.problems.Add(pos, "model %q: "+format, append([]any{k.name}, args...)...)
}

func (k cardCheck) questionTypes() {
	seen := map[table.QuestionType]bool{}
	for _, t := range k.card.QuestionTypes {
		if seen[t] {
			k.fail(k.raw.Pos, "question type %s listed twice", t)
		}
		seen[t] = true
		if !hasQuestionType(k.fam.QuestionTypes, t) {
			k.fail(k.raw.Pos, "family %s does not answer %s questions", k.fam.Name, t)
		}
	}
}

func (k cardCheck) modalitiesAndRoles() {
	for _, m := range k.card.Modalities {
		if !containsString(k.fam.Modalities, string(m)) {
			k.fail(k.raw.Pos, "family %s does not read the %s modality", k.fam.Name, m)
		}
	}
	if k.card.RoleAware != k.fam.RoleAware {
		k.fail(k.raw.Pos, "role_aware is %t, but family %s has role_aware %t", k.card.RoleAware, k.fam.Name, k.fam.RoleAware)
	}
	if k.card.PlaceholdersInQuestions && !k.card.Reads(table.ModalityImage) && !k.card.Reads(table.ModalityVideo) {
		k.fail(k.raw.Pos, "placeholders_in_questions needs the image or video modality")
	}
}

func (k cardCheck) presets(canonical []table.Preset) {
	// A family with no trained head (canonical_presets) answers a preset
	// through its canonical text; any other needs the preset field.
	if len(k.card.Presets) > 0 && !k.fam.CanonicalPresets && !k.c.familyHonours(k.raw.Pos, table.LevelQuestion, "preset", k.fam.Name) {
		k.fail(k.raw.Pos, "family %s does not answer preset questions", k.fam.Name)
	}
	seen := map[string]bool{}
	for i, p := range k.card.Presets {
		pos := k.raw.Presets[i].Pos
		if seen[p.Name] {
			k.fail(pos, "preset %q listed twice", p.Name)
		}
		seen[p.Name] = true
		def, ok := presetNamed(canonical, p.Name)
		switch {
		case !ok:
			k.fail(pos, "preset %q has no canonical text under presets", p.Name)
		case def.Type != p.Type:
			k.fail(pos, "preset %q answers %s here, but its canonical text is a %s question", p.Name, p.Type, def.Type)
		}
		if !k.card.Answers(p.Type) {
			k.fail(pos, "preset %q is a %s question, which the card does not answer", p.Name, p.Type)
		}
	}
}

func presetNamed(presets []table.Preset, name string) (table.Preset, bool) {
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return table.Preset{}, false
}

func (k cardCheck) spanHeads() {
	for _, h := range k.card.SpanHeads {
		if !containsString(k.fam.SpanHeads, h) {
			k.fail(k.raw.Pos, "family %s has no %s span head", k.fam.Name, h)
		}
	}
	span := k.card.Answers(table.QuestionSpan)
	switch {
	case span && !k.card.HasSpanHead("router"):
		k.fail(k.raw.Pos, "a card that answers span questions lists the router span head")
	case !span && len(k.card.SpanHeads) > 0:
		k.fail(k.raw.Pos, "span_heads on a card that answers no span question")
	}
}

// fields checks the card's claims that rest on an extension field's
// families.
func (k cardCheck) fields() {
	claims := []struct {
		claimed bool
		level   table.Level
		field   string
		what    string
	}{
		{k.card.DecisionAdapter, table.LevelQuestion, "decision_adapter", "the decision adapter"},
		{k.card.Over != table.OverNone, table.LevelQuestion, "over", "over"},
		{k.card.Limits.ScanBudget > 0, table.LevelQuestion, "overflow", "reading long parts in windows (scan_budget)"},
		{k.card.Abstain, table.LevelAnswer, "abstain_probability", "abstain probabilities"},
	}
	for _, cl := range claims {
		if cl.claimed && !k.c.familyHonours(k.raw.Pos, cl.level, cl.field, k.fam.Name) {
			k.fail(k.raw.Pos, "family %s does not answer %s (%s.%s)", k.fam.Name, cl.what, cl.level, cl.field)
		}
	}
}

func (k cardCheck) thresholdsAndRates() {
	if (k.raw.SetThreshold != nil) != k.card.Answers(table.QuestionSet) {
		k.fail(k.raw.Pos, "thresholds.set is given exactly when the card answers set questions")
	}
	if (k.raw.SpanThreshold != nil) != k.card.Answers(table.QuestionSpan) {
		k.fail(k.raw.Pos, "thresholds.span is given exactly when the card answers span questions")
	}
	track := k.card.Answers(table.QuestionTrack)
	if track != (len(k.card.TrackRates) > 0) {
		k.fail(k.raw.Pos, "track_rates are given exactly when the card answers track questions")
	}
	rate, ok := k.c.extensionField(table.LevelQuestion, "rate")
	for _, r := range k.card.TrackRates {
		if ok && len(rate.Type.Enum) > 0 && !containsString(rate.Type.Enum, strconv.FormatInt(r, 10)) {
			k.fail(k.raw.Pos, "track rate %d is not one of question.rate's values %v", r, rate.Type.Enum)
		}
	}
}
