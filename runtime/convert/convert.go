package convert

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/runtime/internalwire"
	sop "github.com/vllm-sr/systemone/runtime/systemoneprotocol"
	"github.com/vllm-sr/systemone/runtime/table"
)

// requestCodec reads and writes request bodies of one schema.
type requestCodec struct {
	read  func(body []byte) (*sop.Request, sop.Diagnostics, error)
	write func(r *sop.Request) ([]byte, error)
}

// codecs is every schema Convert speaks. It is never modified after init.
var codecs = map[table.SchemaID]requestCodec{
	table.SchemaInternal: {read: internalwire.DecodeRequest, write: internalwire.EncodeRequest},
}

// deviations is every deviation Convert applies, by ID; none yet. A
// deviation rewrites the target's body after its codec wrote it.
var deviations = map[string]func(to table.SchemaID, body []byte) ([]byte, error){}

// Schemas returns the schema IDs Convert reads and writes, sorted.
func Schemas() []table.SchemaID {
	ids := make([]table.SchemaID, 0, len(codecs))
	for id := range codecs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Deviations returns the deviation IDs Convert applies, sorted.
func Deviations() []string {
	ids := make([]string, 0, len(deviations))
	for id := range deviations {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Result is a converted body and what the codecs recorded on the way.
type Result struct {
	Body []byte
	// Diagnostics are the source codec's records (legacy forms used).
	Diagnostics sop.Diagnostics
}

// Convert reads body in the schema from and writes the same request in the
// schema to, then applies the named deviations in order. Its errors are
// one line: an unknown schema or deviation lists the supported ones, and a
// body the source refuses or a request the target cannot carry names the
// JSON path and the reason.
func Convert(from, to table.SchemaID, deviationIDs []string, body []byte) ([]byte, error) {
	res, err := Translate(from, to, deviationIDs, body)
	return res.Body, err
}

// Translate is Convert, also returning the diagnostics.
func Translate(from, to table.SchemaID, deviationIDs []string, body []byte) (Result, error) {
	src, err := lookup("--from", from)
	if err != nil {
		return Result{}, err
	}
	dst, err := lookup("--to", to)
	if err != nil {
		return Result{}, err
	}
	rewriters := make([]func(table.SchemaID, []byte) ([]byte, error), len(deviationIDs))
	for i, id := range deviationIDs {
		if rewriters[i] = deviations[id]; rewriters[i] == nil {
			return Result{}, fmt.Errorf("unknown deviation %q; supported: %s", id, listOrNone(Deviations()))
		}
	}
	r, diags, err := src.read(body)
	if err != nil {
		return Result{}, fmt.Errorf("the %s schema refuses the body: %w", from, err)
	}
	out, err := dst.write(r)
	if err != nil {
		return Result{}, fmt.Errorf("the %s schema cannot carry the request: %w", to, err)
	}
	for i, rewrite := range rewriters {
		if out, err = rewrite(to, out); err != nil {
			return Result{}, fmt.Errorf("deviation %s: %w", deviationIDs[i], err)
		}
	}
	return Result{Body: out, Diagnostics: diags}, nil
}

func lookup(flag string, id table.SchemaID) (requestCodec, error) {
	c, ok := codecs[id]
	if !ok {
		names := make([]string, 0, len(codecs))
		for _, s := range Schemas() {
			names = append(names, string(s))
		}
		return c, fmt.Errorf("unknown schema %q for %s; supported: %s", id, flag, listOrNone(names))
	}
	return c, nil
}

func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
