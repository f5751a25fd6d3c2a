package target_test

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// TestOnly40: exactly the readings no 5.0 request spells need the internal
// form: under 4.0's implicit roles a state (or a states request's state)
// of placeholders in front of one item, and a preset-only question. The
// same array with roles (explicit or null), an object state's implicit
// roles, and any request a 5.0 listener reads do not.
func TestOnly40(t *testing.T) {
	const png = `{"type":"image","format":"png","data_base64":"iVBORw0KGgo="}`
	const noul = `"questions":{"q":{"type":"noul","instructions":"Is it?"}}`
	cases := []struct {
		name, body string
		only40     bool
	}{
		{"media in front, images", `{"state":["⟦i⟧","What happens here?"],"images":{"⟦i⟧":` + png + `},` + noul + `}`, true},
		{"media in front, assets", `{"state":["⟦i⟧","What happens here?"],"assets":{"⟦i⟧":` + png + `},` + noul + `}`, true},
		{"a states request's media", `{"states":{"a":"plain","b":["⟦i⟧","What happens here?"]},"assets":{"⟦i⟧":` + png + `},` + noul + `}`, true},
		{"preset-only", `{"state":"hi","questions":{"pii":{"preset":"pii"}}}`, true},
		{"media in front, explicit roles", `{"state":["⟦i⟧","What happens here?"],"roles":{},"assets":{"⟦i⟧":` + png + `},` + noul + `}`, false},
		{"placeholders only", `{"state":["⟦i⟧","⟦i⟧"],"assets":{"⟦i⟧":` + png + `},` + noul + `}`, false},
		{"an unknown placeholder", `{"state":["⟦x⟧","What happens here?"],"assets":{"⟦i⟧":` + png + `},` + noul + `}`, false},
		{"implicit roles of an object", `{"state":{"request":"hi","previous_answer":"yes"},` + noul + `}`, false},
		{"text", `{"state":"⟦i⟧ What happens here?","assets":{"⟦i⟧":` + png + `},` + noul + `}`, false},
	}
	read50 := 0
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cr, err := listener.V40.Read(listener.EndpointSystemOne, []byte(`{"model":"m",`+c.body[1:]), nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := target.Only40(cr.Request); got != c.only40 {
				t.Errorf("Only40 %v, want %v", got, c.only40)
			}
			if v50, err := listener.V50.Read(listener.EndpointSystemOne, []byte(`{"model":"m",`+c.body[1:]), nil); err == nil {
				read50++
				if target.Only40(v50.Request) {
					t.Errorf("a request the 5.0 listener reads needs the internal form")
				}
			}
		})
	}
	if read50 < 5 {
		t.Errorf("the 5.0 listener read %d of the cases: too few to check it", read50)
	}
}

// TestV50PlansThe40Reading: a batch with an Only40 item, a single request
// as a batch of one, goes as one internal-form /v1/bundle call; a 4.0
// batch without one as the one 5.0 batch call, which a 5.0 listener's
// batches always are.
func TestV50PlansThe40Reading(t *testing.T) {
	const media = `"photo":{"state":["⟦i⟧","What happens here?"],"assets":{"⟦i⟧":{"type":"image","format":"png","data_base64":"iVBORw0KGgo="}},"questions":{"q":{"type":"noul","instructions":"Is it?"}}}`
	const text = `"note":{"state":{"request":"hi"},"questions":{"q":{"type":"noul","instructions":"Is it?"}}}`
	for _, c := range []struct {
		name, requests string
		schema         table.SchemaID
		urls           string
	}{
		{"4.0 with media in front", media + "," + text, table.SchemaVllmSR40, "/v1/bundle"},
		{"4.0 alone with media in front", media, table.SchemaVllmSR40, "/v1/bundle"},
		{"4.0 without", text, table.SchemaVllmSR40, "/v1/systemone/batch"},
		{"5.0 with the same array", media + "," + text, table.SchemaVllmSR50, "/v1/systemone/batch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			codec := listener.V50
			if c.schema == table.SchemaVllmSR40 {
				codec = listener.V40
			}
			cr, err := codec.Read(listener.EndpointBatch, []byte(`{"model":"m","requests":{`+c.requests+`}}`), nil)
			if err != nil {
				t.Fatal(err)
			}
			plan, _, err := target.V50.Plan(cr.Batch, serve, target.Policy{})
			if err != nil {
				t.Fatal(err)
			}
			var urls []string
			for _, call := range plan.Calls {
				urls = append(urls, strings.TrimPrefix(call.URL, "http://127.0.0.1:8100"))
			}
			if got := strings.Join(urls, " "); got != c.urls {
				t.Errorf("calls to %s, want %s", got, c.urls)
			}
		})
	}
}
