package front

import "testing"

func TestAdmissionNeverWaits(t *testing.T) {
	a := NewAdmission(2)
	first, second := a.TryAcquire(), a.TryAcquire()
	if !first || !second {
		t.Fatal("two slots must be free")
	}
	if a.TryAcquire() {
		t.Fatal("a third acquire must fail at once")
	}
	a.Release()
	if a.InFlight() != 1 || !a.TryAcquire() {
		t.Fatal("a released slot must be free again")
	}
	if a.Limit() != 2 {
		t.Fatalf("limit %d, want 2", a.Limit())
	}
}
