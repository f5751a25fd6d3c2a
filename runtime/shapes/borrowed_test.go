package shapes

import (
	"reflect"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// TestBorrowedReadKeepsCopies reads every corpus and fixture request from
// a borrowed document, releases it (which zeroes its containers), and
// checks the IR still equals a read of the same body decoded the ordinary
// way: an IR field that kept a borrowed container instead of a copy would
// see the zeroed memory.
func TestBorrowedReadKeepsCopies(t *testing.T) {
	// Empty containers wherever the IR keeps one, and extension members.
	empty := corpusCase{name: "empty-containers", body: []byte(`{"state":{},"questions":{` +
		`"a":{"type":"choice","instructions":[],"criteria":{}},` +
		`"b":{"type":"score","instructions":{},"criteria":[]},` +
		`"c":{"type":"noul","instructions":[{}],"x_extra":{"y":[]}}},` +
		`"options":{"x_opt":[[]]},"x_top":{}}`)}
	states := corpusCase{name: "states", body: []byte(`{"states":{"one":{},"two":{"k":["v"]}},"questions":{"a":{"type":"noul"}}}`)}
	for _, c := range append(generatedCases(t), append(fixtureCases(t, "requests"), empty, states)...) {
		root, err := jsonvalue.Decode(c.body, jsonvalue.Options{MaxDepth: MaxDepth})
		if err != nil {
			continue
		}
		plain := Reader{Implicit: true, Layout: true}
		want, wantErr := plain.Request(root, nil)

		doc, err := jsonvalue.DecodeBorrowed(c.body, jsonvalue.Options{MaxDepth: MaxDepth})
		if err != nil {
			t.Fatalf("%s: borrowed decode: %v", c.name, err)
		}
		borrowed := Reader{Implicit: true, Layout: true, Borrowed: true}
		got, gotErr := borrowed.Request(doc.Root, nil)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%s: borrowed read error %v, plain read error %v", c.name, gotErr, wantErr)
		}
		doc.Release()
		if wantErr != nil {
			continue
		}
		if g, w := ir.DumpRequest(got), ir.DumpRequest(want); g != w {
			t.Fatalf("%s: after release the borrowed read is\n%s\nwant\n%s", c.name, g, w)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: after release the borrowed read differs from the plain read", c.name)
		}
	}
}
