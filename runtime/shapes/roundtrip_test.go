package shapes

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// compactForm is the body as jsonvalue writes it compactly: what a lossless
// round trip must give back.
func compactForm(t testing.TB, body []byte) []byte {
	t.Helper()
	v, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: MaxDepth})
	if err != nil {
		t.Fatalf("corpus body is not JSON: %v", err)
	}
	return jsonvalue.Compact(v)
}

func TestRequestRoundTripIsByteIdentical(t *testing.T) {
	for _, c := range requestCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			r, diags, err := DecodeRequest(c.body)
			if err != nil {
				t.Fatalf("DecodeRequest: %v", err)
			}
			got, err := EncodeRequest(r)
			if err != nil {
				t.Fatalf("EncodeRequest: %v", err)
			}
			if want := compactForm(t, c.body); !bytes.Equal(got, want) {
				t.Fatalf("round trip changed the body:\n got %s\nwant %s", got, want)
			}
			again, _, err := DecodeRequest(got)
			if err != nil {
				t.Fatalf("re-reading the written body: %v", err)
			}
			if !reflect.DeepEqual(r, again) {
				t.Fatalf("re-reading gave another IR:\n%s\nthen\n%s", ir.DumpRequest(r), ir.DumpRequest(again))
			}
			goldenCheck(t, "testdata/golden/"+strings.ReplaceAll(c.name, "/", "__")+".ir", []byte(ir.DumpRequest(r)+dumpDiagnostics(diags)))
		})
	}
}

func TestBundleRoundTripIsByteIdentical(t *testing.T) {
	for _, c := range fixtureCases(t, "bundles") {
		t.Run(c.name, func(t *testing.T) {
			b, diags, err := DecodeBundle(c.body)
			if err != nil {
				t.Fatalf("DecodeBundle: %v", err)
			}
			got, err := EncodeBundle(b)
			if err != nil {
				t.Fatalf("EncodeBundle: %v", err)
			}
			if want := compactForm(t, c.body); !bytes.Equal(got, want) {
				t.Fatalf("round trip changed the body:\n got %s\nwant %s", got, want)
			}
			goldenCheck(t, "testdata/golden/"+strings.ReplaceAll(c.name, "/", "__")+".ir", []byte(ir.DumpBatch(b)+dumpDiagnostics(diags)))
		})
	}
}

// TestCanonicalFormKeepsMeaning writes every corpus request with its
// layouts removed, as an IR another codec built, and checks that the
// canonical body reads back to the same IR: the spelling lives only in the
// layout, never in the schema-neutral part.
func TestCanonicalFormKeepsMeaning(t *testing.T) {
	for _, c := range requestCorpus(t) {
		t.Run(c.name, func(t *testing.T) {
			r, _, err := DecodeRequest(c.body)
			if err != nil {
				t.Fatal(err)
			}
			stripLayouts(r)
			canonical, err := EncodeRequest(r)
			if err != nil {
				t.Fatalf("EncodeRequest without layouts: %v", err)
			}
			for _, legacy := range []string{`"choices":`, `"levels":`, `"labels":`, `"images":`, `"videos":`} {
				if bytes.Contains(canonical, []byte(legacy)) && !bytes.Contains(c.body, []byte(legacy)) {
					t.Errorf("canonical form introduced %s", legacy)
				}
			}
			back, _, err := DecodeRequest(canonical)
			if err != nil {
				t.Fatalf("the canonical form does not read back: %v\n%s", err, canonical)
			}
			stripLayouts(back)
			if got, want := ir.DumpRequest(back), ir.DumpRequest(r); got != want {
				t.Fatalf("meaning changed:\n%s\nthen\n%s", want, got)
			}
		})
	}
}

func stripLayouts(r *ir.Request) {
	r.Layout = ir.Layout{}
	for i := range r.Questions {
		r.Questions[i].Layout = ir.Layout{}
	}
	for i := range r.Assets {
		r.Assets[i].Layout = ir.Layout{}
	}
	if r.Options != nil {
		r.Options.Layout = ir.Layout{}
	}
}

func dumpDiagnostics(d ir.Diagnostics) string {
	var b strings.Builder
	for _, x := range d {
		b.WriteString("diagnostic " + string(x.Kind) + " " + x.Form + " at " + x.Path.String() + "\n")
	}
	return b.String()
}

// requestCorpus is the generated golden corpus (every family's self-test
// requests and every 4.0 form, from specs/corpus) and the hand-written
// fixtures.
func requestCorpus(t testing.TB) []corpusCase {
	return append(generatedCases(t), fixtureCases(t, "requests")...)
}
