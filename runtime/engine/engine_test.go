package engine

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// scripted is a Caller that answers every item with one answer to its
// first question, failed for the items named in fail.
type scripted struct{ fail map[string]bool }

func (s scripted) Call(_ context.Context, x *Exchange) []target.ItemResult {
	var out []target.ItemResult
	for _, it := range x.Plan.Items {
		a := ir.Answer{Name: it.Questions[0].Name, Type: it.Questions[0].Type, Noul: new(0.5)}
		if s.fail[it.Name] {
			a = ir.Answer{Name: a.Name, Type: a.Type, Error: ir.QuestionErrorInvalidInput, Reason: "too_short", Message: "too short"}
		}
		out = append(out, target.ItemResult{Name: it.Name, Response: &ir.Response{Answers: []ir.Answer{a}, Usage: &ir.Usage{InputTokens: 2}}})
	}
	return out
}

func read(t *testing.T, schema table.SchemaID, endpoint listener.Endpoint, body string) *Exchange {
	t.Helper()
	codec, err := builtinSchemas.Listener(schema)
	if err != nil {
		t.Fatal(err)
	}
	x, e := Read(codec, endpoint, []byte(body), nil)
	if e != nil {
		t.Fatalf("refused: %+v", e)
	}
	return x
}

const batchBody = `{"model":"m","requests":{"a":{"state":"x","questions":{"q":{"type":"noul","instructions":"i"}}},` +
	`"b":{"state":"y","questions":{"q":{"type":"noul","instructions":"i"}}}}}`

// TestRunInProcess: with no target codec the caller answers the items
// themselves; a fail-fast batch is answered by its first failed question,
// naming the item as its state, and a batch without failures per item
// with the usage summed and the client's model.
func TestRunInProcess(t *testing.T) {
	x := read(t, table.SchemaVllmSR50, listener.EndpointBatch, batchBody)
	_, _, e := builtin.Run(context.Background(), x, Route{Caller: scripted{fail: map[string]bool{"b": true}}})
	if e == nil || e.Status != 400 || e.Code != ir.ErrorQuestionFailed || e.State != "b" || e.Question != "q" || e.Reason != "too_short" {
		t.Fatalf("fail-fast: %+v", e)
	}
	x = read(t, table.SchemaVllmSR50, listener.EndpointBatch, batchBody)
	out, _, e := builtin.Run(context.Background(), x, Route{Caller: scripted{}})
	if e != nil || out.Batch == nil || len(out.Batch.Responses) != 2 || *out.Batch.Model != "m" || out.Batch.Usage.InputTokens != 4 {
		t.Fatalf("answered: %+v %+v", out, e)
	}
	if len(x.Plan.Calls) != 0 || len(x.Plan.Items) != 2 {
		t.Fatalf("an in-process plan lists items and makes no call: %+v", x.Plan)
	}
}

