package listener5

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
)

// readBatch reads POST /v1/systemone/batch: {model, requests, options}.
// Every item is a complete standard request; it takes the batch's model
// and may repeat it, and the options are the batch's alone.
func readBatch(root jsonvalue.Value, body []byte, header http.Header) (*listener.ClientRequest, error) {
	if problems := validate.BatchRequestVllmSR50(root); problems != nil {
		return nil, refuse(problems, root, true)
	}
	batch, refusal := listener.BuildBatch(root, listener.Builder{})
	if refusal != nil {
		return nil, refusal
	}
	var media []listener.StateMedia
	for i := range batch.Items {
		r := &batch.Items[i].Request
		if m, ok := ir.ReadMediaInFront(r.State, r.Assets); ok {
			media = append(media, listener.StateMedia{Item: batch.Items[i].Name, Media: m})
		}
	}
	listener.ApplyLongContext(&batch.Options, header)
	return &listener.ClientRequest{
		Endpoint: listener.EndpointBatch,
		Schema:   table.SchemaVllmSR50,
		Batch:    batch,
		Plan:     listener.PlanTranslate,
		Body:     body,
		Media:    media,
	}, nil
}
