package internalwire

import (
	"errors"
	"testing"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	sop "github.com/vllm-sr/systemone/runtime/systemoneprotocol"
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
	r := &sop.Request{
		Model: new("vllm-sr/vela3"),
		State: state,
		Roles: sop.Roles{Mode: sop.RoleModeExplicit, Parts: []sop.RolePart{{Key: "request", Role: sop.RoleUser}, {Key: "history", Role: sop.RoleContext}}},
		Questions: []sop.Question{
			{Name: "team", Type: table.QuestionChoice, Instructions: jsonvalue.String("Which team?"),
				Criteria: sop.Criteria{Form: sop.CriteriaKeyed, Keyed: []jsonvalue.Member{{Name: "billing", Value: jsonvalue.Null()}}}},
			{Name: "pii", Type: table.QuestionSpan, Criteria: sop.Criteria{Form: sop.CriteriaKeyed, Keyed: mustMembers(t, "EMAIL", "An email")},
				Threshold: new(0.5), Head: new(sop.SpanHeadRouter), Over: []string{"request"}},
		},
		Assets:  []sop.Asset{{Placeholder: "p", Type: sop.AssetVideo, Format: new("mp4"), Data: jsonvalue.String("AA==")}},
		Options: &sop.Options{DeadlineMs: new(int64(1500)), LongContext: new(true)},
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
	for mode, want := range map[sop.RoleMode]string{
		sop.RoleModeImplicit: `{"state":"s","questions":{"q":{"type":"noul"}}}`,
		sop.RoleModeNone:     `{"state":"s","roles":null,"questions":{"q":{"type":"noul"}}}`,
		sop.RoleModeExplicit: `{"state":"s","roles":{},"questions":{"q":{"type":"noul"}}}`,
	} {
		r := &sop.Request{State: jsonvalue.String("s"), Roles: sop.Roles{Mode: mode},
			Questions: []sop.Question{{Name: "q", Type: table.QuestionNoul}}}
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
	r.Questions[1].Criteria = sop.Criteria{Form: sop.CriteriaLevels, Levels: []jsonvalue.Value{jsonvalue.String("lo"), jsonvalue.String("hi")}}
	r.Roles = sop.Roles{Mode: sop.RoleModeNone} // not in the layout: canonical place, at the end
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
	noul := []sop.Question{{Name: "q", Type: table.QuestionNoul}}
	cases := []struct {
		name   string
		r      sop.Request
		reason sop.Reason
		path   string
	}{
		{"unset roles mode", sop.Request{State: jsonvalue.String("s"), Questions: noul}, sop.ReasonUnsetMode, "roles"},
		{"state and states", sop.Request{State: jsonvalue.String("s"), States: mustMembers(t, "a", "b"),
			Roles: sop.Roles{Mode: sop.RoleModeNone}, Questions: noul}, sop.ReasonConflict, "state"},
		{"no questions", sop.Request{State: jsonvalue.String("s"), Roles: sop.Roles{Mode: sop.RoleModeNone}}, sop.ReasonEmpty, "questions"},
		{"null state", sop.Request{State: jsonvalue.Null(), Roles: sop.Roles{Mode: sop.RoleModeNone}, Questions: noul}, sop.ReasonWrongType, "state"},
		{"levels on a choice", sop.Request{State: jsonvalue.String("s"), Roles: sop.Roles{Mode: sop.RoleModeNone},
			Questions: []sop.Question{{Name: "q", Type: table.QuestionChoice, Criteria: sop.Criteria{Form: sop.CriteriaLevels}}}},
			sop.ReasonWrongType, "questions.q.criteria"},
		{"head on a noul", sop.Request{State: jsonvalue.String("s"), Roles: sop.Roles{Mode: sop.RoleModeNone},
			Questions: []sop.Question{{Name: "q", Type: table.QuestionNoul, Head: new(sop.SpanHeadBroad)}}},
			sop.ReasonNotAllowedHere, "questions.q.head"},
		{"unknown asset type", sop.Request{State: jsonvalue.String("s"), Roles: sop.Roles{Mode: sop.RoleModeNone}, Questions: noul,
			Assets: []sop.Asset{{Placeholder: "p", Type: "audio", Format: new("mp3"), Data: jsonvalue.String("AA==")}}}, sop.ReasonUnknownValue, "assets.p.type"},
		{"negative deadline", sop.Request{State: jsonvalue.String("s"), Roles: sop.Roles{Mode: sop.RoleModeNone}, Questions: noul,
			Options: &sop.Options{DeadlineMs: new(int64(-5))}}, sop.ReasonOutOfRange, "options.deadline_ms"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := EncodeRequest(&c.r)
			var pe *sop.ProtocolError
			if !errors.As(err, &pe) || pe.Category != sop.CategoryInvalidIR || pe.Reason != c.reason || pe.Path.String() != c.path {
				t.Fatalf("got %v, want invalid_ir %s at %s", err, c.reason, c.path)
			}
		})
	}
}

// The bundle carries options per request: a batch's own options are the
// caller's to copy into its items, and an item's error names its place.
func TestEncodeBundleRefusals(t *testing.T) {
	item := sop.Request{State: jsonvalue.String("s"), Roles: sop.Roles{Mode: sop.RoleModeNone},
		Questions: []sop.Question{{Name: "q", Type: table.QuestionNoul}}}
	_, err := EncodeBundle(&sop.Batch{Items: []sop.BatchItem{{Name: "a", Request: item}}, Options: &sop.Options{}})
	var pe *sop.ProtocolError
	if !errors.As(err, &pe) || pe.Category != sop.CategoryUnsupported || pe.Path.String() != "options" {
		t.Fatalf("got %v, want unsupported at options", err)
	}
	bad := item
	bad.Roles = sop.Roles{}
	_, err = EncodeBundle(&sop.Batch{Items: []sop.BatchItem{{Name: "a", Request: item}, {Name: "b", Request: bad}}})
	if !errors.As(err, &pe) || pe.Reason != sop.ReasonUnsetMode || pe.Path.String() != "requests.b.roles" {
		t.Fatalf("got %v, want unset_mode at requests.b.roles", err)
	}
}
