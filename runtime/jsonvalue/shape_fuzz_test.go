package jsonvalue

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzShape checks, for every input Decode accepts, what a Value derives
// rather than stores: its kind (read from a scalar's first byte or from
// which of a container's slices is set), the text Str returns (shared with
// the input when there is no escape, decoded otherwise) and each member's
// Name (aliased when written without escapes, from the arena otherwise),
// each against encoding/json reading the same literal. It also checks that
// two decodings of equal bytes held in different buffers are
// reflect.DeepEqual, which round-trip tests elsewhere rely on.
func FuzzShape(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data, Options{})
		if err != nil {
			return
		}
		again, err := Decode(bytes.Clone(data), Options{})
		if err != nil {
			t.Fatalf("a copy of accepted input is refused: %v", err)
		}
		if !reflect.DeepEqual(v, again) || !Equal(v, again) {
			t.Fatalf("two decodings of the same bytes differ")
		}
		checkShape(t, v)
	})
}

// checkShape walks v, checking each value's derived accessors.
func checkShape(t *testing.T, v Value) {
	t.Helper()
	if !v.IsValid() {
		t.Fatalf("a decoded value is the zero Value")
	}
	switch v.Kind() {
	case KindObject:
		members := v.Members()
		if members == nil || v.Items() != nil || v.Raw() != nil || v.Len() != len(members) {
			t.Fatalf("object accessors disagree: %d members, Len %d", len(members), v.Len())
		}
		for i := range members {
			// A kept raw name holds an escape; without one the name was
			// written as its standard quoting, which has none.
			written := members[i].RawName()
			if written == nil {
				written = AppendString(nil, members[i].Name)
			}
			if (members[i].RawName() != nil) != (bytes.IndexByte(written, '\\') >= 0) {
				t.Fatalf("member name %q: raw name %q kept without an escape or dropped with one", members[i].Name, written)
			}
			var name string
			if err := json.Unmarshal(written, &name); err != nil || name != members[i].Name {
				t.Fatalf("member name %q read from %s, encoding/json reads %q (%v)", members[i].Name, written, name, err)
			}
			checkShape(t, members[i].Value)
		}
	case KindArray:
		items := v.Items()
		if items == nil || v.Members() != nil || v.Raw() != nil || v.Len() != len(items) {
			t.Fatalf("array accessors disagree: %d items, Len %d", len(items), v.Len())
		}
		for _, it := range items {
			checkShape(t, it)
		}
	default:
		checkScalar(t, v)
	}
}

// checkScalar checks a scalar's kind, Str, Bool and IsNull against
// encoding/json's reading of its literal.
func checkScalar(t *testing.T, v Value) {
	t.Helper()
	raw := v.Raw()
	var read any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // 1e400 is a number here, not a float64 that overflows
	if err := dec.Decode(&read); err != nil {
		t.Fatalf("literal %s does not parse: %v", raw, err)
	}
	want := KindNumber
	switch x := read.(type) {
	case nil:
		want = KindNull
	case bool:
		want = KindBool
		if v.Bool() != x {
			t.Fatalf("Bool of %s is %v", raw, v.Bool())
		}
	case string:
		want = KindString
		if v.Str() != x {
			t.Fatalf("Str of %s is %q, encoding/json reads %q", raw, v.Str(), x)
		}
	}
	if v.Kind() != want || v.IsNull() != (want == KindNull) || v.Len() != 0 || v.Members() != nil || v.Items() != nil {
		t.Fatalf("literal %s: kind %v, want %v", raw, v.Kind(), want)
	}
}
