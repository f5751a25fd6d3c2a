package shapes

import (
	"errors"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

func mustMembers(t *testing.T, kv ...string) []jsonvalue.Member {
	t.Helper()
	var ms []jsonvalue.Member
	for i := 0; i < len(kv); i += 2 {
		ms = append(ms, jsonvalue.Member{Name: kv[i], Value: jsonvalue.String(kv[i+1])})
	}
	return ms
}

// An IR another codec built has no layout: it is written in the canonical
// member order with the standard spellings.
func TestEncodeCanonicalForm(t *testing.T) {
	state, _ := jsonvalue.Object(mustMembers(t, "request", "Open a ticket", "history", "Earlier")...)
	r := &ir.Request{
		Model: new("vllm-sr/vela3"),
		State: state,
		Roles: ir.Roles{Mode: ir.RoleModeExplicit, Parts: []ir.RolePart{{Key: "request", Role: ir.RoleUser}, {Key: "history", Role: ir.RoleContext}}},
		Questions: []ir.Question{
			{Name: "team", Type: table.QuestionChoice, Instructions: jsonvalue.String("Which team?"),
				Criteria: ir.Criteria{Form: ir.CriteriaKeyed, Keyed: []jsonvalue.Member{{Name: "billing", Value: jsonvalue.Null()}}}},
			{Name: "pii", Type: table.QuestionSpan, Criteria: ir.Criteria{Form: ir.CriteriaKeyed, Keyed: mustMembers(t, "EMAIL", "An email")},
				Threshold: new(0.5), Head: new(ir.SpanHeadRouter), Over: []string{"request"}},
		},
		Assets:  []ir.Asset{{Placeholder: "p", Type: ir.AssetVideo, Format: new("mp4"), DataBase64: jsonvalue.String("AA==")}},
		Options: &ir.Options{DeadlineMs: new(int64(1500)), LongContext: new(true)},
	}
	got, err := EncodeRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"vllm-sr/vela3","state":{"request":"Open a ticket","history":"Earlier"},` +
		`"roles":{"request":"user","history":"context"},"questions":{"team":{"type":"choice","instructions":"Which team?","criteria":{"billing":null}},` +
		`"pii":{"type":"span","criteria":{"EMAIL":"An email"},"head":"router","over":["request"],"threshold":0.5}},` +
		`"assets":{"p":{"type":"video","format":"mp4","data_base64":"AA=="}},"options":{"deadline_ms":1500,"long_context":true}}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestEncodeRoleModes(t *testing.T) {
	for mode, want := range map[ir.RoleMode]string{
		ir.RoleModeImplicit: `{"state":"s","questions":{"q":{"type":"noul"}}}`,
		ir.RoleModeNone:     `{"state":"s","roles":null,"questions":{"q":{"type":"noul"}}}`,
		ir.RoleModeExplicit: `{"state":"s","roles":{},"questions":{"q":{"type":"noul"}}}`,
	} {
		r := &ir.Request{State: jsonvalue.String("s"), Roles: ir.Roles{Mode: mode},
			Questions: []ir.Question{{Name: "q", Type: table.QuestionNoul}}}
		got, err := EncodeRequest(r)
		if err != nil || string(got) != want {
			t.Errorf("mode %s: got %s, %v; want %s", mode, got, err, want)
		}
	}
}

// A layout is a hint: once the IR changes, a recorded spelling that no
// longer stands for the value is dropped for the canonical one, and what
// the layout does not place goes in canonical order.
func TestEncodeAfterEditingTheIR(t *testing.T) {
	body := `{"options":{"deadline_ms":1e0},"questions":{"a":{"type":"span","labels":{"X":null},"threshold":0.50},` +
		`"b":{"type":"choice","choices":{"x":null}}},"state":"s","model":"m\u0031"}`
	_, _, err := DecodeRequest([]byte(body))
	if err == nil {
		t.Fatal("deadline_ms 1e0 must be refused: integers are written as integers")
	}
	body = `{"options":{"deadline_ms":10},"questions":{"a":{"type":"span","labels":{"X":null},"threshold":0.50},` +
		`"b":{"type":"choice","choices":{"x":null}}},"state":"s","model":"m\u0031"}`
	r, _, err := DecodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Questions[0].Threshold = new(0.7)       // the recorded 0.50 no longer applies
	r.Model = new("m2")                       // nor the recorded "m\u0031"
	r.Questions[1].Type = table.QuestionScore // choices does not fit a score
	r.Questions[1].Criteria = ir.Criteria{Form: ir.CriteriaLevels, Levels: []jsonvalue.Value{jsonvalue.String("lo"), jsonvalue.String("hi")}}
	r.Roles = ir.Roles{Mode: ir.RoleModeNone} // not in the layout: canonical place, at the end
	r.Options.ReturnMeta = new(true)
	got, err := EncodeRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"options":{"deadline_ms":10,"return_meta":true},"questions":{"a":{"type":"span","labels":{"X":null},"threshold":0.7},` +
		`"b":{"type":"score","criteria":["lo","hi"]}},"state":"s","model":"m2","roles":null}`
	if string(got) != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestEncodeRefusesInconsistentIR(t *testing.T) {
	noul := []ir.Question{{Name: "q", Type: table.QuestionNoul}}
	cases := []struct {
		name   string
		r      ir.Request
		reason ir.Reason
		path   string
	}{
		{"unset roles mode", ir.Request{State: jsonvalue.String("s"), Questions: noul}, ir.ReasonUnsetMode, "roles"},
		{"state and states", ir.Request{State: jsonvalue.String("s"), States: mustMembers(t, "a", "b"),
			Roles: ir.Roles{Mode: ir.RoleModeNone}, Questions: noul}, ir.ReasonConflict, "state"},
		{"no questions", ir.Request{State: jsonvalue.String("s"), Roles: ir.Roles{Mode: ir.RoleModeNone}}, ir.ReasonEmpty, "questions"},
		{"null state", ir.Request{State: jsonvalue.Null(), Roles: ir.Roles{Mode: ir.RoleModeNone}, Questions: noul}, ir.ReasonWrongType, "state"},
		{"levels on a choice", ir.Request{State: jsonvalue.String("s"), Roles: ir.Roles{Mode: ir.RoleModeNone},
			Questions: []ir.Question{{Name: "q", Type: table.QuestionChoice, Criteria: ir.Criteria{Form: ir.CriteriaLevels}}}},
			ir.ReasonWrongType, "questions.q.criteria"},
		{"head on a noul", ir.Request{State: jsonvalue.String("s"), Roles: ir.Roles{Mode: ir.RoleModeNone},
			Questions: []ir.Question{{Name: "q", Type: table.QuestionNoul, Head: new(ir.SpanHeadBroad)}}},
			ir.ReasonNotAllowedHere, "questions.q.head"},
		{"unknown asset type", ir.Request{State: jsonvalue.String("s"), Roles: ir.Roles{Mode: ir.RoleModeNone}, Questions: noul,
			Assets: []ir.Asset{{Placeholder: "p", Type: "audio", Format: new("mp3"), DataBase64: jsonvalue.String("AA==")}}}, ir.ReasonUnknownValue, "assets.p.type"},
		{"negative deadline", ir.Request{State: jsonvalue.String("s"), Roles: ir.Roles{Mode: ir.RoleModeNone}, Questions: noul,
			Options: &ir.Options{DeadlineMs: new(int64(-5))}}, ir.ReasonOutOfRange, "options.deadline_ms"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := EncodeRequest(&c.r)
			var pe *ir.ProtocolError
			if !errors.As(err, &pe) || pe.Category != ir.CategoryInvalidIR || pe.Reason != c.reason || pe.Path.String() != c.path {
				t.Fatalf("got %v, want invalid_ir %s at %s", err, c.reason, c.path)
			}
		})
	}
}

// The bundle carries options per request: a batch's own options are the
// caller's to copy into its items, and an item's error names its place.
func TestEncodeBundleRefusals(t *testing.T) {
	item := ir.Request{State: jsonvalue.String("s"), Roles: ir.Roles{Mode: ir.RoleModeNone},
		Questions: []ir.Question{{Name: "q", Type: table.QuestionNoul}}}
	_, err := EncodeBundle(&ir.Batch{Items: []ir.BatchItem{{Name: "a", Request: item}}, Options: &ir.Options{}})
	var pe *ir.ProtocolError
	if !errors.As(err, &pe) || pe.Category != ir.CategoryUnsupported || pe.Path.String() != "options" {
		t.Fatalf("got %v, want unsupported at options", err)
	}
	bad := item
	bad.Roles = ir.Roles{}
	_, err = EncodeBundle(&ir.Batch{Items: []ir.BatchItem{{Name: "a", Request: item}, {Name: "b", Request: bad}}})
	if !errors.As(err, &pe) || pe.Reason != ir.ReasonUnsetMode || pe.Path.String() != "requests.b.roles" {
		t.Fatalf("got %v, want unset_mode at requests.b.roles", err)
	}
}
