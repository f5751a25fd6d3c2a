package router_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// testDecisionsUncarried: on /v1/decisions a question the deployment
// cannot carry or answer fails alone inside the 200, as vllm-srun fails a
// question its model does not answer, and never goes upstream; the other
// questions are answered. A request none of whose questions is left is
// 400 invalid_request no_valid_question before any call. /v1/systemone
// still refuses the whole request (testUnsupported).
func testDecisionsUncarried(t *testing.T, e *env) {
	noul := func(name string) string {
		return `"` + name + `":{"type":"noul","instructions":"Is it urgent?"}`
	}
	span := `"pii":{"type":"span","instructions":"Where is personal data?","criteria":{"email":"An e-mail address"}}`
	t.Run("systemone/0.2 deployment, vllm-sr/5.0 client", func(t *testing.T) {
		before := len(e.rec.Calls())
		body := `{"model":"gateway-d3","state":"mail me at someone@example.com","questions":{` + noul("urgent") + "," + span + "," + noul("late") + `}}`
		status, out := post(t, e.url("public5", "/v1/decisions"), body)
		if status != 200 {
			t.Fatalf("%d %s", status, out)
		}
		answers, _ := decodeJSON(t, out)["answers"].(map[string]any)
		pii, _ := answers["pii"].(map[string]any)
		if pii["error"] != "invalid_question" || pii["reason"] != "question_type_not_answered" ||
			!strings.Contains(pii["message"].(string), `deployment "gateway-d3" (systemone/0.2) cannot carry: span question`) {
			t.Errorf("the span question's answer: %v", pii)
		}
		for _, name := range []string{"urgent", "late"} {
			if a, _ := answers[name].(map[string]any); a["noul"] == nil {
				t.Errorf("%s not answered: %s", name, out)
			}
		}
		if keys := jsonKeys(t, out, "answers"); strings.Join(keys, ",") != "urgent,pii,late" {
			t.Errorf("answers in order %v, want the request's", keys)
		}
		calls := e.rec.Calls()[before:]
		if len(calls) != 1 || bytes.Contains(calls[0], []byte(`"pii"`)) || !bytes.Contains(calls[0], []byte(`"late"`)) {
			t.Errorf("the upstream got %q, want one call without the span question", calls)
		}
	})
	t.Run("systemone/0.2 deployment, vllm-sr/4.0 client", func(t *testing.T) {
		body := `{"model":"gateway-d3","state":{"request":"mail me"},"questions":{` + span + "," + noul("urgent") + `}}`
		status, out := post(t, e.url("legacy4", "/v1/decisions"), body)
		if status != 200 || !strings.Contains(string(out), `"question_type_not_answered"`) {
			t.Fatalf("%d %s", status, out)
		}
	})
	t.Run("no question left", func(t *testing.T) {
		before := len(e.rec.Calls())
		body := `{"model":"gateway-d3","state":"mail me","questions":{` + span + `}}`
		status, out := post(t, e.url("public5", "/v1/decisions"), body)
		got := decodeJSON(t, out)
		if status != 400 || got["code"] != "invalid_request" || got["reason"] != "no_valid_question" ||
			!strings.Contains(fmt.Sprint(got["detail"]), `question "pii"`) {
			t.Errorf("%d %s", status, out)
		}
		if n := len(e.rec.Calls()) - before; n != 0 {
			t.Errorf("the upstream got %d calls", n)
		}
	})
	t.Run("the same answer as the runtime", func(t *testing.T) {
		// vllm-sr/decision1 answers no box question: its runtime fails the
		// question in its model check, the Router by the deployment's card.
		before := len(e.tap.Got("/v1/decisions"))
		body := `{"model":"vllm-sr/decision1","state":{"request":"the server is down"},"questions":{` +
			`"where":{"type":"box","instructions":"Where is the logo?"},` + noul("urgent") + `}}`
		status, viaRouter := post(t, e.url("public5", "/v1/decisions"), body)
		if status != 200 {
			t.Fatalf("through the Router: %d %s", status, viaRouter)
		}
		got := e.tap.Got("/v1/decisions")[before:]
		if len(got) != 1 || bytes.Contains(got[0], []byte(`"where"`)) {
			t.Errorf("the runtime got %q, want one call without the box question", got)
		}
		status, direct := post(t, e.tap.Server.URL+"/v1/decisions", body)
		if status != 200 {
			t.Fatalf("from the runtime: %d %s", status, direct)
		}
		for _, name := range []string{"where", "urgent"} {
			r, _ := decodeJSON(t, viaRouter)["answers"].(map[string]any)[name].(map[string]any)
			d, _ := decodeJSON(t, direct)["answers"].(map[string]any)[name].(map[string]any)
			if r["error"] != d["error"] || r["reason"] != d["reason"] || r["type"] != d["type"] {
				t.Errorf("question %s: through the Router %v, from the runtime %v", name, r, d)
			}
		}
		// An image the model does not read fails every question: 400 on both.
		image := `{"model":"vllm-sr/decision1","state":{"request":"<logo> is it ours?"},` +
			`"assets":{"<logo>":{"type":"image","format":"png","data_base64":"iVBORw0KGgo="}},"questions":{` + noul("urgent") + `}}`
		before = len(e.tap.Got("/v1/decisions"))
		status, viaRouter = post(t, e.url("public5", "/v1/decisions"), image)
		directStatus, direct := post(t, e.tap.Server.URL+"/v1/decisions", image)
		r, d := decodeJSON(t, viaRouter), decodeJSON(t, direct)
		if status != 400 || directStatus != 400 || r["reason"] != "no_valid_question" || r["code"] != d["code"] || r["reason"] != d["reason"] {
			t.Errorf("an image: through the Router %d %s, from the runtime %d %s", status, viaRouter, directStatus, direct)
		}
		if n := len(e.tap.Got("/v1/decisions")) - before; n != 1 { // the direct request only
			t.Errorf("the runtime got %d calls, want the direct one", n)
		}
	})
}

