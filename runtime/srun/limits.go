package srun

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/ir"
)

// BodyLimit is the largest request body the server reads, in bytes, both
// as sent and after a Content-Encoding is undone: the generated body_bytes
// limit (32 MiB).
var BodyLimit = vocab.LimitBodyBytes

// readBody reads a request body of at most limit bytes, as sent and
// decoded (bodylimit.ReadDecoded: gzip, x-gzip or identity), and turns
// bodylimit's errors into the server's error bodies.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *ir.ErrorBody) {
	body, err := bodylimit.ReadDecoded(w, r, limit)
	if err == nil {
		return body, nil
	}
	var tooBig *bodylimit.TooLargeError
	var unsupported *bodylimit.UnsupportedEncodingError
	var corrupt *bodylimit.CorruptGzipError
	switch {
	case errors.As(err, &tooBig):
		return nil, tooLarge(tooBig.Limit)
	case errors.As(err, &unsupported):
		return nil, invalidRequest(vocab.ReasonUnsupportedContentEncoding,
			"the Content-Encoding is not supported; send gzip or identity")
	case errors.As(err, &corrupt) && corrupt.NotGzip:
		return nil, invalidRequest(vocab.ReasonInvalidGzip, "the request body is not gzip data")
	case errors.As(err, &corrupt):
		return nil, invalidRequest(vocab.ReasonInvalidGzip, "the gzip request body is corrupt or truncated")
	}
	return nil, invalidRequest(vocab.ReasonUnreadableBody, "the request body could not be read")
}

func tooLarge(limit int64) *ir.ErrorBody {
	return &ir.ErrorBody{
		Status:  requestStatus(ir.ErrorRequestTooLarge),
		Code:    ir.ErrorRequestTooLarge,
		Message: fmt.Sprintf("the request body is larger than %d bytes", limit),
		Reason:  vocab.ReasonBodyTooLarge,
		Limit:   &limit,
	}
}