// TestPlanPassThrough: a /v1/decisions request its listener planned
// pass-through goes to a vllm-sr/5.0 target's native /v1/decisions with
// the client's own bytes (x.PassThrough), and with the internal codec's
// body when the model that goes upstream is another (not a pass-through);
// with a deviation, or to a schema that is not vllm-sr's own, the target
// codec plans it.
func TestPlanPassThrough(t *testing.T) {
	const body = `{"model":"m","state":{"request":"x"},"questions":{"q":{"type":"noul","instructions":"i"}}}`
	codec := func(id table.SchemaID) target.Codec {
		c, err := builtinSchemas.Target(id)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tgt := target.Target{Deployment: "d", Endpoint: "http://up.invalid/v1/systemone", Model: "m"}
	x := read(t, table.SchemaVllmSR40, listener.EndpointDecisions, body)
	if e := builtin.Plan(x, Route{Codec: codec(table.SchemaVllmSR50), Target: tgt}); e != nil {
		t.Fatal(e)
	}
	if !x.PassThrough || len(x.Plan.Calls) != 1 || string(x.Plan.Calls[0].Body) != body ||
		x.Plan.Calls[0].URL != "http://up.invalid/v1/decisions" || x.Route.Codec.Traits().Schema != table.SchemaInternal {
		t.Fatalf("pass-through: %v %+v", x.PassThrough, x.Plan.Calls)
	}

	other := tgt
	other.Model = "upstream-name"
	x = read(t, table.SchemaVllmSR40, listener.EndpointDecisions, body)
	if e := builtin.Plan(x, Route{Codec: codec(table.SchemaVllmSR50), Target: other}); e != nil || x.PassThrough ||
		string(x.Plan.Calls[0].Body) == body || x.Plan.Calls[0].URL != "http://up.invalid/v1/decisions" {
		t.Fatalf("another upstream model: the internal codec's body goes to /v1/decisions, %s", x.Plan.Calls[0].Body)
	}

	devs, _ := builtinSchemas.Deviations(table.SchemaVllmSR50, []string{"state_text"})
	for _, rt := range []Route{
		{Codec: codec(table.SchemaStandard02), Target: tgt},
		{Codec: codec(table.SchemaVllmSR50), Target: tgt, Deviations: devs},
	} {
		x = read(t, table.SchemaVllmSR40, listener.EndpointDecisions, body)
		if e := builtin.Plan(x, rt); e != nil || x.PassThrough || x.Route.Codec != rt.Codec {
			t.Fatalf("%s: planned by the target codec: %v %+v %+v", rt.Codec.Traits().Schema, x.PassThrough, x.Plan.Calls, e)
		}
	}
}

// TestPlanV40PassThrough: a vllm-sr/4.0 /v1/systemone request on a 4.0
// listener goes to a vllm-sr/5.0 target as the client's own bytes on the
// native /v1/decisions, which reads the internal form; with the
// long-context header (which the body does not carry) it is written from
// the IR, options.long_context in the body and the header on the call.
// A 4.0 states request, and a 5.0 listener's request, go with the target
// codec (a batch call).
func TestPlanV40PassThrough(t *testing.T) {
	const body = `{"model":"m","state":{"request":"x"},"questions":{"q":{"preset":"jailbreak"},` +
		`"c":{"type":"choice","instructions":"i","choices":{"a":"A","b":"B"}}}}`
	v50, err := builtinSchemas.Target(table.SchemaVllmSR50)
	if err != nil {
		t.Fatal(err)
	}
	tgt := target.Target{Deployment: "d", Endpoint: "http://up.invalid/v1/systemone", Model: "m"}
	x := read(t, table.SchemaVllmSR40, listener.EndpointSystemOne, body)
	if e := builtin.Plan(x, Route{Codec: v50, Target: tgt}); e != nil {
		t.Fatal(e)
	}
	if !x.PassThrough || len(x.Plan.Calls) != 1 || string(x.Plan.Calls[0].Body) != body ||
		x.Plan.Calls[0].URL != "http://up.invalid/v1/decisions" || x.Plan.Calls[0].Header.Get(vocab.HeaderLongContext) != "" {
		t.Fatalf("a 4.0 request: %v %+v", x.PassThrough, x.Plan.Calls)
	}

	long := http.Header{}
	long.Set(vocab.HeaderLongContext, "true")
	cr, err := listener.V40.Read(listener.EndpointSystemOne, []byte(body), long)
	if err != nil {
		t.Fatal(err)
	}
	x = exchangeOf(cr)
	if e := builtin.Plan(x, Route{Codec: v50, Target: tgt}); e != nil {
		t.Fatal(e)
	}
	call := x.Plan.Calls[0]
	if x.PassThrough || call.URL != "http://up.invalid/v1/decisions" || call.Header.Get(vocab.HeaderLongContext) != "true" ||
		!strings.Contains(string(call.Body), `"options":{"long_context":true}`) {
		t.Fatalf("a 4.0 request with the long-context header: %v %s %v %s", x.PassThrough, call.URL, call.Header, call.Body)
	}

	for _, c := range []struct {
		schema table.SchemaID
		body   string
	}{
		{table.SchemaVllmSR40, `{"model":"m","states":{"s":"x","t":"y"},"questions":{"q":{"type":"noul","instructions":"i"}}}`},
		{table.SchemaVllmSR50, `{"model":"m","state":"x","questions":{"q":{"type":"noul","instructions":"i"}}}`},
	} {
		x = read(t, c.schema, listener.EndpointSystemOne, c.body)
		if e := builtin.Plan(x, Route{Codec: v50, Target: tgt}); e != nil || x.PassThrough ||
			x.Plan.Calls[0].URL != "http://up.invalid/v1/systemone/batch" {
			t.Fatalf("%s %s: want the target codec's batch call: %v %+v", c.schema, c.body, x.PassThrough, x.Plan.Calls)
		}
	}
}
