package target

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestAnswerRanges: an answer outside the schema's ranges fails its
// question alone, with a fixed reason and a message naming the member
// and never the value; a neighbour in range is kept.
func TestAnswerRanges(t *testing.T) {
	choice := QuestionRef{Name: "team", Type: table.QuestionChoice, Keys: []string{"billing", "tech"}}
	score := QuestionRef{Name: "mood", Type: table.QuestionScore, Keys: []string{"0", "1", "2"}}
	noul := QuestionRef{Name: "q", Type: table.QuestionNoul}
	box := QuestionRef{Name: "b", Type: table.QuestionBox}
	preset := QuestionRef{Name: "team", Type: table.QuestionChoice} // no criteria: keys unknown
	cases := []struct {
		name   string
		q      QuestionRef
		answer string
		reason string // "" for kept
		member string
	}{
		{"noul in range", noul, `{"type":"noul","noul":1}`, "", ""},
		{"noul 7.5", noul, `{"type":"noul","noul":7.5}`, "answer_out_of_range", "noul"},
		{"noul negative", noul, `{"type":"noul","noul":-0.01}`, "answer_out_of_range", "noul"},
		{"noul past float64", noul, `{"type":"noul","noul":1e999}`, "noul_not_number", ""},
		{"choice ok", choice, `{"type":"choice","choice":"tech","probabilities":{"tech":0.9,"billing":0.1},"confidence":0.8}`, "", ""},
		{"choice not an option", choice, `{"type":"choice","choice":"SECRET-7","probabilities":{"billing":0.1,"tech":0.9},"confidence":0.8}`, "answer_key_mismatch", "choice"},
		{"probabilities missing an option", choice, `{"type":"choice","choice":"tech","probabilities":{"tech":1},"confidence":0.8}`, "answer_key_mismatch", "probabilities"},
		{"probabilities with another key", choice, `{"type":"choice","choice":"tech","probabilities":{"tech":0.5,"SECRET":0.5},"confidence":0.8}`, "answer_key_mismatch", "probabilities"},
		{"probability above 1", choice, `{"type":"choice","choice":"tech","probabilities":{"tech":1.5,"billing":0},"confidence":0.8}`, "answer_out_of_range", "probabilities"},
		{"confidence above 1", choice, `{"type":"choice","choice":"tech","probabilities":{"tech":1,"billing":0},"confidence":2}`, "answer_out_of_range", "confidence"},
		{"preset keys unknown", preset, `{"type":"choice","choice":"other","probabilities":{"other":1},"confidence":1}`, "", ""},
		{"confidence missing", choice, `{"type":"choice","choice":"tech","probabilities":{"tech":1,"billing":0}}`, "missing_member", "confidence"},
		{"score ok", score, `{"type":"score","score":1.7,"probabilities":{"0":0,"1":0.3,"2":0.7},"confidence":0.5,"legend":{"0":"low","1":"mid","2":"high"}}`, "", ""},
		{"score past the last level", score, `{"type":"score","score":2.5,"probabilities":{"0":0,"1":0.3,"2":0.7},"confidence":0.5,"legend":{"0":"low","1":"mid","2":"high"}}`, "answer_out_of_range", "score"},
		{"score negative", score, `{"type":"score","score":-1,"probabilities":{"0":0,"1":0.3,"2":0.7},"confidence":0.5,"legend":{"0":"low","1":"mid","2":"high"}}`, "answer_out_of_range", "score"},
		{"score probabilities by name", score, `{"type":"score","score":1,"probabilities":{"low":0,"mid":1,"high":0},"confidence":0.5,"legend":{"0":"low","1":"mid","2":"high"}}`, "answer_key_mismatch", "probabilities"},
		{"legend not the levels", score, `{"type":"score","score":1,"probabilities":{"0":0,"1":1,"2":0},"confidence":0.5,"legend":{"0":"low","1":"mid"}}`, "answer_key_mismatch", "legend"},
		{"legend not content", score, `{"type":"score","score":1,"probabilities":{"0":0,"1":1,"2":0},"confidence":0.5,"legend":{"0":"low","1":"mid","2":7}}`, "wrong_type", "legend"},
		{"abstain above 1", noul, `{"type":"noul","noul":0.5,"abstain_probability":3}`, "answer_out_of_range", "abstain_probability"},
		{"box ok", box, `{"type":"box","box":{"top":0,"bottom":1,"left":0.2,"right":0.3},"confidence":1}`, "", ""},
		{"box edge past 1", box, `{"type":"box","box":{"top":0,"bottom":1.2,"left":0.2,"right":0.3},"confidence":1}`, "answer_out_of_range", "box.bottom"},
		{"box edge missing", box, `{"type":"box","box":{"top":0,"left":0.2,"right":0.3},"confidence":1}`, "box_edge_missing", "box.bottom"},
		{"a noul as a string", noul, `{"type":"noul","noul":"SECRET"}`, "noul_not_number", "noul"},
		{"a choice answer to a noul", noul, `{"type":"choice","choice":"SECRET"}`, "answer_type_mismatch", ""},
		{"not an object", noul, `["SECRET"]`, "answer_not_object", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := `{"model":"m","answers":{"` + c.q.Name + `":` + c.answer + `,"ok":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0}}`
			resp, err := NewReplyReader(table.SchemaVllmSR50).Response([]byte(body), []QuestionRef{c.q, {Name: "ok", Type: table.QuestionNoul}})
			if err != nil {
				t.Fatal(err)
			}
			a, ok := resp.Answers[0], resp.Answers[1]
			if ok.Error != "" || ok.Noul == nil {
				t.Errorf("the neighbour failed: %+v", ok)
			}
			if a.Reason != c.reason {
				t.Fatalf("reason %q, want %q (%+v)", a.Reason, c.reason, a)
			}
			if c.reason == "" {
				return
			}
			if a.Error != ir.QuestionErrorInvalidModelOutput || c.member != "" && !strings.Contains(a.Message, "answer's "+c.member+" ") && !strings.Contains(a.Message, "answer's "+c.member+":") {
				t.Errorf("answer %+v", a)
			}
			for _, value := range []string{"SECRET", "7.5", "0.01", "1.5", "2.5", "1.2"} {
				if strings.Contains(a.Message, value) {
					t.Errorf("the message carries the value %s: %q", value, a.Message)
				}
			}
		})
	}
}

// TestResponseRanges: the response-level members (spans, sets,
// thresholds) outside their ranges make the reply invalid, at their path.
func TestResponseRanges(t *testing.T) {
	qs := []QuestionRef{{Name: "pii", Type: table.QuestionSpan}}
	for _, extra := range []string{
		`"spans":{"pii":[{"label":"P","start":3,"end":2,"text":"x","probability":0.5}]}`,
		`"spans":{"pii":[{"label":"P","start":-1,"end":2,"text":"x","probability":0.5}]}`,
		`"spans":{"pii":[{"label":"P","start":0,"end":2,"text":"x","probability":1.5}]}`,
		`"sets":{"pii":{"selected":[],"probabilities":{"P":-0.5}}}`,
		`"thresholds":{"pii":2}`,
	} {
		body := `{"model":"m","answers":{"pii":{"type":"noul","noul":0.5}},"usage":{"input_tokens":1,"output_tokens":0},` + extra + `}`
		_, err := NewReplyReader(table.SchemaVllmSR50).Response([]byte(body), qs)
		if err == nil || !strings.Contains(MalformedReplyError(err, func(n string) bool { return n == "pii" }).Message, "pii") {
			t.Errorf("%s: %v", body, err)
		}
	}
}
