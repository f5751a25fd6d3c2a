package target

import (
	"errors"
	"slices"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
)

// TestAllCapabilitiesSortedAndComplete: the set is sorted (Has relies on
// it) and names each capability constant once.
func TestAllCapabilitiesSortedAndComplete(t *testing.T) {
	all := AllCapabilities()
	if !slices.IsSorted(all) || len(slices.Compact(slices.Clone(all))) != len(all) {
		t.Fatalf("not a sorted set: %v", all)
	}
	for _, c := range []Capability{CapNoul, CapChoice, CapScore, CapBox, CapSet, CapSpan, CapTrack,
		CapImage, CapVideo, CapBatch, CapRoles, CapPresets, CapExtensions, CapLongContext} {
		if !all.Has(c) {
			t.Errorf("missing %s", c)
		}
	}
	if len(all) != 14 {
		t.Errorf("%d capabilities, want 14", len(all))
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
