package target

import (
	"context"
	"reflect"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/refscorer"
	"github.com/vllm-sr/systemone/runtime/shapes"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

func rewrite(t *testing.T, body string, items ...string) (string, int) {
	t.Helper()
	call := WireCall{Body: []byte(body), Items: items}
	diags, err := StateText{}.RewriteRequest(&call)
	if err != nil {
		t.Fatal(err)
	}
	return string(call.Body), len(diags)
}

// TestStateText covers each state kind and body shape; the expected texts
// are Python's json.dumps(state, ensure_ascii=False).
func TestStateText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"object", `{"model":"d3","state":{"a":"Rückgabe","n":49,"f":1.0,"e":2e3},"questions":{}}`,
			`{"model":"d3","state":"{\"a\": \"Rückgabe\", \"n\": 49, \"f\": 1.0, \"e\": 2000.0}","questions":{}}`},
		{"array", `{"state":["a",["b"],{"c":null}],"questions":{}}`,
			`{"state":"[\"a\", [\"b\"], {\"c\": null}]","questions":{}}`},
		{"text stays", `{"state":"plain","questions":{}}`, `{"state":"plain","questions":{}}`},
		{"roles dropped", `{"state":{"request":"r"},"roles":{"request":"user"},"questions":{}}`,
			`{"state":"{\"request\": \"r\"}","questions":{}}`},
		{"batch", `{"model":"m","requests":{"x":{"state":{"k":"v"},"questions":{}},"y":{"state":"t","questions":{}}}}`,
			`{"model":"m","requests":{"x":{"state":"{\"k\": \"v\"}","questions":{}},"y":{"state":"t","questions":{}}}}`},
		{"escapes", `{"state":{"q":"say \"hi\"\n\u00e9"},"questions":{}}`,
			`{"state":"{\"q\": \"say \\\"hi\\\"\\né\"}","questions":{}}`},
	}
	for _, c := range cases {
		got, _ := rewrite(t, c.in)
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestStateTextDiagnostics(t *testing.T) {
	call := WireCall{Body: []byte(`{"state":{"request":"r"},"roles":{"request":"user"},"questions":{}}`), Items: []string{"doc"}}
	diags, err := StateText{}.RewriteRequest(&call)
	if err != nil || len(diags) != 2 || diags[0].Path.String() != "requests.doc.state" || diags[1].Form != "roles" {
		t.Fatalf("%+v %v", diags, err)
	}
	untouched := []byte(`{"state":"x",  "questions":{}}`)
	call = WireCall{Body: untouched}
	if diags, _ := (StateText{}).RewriteRequest(&call); len(diags) != 0 || string(call.Body) != string(untouched) {
		t.Fatal("a text state's body was rewritten")
	}
}

func TestStateTextRefusesNonObjectBodies(t *testing.T) {
	for _, body := range []string{``, `[1]`, `{"state":`} {
		call := WireCall{Body: []byte(body)}
		if _, err := (StateText{}).RewriteRequest(&call); err == nil {
			t.Errorf("%q was rewritten", body)
		}
	}
}

func TestStateTextAppliesTo(t *testing.T) {
	if !(StateText{}).AppliesTo(table.SchemaStandard02) || !(StateText{}).AppliesTo(table.SchemaVllmSR50) ||
		(StateText{}).AppliesTo(table.SchemaInternal) || (StateText{}).AppliesTo(table.SchemaVllmSR40) {
		t.Fatal("state_text applies to systemone/0.2 and vllm-sr/5.0 only")
	}
	reply := WireReply{Status: 200, Body: []byte(`{"answers":{}}`)}
	if err := (StateText{}).RewriteReply(&reply); err != nil || string(reply.Body) != `{"answers":{}}` {
		t.Fatal("the reply was changed")
	}
}

// decision3Input is how Decision 3 renders a state into model input: a
// text state as its text, an object or array state as its json.dumps text.
// TestCrossFamilyEquivalence: an object or array state and its state_text
// get the same answers from Decision 3 (which reads an object state as its
// json.dumps text), as the reference scorer computes them, and Vela parses
// the text back into the same value.
func TestCrossFamilyEquivalence(t *testing.T) {
	for _, s := range []string{
		`{"request":"How long is the refund window?","candidate":"Refunds within 30 days.","n":49}`,
		`{"nested":{"list":[1,true,null,"ü"]},"emoji":"😀"}`,
		`["What happens here?",{"turn":2,"text":"Still broken."}]`,
	} {
		state, err := jsonvalue.Decode([]byte(s), jsonvalue.Options{})
		if err != nil {
			t.Fatal(err)
		}
		text := StateTextOf(state)
		if a, b := decide3(t, state), decide3(t, text); !reflect.DeepEqual(a, b) {
			t.Errorf("Decision 3 answers differ for %s:\nobject %+v\ntext   %+v", s, a, b)
		}
		back, err := jsonvalue.Decode([]byte(text.Str()), jsonvalue.Options{})
		if err != nil || !jsonvalue.Equal(back, state) {
			t.Errorf("Vela cannot parse %s back: %v", text.Str(), err)
		}
	}
}

// decide3 is the reference scorer's answers from vllm-sr/decision3 to one
// choice, one noul and one score question about state.
func decide3(t *testing.T, state jsonvalue.Value) []ir.Answer {
	t.Helper()
	req, _, err := shapes.DecodeRequest([]byte(`{"state":"","questions":{` +
		`"team":{"type":"choice","instructions":"Which team?","choices":{"billing":null,"engineering":"Outages"}},` +
		`"urgent":{"type":"noul","instructions":"Is it urgent?"},` +
		`"tone":{"type":"score","instructions":"How calm?","levels":["angry","neutral","calm"]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.State = state
	model, ok := catalog.Model("vllm-sr/decision3")
	if !ok {
		t.Fatal("vllm-sr/decision3 is not in the catalogue")
	}
	resp, err := (&refscorer.Scorer{}).Decide(context.Background(), model, req)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range resp.Answers {
		if a.Error != "" {
			t.Fatalf("question %s failed: %s %s", a.Name, a.Error, a.Reason)
		}
	}
	return resp.Answers
}
