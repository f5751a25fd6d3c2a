package srun

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// BodyLimit is the largest request body the server reads, in bytes, both
// as sent and after a Content-Encoding is undone: the generated body_bytes
// limit (32 MiB).
var BodyLimit = vocab.LimitBodyBytes

// readBody reads a request body of at most limit bytes, as sent and
// decoded (bodylimit.ReadDecoded: gzip, x-gzip or identity), refused as
// every server refuses it (listener.RefuseBody).
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *ir.ErrorBody) {
	body, err := bodylimit.ReadDecoded(w, r, limit)
	if err != nil {
		return nil, listener.RefuseBody(err)
	}
	return body, nil
}
