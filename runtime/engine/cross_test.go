package engine

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

// conversion is one --to and its deviations.
type conversion struct {
	to   table.SchemaID
	devs []string
}

var conversions = []conversion{
	{table.SchemaInternal, nil},
	{table.SchemaVllmSR50, nil},
	{table.SchemaStandard02, nil},
	{table.SchemaStandard02, []string{"state_text"}},
}

// TestCrossSchemaGolden converts every corpus request (internal form)
// into every target schema, with and without state_text, and compares
// each body or one-line error with testdata/cross/<case>.golden.
func TestCrossSchemaGolden(t *testing.T) {
	for _, c := range corpus.Cases {
		t.Run(c.Name, func(t *testing.T) {
			body, err := corpus.FS.ReadFile(c.Path)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, conv := range conversions {
				b.WriteString("--to " + string(conv.to))
				for _, d := range conv.devs {
					b.WriteString(" --deviation " + d)
				}
				b.WriteString("\n")
				res, err := builtin.Translate(table.SchemaInternal, conv.to, conv.devs, body)
				if err != nil {
					b.WriteString("error: " + err.Error() + "\n")
					continue
				}
				for _, k := range sortedKeys(res.Header) {
					b.WriteString("header " + k + ": " + res.Header.Get(k) + "\n")
				}
				b.Write(res.Body)
				b.WriteString("\n")
			}
			name := strings.ReplaceAll(c.Name, "/", "__") + ".golden"
			testkit.GoldenCheck(t, filepath.Join("testdata", "cross", name), []byte(b.String()))
		})
	}
}

// TestCrossSchemaOutputsReadBack: what convert writes in a schema, the
// same schema reads back and writes again byte for byte; a standard body
// passes the standard validator, and 5.0 reads every standard body.
func TestCrossSchemaOutputsReadBack(t *testing.T) {
	written := 0
	for _, c := range corpus.Cases {
		body, _ := corpus.FS.ReadFile(c.Path)
		for _, to := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaStandard02} {
			first, err := convert(table.SchemaInternal, to, nil, body)
			if err != nil {
				continue // a refusal; the golden test pins it
			}
			written++
			again, err := convert(to, to, nil, first)
			if err != nil {
				t.Errorf("%s: %s does not read its own output: %v\n%s", c.Name, to, err, first)
				continue
			}
			if string(again) != string(first) {
				t.Errorf("%s: %s is not stable:\n%s\n%s", c.Name, to, first, again)
			}
			if to == table.SchemaStandard02 {
				if _, err := convert(table.SchemaVllmSR50, table.SchemaStandard02, nil, first); err != nil {
					t.Errorf("%s: vllm-sr/5.0 does not read a standard body: %v", c.Name, err)
				}
			}
		}
	}
	if written < len(corpus.Cases) {
		t.Errorf("only %d conversions of %d cases succeeded: the corpus exercises too little", written, len(corpus.Cases))
	}
}

// TestReadsLegacyFormsAs40: the 4.0 listener codec reads each legacy form
// of the corpus that has no roles member (the internal form's addition),
// and the internal form it writes reads back as the same IR.
func TestReadsLegacyFormsAs40(t *testing.T) {
	read := 0
	for _, c := range corpus.Cases {
		if c.Kind != table.CorpusLegacyForm {
			continue
		}
		body, _ := corpus.FS.ReadFile(c.Path)
		if strings.Contains(string(body), `"roles"`) {
			continue
		}
		out, err := convert(table.SchemaVllmSR40, table.SchemaInternal, nil, body)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		read++
		back, err := convert(table.SchemaInternal, table.SchemaInternal, nil, out)
		if err != nil || string(back) != string(out) {
			t.Errorf("%s: internal output does not round-trip: %v", c.Name, err)
		}
	}
	if read == 0 {
		t.Fatal("no legacy form was read")
	}
}

func TestStandardSourceRefusesExtensions(t *testing.T) {
	body := `{"model":"m","state":"s","questions":{"q":{"type":"noul","preset":"urgency"}}}`
	_, err := convert(table.SchemaStandard02, table.SchemaVllmSR50, nil, []byte(body))
	if err == nil || !strings.Contains(err.Error(), "the systemone/0.2 schema refuses the body: /questions/q/preset") {
		t.Fatalf("got %v", err)
	}
	if _, err := convert(table.SchemaVllmSR50, table.SchemaVllmSR50, nil, []byte(body)); err != nil {
		t.Fatalf("5.0 refuses its own preset: %v", err)
	}
}

func TestStandardTargetNeedsAModel(t *testing.T) {
	_, err := convert(table.SchemaInternal, table.SchemaStandard02, nil, []byte(`{"state":"s","questions":{"q":{"type":"noul"}}}`))
	if err == nil || err.Error() != "the systemone/0.2 schema cannot carry the request: model: is required (missing_member)" {
		t.Fatalf("got %v", err)
	}
}
