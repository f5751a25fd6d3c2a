package modelcheck

import (
	"regexp"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/runtime/ir"
)

// QuestionText is a question's own text as the model reads it: its
// instructions, then each criterion's key and description (a score's
// levels), one a line.
func QuestionText(q *ir.Question, c ir.Criteria) string {
	var b strings.Builder
	b.WriteString(Render(q.Instructions))
	for _, m := range c.Keyed {
		b.WriteString("\n")
		b.WriteString(m.Name)
		if !m.Value.IsNull() {
			b.WriteString(": ")
			b.WriteString(Render(m.Value))
		}
	}
	for _, l := range c.Levels {
		b.WriteString("\n")
		b.WriteString(Render(l))
	}
	return b.String()
}

// Mentions reports whether the input reads placeholder: in front of the
// state, or inside a part's text.
func (in Input) Mentions(placeholder string) bool {
	if slices.Contains(in.Media, placeholder) {
		return true
	}
	for _, p := range in.Parts {
		if strings.Contains(p.Text, placeholder) {
			return true
		}
	}
	return false
}

// bracketed matches the Router's placeholder form, ⟦name⟧.
var bracketed = regexp.MustCompile(`⟦[^⟦⟧]+⟧`)

// Bracketed returns the ⟦…⟧ placeholders written in text, in order. A
// request may name an asset by any string; only this bracketed form is
// known to be meant as a placeholder, so only it can be found missing.
func Bracketed(text string) []string {
	return bracketed.FindAllString(text, -1)
}
