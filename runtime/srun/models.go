package srun

import (
	"log/slog"
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
)

// handleModels answers GET /v1/models with the served model, in the
// client's schema: the standard's name, description and release_date,
// and the extension's version, features and card.
func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	body, err := s.codec.AnswerListing(&ir.Listing{Models: []ir.ListedModel{listedModel(s.model)}})
	if err != nil {
		s.log.LogAttrs(r.Context(), slog.LevelError, "listing not writable", slog.String("error", err.Error())) //vocab:not-spec slog attribute key
		s.writeError(w, nil, unwritableAnswer())
		return
	}
	listener.WriteJSON(w, http.StatusOK, body)
}

// listedModel is m as GET /v1/models lists it.
func listedModel(m table.Model) ir.ListedModel {
	version := ExtensionVersion
	return ir.ListedModel{
		Name:        m.Name,
		Description: m.Description,
		ReleaseDate: m.ReleaseDate,
		Version:     &version,
		Features:    features(&m.Card),
		Card:        cardValue(&m.Card),
	}
}

// features are the question types a card answers, then the extension
// features it supports, which vllm-sr/auto routes by: the media it reads
// beyond text, roles, over, presets, span heads, the decision adapter,
// abstain probabilities, windowed reading and full-input coverage.
func features(c *table.Card) []string {
	var out []string
	for _, t := range c.QuestionTypes {
		out = append(out, string(t))
	}
	for _, m := range c.Modalities {
		if m != table.ModalityText {
			out = append(out, string(m))
		}
	}
	flag := func(on bool, name string) {
		if on {
			out = append(out, name)
		}
	}
	flag(c.RoleAware, vocab.RequestRoles)
	flag(c.Over != "" && c.Over != table.OverNone, vocab.QuestionOver)
	flag(len(c.Presets) > 0, vocab.QuestionPreset)
	flag(len(c.SpanHeads) > 0, vocab.QuestionHead)
	flag(c.DecisionAdapter, vocab.QuestionDecisionAdapter)
	flag(c.Abstain, vocab.AnswerAbstainProbability)
	flag(c.Limits.ScanBudget > 0, vocab.QuestionOverflow)
	return append(out, vocab.QuestionRequireFullInput)
}

// cardValue is the card as JSON, members in a fixed order. Its keys, and
// those of its limits, are the model card's (specs/models.schema.json), a
// schema generated/vocab does not hold: System One types card as an object.
func cardValue(c *table.Card) jsonvalue.Value {
	presets := make([]jsonvalue.Value, len(c.Presets))
	for i, p := range c.Presets {
		presets[i] = object(
			member("name", jsonvalue.String(p.Name)),         //vocab:not-spec model card key
			member("type", jsonvalue.String(string(p.Type))), //vocab:not-spec model card key
		)
	}
	members := []jsonvalue.Member{
		member("question_types", stringArray(c.QuestionTypes)),
		member("presets", jsonvalue.Array(presets...)),
		member("modalities", stringArray(c.Modalities)),
		member("limits", limitsValue(&c.Limits)),
		member("role_aware", jsonvalue.Bool(c.RoleAware)),
		member("over", jsonvalue.String(string(c.Over))),              //vocab:not-spec model card key
		member("span_heads", stringArray(c.SpanHeads)),                //vocab:not-spec model card key
		member("decision_adapter", jsonvalue.Bool(c.DecisionAdapter)), //vocab:not-spec model card key
		member("abstain", jsonvalue.Bool(c.Abstain)),
		member("placeholders_in_questions", jsonvalue.Bool(c.PlaceholdersInQuestions)),
	}
	if c.Answers(table.QuestionSet) {
		members = append(members, member("set_threshold", jsonvalue.Float(c.SetThreshold)))
	}
	if c.Answers(table.QuestionSpan) {
		members = append(members, member("span_threshold", jsonvalue.Float(c.SpanThreshold)))
	}
	if c.Answers(table.QuestionTrack) {
		rates := make([]jsonvalue.Value, len(c.TrackRates))
		for i, r := range c.TrackRates {
			rates[i] = jsonvalue.Int(r)
		}
		members = append(members, member("track_rates", jsonvalue.Array(rates...)))
	}
	members = append(members,
		member("precision", jsonvalue.String(c.Precision)),
		member("numerics", jsonvalue.String(c.Numerics)))
	return object(members...)
}

// limitsValue is a card's limits as JSON; a count range the model has no
// question for, and a medium it does not read, are left out.
func limitsValue(l *table.CardLimits) jsonvalue.Value {
	members := []jsonvalue.Member{
		member("max_input_tokens", jsonvalue.Int(l.MaxInputTokens)),
		member("long_context_max_input_tokens", jsonvalue.Int(l.LongContextMaxInputTokens)),
	}
	if l.ScanBudget > 0 {
		members = append(members,
			member("scan_budget", jsonvalue.Int(l.ScanBudget)), //vocab:not-spec model card key
			member("max_scan_budget", jsonvalue.Int(l.MaxScanBudget)))
	}
	for _, r := range []struct {
		name string
		cr   table.CountRange
	}{{"choices", l.Choices}, {"labels", l.Labels}, {"levels", l.Levels}} { //vocab:not-spec model card key
		if r.cr != (table.CountRange{}) {
			members = append(members, member(r.name, object(
				member("min", jsonvalue.Int(int64(r.cr.Min))),
				member("max", jsonvalue.Int(int64(r.cr.Max))))))
		}
	}
	if l.Image != (table.ImageLimits{}) {
		members = append(members, member("image", object( //vocab:not-spec model card key
			member("max_count", jsonvalue.Int(int64(l.Image.MaxCount))),
			member("min_side", jsonvalue.Int(l.Image.MinSide)),
			member("max_side", jsonvalue.Int(l.Image.MaxSide)),
			member("min_pixels", jsonvalue.Int(l.Image.MinPixels)),
			member("max_pixels", jsonvalue.Int(l.Image.MaxPixels)),
			member("max_bytes", jsonvalue.Int(l.Image.MaxBytes)),
			member("tokens", jsonvalue.Int(l.Image.Tokens)))))
	}
	if l.Video != (table.VideoLimits{}) {
		members = append(members, member("video", object( //vocab:not-spec model card key
			member("max_count", jsonvalue.Int(int64(l.Video.MaxCount))),
			member("max_bytes", jsonvalue.Int(l.Video.MaxBytes)),
			member("max_seconds", jsonvalue.Int(l.Video.MaxSeconds)),
			member("tokens", jsonvalue.Int(l.Video.Tokens)))))
	}
	return object(members...)
}

func member(name string, v jsonvalue.Value) jsonvalue.Member {
	return jsonvalue.Member{Name: name, Value: v}
}

// object builds an object from members with distinct names, which every
// caller here passes.
func object(members ...jsonvalue.Member) jsonvalue.Value {
	v, _ := jsonvalue.Object(members...)
	return v
}

func stringArray[S ~string](ss []S) jsonvalue.Value {
	items := make([]jsonvalue.Value, len(ss))
	for i, s := range ss {
		items[i] = jsonvalue.String(string(s))
	}
	return jsonvalue.Array(items...)
}
