package refscorer

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"strconv"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
)

// seed is the SHA-256 of everything one question's answer may depend on:
// the scorer's version, the model and revision, the head that answers,
// the question type, what the question reads (parts with their keys and
// roles, media placeholders and the sha256 of each asset read), and the
// question as the model reads it. The question's name is not in it: names
// play no part in inference.
type seed [sha256.Size]byte

// scorerVersion changes every answer when the scorer's arithmetic changes.
const scorerVersion = "refscorer/1"

func questionSeed(m table.Model, plan *modelcheck.Plan, adapter bool) seed {
	h := sha256.New()
	field := func(s string) { writeField(h, s) }
	field(scorerVersion)
	field(m.Name)
	field(m.Revision)
	field(plan.Preset)
	field(strconv.FormatBool(adapter))
	field(string(plan.Type))
	for _, media := range plan.Input.Media {
		field("media:" + media)
	}
	for _, part := range plan.Input.Parts {
		field("part:" + string(part.Role) + ":" + part.Key)
		field(part.Text)
	}
	for _, a := range plan.Assets {
		sum := sha256.Sum256(jsonvalue.Compact(a.DataBase64))
		field("asset:" + a.Placeholder + ":" + string(a.Type))
		field(string(sum[:]))
	}
	field(plan.QuestionText)
	var s seed
	copy(s[:], h.Sum(nil))
	return s
}

// Draw labels: the fixed words that, with the variable ones (an option
// key, a token index, ...), name each hash draw. They are inputs of every
// reference answer, never written, so they must not follow a rename in the
// specs: changing one changes every number it draws.
const (
	drawOption     = "option"
	drawAbstain    = "abstain"
	drawBoxAnswer  = "box"        //vocab:not-spec a hash-draw label, pinned so draws survive a spec rename
	drawTrack      = "track"      //vocab:not-spec a hash-draw label, pinned so draws survive a spec rename
	drawConfidence = "confidence" //vocab:not-spec a hash-draw label, pinned so draws survive a spec rename
	drawLabel      = "label"      //vocab:not-spec a hash-draw label, pinned so draws survive a spec rename
	drawSpan       = "span"       //vocab:not-spec a hash-draw label, pinned so draws survive a spec rename
)

// uniform is a number in [0, 1) drawn from the seed and the labels that
// name the draw (an option key, a token index, ...).
func (s seed) uniform(labels ...string) float64 {
	h := sha256.New()
	h.Write(s[:])
	for _, l := range labels {
		writeField(h, l)
	}
	sum := h.Sum(nil)
	return float64(binary.BigEndian.Uint64(sum[:8])>>11) / (1 << 53)
}

// writeField writes s with its length in front, so no two sequences of
// fields hash alike.
func writeField(h hash.Hash, s string) {
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(s))))
	h.Write([]byte(s))
}
