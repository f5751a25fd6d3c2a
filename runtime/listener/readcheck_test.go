package listener_test

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/shapes"
)

// overwritingBody is a request whose containers (state, criteria, an
// array) differ from any seed's, read after each accepted one.
var overwritingBody = []byte(`{"state":{"a":["x","y",{"z":1}],"b":"OVERWRITE"},"questions":{"q":{"type":"choice","instructions":"Which?","criteria":{"p":"P!","r":"R!"}}},"options":{"deadline_ms":5}}`)

// seedReadFuzz adds the generated round-trip corpus and every request
// case's body to a fuzz target.
func seedReadFuzz(f *testing.F) {
	for _, c := range corpus.Cases {
		body, err := corpus.FS.ReadFile(c.Path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(body)
	}
	for _, c := range requestCases(f) {
		f.Add(c.Body)
	}
}

// checkRead is the fuzz property of a codec's Read on path: it never
// panics; a refusal is a *Refusal with a status, a reason and a message,
// and its body is JSON; an accepted request's internal encoding (the
// request, or the batch as a bundle) re-reads to the same IR, and is not
// changed by a later read; and a pass-through body is one the internal
// form reads.
func checkRead(t *testing.T, codec listener.Codec, path listener.Endpoint, body []byte) {
	cr, err := codec.Read(path, body, nil)
	if err != nil {
		var r *listener.Refusal
		if !errors.As(err, &r) || r.Body.Status == 0 || r.Body.Reason == "" || r.Body.Message == "" {
			t.Fatalf("a refusal must be a *Refusal with a status, a reason and a message: %#v", err)
		}
		if _, out := codec.AnswerError(nil, &r.Body); indent(out)[:3] == "NOT" {
			t.Fatalf("the refusal body is not JSON: %s", out)
		}
		return
	}
	if cr.Plan == listener.PlanPassThrough && cr.Request != nil {
		if _, _, err := shapes.DecodeRequest(cr.Body); err != nil {
			t.Fatalf("a pass-through the internal form refuses: %v", err)
		}
	}
	switch {
	case cr.Request != nil:
		wire, err := shapes.EncodeRequest(cr.Request)
		if err != nil {
			t.Fatalf("accepted, then the internal form cannot write it: %v\n%s", err, ir.DumpRequest(cr.Request))
		}
		again, _, err := shapes.DecodeRequest(wire)
		if err != nil {
			t.Fatalf("the internal encoding does not re-read: %v\n%s", err, wire)
		}
		if !sameRequest(cr.Request, again) {
			t.Fatalf("re-reading gave another IR:\n%s\nthen\n%s", ir.DumpRequest(cr.Request), ir.DumpRequest(again))
		}
		// A later read reuses the decoder memory an earlier one may have
		// borrowed (jsonvalue.DecodeBorrowed): what the IR kept must be its
		// own, so the first request writes the same bytes after it.
		_, _ = codec.Read(path, overwritingBody, nil)
		if after, err := shapes.EncodeRequest(cr.Request); err != nil || !bytes.Equal(after, wire) {
			t.Fatalf("another read changed an IR read before it (%v):\n%s\nthen\n%s", err, wire, after)
		}
	case cr.Batch != nil:
		// The bundle carries options per request, so each item takes the
		// batch's, as target.Internal writes a bundle.
		bundle := ir.Batch{Model: cr.Batch.Model, Items: slices.Clone(cr.Batch.Items)}
		for i := range bundle.Items {
			if bundle.Items[i].Request.Options == nil {
				bundle.Items[i].Request.Options = cr.Batch.Options
			}
		}
		wire, err := shapes.EncodeBundle(&bundle)
		if err != nil {
			t.Fatalf("accepted, then the internal form cannot write it: %v", err)
		}
		if _, _, err := shapes.DecodeBundle(wire); err != nil {
			t.Fatalf("the bundle encoding does not re-read: %v\n%s", err, wire)
		}
	default:
		t.Fatal("accepted with neither a request nor a batch")
	}
}

// sameRequest compares two IRs by their canonical internal encoding with
// layouts dropped: re-reading records a layout the listener never builds.
func sameRequest(a, b *ir.Request) bool {
	ea, errA := shapes.EncodeRequest(stripLayout(a))
	eb, errB := shapes.EncodeRequest(stripLayout(b))
	return errA == nil && errB == nil && bytes.Equal(ea, eb) && reflect.DeepEqual(a.Roles, b.Roles)
}

func stripLayout(r *ir.Request) *ir.Request {
	c := *r
	c.Layout = ir.Layout{}
	c.Questions = append([]ir.Question(nil), r.Questions...)
	for i := range c.Questions {
		c.Questions[i].Layout = ir.Layout{}
	}
	c.Assets = append([]ir.Asset(nil), r.Assets...)
	for i := range c.Assets {
		c.Assets[i].Layout = ir.Layout{}
	}
	if r.Options != nil {
		o := *r.Options
		o.Layout = ir.Layout{}
		c.Options = &o
	}
	return &c
}
