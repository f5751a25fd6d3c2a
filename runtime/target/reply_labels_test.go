package target

import (
	"strconv"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestSetLabelNouls: a composed set's label nouls (<question>.<label>)
// come back after their set's answer, in the reply's order, each vetted
// on its own; a name that is a question's, a failed set's labels, a bare
// "<question>." and the standard reader (no extensions) add nothing.
func TestSetLabelNouls(t *testing.T) {
	set := QuestionRef{Name: "topics", Type: table.QuestionSet}
	dotted := QuestionRef{Name: "topics.billing", Type: table.QuestionNoul} // a question of its own
	other := QuestionRef{Name: "urgent", Type: table.QuestionNoul}
	sets := `,"sets":{"topics":{"selected":["billing"],"probabilities":{"billing":0.9,"outage":0.2}}}`
	cases := []struct {
		name      string
		questions []QuestionRef
		answers   string
		want      string // name=noul or name:reason, in order
		standard  bool
	}{
		{"labels after their set", []QuestionRef{set, other},
			`"urgent":{"type":"noul","noul":0.5},"topics.billing":{"type":"noul","noul":0.9},"topics":{"type":"set","noul":0.9},"topics.outage":{"type":"noul","noul":0.2}`,
			"topics=0.9 topics.billing=0.9 topics.outage=0.2 urgent=0.5", false},
		{"a question's name is its own answer", []QuestionRef{set, dotted},
			`"topics":{"type":"set","noul":0.9},"topics.billing":{"type":"noul","noul":0.4},"topics.outage":{"type":"noul","noul":0.2}`,
			"topics=0.9 topics.outage=0.2 topics.billing=0.4", false},
		{"a malformed label noul fails alone", []QuestionRef{set},
			`"topics":{"type":"set","noul":0.9},"topics.billing":{"type":"noul","noul":7},"topics.outage":{"type":"noul","noul":0.2}`,
			"topics=0.9 topics.billing:answer_out_of_range topics.outage=0.2", false},
		{"a failed set has no labels", []QuestionRef{set},
			`"topics":{"type":"set","error":"invalid_question","reason":"question_type_not_answered"},"topics.billing":{"type":"noul","noul":0.9}`,
			"topics:question_type_not_answered", false},
		{"no label, another question's prefix", []QuestionRef{set, other},
			`"topics":{"type":"set","noul":0.9},"topics.":{"type":"noul","noul":0.1},"urgent.x":{"type":"noul","noul":0.1},"urgent":{"type":"noul","noul":0.5}`,
			"topics=0.9 urgent=0.5", false},
		{"the standard reader reads no sets", []QuestionRef{other},
			`"urgent":{"type":"noul","noul":0.5},"urgent.x":{"type":"noul","noul":0.1}`,
			"urgent=0.5", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := `{"model":"m","answers":{` + c.answers + `},"usage":{"input_tokens":1,"output_tokens":0}` + sets + `}`
			resp, err := readerOf(!c.standard).Response([]byte(body), c.questions)
			if err != nil {
				t.Fatal(err)
			}
			if got := describeAnswers(resp.Answers); got != c.want {
				t.Errorf("answers %s, want %s", got, c.want)
			}
		})
	}
}

func describeAnswers(answers []ir.Answer) string {
	var out []string
	for _, a := range answers {
		switch {
		case a.Error != "":
			out = append(out, a.Name+":"+a.Reason)
		case a.Noul != nil:
			out = append(out, a.Name+"="+strconv.FormatFloat(*a.Noul, 'g', -1, 64))
		default:
			out = append(out, a.Name+"?")
		}
	}
	return strings.Join(out, " ")
}

// readerOf is the vllm-sr/5.0 reader with extensions, else the standard's.
func readerOf(extensions bool) ReplyReader {
	if extensions {
		return NewReplyReader(table.SchemaVllmSR50)
	}
	return NewReplyReader(table.SchemaStandard02)
}
