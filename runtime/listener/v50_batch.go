package listener

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// v50ReadBatch reads POST /v1/systemone/batch: {model, requests, options}.
// Every item is a complete standard request; it takes the batch's model
// and may repeat it, and the options are the batch's alone.
func v50ReadBatch(root jsonvalue.Value, body []byte, header http.Header) (*ClientRequest, error) {
	if problems := validate.BatchRequestVllmSR50(root); problems != nil {
		return nil, v50Refuse(problems, root, true)
	}
	var rd shapes.Reader
	batch, err := rd.Batch(root)
	if err != nil {
		return nil, RefuseError(err)
	}
	var media []StateMedia
	for i := range batch.Items {
		r := &batch.Items[i].Request
		if m, ok := ir.ReadMediaInFront(r.State, r.Assets); ok {
			media = append(media, StateMedia{Item: batch.Items[i].Name, Media: m})
		}
	}
	ApplyLongContext(&batch.Options, header)
	return &ClientRequest{
		Endpoint: EndpointBatch,
		Schema:   table.SchemaVllmSR50,
		Batch:    batch,
		Plan:     PlanTranslate,
		Body:     body,
		Media:    media,
	}, nil
}
