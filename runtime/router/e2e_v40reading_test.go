package router_test

import (
	"bytes"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
)

// readingCase is one request a vllm-sr/4.0 listener accepts.
type readingCase struct {
	name, model, body string
	// overlap: a valid 5.0 request that a 5.0 server reads otherwise.
	overlap bool
	// fails: a question fails in the runtime, so the fail-fast endpoints
	// answer the failure and /v1/decisions carries it in its 200.
	fails bool
}

// The media overlap as the issue met it: one PNG in front of one item,
// which 4.0 reads as an array that labels its assets and 5.0 as the item
// with the image in front of it. The PNG is the corpus's (images.json).
const overlapMedia = `{"model":"vllm-sr/decision3","state":["⟦img-1⟧","What happens here?"],` +
	`"%s":{"⟦img-1⟧":{"type":"image","format":"png","data_base64":"%s"}},` +
	`"questions":{"q":{"type":"noul","instructions":"What happens here?"}}}`

// The object-state overlap: an object state without roles keeps 4.0's
// implicit roles (request the user's, previous_answer and context
// context, answer the answer), which a role-aware family reads part by
// part (a span reads the answer parts) and a Decision family renders
// whole; without roles a 5.0 server would read all of it as the user's.
const overlapObject = `{"model":"vllm-sr/%s","state":{"request":"Is the answer right?","previous_answer":"Sydney, I think.",` +
	`"context":"Canberra is the capital of Australia.","answer":"The capital of Australia is Sydney."},` +
	`"questions":{"correct":{"type":"noul","instructions":"Is the answer correct?"}%s}}`

// A failed question beside an answered one, on the media overlap: the
// runtime fails it (over names no key of the state), and the Router's
// fail-fast answer is the runtime's own.
const overlapFailed = `{"model":"vllm-sr/vela3-d3","state":["⟦img-1⟧","What happens here?"],` +
	`"images":{"⟦img-1⟧":{"type":"image","format":"png","data_base64":"%s"}},"questions":{"ok":{"type":"noul","instructions":"Is it?"},` +
	`"x":{"type":"noul","instructions":"Is it?","over":["missing"]}}}`

const overlapSpan = `,"claims":{"type":"span","instructions":"Which claims are wrong?","criteria":{"wrong":"A wrong claim"}}`

// readingCases are the whole 4.0 corpus (the legacy forms and the
// families' self-tests) and the two overlaps spelled out.
func readingCases(t *testing.T) []readingCase {
	t.Helper()
	var out []readingCase
	for _, c := range corpus.Cases {
		body, err := corpus.FS.ReadFile(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, readingCase{name: c.Name, model: memberString(t, body, vocab.RequestModel), body: string(body)})
	}
	if len(out) < 20 {
		t.Fatalf("the corpus has %d cases: too few to prove anything", len(out))
	}
	png := corpusPNG(t)
	for _, spelling := range []string{vocab.RequestImages, vocab.RequestAssets} {
		out = append(out, readingCase{name: "media overlap/" + spelling, model: "vllm-sr/decision3", body: fmt.Sprintf(overlapMedia, spelling, png),
			overlap: spelling == vocab.RequestAssets})
	}
	out = append(out, readingCase{name: "media overlap/failed question", model: "vllm-sr/vela3-d3", body: fmt.Sprintf(overlapFailed, png), fails: true})
	for _, model := range []string{"vela3", "vela3-fast", "vela2", "decision2"} {
		span, roleAware := overlapSpan, true
		if model == "decision2" { // a Decision family answers no span, and renders the state whole
			span, roleAware = "", false
		}
		out = append(out, readingCase{name: "object overlap/" + model, model: "vllm-sr/" + model, body: fmt.Sprintf(overlapObject, model, span),
			overlap: roleAware})
	}
	return out
}

