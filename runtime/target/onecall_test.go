package target

import (
	"errors"
	"slices"
	"testing"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// TestAllCapabilitiesSortedAndComplete: the set is sorted (Has relies on
// it), names each capability constant, and is exactly the vocabulary's
// feature words, each once.
func TestAllCapabilitiesSortedAndComplete(t *testing.T) {
	all := AllCapabilities()
	if !slices.IsSorted(all) || len(slices.Compact(slices.Clone(all))) != len(all) {
		t.Fatalf("not a sorted set: %v", all)
	}
	for _, c := range []Capability{CapNoul, CapChoice, CapScore, CapBox, CapSet, CapSpan, CapTrack,
		CapImage, CapVideo, CapBatch, CapRoles, CapPreset, CapLongContext} {
		if !all.Has(c) {
			t.Errorf("missing %s", c)
		}
	}
	if len(all) != len(vocab.Features) {
		t.Errorf("%d capabilities, the vocabulary has %d feature words", len(all), len(vocab.Features))
	}
	if got := Listed(all); !slices.Equal(got, vocab.Features) {
		t.Errorf("Listed(all) = %v, want the vocabulary's order %v", got, vocab.Features)
	}
	if got := Listed(CapabilitySet{CapSpan, CapBatch, CapNoul, "x-unknown"}); !slices.Equal(got, []string{"noul", "span", "batch"}) {
		t.Errorf("Listed keeps %v, want noul, span, batch in the vocabulary's order", got)
	}
}

func TestOneCallBase(t *testing.T) {
	one := &ir.Batch{Items: make([]ir.BatchItem, 1)}
	base, err := OneCallBase(one, Target{Endpoint: "http://127.0.0.1:8100/v1/systemone/"})
	if err != nil || base != "http://127.0.0.1:8100" {
		t.Errorf("base %q, %v", base, err)
	}
	if _, err := OneCallBase(one, Target{}); !errors.Is(err, ErrNoEndpoint) {
		t.Errorf("no endpoint: %v", err)
	}
	_, err = OneCallBase(&ir.Batch{}, Target{Endpoint: "http://127.0.0.1:8100"})
	var pe *ir.ProtocolError
	if !errors.As(err, &pe) || pe.Reason != ir.ReasonEmpty || pe.Path.String() != "requests" {
		t.Errorf("empty batch: %v", err)
	}
}

// TestTraits: each codec speaks its own schema, is stateless, lists what
// it carries as a sorted set and has a listing; only vllm-sr/5.0 is
// vllm-sr's own (Native) and only the internal form reads implicit roles.
func TestTraits(t *testing.T) {
	for _, c := range []struct {
		codec         Codec
		schema        table.SchemaID
		native, roles bool
		carryChecker  bool
		requestReader bool
	}{
		{Standard02, table.SchemaStandard02, false, false, true, true},
		{V50, table.SchemaVllmSR50, true, false, false, false},
		{Internal, table.SchemaInternal, false, true, false, true},
	} {
		tr := c.codec.Traits()
		_, cc := c.codec.(CarryChecker)
		_, rr := c.codec.(RequestReader)
		if tr.Schema != c.schema || !tr.Stateless || tr.ListingPath == "" || !slices.IsSorted(tr.Capabilities) ||
			tr.Native != c.native || tr.ImplicitRoles != c.roles || cc != c.carryChecker || rr != c.requestReader {
			t.Errorf("%s: %+v (carry checker %v, request reader %v)", c.schema, tr, cc, rr)
		}
	}
}
