package engine

import (
	"errors"
	"net/http"

	"github.com/vllm-sr/systemone/runtime/internalwire"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/table"
	"github.com/vllm-sr/systemone/runtime/target"
)

// convertEndpoint is the endpoint convert plans its one call for; nothing
// is sent to it.
const convertEndpoint = "http://convert.invalid/v1/systemone"

// convertItem names the one item of the batch convert plans: convert's own
// name, in no body, seen only in paths (requests.request...) of messages.
const convertItem = "request" //vocab:not-spec convert's name for its one batch item

// writeRequest writes r as one request body of codec's schema, as the
// call its deviations rewrite:
//
//   - systemone/0.2: the codec's own plan for a one-item batch, which is
//     one call per item, so the carry check, preset expansion and the
//     strip list apply exactly as on a deployment;
//   - internal: internalwire, losslessly (the codec's /v1/decisions body,
//     without the model it would impose);
//   - vllm-sr/5.0: the full 5.0 request writer the codec's batches are
//     made of, with preset-only questions completed as the codec does.
func writeRequest(codec target.Codec, r *ir.Request) (target.WireCall, ir.Diagnostics, error) {
	switch codec.ID() {
	case table.SchemaStandard02:
		return planned(codec, r)
	case table.SchemaInternal:
		body, err := internalwire.EncodeRequest(r)
		return single(body), nil, err
	case table.SchemaVllmSR50:
		c := *r
		c.Questions = append([]ir.Question(nil), r.Questions...)
		for i := range c.Questions {
			if c.Questions[i].Type == "" {
				modelcheck.ExpandPreset(&c.Questions[i])
			}
		}
		body, err := internalwire.Writer{}.AppendRequest(nil, &c)
		call := single(body)
		if err == nil && target.LongContext(r, nil) {
			call.Header.Set(target.LongContextHeader, target.HeaderOn)
		}
		return call, nil, err
	}
	return target.WireCall{}, nil, errors.New("no single-request writer for this schema")
}

// planned writes r through codec's Plan as a one-item batch; the request's
// own model goes upstream.
func planned(codec target.Codec, r *ir.Request) (target.WireCall, ir.Diagnostics, error) {
	if r.Model == nil {
		return target.WireCall{}, nil, errors.New("model: is required (missing_member)")
	}
	t := target.Target{Deployment: "convert", Endpoint: convertEndpoint, Model: *r.Model, MaxConcurrency: 1}
	plan, diags, err := codec.Plan(&ir.Batch{Items: []ir.BatchItem{{Name: convertItem, Request: *r}}}, t, target.Policy{})
	if err != nil {
		return target.WireCall{}, nil, err
	}
	if len(plan.Calls) != 1 {
		return target.WireCall{}, nil, errors.New("the codec planned more than one call for one request")
	}
	return plan.Calls[0], diags, nil
}

func single(body []byte) target.WireCall {
	return target.WireCall{Method: http.MethodPost, URL: convertEndpoint, Header: target.JSONHeader(), Body: body, Items: []string{convertItem}}
}
