package model

import (
	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// limits checks a card's limits: token limits that make sense together, a
// count range exactly for each question type that has one, within the
// extension set's global limit, and media limits exactly for the media the
// card reads.
func (k cardCheck) limits() {
	l, raw := k.card.Limits, k.raw.Limits
	if l.LongContextMaxInputTokens < l.MaxInputTokens {
		k.fail(raw.Pos, "long_context_max_input_tokens %d is below max_input_tokens %d", l.LongContextMaxInputTokens, l.MaxInputTokens)
	}
	switch {
	case l.ScanBudget == 0 && l.MaxScanBudget != 0:
		k.fail(raw.Pos, "max_scan_budget without scan_budget")
	case l.ScanBudget != 0 && l.MaxScanBudget < l.ScanBudget:
		k.fail(raw.Pos, "max_scan_budget %d is below scan_budget %d", l.MaxScanBudget, l.ScanBudget)
	}
	k.countRange(raw.Pos, raw.Choices, "choices", k.card.Answers(table.QuestionChoice))
	k.countRange(raw.Pos, raw.Labels, "labels", k.card.Answers(table.QuestionSet) || k.card.Answers(table.QuestionSpan))
	k.countRange(raw.Pos, raw.Levels, "levels", k.card.Answers(table.QuestionScore))
	if (raw.Image != nil) != k.card.Reads(table.ModalityImage) {
		k.fail(raw.Pos, "limits.image is given exactly when the card reads images")
	}
	if (raw.Video != nil) != k.card.Reads(table.ModalityVideo) {
		k.fail(raw.Pos, "limits.video is given exactly when the card reads video")
	}
	if i := raw.Image; i != nil {
		if i.MinSide > i.MaxSide || i.MinPixels > i.MaxPixels {
			k.fail(i.Pos, "an image minimum is above its maximum")
		}
		if i.MinSide*i.MinSide > i.MaxPixels || i.MaxPixels > i.MaxSide*i.MaxSide {
			k.fail(i.Pos, "the image pixel limits do not fit the side limits")
		}
	}
	if k.card.Answers(table.QuestionBox) && !k.card.Reads(table.ModalityImage) && !k.card.Reads(table.ModalityVideo) {
		k.fail(k.raw.Pos, "box questions need the image or video modality")
	}
	if k.card.Answers(table.QuestionTrack) && !k.card.Reads(table.ModalityVideo) {
		k.fail(k.raw.Pos, "track questions need the video modality")
	}
}

// countRange requires the range exactly when the card answers a question
// type it bounds, with min ≤ max inside the global limit.
func (k cardCheck) countRange(pos load.Position, r *load.RangeEntry, limit string, answered bool) {
	if r == nil {
		if answered {
			k.fail(pos, "limits.%s is missing, and the card answers questions it bounds", limit)
		}
		return
	}
	if !answered {
		k.fail(r.Pos, "limits.%s is given, but the card answers no question it bounds", limit)
		return
	}
	lo, hi := k.c.globalLimit(limit)
	if r.Min > r.Max {
		k.fail(r.Pos, "limits.%s: min %d is above max %d", limit, r.Min, r.Max)
	}
	if r.Min < lo || r.Max > hi {
		k.fail(r.Pos, "limits.%s %d to %d is outside the global limit %d to %d", limit, r.Min, r.Max, lo, hi)
	}
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
