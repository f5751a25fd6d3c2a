package shapes

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestAnswerWriterCarriesExtra: the members an IR object carries in Extra
// are written as they were read, after the slots when no slot names them;
// a systemone/0.2 writer (SkipUndefined) writes the standard's members
// alone, so neither the extension set's members nor any extra reach its
// client.
func TestAnswerWriterCarriesExtra(t *testing.T) {
	r := &ir.Response{Model: new("m"), Usage: &ir.Usage{InputTokens: 2, Extra: []jsonvalue.Member{{Name: "x_usage", Value: jsonvalue.String("u")}}},
		Thresholds: []ir.QuestionThreshold{{Question: "q", Threshold: 0.5}},
		Extra:      []jsonvalue.Member{{Name: "x_trace", Value: decodeJSON(t, `{"k": [1, "two"]}`)}}}
	answers := []ir.Answer{{Name: "q", Type: table.QuestionNoul, Noul: new(0.5), AbstainProbability: new(0.1),
		Extra: []jsonvalue.Member{{Name: "x_note", Value: jsonvalue.String("a1")}}}}
	body, err := AnswerWriter{}.Response(r, answers, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","answers":{"q":{"type":"noul","noul":0.5,"abstain_probability":0.1,"x_note":"a1"}},` +
		`"usage":{"input_tokens":2,"output_tokens":0,"x_usage":"u"},"thresholds":{"q":0.5},"x_trace":{"k":[1,"two"]}}`
	if string(body) != want {
		t.Errorf("the 5.0 writer wrote\n %s\nwant\n %s", body, want)
	}
	body, err = AnswerWriter{Skip: SkipUndefined(table.SchemaStandard02)}.Response(r, answers, nil)
	if err != nil {
		t.Fatal(err)
	}
	want = `{"model":"m","answers":{"q":{"type":"noul","noul":0.5}},"usage":{"input_tokens":2,"output_tokens":0}}`
	if string(body) != want {
		t.Errorf("the systemone/0.2 writer wrote\n %s\nwant\n %s", body, want)
	}
	if strings.Contains(string(body), "x_") {
		t.Error("a systemone/0.2 writer wrote an extra member")
	}
}

// TestReplyReadersLeaveOutUndefined: a member the reply's schema does not
// define is read into nothing, not even Extra: from a systemone/0.2
// upstream the extension set's members (which its validator ignores) and
// members no spec defines are never relayed.
func TestReplyReadersLeaveOutUndefined(t *testing.T) {
	root := decodeJSON(t, `{"model":"d3","answers":{"q":{"type":"noul","noul":0.8,"abstain_probability":0.1,"stats":{}}},`+
		`"usage":{"input_tokens":4,"output_tokens":0,"cost":1},"thresholds":{"q":0.5},"id":"x"}`)
	rs := RepliesOf(table.SchemaStandard02)
	check, err := CheckResponse(table.SchemaStandard02, root)
	if err != nil {
		t.Fatal(err)
	}
	r, answers, err := ReadResponse(root, rs, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Thresholds != nil || r.Extra != nil || r.Usage.Extra != nil || r.Usage.InputTokens != 4 {
		t.Errorf("read %+v, want the standard's members alone", r)
	}
	var a ir.Answer
	rd := AnswerReader{Replies: rs, Check: check}
	if reason, _ := rd.Read(&a, mustGet(t, answers, "q"), "q", table.QuestionNoul); reason != "" || a.AbstainProbability != nil || a.Extra != nil || *a.Noul != 0.8 {
		t.Errorf("read %+v (%s), want the noul alone", a, reason)
	}
}

func mustGet(t *testing.T, v jsonvalue.Value, name string) jsonvalue.Value {
	t.Helper()
	x, ok := v.Get(name)
	if !ok {
		t.Fatalf("no %s", name)
	}
	return x
}
