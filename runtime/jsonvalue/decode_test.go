package jsonvalue

import (
	"errors"
	"strings"
	"testing"
)

// refusals lists inputs Decode must refuse, with the reason, path and byte
// offset it must report.
var refusals = []struct {
	name, in string
	reason   string
	path     string
	offset   int64
}{
	{"empty", ``, ReasonEmptyInput, "$", 0},
	{"only whitespace", " \n\t", ReasonEmptyInput, "$", 3},
	{"trailing value", `{"a":1} 2`, ReasonTrailingData, "$", 8},
	{"trailing comma in array", `[1,]`, ReasonInvalidSyntax, "$[1]", 3},
	{"trailing comma in object", `{"a":1,}`, ReasonInvalidSyntax, "$", 7},
	{"leading zero", `{"n":01}`, ReasonInvalidSyntax, "$.n", 6},
	{"negative leading zero", `[-01]`, ReasonInvalidSyntax, "$[0]", 3},
	{"bare minus", `[-]`, ReasonInvalidSyntax, "$[0]", 2},
	{"dot without digits", `[1.]`, ReasonInvalidSyntax, "$[0]", 3},
	{"exponent without digits", `[1e+]`, ReasonInvalidSyntax, "$[0]", 4},
	{"leading dot", `[.5]`, ReasonInvalidSyntax, "$[0]", 1},
	{"plus sign", `[+1]`, ReasonInvalidSyntax, "$[0]", 1},
	{"NaN", `{"x":NaN}`, ReasonInvalidSyntax, "$.x", 5},
	{"Infinity", `[Infinity]`, ReasonInvalidSyntax, "$[0]", 1},
	{"negative Infinity", `[-Infinity]`, ReasonInvalidSyntax, "$[0]", 2},
	{"bad literal", `[tru]`, ReasonInvalidSyntax, "$[0]", 1},
	{"capital literal", `True`, ReasonInvalidSyntax, "$", 0},
	{"control char in string", "[\"a\tb\"]", ReasonInvalidSyntax, "$[0]", 3},
	{"newline in string", "\"a\nb\"", ReasonInvalidSyntax, "$", 2},
	{"bad escape", `["\x"]`, ReasonInvalidSyntax, "$[0]", 2},
	{"bad hex", `["\u12g4"]`, ReasonInvalidSyntax, "$[0]", 6},
	{"single quotes", `['a']`, ReasonInvalidSyntax, "$[0]", 1},
	{"unquoted name", `{a:1}`, ReasonInvalidSyntax, "$", 1},
	{"missing colon", `{"a" 1}`, ReasonInvalidSyntax, "$.a", 5},
	{"missing comma", `{"a":1 "b":2}`, ReasonInvalidSyntax, "$", 7},
	{"missing comma in array", `[1 2]`, ReasonInvalidSyntax, "$", 3},
	{"byte order mark", "\uFEFF{}", ReasonInvalidSyntax, "$", 0},
	{"comment", `[1 /* x */]`, ReasonInvalidSyntax, "$", 3},
	{"raw invalid utf8", "[\"a\xffb\"]", ReasonInvalidUTF8, "$[0]", 3},
	{"overlong utf8", "\"\xc0\xaf\"", ReasonInvalidUTF8, "$", 1},
	{"raw surrogate utf8", "\"\xed\xa0\x80\"", ReasonInvalidUTF8, "$", 1},
	{"truncated utf8", "\"\xe6\x97\"", ReasonInvalidUTF8, "$", 1},
	{"lone high surrogate", `{"s":"\ud800"}`, ReasonInvalidUTF8, "$.s", 6},
	{"lone low surrogate", `["ok","\udc00x"]`, ReasonInvalidUTF8, "$[1]", 7},
	{"high surrogate then text", `"\ud83dx"`, ReasonInvalidUTF8, "$", 1},
	{"two high surrogates", `"\ud83d\ud83d"`, ReasonInvalidUTF8, "$", 1},
	{"surrogate in a name", `{"\udfff":1}`, ReasonInvalidUTF8, "$", 2},
	{"duplicate member", `{"a":1,"b":2,"a":3}`, ReasonDuplicateMember, "$.a", 13},
	{"duplicate by escape", `{"é":1,"\u00e9":2}`, ReasonDuplicateMember, `$["é"]`, 8},
	{"nested duplicate", `{"q":{"team":{"x":1,"x":2}}}`, ReasonDuplicateMember, "$.q.team.x", 20},
	{"unterminated string", `["abc`, ReasonUnexpectedEnd, "$[0]", 5},
	{"unterminated array", `[1,2`, ReasonUnexpectedEnd, "$", 4},
	{"unterminated object", `{"a":`, ReasonUnexpectedEnd, "$.a", 5},
	{"unterminated after a member", `{"a":1`, ReasonUnexpectedEnd, "$", 6},
	{"cut name", `{"ab`, ReasonUnexpectedEnd, "$", 4},
	{"cut literal", `[nul`, ReasonUnexpectedEnd, "$[0]", 4},
	{"cut number", `-`, ReasonUnexpectedEnd, "$", 1},
	{"cut exponent", `1e`, ReasonUnexpectedEnd, "$", 2},
	{"cut escape", `"\u00`, ReasonUnexpectedEnd, "$", 5},
	{"cut surrogate pair", `"\ud83d`, ReasonUnexpectedEnd, "$", 7},
	{"path through arrays", `{"questions":{"team":{"criteria":[1,2,x]}}}`, ReasonInvalidSyntax, "$.questions.team.criteria[2]", 38},
	{"path quotes odd names", `{"a b":{"x\"y":[}]}}`, ReasonInvalidSyntax, `$["a b"]["x\"y"][0]`, 16},
}

