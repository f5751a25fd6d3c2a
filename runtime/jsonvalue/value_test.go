package jsonvalue

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestKindIsDerived checks the kinds a Value reads from what it stores
// (which of a container's slices is set, a scalar's first byte), in
// particular for empty containers, whose one slice is empty but not nil.
func TestKindIsDerived(t *testing.T) {
	v, err := Decode([]byte(`[{},[],{"a":[]},"",0,-1,true,false,null,"null","true"]`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Kind{KindObject, KindArray, KindObject, KindString, KindNumber, KindNumber,
		KindBool, KindBool, KindNull, KindString, KindString}
	items := v.Items()
	if v.Kind() != KindArray || len(items) != len(want) {
		t.Fatalf("root: kind %v, %d items", v.Kind(), len(items))
	}
	for i, it := range items {
		if it.Kind() != want[i] {
			t.Errorf("item %d: kind %v, want %v", i, it.Kind(), want[i])
		}
	}
	if got := items[2].Members()[0].Value.Kind(); got != KindArray {
		t.Errorf(`{"a":[]}.a: kind %v, want array`, got)
	}
	if !items[6].Bool() || items[7].Bool() || items[9].IsNull() || items[9].Bool() || !items[8].IsNull() {
		t.Errorf("Bool or IsNull read a string as a literal")
	}
	built, _ := Object()
	for _, c := range []struct {
		name string
		v    Value
		kind Kind
	}{
		{"Array()", Array(), KindArray},
		{"Object()", built, KindObject},
		{"Null()", Null(), KindNull},
		{"Bool(true)", Bool(true), KindBool},
		{"Int(-3)", Int(-3), KindNumber},
		{"Float(0.5)", Float(0.5), KindNumber},
		{"String(x)", String("x"), KindString},
		{"zero Value", Value{}, KindInvalid},
		{"Float(NaN)", Float(nan()), KindInvalid},
	} {
		if c.v.Kind() != c.kind || c.v.IsValid() != (c.kind != KindInvalid) {
			t.Errorf("%s: kind %v, valid %v; want %v", c.name, c.v.Kind(), c.v.IsValid(), c.kind)
		}
	}
}

func nan() float64 {
	zero := 0.0
	return zero / zero
}

// TestDecodedTextSharesOrCopies checks Str and member names: the text of a
// string written without escapes shares the input's bytes, an escaped one
// is decoded, and both read the same.
func TestDecodedTextSharesOrCopies(t *testing.T) {
	data := []byte(`{"plain":"caf\u00e9","esc\u0061ped":"café","":""}`)
	v, err := Decode(data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ms := v.Members()
	within := func(s string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
		start := uintptr(unsafe.Pointer(&data[0]))
		return p >= start && p < start+uintptr(len(data))
	}
	if !within(ms[0].Name) || within(ms[1].Name) || !within(ms[1].Value.Str()) || within(ms[0].Value.Str()) {
		t.Errorf("unescaped text is not shared with the input, or escaped text is")
	}
	names := []string{"plain", "escaped", ""}
	for i, m := range ms {
		if m.Name != names[i] {
			t.Errorf("member %d: name %q, want %q", i, m.Name, names[i])
		}
	}
	if ms[0].Value.Str() != "café" || ms[1].Value.Str() != "café" || ms[2].Value.Str() != "" {
		t.Errorf("Str: %q, %q, %q", ms[0].Value.Str(), ms[1].Value.Str(), ms[2].Value.Str())
	}
	if !Equal(ms[0].Value, ms[1].Value) {
		t.Errorf("an escaped and a raw é are not Equal")
	}
}

// TestDeepEqualComparesContent checks that reflect.DeepEqual sees two
// decodings of equal bytes in different buffers as equal (round-trip tests
// of the IR rely on it), and different bytes as different.
func TestDeepEqualComparesContent(t *testing.T) {
	doc := `{"a":[1,"x",{"b":null}],"c":true}`
	a, _ := Decode([]byte(doc), Options{})
	b, _ := Decode([]byte(doc), Options{})
	c, _ := Decode([]byte(`{"a":[1,"y",{"b":null}],"c":true}`), Options{})
	if !reflect.DeepEqual(a, b) {
		t.Errorf("equal documents are not DeepEqual")
	}
	if reflect.DeepEqual(a, c) {
		t.Errorf("different documents are DeepEqual")
	}
}
