package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir holds srgen's request corpus, when it has been generated.
const corpusDir = "../../generated/corpus"

// addSeeds seeds a fuzz target from the unit tests' inputs, generated
// documents, the benchmark requests and every JSON file of the corpus.
func addSeeds(f *testing.F) {
	for _, tc := range refusals {
		f.Add([]byte(tc.in))
	}
	for _, s := range []string{
		`{"z":1.0,"a":[1e3,-0,1E-7],"m":"caf\u00e9 \ud83d\ude00","":{}}`,
		` [ 1 , "x" , { "y" : null } ] `, `"\u2028"`, `5e-324`, `1e400`, `-0`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}`,
	} {
		f.Add([]byte(s))
	}
	g := newDocGen(3)
	for range 40 {
		f.Add(g.doc())
	}
	f.Add(smallRequest(f))
	f.Add(mediumRequest(f))
	err := filepath.WalkDir(corpusDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil {
			f.Add(data)
		}
		return err
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		f.Fatalf("reading the corpus: %v", err)
	}
}

// refusedButValid are the reasons Decode may refuse input that
// encoding/json's Valid accepts: Valid does not check UTF-8 (raw or in
// escapes), duplicate names or depth.
var refusedButValid = map[string]bool{
	ReasonInvalidUTF8:     true,
	ReasonDuplicateMember: true,
	ReasonTooDeep:         true,
}

// FuzzDecode checks that Decode never panics, accepts only valid JSON,
// refuses valid JSON only for a documented reason, agrees with the jsontext
// baseline, and that compact(decode(compact)) is a fixed point.
func FuzzDecode(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data, Options{})
		valid := json.Valid(data)
		_, baselineErr := decodeJSONText(data, DefaultMaxDepth)
		if (err == nil) != (baselineErr == nil) {
			t.Fatalf("Decode error %v, jsontext baseline error %v", err, baselineErr)
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if valid && !refusedButValid[se.Reason] {
				t.Fatalf("refused valid JSON: %v", err)
			}
			if se.Offset < 0 || se.Offset > int64(len(data)) || !strings.HasPrefix(se.Path, "$") {
				t.Fatalf("error out of range: %v", err)
			}
			return
		}
		if !valid {
			t.Fatalf("accepted JSON that encoding/json refuses")
		}
		compact := Compact(v)
		again, err := Decode(compact, Options{})
		if err != nil {
			t.Fatalf("the compact form does not decode: %v", err)
		}
		if !Equal(v, again) || !bytes.Equal(Compact(again), compact) {
			t.Fatalf("compact is not a fixed point:\n%s\n%s", compact, Compact(again))
		}
		var std bytes.Buffer
		if json.Compact(&std, data) == nil && !bytes.Equal(std.Bytes(), compact) {
			t.Fatalf("compact differs from encoding/json's:\n got %s\nwant %s", compact, std.Bytes())
		}
		_ = Python(v)
	})
}

// FuzzPythonParity checks, for every input Decode accepts, that
// AppendPython writes what Python's json.dumps(json.loads(input),
// ensure_ascii=False) writes. One python3 process serves the whole run (one
// per fuzz worker).
func FuzzPythonParity(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data, Options{})
		if err != nil {
			return
		}
		want, err := oracle(t).Dumps(data)
		if err != nil {
			t.Fatalf("Python refused input Decode accepted: %v", err)
		}
		if got := string(AppendPython(nil, v)); got != want {
			t.Fatalf("AppendPython:\n got %s\nwant %s", got, want)
		}
	})
}
