package modelcheck

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Features are the listing's feature words a card answers, in the
// vocabulary's order (vocab.Features): its question types, the media it
// reads beyond text, roles, presets, over, span heads, the decision
// adapter, abstain probabilities, windowed reading, full-input coverage
// (which every model the runtime serves answers) and the long-context
// header where it raises the input limit. batch is not a model's: a
// schema carries it (target.Traits). vllm-srun lists these, and the Router
// lists and routes by them for a deployment of the card's model, so both
// spell them alike.
func Features(c *table.Card) []string {
	has := map[string]bool{
		vocab.FeatureRoles:              c.RoleAware,
		vocab.FeaturePreset:             len(c.Presets) > 0,
		vocab.FeatureOver:               c.Over != "" && c.Over != table.OverNone,
		vocab.FeatureHead:               len(c.SpanHeads) > 0,
		vocab.FeatureDecisionAdapter:    c.DecisionAdapter,
		vocab.FeatureAbstainProbability: c.Abstain,
		vocab.FeatureOverflow:           c.Limits.ScanBudget > 0,
		vocab.FeatureRequireFullInput:   true,
		vocab.FeatureLongContext:        c.Limits.LongContextMaxInputTokens > c.Limits.MaxInputTokens,
	}
	for _, t := range c.QuestionTypes {
		has[string(t)] = true
	}
	for _, m := range c.Modalities {
		if m != table.ModalityText {
			has[string(m)] = true
		}
	}
	out := []string{}
	for _, f := range vocab.Features {
		if has[f] {
			out = append(out, f)
		}
	}
	return out
}

// CardValue is the card as JSON, members in a fixed order: what a listing
// entry's card holds, on vllm-srun and the Router alike. Its keys, and
// those of its limits, are the model card's (specs/models.schema.json), a
// schema generated/vocab does not hold: System One types card as an object.
func CardValue(c *table.Card) jsonvalue.Value {
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
