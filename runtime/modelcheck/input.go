package modelcheck

import (
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// checkInput checks what the question reads: placeholders that name an
// asset, assets that something places, media the model reads within its
// limits, and the media box and track questions need. It records the
// assets read in p.
func checkInput(card *table.Card, req *ir.Request, q *ir.Question, p *Plan) *Failure {
	for i := range req.Assets {
		a := &req.Assets[i]
		inQuestion := strings.Contains(p.QuestionText, a.Placeholder)
		if inQuestion && !card.PlaceholdersInQuestions {
			return Fail(vocab.ReasonPlaceholderInQuestion)
		}
		if !placed(card, req, a.Placeholder) {
			return Fail(vocab.ReasonUnplacedAsset)
		}
		if inQuestion || p.Input.Mentions(a.Placeholder) {
			p.Assets = append(p.Assets, a)
		}
	}
	texts := []string{p.Input.Text()}
	if card.PlaceholdersInQuestions {
		texts = append(texts, p.QuestionText)
	}
	for _, text := range texts {
		for _, name := range Bracketed(text) {
			if !slices.ContainsFunc(req.Assets, func(a ir.Asset) bool { return a.Placeholder == name }) {
				return Fail(vocab.ReasonUnknownPlaceholder)
			}
		}
	}
	images, videos, f := checkMedia(card, p)
	if f != nil {
		return f
	}
	return checkMediaQuestion(q, p, images, videos)
}

// placed reports whether some string of the state, or of a question's
// text where the card reads media there, holds the placeholder.
func placed(card *table.Card, req *ir.Request, placeholder string) bool {
	if stringsContain(req.State, placeholder) {
		return true
	}
	if !card.PlaceholdersInQuestions {
		return false
	}
	for i := range req.Questions {
		q := &req.Questions[i]
		if strings.Contains(QuestionText(q, q.Criteria), placeholder) {
			return true
		}
	}
	return false
}

// stringsContain reports whether a string value anywhere in v (object
// keys are not placements) holds s.
func stringsContain(v jsonvalue.Value, s string) bool {
	switch v.Kind() {
	case jsonvalue.KindString:
		return strings.Contains(v.Str(), s)
	case jsonvalue.KindArray:
		for _, it := range v.Items() {
			if stringsContain(it, s) {
				return true
			}
		}
	case jsonvalue.KindObject:
		for _, m := range v.Members() {
			if stringsContain(m.Value, s) {
				return true
			}
		}
	}
	return false
}

// checkMedia checks each asset read against the card's media limits, and
// counts the images and videos read.
func checkMedia(card *table.Card, p *Plan) (images, videos int, f *Failure) {
	for _, a := range p.Assets {
		if a.Type == ir.AssetVideo {
			videos++
			f = checkVideo(card, a, videos, p)
		} else {
			images++
			f = checkImage(card, a, images)
		}
		if f != nil {
			return images, videos, f
		}
	}
	return images, videos, nil
}

func checkImage(card *table.Card, a *ir.Asset, nth int) *Failure {
	l := card.Limits.Image
	if !card.Reads(table.ModalityImage) {
		return Fail(vocab.ReasonImageNotRead)
	}
	if nth > l.MaxCount {
		return FailLimit(vocab.ReasonTooManyImages, int64(l.MaxCount))
	}
	img, f := DecodeImage(a)
	if f != nil {
		return f
	}
	area := img.Width * img.Height
	switch {
	case img.Bytes > l.MaxBytes:
		return FailLimit(vocab.ReasonImageFileTooLarge, l.MaxBytes)
	case img.Width < l.MinSide || img.Height < l.MinSide:
		return FailLimit(vocab.ReasonImageSideTooSmall, l.MinSide)
	case img.Width > l.MaxSide || img.Height > l.MaxSide:
		return FailLimit(vocab.ReasonImageSideTooLarge, l.MaxSide)
	case area < l.MinPixels:
		return FailLimit(vocab.ReasonImageAreaTooSmall, l.MinPixels)
	case area > l.MaxPixels:
		return FailLimit(vocab.ReasonImageAreaTooLarge, l.MaxPixels)
	}
	return nil
}

func checkVideo(card *table.Card, a *ir.Asset, nth int, p *Plan) *Failure {
	l := card.Limits.Video
	if !card.Reads(table.ModalityVideo) {
		return Fail(vocab.ReasonVideoNotRead)
	}
	if nth > l.MaxCount {
		return FailLimit(vocab.ReasonTooManyVideos, int64(l.MaxCount))
	}
	vid, f := DecodeVideo(a)
	if f != nil {
		return f
	}
	switch {
	case vid.Bytes > l.MaxBytes:
		return FailLimit(vocab.ReasonVideoFileTooLarge, l.MaxBytes)
	case vid.HasDuration && vid.Seconds > float64(l.MaxSeconds):
		return FailLimit(vocab.ReasonVideoTooLong, l.MaxSeconds)
	}
	if vid.HasDuration {
		p.VideoSeconds = vid.Seconds
	} else {
		p.VideoSeconds = -1
	}
	return nil
}

// checkMediaQuestion: a box reads an image or a video (one video, with
// at); a track reads exactly one video whose duration is known.
func checkMediaQuestion(q *ir.Question, p *Plan, images, videos int) *Failure {
	switch p.Type {
	case table.QuestionBox:
		if images+videos == 0 {
			return Fail(vocab.ReasonMissingMedia)
		}
		if q.At != nil && videos != 1 {
			return Fail(vocab.ReasonNeedsOneVideo)
		}
		if q.At != nil && p.VideoSeconds >= 0 && *q.At > p.VideoSeconds {
			return FailLimit(vocab.ReasonAtBeyondVideo, int64(p.VideoSeconds))
		}
	case table.QuestionTrack:
		if videos != 1 {
			return Fail(vocab.ReasonNeedsOneVideo)
		}
		if p.VideoSeconds < 0 {
			return Fail(vocab.ReasonUnreadableVideo)
		}
	}
	return nil
}

// checkLength counts the input and decides how the model reads it: whole;
// in windows within the scan budget; truncated to its first tokens; or not
// at all. TypeSafe-Danger-Zone-Long-Context raises the length limit to the
// card's long-context limit.
func checkLength(card *table.Card, req *ir.Request, q *ir.Question, p *Plan) *Failure {
	l := card.Limits
	limit := l.MaxInputTokens
	if req.Options != nil && req.Options.LongContext != nil && *req.Options.LongContext {
		limit = l.LongContextMaxInputTokens
	}
	parts := p.Input.Tokens()
	fixed := Count(p.QuestionText) + mediaTokens(card, p.Assets)
	p.InputTokens = parts + fixed
	if p.InputTokens <= limit {
		p.Complete = true
		return nil
	}
	if fixed >= limit {
		return FailLimit(vocab.ReasonQuestionTooLong, limit)
	}
	if l.ScanBudget == 0 {
		return FailLimit(vocab.ReasonInputTooLong, limit)
	}
	if q.Overflow != nil && *q.Overflow == ir.OverflowTruncate {
		if q.RequireFullInput != nil && *q.RequireFullInput {
			return FailLimit(vocab.ReasonInputTruncated, limit)
		}
		p.Input = p.Input.Truncated(limit - fixed)
		p.InputTokens = p.Input.Tokens() + fixed
		return nil
	}
	budget := l.ScanBudget
	if req.Options != nil && req.Options.MaxTokens != nil {
		budget = min(*req.Options.MaxTokens, l.MaxScanBudget)
	}
	if parts > budget {
		return FailLimit(vocab.ReasonScanBudget, budget)
	}
	p.Windows, p.Complete = true, true
	return nil
}

func mediaTokens(card *table.Card, assets []*ir.Asset) int64 {
	var n int64
	for _, a := range assets {
		if a.Type == ir.AssetVideo {
			n += card.Limits.Video.Tokens
		} else {
			n += card.Limits.Image.Tokens
		}
	}
	return n
}
