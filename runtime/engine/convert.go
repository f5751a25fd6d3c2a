package engine

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// Converter converts request bodies between the schemas of one schema
// registry. It is immutable and safe for concurrent use.
type Converter struct {
	reg *registry.Schemas
}

// New returns a converter over reg's codecs and deviations.
func New(reg *registry.Schemas) *Converter { return &Converter{reg: reg} }

// builtin is the converter over the built-in registry, built on first use.
var builtin = sync.OnceValue(func() *Converter { return New(registry.BuiltinSchemas()) })

// Schemas returns the schema IDs the built-in converter reads, sorted.
func Schemas() []table.SchemaID { return builtin().Sources() }

// Targets returns the schema IDs the built-in converter writes, sorted.
func Targets() []table.SchemaID { return builtin().Targets() }

// Deviations returns the deviation IDs the built-in converter applies,
// sorted.
func Deviations() []string { return builtin().reg.DeviationIDs() }

// Sources returns the schema IDs c reads: every schema with a listener
// codec, systemone/0.2 (read by the generated standard validator, then as
// the 5.0 superset) and the internal form.
func (c *Converter) Sources() []table.SchemaID {
	var out []table.SchemaID
	for _, id := range c.reg.IDs() {
		if _, ok := c.reader(id); ok {
			out = append(out, id)
		}
	}
	return out
}

// Targets returns the schema IDs c writes: those with a target codec.
func (c *Converter) Targets() []table.SchemaID { return c.reg.TargetIDs() }

// Result is a converted body and what the codecs recorded on the way.
type Result struct {
	Body []byte
	// Header are the headers the target codec sends with the body, beyond
	// the JSON content type (the standard's long-context and images flags).
	Header http.Header
	// Diagnostics are the source codec's records (legacy forms used), then
	// the target codec's (members the standard drops), then the
	// deviations'.
	Diagnostics ir.Diagnostics
}

// Convert reads body in the schema from and writes the same request in the
// schema to with the built-in registry, then applies the named deviations
// in order.
func Convert(from, to table.SchemaID, deviationIDs []string, body []byte) ([]byte, error) {
	res, err := builtin().Translate(from, to, deviationIDs, body)
	return res.Body, err
}

// Translate is Convert, also returning the headers and diagnostics.
func Translate(from, to table.SchemaID, deviationIDs []string, body []byte) (Result, error) {
	return builtin().Translate(from, to, deviationIDs, body)
}

// Translate reads body in the schema from into the IR and writes it as one
// request in the schema to, then applies the deviations in order. Its
// errors are one line: an unknown schema or deviation lists the supported
// ones, and a body the source refuses or a request the target cannot carry
// names the JSON path and the reason.
func (c *Converter) Translate(from, to table.SchemaID, deviationIDs []string, body []byte) (Result, error) {
	read, ok := c.reader(from)
	if !ok {
		return Result{}, fmt.Errorf("unknown schema %q for --from; supported: %s", from, join(c.Sources()))
	}
	codec, err := c.reg.Target(to)
	if err != nil {
		return Result{}, fmt.Errorf("unknown schema %q for --to; supported: %s", to, join(c.Targets()))
	}
	devs, errs := c.reg.Deviations(to, deviationIDs)
	if len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Error()
		}
		return Result{}, errors.New(strings.Join(msgs, "; "))
	}
	r, diags, err := read(body)
	if err != nil {
		return Result{}, fmt.Errorf("the %s schema refuses the body: %w", from, err)
	}
	call, wdiags, err := writeRequest(codec, r)
	if err != nil {
		return Result{}, fmt.Errorf("the %s schema cannot carry the request: %w", to, err)
	}
	diags = append(diags, wdiags...)
	plan := target.Plan{Calls: []target.WireCall{call}}
	ddiags, err := target.ApplyRequestDeviations(&plan, devs)
	if err != nil {
		return Result{}, fmt.Errorf("deviation: %w", err)
	}
	return Result{Body: plan.Calls[0].Body, Header: extraHeaders(plan.Calls[0].Header), Diagnostics: append(diags, ddiags...)}, nil
}

// extraHeaders drops the JSON headers every call carries.
func extraHeaders(h http.Header) http.Header {
	out := http.Header{}
	for k, v := range h {
		if k != vocab.HeaderContentType && k != "Accept" {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func join(ids []table.SchemaID) string {
	if len(ids) == 0 {
		return "none"
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = string(id)
	}
	return strings.Join(names, ", ")
}
