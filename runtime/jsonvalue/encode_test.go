package jsonvalue

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestPythonNumbers(t *testing.T) {
	// Expectations are what CPython 3 prints for json.dumps(json.loads(lit)).
	cases := map[string]string{
		"0": "0", "-0": "0", "7": "7", "-12": "-12", "123456789012345678901234567890": "123456789012345678901234567890",
		"1.0": "1.0", "-0.0": "-0.0", "0.0": "0.0", "1e3": "1000.0", "1E3": "1000.0",
		"1E-7": "1e-07", "0.1": "0.1", "123456789.123456789": "123456789.12345679",
		"1e16": "1e+16", "1e15": "1000000000000000.0", "1e-4": "0.0001", "1e-5": "1e-05",
		"1e400": "Infinity", "-1e400": "-Infinity", "5e-324": "5e-324", "1e-400": "0.0",
		"-1e-400": "-0.0", "1.5e300": "1.5e+300", "1e22": "1e+22", "0.30000000000000004": "0.30000000000000004",
		"12345678901234567.0": "1.2345678901234568e+16", "2.5": "2.5", "-2.5e-5": "-2.5e-05",
		"100.5e-2": "1.005", "9999999999999998.0": "9999999999999998.0",
	}
	for lit, want := range cases {
		v, ok := Number(lit)
		if !ok {
			t.Errorf("Number(%q) refused", lit)
			continue
		}
		if got := string(Python(v)); got != want {
			t.Errorf("Python(%s) = %s, want %s", lit, got, want)
		}
	}
}

func TestPythonStringsAndLayout(t *testing.T) {
	in := `{"a":"\u00e9\n\u2028\u007f\u001F\/\"\\ \ud83d\ude00","b":[1,{"c":[]},{}],"\u0064":null}`
	v, err := Decode([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"a\": \"é\\n\u2028\u007f\\u001f/\\\"\\\\ 😀\", \"b\": [1, {\"c\": []}, {}], \"d\": null}"
	if got := string(Python(v)); got != want {
		t.Errorf("Python:\n got %s\nwant %s", got, want)
	}
}

func TestConstructorsUseStandardEscaping(t *testing.T) {
	s := String("a\"b\\c\n\r\t\b\f\x00\x1f\x7f\u2028é😀")
	want := `"a\"b\\c\n\r\t\b\f\u0000\u001f` + "\x7f\u2028é😀" + `"`
	if got := string(Compact(s)); got != want {
		t.Errorf("String: %s, want %s", got, want)
	}
	if got := string(Python(s)); got != want {
		t.Errorf("Python(String): %s, want %s", got, want)
	}
	if got := String("a\xff\xfeb").Str(); got != "a\uFFFDb" {
		t.Errorf("invalid UTF-8: %q", got)
	}
	obj, ok := Object(Member{Name: "x\ny", Value: Int(-3)}, Member{Name: "f", Value: Float(0.5)},
		Member{Name: "t", Value: Bool(true)}, Member{Name: "n", Value: Null()},
		Member{Name: "a", Value: Array(String("é"), Array())})
	if !ok {
		t.Fatal("Object refused distinct members")
	}
	if got, want := string(Compact(obj)), `{"x\ny":-3,"f":0.5,"t":true,"n":null,"a":["é",[]]}`; got != want {
		t.Errorf("Compact(Object): %s, want %s", got, want)
	}
	if got, want := string(Python(obj)), `{"x\ny": -3, "f": 0.5, "t": true, "n": null, "a": ["é", []]}`; got != want {
		t.Errorf("Python(Object): %s, want %s", got, want)
	}
	if _, ok := Object(Member{Name: "a", Value: Null()}, Member{Name: "a", Value: Null()}); ok {
		t.Error("Object accepted a duplicate name")
	}
	if got := string(Compact(Value{})); got != "null" {
		t.Errorf("Compact(zero Value) = %s", got)
	}
}

func TestNumberConstructorValidates(t *testing.T) {
	for _, lit := range []string{"0", "-0", "1.5e-3", "10", "1E+2"} {
		if _, ok := Number(lit); !ok {
			t.Errorf("Number(%q) refused", lit)
		}
	}
	for _, lit := range []string{"", "-", "01", "1.", ".1", "1e", "+1", "1 ", "NaN", "0x10", "1e3.5"} {
		if _, ok := Number(lit); ok {
			t.Errorf("Number(%q) accepted", lit)
		}
	}
}

func TestEqual(t *testing.T) {
	decode := func(s string) Value {
		v, err := Decode([]byte(s), Options{})
		if err != nil {
			t.Fatalf("Decode(%s): %v", s, err)
		}
		return v
	}
	same := [][2]string{
		{`{"a":[1,"é"]}`, `{ "\u0061" : [ 1 , "\u00e9" ] }`},
		{`"😀"`, `"\ud83d\ude00"`},
		{`[]`, `[ ]`},
	}
	for _, p := range same {
		if !Equal(decode(p[0]), decode(p[1])) {
			t.Errorf("Equal(%s, %s) = false", p[0], p[1])
		}
	}
	differ := [][2]string{
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`},
		{`1.0`, `1`},
		{`[1]`, `[1,1]`},
		{`true`, `false`},
		{`null`, `{}`},
		{`"a"`, `"b"`},
	}
	for _, p := range differ {
		if Equal(decode(p[0]), decode(p[1])) {
			t.Errorf("Equal(%s, %s) = true", p[0], p[1])
		}
	}
}

// TestGeneratedRoundTrips checks, on generated documents, that compact is a
// fixed point of decode, that it is what encoding/json's Compact writes,
// and that the compact form decodes to an Equal value.
func TestGeneratedRoundTrips(t *testing.T) {
	g := newDocGen(1)
	for i := range 3000 {
		doc := g.doc()
		v, err := Decode(doc, Options{})
		if err != nil {
			t.Fatalf("doc %d %q refused: %v", i, doc, err)
		}
		compact := Compact(v)
		var std bytes.Buffer
		if err := json.Compact(&std, doc); err != nil {
			t.Fatalf("doc %d: encoding/json refused it: %v", i, err)
		}
		if !bytes.Equal(compact, std.Bytes()) {
			t.Fatalf("doc %d: compact differs from encoding/json's:\n got %s\nwant %s", i, compact, std.Bytes())
		}
		again, err := Decode(compact, Options{})
		if err != nil || !Equal(v, again) || !bytes.Equal(Compact(again), compact) {
			t.Fatalf("doc %d: compact form does not decode back to the same value: %v", i, err)
		}
	}
}

// TestPythonParity compares AppendPython with Python's own json.dumps on
// generated documents, through one python3 process.
func TestPythonParity(t *testing.T) {
	py := oracle(t)
	g := newDocGen(2)
	for i := range 2000 {
		doc := g.doc()
		v, err := Decode(doc, Options{})
		if err != nil {
			t.Fatalf("doc %d refused: %v", i, err)
		}
		want, err := py.Dumps(doc)
		if err != nil {
			t.Fatalf("doc %d %q: %v", i, doc, err)
		}
		if got := string(AppendPython(nil, v)); got != want {
			t.Fatalf("doc %d %q:\n got %s\nwant %s", i, doc, got, want)
		}
	}
}