// TestV40ListenerKeeps40Reading: every request a vllm-sr/4.0 listener
// accepts gets, through a Router 4.0 listener in front of a vllm-sr/5.0
// vllm-srun, exactly the answer a 4.0 vllm-srun of the same model gives
// directly: on /v1/systemone (with the body's options, and with the
// long-context header), on /v1/decisions, and as a two-request
// /v1/systemone/batch. Status and body are compared byte for byte. An
// overlap case is also sent to the 5.0 runtime itself, whose own reading
// must differ: the Router keeps the 4.0 one where the two part.
func TestV40ListenerKeeps40Reading(t *testing.T) {
	cases := readingCases(t)
	direct, behind := map[string]string{}, map[string]string{}
	var deployments strings.Builder
	for _, c := range cases {
		if _, started := direct[c.model]; started {
			continue
		}
		direct[c.model] = startRuntimeWith(t, srun.Config{Model: c.model, Schema: table.SchemaVllmSR40, Logger: quiet()}).URL()
		behind[c.model] = startRuntimeWith(t, srun.Config{Model: c.model, Logger: quiet()}).URL()
		fmt.Fprintf(&deployments, "  %s:\n    provider: systemone\n    endpoint: %s/v1/systemone\n    model: %s\n    schema: vllm-sr/5.0\n",
			c.model, behind[c.model], c.model)
	}
	path := writeConfig(t, "listeners:\n  - name: legacy4\n    address: 127.0.0.1:{{P}}\n    apis:\n      systemone: {schema: vllm-sr/4.0}\ndeployments:\n"+
		deployments.String(), map[string]string{"P": freePort(t)})
	router := startRouter(t, path).URL("legacy4")

	overlaps := 0
	for _, c := range cases {
		for _, s := range sendings(t, c) {
			t.Run(c.name+"/"+s.name, func(t *testing.T) {
				wantStatus, want := send(t, direct[c.model]+s.path, s.body, s.header)
				gotStatus, got := send(t, router+s.path, s.body, s.header)
				if c.fails && s.path == vocab.PathDecisions {
					// The Router fails a question the card refuses itself,
					// with the runtime's words, and sends the rest: the
					// model reads, and counts, only the answered ones.
					got, want = unused(got), unused(want)
				}
				if gotStatus != wantStatus || !bytes.Equal(untimed(got), untimed(want)) {
					t.Errorf("through the Router 4.0 listener: %d %s\nfrom the 4.0 runtime:          %d %s", gotStatus, got, wantStatus, want)
				}
				// The comparison is of answers: every sending is answered,
				// but roles null off /v1/decisions, which only the
				// internal form takes (the frozen 4.0 contract refuses it),
				// and a failed question off /v1/decisions.
				refused := (strings.Contains(s.body, `"roles":null`) || c.fails) && s.path != vocab.PathDecisions
				if (wantStatus == http.StatusOK) == refused {
					t.Errorf("the 4.0 runtime answered %d: %s", wantStatus, want)
				}
				if c.overlap && s.path == vocab.PathSystemone && s.header == nil {
					overlaps++
					if status, as50 := send(t, behind[c.model]+s.path, s.body, nil); status != http.StatusOK || bytes.Equal(as50, want) {
						t.Errorf("the 5.0 runtime's own reading is not another answer: %d %s", status, as50)
					}
				}
			})
		}
	}
	if overlaps != 4 {
		t.Errorf("%d overlap cases were checked against the 5.0 reading, want 4", overlaps)
	}
}

// sending is one way a case is sent.
type sending struct {
	name, path, body string
	header           http.Header
}

// sendings are the ways case c is sent to a 4.0 listener: its body on
// /v1/systemone, the same with the long-context header (which the
// listener translates instead of passing through), on /v1/decisions, and
// as a batch of two requests (a states request has no batch form).
func sendings(t *testing.T, c readingCase) []sending {
	long := http.Header{vocab.HeaderLongContext: {"true"}}
	out := []sending{
		{"systemone", vocab.PathSystemone, c.body, nil},
		{"systemone long-context header", vocab.PathSystemone, c.body, long},
		{"decisions", vocab.PathDecisions, c.body, nil},
	}
	if !strings.Contains(c.body, `"states":`) {
		out = append(out, sending{"batch", vocab.PathSystemoneBatch, batchOfTwo(t, c.body), nil})
	}
	return out
}

// batchOfTwo is body as a /v1/systemone/batch of two requests: the body
// without its model and options twice, the model and options the batch's.
func batchOfTwo(t *testing.T, body string) string {
	root := decodeValue(t, []byte(body))
	var item, top []jsonvalue.Member
	for _, m := range root.Members() {
		switch m.Name {
		case vocab.RequestModel, vocab.RequestOptions:
			top = append(top, m)
		default:
			item = append(item, m)
		}
	}
	one, _ := jsonvalue.Object(item...)
	requests, _ := jsonvalue.Object(jsonvalue.Member{Name: "first", Value: one}, jsonvalue.Member{Name: "second", Value: one})
	top = slices.Insert(top, min(1, len(top)), jsonvalue.Member{Name: vocab.BatchRequests, Value: requests}) // after model
	batch, _ := jsonvalue.Object(top...)
	return string(jsonvalue.Compact(batch))
}

// timings is meta's timings member, the one part of an answer that is
// not deterministic (return_meta): how long this request took.
var timings = regexp.MustCompile(`"timings":\{[^{}]*\}`)

// usage is a response's usage member.
var usage = regexp.MustCompile(`"usage":\{[^{}]*\}`)

// unused is body with its usage left out.
func unused(body []byte) []byte { return usage.ReplaceAll(body, []byte(`"usage":{}`)) }

// untimed is body with meta's timings left out.
func untimed(body []byte) []byte { return timings.ReplaceAll(body, []byte(`"timings":{}`)) }

// send posts body with header to url and returns the status and body.
func send(t *testing.T, url, body string, header http.Header) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	_, _ = out.ReadFrom(resp.Body)
	return resp.StatusCode, out.Bytes()
}

func decodeValue(t *testing.T, body []byte) jsonvalue.Value {
	t.Helper()
	v, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: 64})
	if err != nil {
		t.Fatalf("not JSON: %v: %s", err, body)
	}
	return v
}

// memberString is a string member of body's root object.
func memberString(t *testing.T, body []byte, name string) string {
	t.Helper()
	v, ok := decodeValue(t, body).Get(name)
	if !ok || v.Kind() != jsonvalue.KindString {
		t.Fatalf("no string %s in %s", name, body)
	}
	return v.Str()
}

// corpusPNG is the PNG of the corpus's images form (legacy_form/images).
func corpusPNG(t *testing.T) string {
	t.Helper()
	body, err := corpus.FS.ReadFile("legacy_form/images.json")
	if err != nil {
		t.Fatal(err)
	}
	images, _ := decodeValue(t, body).Get(vocab.RequestImages)
	for _, m := range images.Members() {
		if d, ok := m.Value.Get(vocab.AssetDataBase64); ok && d.Kind() == jsonvalue.KindString {
			return d.Str()
		}
	}
	t.Fatalf("no image in %s", body)
	return ""
}
