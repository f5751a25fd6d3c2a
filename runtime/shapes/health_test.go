package shapes

import (
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// fullHealth is a runtime's health with every member set, and a passive
// value in each passive slot the specs give health.
func fullHealth() ir.Health {
	return ir.Health{Status: "ready", APIVersion: "5.0.0", Version: "5.0", Model: "vllm-sr/vela3-fast", Schema: "vllm-sr/5.0",
		Extra: passiveExtra(table.LevelHealth, healthSlots, healthPassiveSlots, nil)}
}

// TestHealthRoundTrip: every member of a full health is written in the
// slots' order, passes the schema's generated validator, and is read
// back into the same ir.Health, under vllm-sr/5.0 and the internal form
// (4.0's health merged with 5.0's). The Router's own health (status and
// version alone) is a 5.0 health too.
func TestHealthRoundTrip(t *testing.T) {
	want := fullHealth()
	body := AnswerWriter{}.Health(&want)
	if got := string(body); !strings.HasPrefix(got, `{"status":"ready","api_version":"5.0.0","version":"5.0","model":"vllm-sr/vela3-fast","schema":"vllm-sr/5.0"`) {
		t.Errorf("health written as %s", got)
	}
	for _, schema := range []table.SchemaID{table.SchemaVllmSR50, table.SchemaInternal} {
		got, err := ReadHealth(decodeJSON(t, string(body)), RepliesOf(schema))
		if err != nil || !sameJSON(*got, want) {
			t.Errorf("%s: read %+v (%v), want %+v", schema, got, err, want)
		}
	}
	router := ir.Health{Status: "ok", Version: "5.0"}
	body = AnswerWriter{}.Health(&router)
	if string(body) != `{"status":"ok","version":"5.0"}` {
		t.Errorf("the Router's health written as %s", body)
	}
	if got, err := ReadHealth(decodeJSON(t, string(body)), RepliesOf(table.SchemaVllmSR50)); err != nil || !sameJSON(*got, router) {
		t.Errorf("the Router's health read as %+v (%v)", got, err)
	}
}

// TestReadHealthRefuses: a health body its schema does not define is a
// ProtocolError naming the first problem's path and reason: a member of
// the wrong type, a required member missing, and from a vllm-sr/5.0
// server a member no spec defines there. systemone/0.2 defines no health.
func TestReadHealthRefuses(t *testing.T) {
	for _, c := range []struct {
		schema       table.SchemaID
		body         string
		path, reason string
	}{
		{table.SchemaVllmSR50, `{"status":"ready","api_version":5,"version":"5.0"}`, vocab.HealthAPIVersion, vocab.ReasonWrongType},
		{table.SchemaVllmSR50, `{"status":"ready","api_version":"5.0.0"}`, vocab.HealthVersion, vocab.ReasonMissingMember},
		{table.SchemaVllmSR50, `{"status":"ready","version":"5.0","uptime":3}`, "uptime", vocab.ReasonUnknownMember},
		{table.SchemaVllmSR50, `["ready"]`, "body", vocab.ReasonWrongType},
		{table.SchemaStandard02, `{"status":"ready"}`, "body", string(table.ReasonUnknownSchema)},
	} {
		rs := RepliesOf(c.schema)
		if rs == nil {
			t.Fatalf("no replies for %s", c.schema)
		}
		_, err := ReadHealth(decodeJSON(t, c.body), rs)
		pe, ok := err.(*ir.ProtocolError)
		if !ok || pe.Path.String() != c.path || string(pe.Reason) != c.reason {
			t.Errorf("%s %s: %v, want %q at %q", c.schema, c.body, err, c.reason, c.path)
		}
	}
}
