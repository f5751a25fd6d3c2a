package shapes

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// FuzzInternalRoundTrip: DecodeRequest never panics; a refusal is a
// *ProtocolError naming why; whatever it accepts re-encodes to exactly its
// compact form and re-reads to the same IR. Seeded from the round-trip
// corpus and the refused bodies; crashers are kept in
// testdata/fuzz/FuzzInternalRoundTrip.
func FuzzInternalRoundTrip(f *testing.F) {
	for _, c := range requestCorpus(f) {
		f.Add(c.body)
	}
	for _, c := range refusedRequests {
		f.Add([]byte(c.body))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, _, err := DecodeRequest(data)
		if err != nil {
			checkNamedRefusal(t, err)
			return
		}
		got, err := EncodeRequest(r)
		if err != nil {
			t.Fatalf("accepted, then refused to write: %v", err)
		}
		if want := fuzzCompact(t, data); !bytes.Equal(got, want) {
			t.Fatalf("not lossless:\n got %s\nwant %s", got, want)
		}
		again, _, err := DecodeRequest(got)
		if err != nil {
			t.Fatalf("the written body does not read back: %v", err)
		}
		if !reflect.DeepEqual(r, again) {
			t.Fatalf("re-reading gave another IR:\n%s\nthen\n%s", ir.DumpRequest(r), ir.DumpRequest(again))
		}
	})
}

// FuzzInternalBundleRoundTrip is FuzzInternalRoundTrip for bundle bodies.
func FuzzInternalBundleRoundTrip(f *testing.F) {
	for _, c := range fixtureCases(f, "bundles") {
		f.Add(c.body)
	}
	for _, c := range refusedBundles {
		f.Add([]byte(c.body))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, _, err := DecodeBundle(data)
		if err != nil {
			checkNamedRefusal(t, err)
			return
		}
		got, err := EncodeBundle(b)
		if err != nil {
			t.Fatalf("accepted, then refused to write: %v", err)
		}
		if want := fuzzCompact(t, data); !bytes.Equal(got, want) {
			t.Fatalf("not lossless:\n got %s\nwant %s", got, want)
		}
		again, _, err := DecodeBundle(got)
		if err != nil {
			t.Fatalf("the written body does not read back: %v", err)
		}
		if !reflect.DeepEqual(b, again) {
			t.Fatalf("re-reading gave another IR:\n%s\nthen\n%s", ir.DumpBatch(b), ir.DumpBatch(again))
		}
	})
}

func checkNamedRefusal(t *testing.T, err error) {
	t.Helper()
	var pe *ir.ProtocolError
	if !errors.As(err, &pe) || pe.Category != ir.CategoryInvalidRequest || pe.Reason == "" || pe.Message == "" {
		t.Fatalf("a refusal must be a *ProtocolError with a reason and a message: %#v", err)
	}
}

func fuzzCompact(t *testing.T, data []byte) []byte {
	t.Helper()
	v, err := jsonvalue.Decode(data, jsonvalue.Options{MaxDepth: MaxDepth})
	if err != nil {
		t.Fatalf("accepted a body jsonvalue refuses: %v", err)
	}
	return jsonvalue.Compact(v)
}