func TestDecodeRefusals(t *testing.T) {
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Decode([]byte(tc.in), Options{})
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Decode(%q) = %v, %v; want a *SyntaxError", tc.in, v.Kind(), err)
			}
			if se.Reason != tc.reason || se.Path != tc.path || se.Offset != tc.offset {
				t.Errorf("Decode(%q): reason %q path %q offset %d; want %q %q %d",
					tc.in, se.Reason, se.Path, se.Offset, tc.reason, tc.path, tc.offset)
			}
			if v.IsValid() {
				t.Errorf("Decode(%q) returned a value with its error", tc.in)
			}
			if se.Detail == "" || !strings.Contains(se.Error(), se.Path) {
				t.Errorf("error %q lacks its detail or path", se.Error())
			}
		})
	}
}

func TestErrorNeverCopiesValues(t *testing.T) {
	const secret = "s3cr3t-token"
	for _, in := range []string{
		`{"a":"` + secret + `` + "\x01" + `"}`,
		`{"a":["` + secret + `",` + secret + `]}`,
		`["` + secret + `"] "` + secret + `"`,
	} {
		_, err := Decode([]byte(in), Options{})
		if err == nil || strings.Contains(err.Error(), secret) {
			t.Errorf("Decode(%q) error %v: want an error without input values", in, err)
		}
	}
}

func TestErrorPathCutsLongNames(t *testing.T) {
	name := strings.Repeat("é", 100)
	_, err := Decode([]byte(`{"`+name+`":[}`), Options{})
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("want a SyntaxError, got %v", err)
	}
	want := `$["` + strings.Repeat("é", maxPathName/2) + `..."][0]`
	if se.Path != want {
		t.Errorf("path %q, want %q", se.Path, want)
	}
}

func TestDecodeDepth(t *testing.T) {
	nested := func(n int) []byte {
		return []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
	}
	if _, err := Decode(nested(DefaultMaxDepth), Options{}); err != nil {
		t.Errorf("depth %d refused: %v", DefaultMaxDepth, err)
	}
	_, err := Decode(nested(DefaultMaxDepth+1), Options{})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Reason != ReasonTooDeep || se.Offset != DefaultMaxDepth {
		t.Errorf("depth %d: got %v, want too_deep at byte %d", DefaultMaxDepth+1, err, DefaultMaxDepth)
	}
	if _, err := Decode([]byte(`{"a":{"b":[1]}}`), Options{MaxDepth: 2}); err == nil {
		t.Errorf("MaxDepth 2 accepted three levels")
	}
	if _, err := Decode([]byte(`{"a":{"b":1}}`), Options{MaxDepth: 2}); err != nil {
		t.Errorf("MaxDepth 2 refused two levels: %v", err)
	}
	if _, err := Decode(nested(MaxDepthLimit+1), Options{MaxDepth: 1 << 30}); err == nil {
		t.Errorf("MaxDepth above MaxDepthLimit was not capped")
	}
}

