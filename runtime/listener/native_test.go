package listener

import (
	"errors"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/runtime/table"
)

// A bundle's items are complete internal requests, each with its own
// options: the batch-item refusal of options is vllm-sr/5.0's and 4.0's
// alone, so ReadBundle keeps every item's options.
func TestReadBundleKeepsItemOptions(t *testing.T) {
	body := []byte(`{"model":"m","requests":{` +
		`"r1":{"state":"x","questions":{"q":{"type":"noul","instructions":"i"}},"options":{"deadline_ms":50,"long_context":true}},` +
		`"r2":{"state":"y","roles":null,"questions":{"q":{"type":"noul","instructions":"i"}},"options":{"return_meta":true}}}}`)
	cr, err := ReadBundle(table.SchemaVllmSR50, body, nil)
	if err != nil {
		t.Fatalf("a bundle with per-item options was refused: %v", err)
	}
	if cr.Plan != PlanPassThrough || cr.Batch == nil || len(cr.Batch.Items) != 2 {
		t.Fatalf("plan %v, batch %+v: want a pass-through bundle of two items", cr.Plan, cr.Batch)
	}
	r1, r2 := cr.Batch.Items[0].Request.Options, cr.Batch.Items[1].Request.Options
	if r1 == nil || r1.DeadlineMs == nil || *r1.DeadlineMs != 50 || r1.LongContext == nil || !*r1.LongContext {
		t.Errorf("item r1 options = %+v, want deadline_ms 50 and long_context true", r1)
	}
	if r2 == nil || r2.ReturnMeta == nil || !*r2.ReturnMeta {
		t.Errorf("item r2 options = %+v, want return_meta true", r2)
	}
}

// An item's options follow the internal schema: an unknown member is
// refused with 400, naming its path, and the message copies no value.
func TestReadBundleRefusesUnknownItemOption(t *testing.T) {
	body := []byte(`{"requests":{"r1":{"state":"x","questions":{"q":{"type":"noul","instructions":"i"}},"options":{"colour":"secret-value"}}}}`)
	_, err := ReadBundle(table.SchemaVllmSR40, body, nil)
	var refusal *Refusal
	if !errors.As(err, &refusal) {
		t.Fatalf("err = %v, want a *Refusal", err)
	}
	b := refusal.Body
	if b.Status != 400 || b.Reason != string(table.ReasonUnknownMember) {
		t.Errorf("status %d reason %q, want 400 %q", b.Status, b.Reason, table.ReasonUnknownMember)
	}
	if !strings.Contains(b.Message, "/requests/r1/options") || !strings.Contains(b.Message, `"colour"`) {
		t.Errorf("message %q does not name /requests/r1/options and the member colour", b.Message)
	}
	if strings.Contains(b.Message, "secret-value") {
		t.Errorf("message %q copies a request value", b.Message)
	}
}
