package target_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

var gateway = target.Target{Deployment: "gateway-d3", Endpoint: "https://gateway.example.com/v1/systemone", Model: "d3"}

// refusedCases are one request per thing the standard cannot carry, each
// as a vllm-sr/5.0 batch item body.
var refusedCases = []struct{ name, item string }{
	{"span question", `{"state":"Call Ann at 555","questions":{"pii":{"type":"span","criteria":{"PHONE":"A phone number"}}}}`},
	{"set question", `{"state":"s","questions":{"topics":{"type":"set","criteria":{"a":"A","b":"B"}}}}`},
	{"span preset", `{"state":"s","questions":{"pii":{"type":"span","preset":"pii","criteria":{"PHONE":"A phone number"}}}}`},
	{"track question", `{"state":["vid-1","Track the ball"],"assets":{"vid-1":{"type":"video","format":"mp4","data_base64":"AAAA"}},"questions":{"ball":{"type":"track","instructions":"the ball"}}}`},
	{"video asset", `{"state":["vid-1","What happens?"],"assets":{"vid-1":{"type":"video","format":"mp4","data_base64":"AAAA"}},"questions":{"q":{"type":"noul","instructions":"Is it?"}}}`},
	{"head", `{"state":"s","questions":{"pii":{"type":"span","head":"broad","criteria":{"PHONE":"A phone number"}}}}`},
	{"decision_adapter", `{"state":"s","questions":{"q":{"type":"noul","instructions":"Is it?","decision_adapter":true}}}`},
	{"over", `{"state":{"request":"r","candidate":"c"},"questions":{"q":{"type":"noul","instructions":"Is it?","over":["candidate"]}}}`},
	{"require_full_input", `{"state":"s","questions":{"q":{"type":"noul","instructions":"Is it?","require_full_input":true}}}`},
	{"threshold", `{"state":"s","questions":{"t":{"type":"set","criteria":{"a":"A"},"threshold":0.4}}}`},
	{"at", `{"state":["vid-1","Where?"],"assets":{"vid-1":{"type":"video","format":"mp4","data_base64":"AAAA"}},"questions":{"b":{"type":"box","instructions":"the ball","at":1.5}}}`},
	{"rate", `{"state":["vid-1","Track"],"assets":{"vid-1":{"type":"video","format":"mp4","data_base64":"AAAA"}},"questions":{"b":{"type":"track","instructions":"the ball","rate":2}}}`},
	{"undeclared box", `{"state":"s","questions":{"b":{"type":"box","instructions":"the mug"}}}`},
	{"undeclared image", `{"state":["img-1","What?"],"assets":{"img-1":{"type":"image","format":"png","data_base64":"AAAA"}},"questions":{"q":{"type":"noul","instructions":"Is it?"}}}`},
}

// TestRefusedAtLoad checks each thing the standard cannot carry is
// refused before any call, with one line naming the deployment and what
// is missing where; the lines are golden.
func TestRefusedAtLoad(t *testing.T) {
	var lines strings.Builder
	for _, c := range refusedCases {
		gw := gateway
		if strings.HasPrefix(c.name, "undeclared") {
			gw.Capabilities = target.CapabilitySet{target.CapChoice, target.CapNoul, target.CapScore}
		}
		b := readBatch(t, []byte(`{"requests":{"rule":`+c.item+`}}`), nil)
		plan, _, err := target.Standard02.Plan(b, gw, target.Policy{})
		var ce *target.CarryError
		if !errors.As(err, &ce) {
			t.Errorf("%s: Plan = %d calls, %v; want a CarryError", c.name, len(plan.Calls), err)
			continue
		}
		if direct := target.CheckCarry(target.Standard02, b, gw); direct == nil || direct.Error() != err.Error() {
			t.Errorf("%s: CheckCarry = %v, Plan refused with %v", c.name, direct, err)
		}
		line := err.Error()
		if strings.Contains(line, "\n") || !strings.Contains(line, `deployment "gateway-d3"`) {
			t.Errorf("%s: not one line naming the deployment: %q", c.name, line)
		}
		if body := ce.ErrorBody(); body.Status != 400 || body.Code != "unsupported_capability" {
			t.Errorf("%s: error body %d %s", c.name, body.Status, body.Code)
		}
		fmt.Fprintf(&lines, "%s: %s\n", c.name, line)
	}
	testkit.GoldenCheck(t, "testdata/standard02_refused.golden", []byte(lines.String()))
}

// TestEveryRefusedFieldIsChecked makes sure the codec knows every field
// of the generated refused-at-load table, so a field added to the
// specification cannot slip through to a standard server.
func TestEveryRefusedFieldIsChecked(t *testing.T) {
	for _, f := range fieldtable.RefusedAtLoad {
		switch f.Level {
		case table.LevelQuestion:
			if !knownField(f.Name) {
				t.Errorf("refused question field %q is not checked by questionFields", f.Name)
			}
		case table.LevelQuestionType, table.LevelAssetType:
		default:
			t.Errorf("refused field %s.%s at a level CheckCarry does not read", f.Level, f.Name)
		}
	}
}

func knownField(name string) bool {
	switch name {
	case "head", "decision_adapter", "over", "require_full_input", "threshold", "at", "rate":
		return true
	}
	return false
}

// TestCheckCarryRequestPaths: a rule's request is checked with paths from
// its own root (at nil), and several missing things are all named.
func TestCheckCarryRequestPaths(t *testing.T) {
	b := readBatch(t, []byte(`{"requests":{"r":{"state":"s","questions":{
		"a":{"type":"span","criteria":{"X":"x"}},"b":{"type":"noul","instructions":"i","over":["k"]}}}}}`), nil)
	missing := target.Standard02.CheckCarry(&b.Items[0].Request, gateway, nil)
	err := &target.CarryError{Deployment: gateway.Deployment, Schema: "systemone/0.2", Missing: missing}
	want := `deployment "gateway-d3" (systemone/0.2) cannot carry: span question at questions.a.type; over at questions.b.over`
	if err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if missing := target.Standard02.CheckCarry(&b.Items[0].Request, target.Target{Deployment: "x"}, nil); len(missing) == 0 {
		t.Fatal("a span question passed")
	}
}

// TestRefusalNamesNoValues: the refusal names members, never the state or
// the instructions.
func TestRefusalNamesNoValues(t *testing.T) {
	b := readBatch(t, []byte(`{"requests":{"r":{"state":"SECRET-STATE","questions":{
		"q":{"type":"span","instructions":"SECRET-INSTRUCTIONS","criteria":{"X":"SECRET-LABEL"}}}}}}`), nil)
	err := target.CheckCarry(target.Standard02, b, gateway)
	if err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("refusal %v", err)
	}
}