// testDecisionsNoValidQuestion: /v1/decisions answers a request none of
// whose questions the model's card lets it answer alike on the Router and
// the runtime (the schemas design's rule 8): the same status, code, reason,
// detail and per-question kinds, and through the Router with no upstream
// call. A request with one such question fails that one alone, with the
// runtime's own error, reason and message.
func testDecisionsNoValidQuestion(t *testing.T, e *env) {
	options := make([]string, 65) // decision1 reads choices of 1 to 64 options
	for i := range options {
		options[i] = fmt.Sprintf(`"o%d":"Option %d"`, i, i)
	}
	bad := `"a":{"type":"noul","instructions":"Is it urgent?","preset":"no_such_preset"},` +
		`"b":{"type":"choice","instructions":"Which one?","criteria":{` + strings.Join(options, ",") + `}},` +
		`"c":{"type":"noul","instructions":"Is it urgent?","over":["request"]}`
	body := `{"model":"vllm-sr/decision1","state":{"request":"the server is down"},"questions":{` + bad + `}}`
	before := len(e.tap.Got("/v1/decisions"))
	status, viaRouter := post(t, e.url("public5", "/v1/decisions"), body)
	if n := len(e.tap.Got("/v1/decisions")) - before; n != 0 {
		t.Errorf("the runtime got %d calls through the Router, want none", n)
	}
	directStatus, direct := post(t, e.tap.Server.URL+"/v1/decisions", body)
	r, d := decodeJSON(t, viaRouter), decodeJSON(t, direct)
	if status != 400 || directStatus != 400 || r["code"] != "invalid_request" || r["reason"] != "no_valid_question" {
		t.Fatalf("through the Router %d %s, from the runtime %d %s", status, viaRouter, directStatus, direct)
	}
	for _, member := range []string{"code", "reason", "detail"} {
		if fmt.Sprint(r[member]) != fmt.Sprint(d[member]) {
			t.Errorf("%s through the Router %v, from the runtime %v", member, r[member], d[member])
		}
	}
	if !strings.Contains(fmt.Sprint(r["detail"]), "the model's card does not list this preset (invalid_question)") {
		t.Errorf("the detail does not give the runtime's words: %v", r["detail"])
	}
	// One such question among answered ones fails alone, as on the runtime.
	body = `{"model":"vllm-sr/decision1","state":{"request":"the server is down"},"questions":{` + bad +
		`,"urgent":{"type":"noul","instructions":"Is it urgent?"}}}`
	status, viaRouter = post(t, e.url("public5", "/v1/decisions"), body)
	directStatus, direct = post(t, e.tap.Server.URL+"/v1/decisions", body)
	if status != 200 || directStatus != 200 {
		t.Fatalf("through the Router %d %s, from the runtime %d %s", status, viaRouter, directStatus, direct)
	}
	ra, _ := decodeJSON(t, viaRouter)["answers"].(map[string]any)
	da, _ := decodeJSON(t, direct)["answers"].(map[string]any)
	for _, name := range []string{"a", "b", "c"} {
		rq, _ := ra[name].(map[string]any)
		dq, _ := da[name].(map[string]any)
		for _, member := range []string{"type", "error", "reason", "message", "limit"} {
			if fmt.Sprint(rq[member]) != fmt.Sprint(dq[member]) || dq["error"] == nil {
				t.Errorf("question %s, %s: through the Router %v, from the runtime %v", name, member, rq, dq)
			}
		}
	}
	if u, _ := ra["urgent"].(map[string]any); u["noul"] == nil {
		t.Errorf("urgent not answered through the Router: %s", viaRouter)
	}
}

// jsonKeys lists the names of body's object member as written.
func jsonKeys(t *testing.T, body []byte, member string) []string {
	t.Helper()
	root, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: 64})
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	v, _ := root.Get(member)
	var names []string
	for _, m := range v.Members() {
		names = append(names, m.Name)
	}
	return names
}
