package jsonvalue

import (
	"reflect"
	"strings"
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

// TestMemberSize pins a Member at 48 bytes: a decoded document holds one per
// member, and the listener's allocation is mostly these.
func TestMemberSize(t *testing.T) {
	if n := unsafe.Sizeof(Member{}); n > 48 {
		t.Errorf("a Member is %d bytes, want at most 48", n)
	}
}

// TestMemberWithRawName checks that an escaped raw name is written as given
// and one without an escape (the standard quoting) is not kept.
func TestMemberWithRawName(t *testing.T) {
	escaped := MemberWithRawName("ab", []byte(`"\u0061b"`), Int(1))
	plain := MemberWithRawName("ab", []byte(`"ab"`), Int(1))
	if got := string(escaped.RawName()); got != `"\u0061b"` {
		t.Errorf("escaped RawName %q", got)
	}
	if plain.RawName() != nil {
		t.Errorf("plain RawName %q, want nil", plain.RawName())
	}
	v, ok := Object(escaped)
	if !ok {
		t.Fatal("Object refused one member")
	}
	if got := string(Compact(v)); got != `{"\u0061b":1}` {
		t.Errorf("compact %s", got)
	}
	if got := string(AppendPython(nil, v)); got != `{"ab": 1}` {
		t.Errorf("python %s", got)
	}
	if !escaped.Equal(plain) || escaped.Equal(MemberWithRawName("ab", nil, Int(2))) || escaped.Equal(Member{Name: "a", Value: Int(1)}) {
		t.Errorf("Member.Equal does not compare by name and value")
	}
	if !reflect.DeepEqual(escaped, MemberWithRawName("ab", []byte(`"\u0061b"`), Int(1))) {
		t.Errorf("equal members are not DeepEqual")
	}
	decoded, err := Decode([]byte(`[{"ab":1},{"\u0061b":1}]`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if it := decoded.Items(); !reflect.DeepEqual(it[0].Members()[0], plain) || !reflect.DeepEqual(it[1].Members()[0], escaped) {
		t.Errorf("decoded members differ from the ones built with their raw names")
	}
	built, _ := Object(Member{Name: "a\"b", Value: Int(1)}, MemberWithRawName("c", nil, Int(2)))
	if got := string(Compact(built)); got != `{"a\"b":1,"c":2}` {
		t.Errorf("members built without raw names: compact %s", got)
	}
}

// TestEscapedNamesKeepTheirSpelling checks several escaped names, nested
// and among plain ones, each keep their written form (they share one
// []string sized before it is filled).
func TestEscapedNamesKeepTheirSpelling(t *testing.T) {
	in := `{"\u0061":{"\u0062":1,"c":2,"\u0064":[{"\u0065":3,"f":4}]},"g\n":5}`
	v, err := Decode([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(Compact(v)); got != in {
		t.Errorf("compact %s, want %s", got, in)
	}
	var raws []string
	var walk func(Value)
	walk = func(v Value) {
		for _, m := range v.Members() {
			raws = append(raws, m.Name+"="+string(m.RawName()))
			walk(m.Value)
		}
		for _, it := range v.Items() {
			walk(it)
		}
	}
	walk(v)
	want := `a="\u0061" b="\u0062" c= d="\u0064" e="\u0065" f= g` + "\n" + `="g\n"`
	if got := strings.Join(raws, " "); got != want {
		t.Errorf("raw names %q, want %q", got, want)
	}
}

// MemberWithRawName is the member name: value whose name is written as raw,
// the quoted name as read elsewhere (escapes kept), so an encoder writes
// it byte for byte; raw must be a JSON string whose decoded text is name.
// raw is copied unless it is '"' + name + '"'. An empty raw writes the
// standard quoting of name.
func MemberWithRawName(name string, raw []byte, value Value) Member {
	m := Member{Name: name, Value: value}
	switch {
	case len(raw) == 0:
	case len(raw) == len(name)+2 && raw[0] == '"' && raw[len(raw)-1] == '"' && string(raw[1:len(raw)-1]) == name:
		m.raw = plainQuoted
	default:
		s := string(raw)
		m.raw = &s
	}
	return m
}