func TestDecodeKeepsLiteralsAndOrder(t *testing.T) {
	in := `{"z":1.0,"a":[1e3,-0,1E-7,0.10,123456789012345678901234567890],` +
		`"m":"caf\u00e9 \/ \"q\" \ud83d\ude00","\u0061b":true,"n":null,"e":{},"f":[],"":false}`
	v, err := Decode([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(Compact(v)); got != in {
		t.Errorf("compact changed the input:\n got %s\nwant %s", got, in)
	}
	var names []string
	for _, m := range v.Members() {
		names = append(names, m.Name)
	}
	if got := strings.Join(names, ","); got != "z,a,m,ab,n,e,f," {
		t.Errorf("member order/names %q", got)
	}
	items := v.Members()[1].Value.Items()
	for i, want := range []string{"1e3", "-0", "1E-7", "0.10", "123456789012345678901234567890"} {
		if got := string(items[i].Raw()); got != want {
			t.Errorf("item %d literal %q, want %q", i, got, want)
		}
	}
	if m, _ := v.Get("m"); m.Str() != "café / \"q\" 😀" {
		t.Errorf("decoded string %q", m.Str())
	}
	if raw := v.Members()[3].RawName(); string(raw) != `"\u0061b"` {
		t.Errorf("RawName %q", raw)
	}
	if raw := v.Members()[0].RawName(); raw != nil {
		t.Errorf("a name without an escape keeps raw name %q", raw)
	}
}

func TestDecodeCompactsWhitespace(t *testing.T) {
	in := " \r\n{ \"a\" : [ 1 ,\t2 , { } , [ ] ] ,\n \"b\" : \"x y\" } \n"
	v, err := Decode([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(Compact(v)), `{"a":[1,2,{},[]],"b":"x y"}`; got != want {
		t.Errorf("compact %s, want %s", got, want)
	}
}

func TestDecodeLargeObjectsFindDuplicates(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 100 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":0`)
	}
	unique := b.String() + "}"
	if _, err := Decode([]byte(unique), Options{}); err != nil {
		t.Fatalf("100 distinct members refused: %v", err)
	}
	v, _ := Decode([]byte(unique), Options{})
	last := v.Members()[93].Name
	_, err := Decode([]byte(b.String()+`,"`+last+`":1}`), Options{})
	var se *SyntaxError
	if !errors.As(err, &se) || se.Reason != ReasonDuplicateMember || se.Path != "$."+last {
		t.Errorf("duplicate of member 93 in a large object: %v", err)
	}
}

// TestDecodeAgreesWithJSONTextBaseline checks the hand-written decoder
// against the jsontext one on every accepted and refused case.
func TestDecodeAgreesWithJSONTextBaseline(t *testing.T) {
	inputs := []string{`{"a":[1,2.5,"x\u00e9"],"b":{"c":null}}`, `"\ud83d\ude00"`, mediumJSON(t)}
	for _, tc := range refusals {
		inputs = append(inputs, tc.in)
	}
	for _, in := range inputs {
		ours, errOurs := Decode([]byte(in), Options{})
		theirs, errTheirs := decodeJSONText([]byte(in), DefaultMaxDepth)
		if (errOurs == nil) != (errTheirs == nil) {
			t.Errorf("%q: ours %v, jsontext %v", in, errOurs, errTheirs)
			continue
		}
		if errOurs == nil && !Equal(ours, theirs) {
			t.Errorf("%q: the decoders built different values", in)
		}
	}
}

func mediumJSON(tb testing.TB) string { return string(mediumRequest(tb)) }
