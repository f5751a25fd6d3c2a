package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

func TestConvertInternalToInternalIsLossless(t *testing.T) {
	body := `{"model":"m","state":{"request":"caf\u00e9"},"questions":{"q":{"type":"score","levels":["a","b"]}},"options":{"long_context":true}}` + "\n"
	res, err := builtin.Translate(table.SchemaInternal, table.SchemaInternal, nil, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(res.Body), strings.TrimSpace(body); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := res.Diagnostics.Forms(ir.DiagnosticLegacyForm); strings.Join(got, ",") != "implicit_roles,levels,long_context" {
		t.Fatalf("legacy forms: %v", got)
	}
}

func TestConvertErrorsAreOneLine(t *testing.T) {
	cases := []struct {
		name     string
		from, to table.SchemaID
		devs     []string
		body     string
		want     string
	}{
		{"unknown source", "vllm-sr/9.9", table.SchemaInternal, nil, `{}`, `unknown schema "vllm-sr/9.9" for --from; supported: internal, systemone/0.2, vllm-sr/4.0, vllm-sr/5.0`},
		{"unknown target", table.SchemaInternal, "openai", nil, `{}`, `unknown schema "openai" for --to; supported: internal, systemone/0.2, vllm-sr/5.0`},
		{"unknown deviation", table.SchemaInternal, table.SchemaStandard02, []string{"ascii_only"}, `{}`, `unknown deviation "ascii_only"; supported: state_text`},
		{"deviation of another schema", table.SchemaInternal, table.SchemaInternal, []string{"state_text"}, `{}`, `deviation "state_text" does not apply to internal`},
		{"4.0 is read, not written", table.SchemaInternal, table.SchemaVllmSR40, nil, `{}`, `unknown schema "vllm-sr/4.0" for --to; supported: internal, systemone/0.2, vllm-sr/5.0`},
		{"refused body", table.SchemaInternal, table.SchemaInternal, nil, `{"state":"s","questions":{"q":{"type":"noul","x":1}}}`,
			`the internal schema refuses the body: questions.q.x: member "x" is not defined by the schema (unknown_member)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := convert(c.from, c.to, c.devs, []byte(c.body))
			if err == nil || err.Error() != c.want {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}

func TestConvertKeepsTheProtocolError(t *testing.T) {
	_, err := convert(table.SchemaInternal, table.SchemaInternal, nil, []byte(`{"state":1,"questions":{"q":{"type":"noul"}}}`))
	var pe *ir.ProtocolError
	if !errors.As(err, &pe) || pe.Reason != ir.ReasonWrongType || pe.Path.String() != "state" {
		t.Fatalf("got %v, want wrong_type at state", err)
	}
}
