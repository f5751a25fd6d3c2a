package srun

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// Request error codes the generated table has and ir does
// not name: the server's own states.
const (
	codeStarting    ir.ErrorCode = vocab.CodeStarting
	codeUnavailable ir.ErrorCode = vocab.CodeUnavailable
)

// retryAfter reports whether the table says code comes with Retry-After.
func retryAfter(code ir.ErrorCode) bool {
	e, ok := fieldtable.RequestError(string(code))
	return ok && e.RetryAfter
}

func modelNotFound(served string) *ir.ErrorBody {
	return &ir.ErrorBody{
		Status:  ir.ErrorModelNotFound.Status(),
		Code:    ir.ErrorModelNotFound,
		Message: fmt.Sprintf("the server does not answer with the model named; it answers with %s", served),
		Reason:  vocab.ReasonUnknownModel,
	}
}

func overloaded() *ir.ErrorBody {
	return &ir.ErrorBody{
		Status:  ir.ErrorOverloaded.Status(),
		Code:    ir.ErrorOverloaded,
		Message: "the server has as many requests in flight as it admits; retry later",
		Reason:  vocab.ReasonOverloaded,
	}
}

func starting() *ir.ErrorBody {
	return &ir.ErrorBody{
		Status:  codeStarting.Status(),
		Code:    codeStarting,
		Message: "the server is starting: the model is loading or running its self-test",
		Reason:  vocab.ReasonStarting,
	}
}

func methodNotAllowed() *ir.ErrorBody {
	return &ir.ErrorBody{
		Status:  ir.ErrorMethodNotAllowed.Status(),
		Code:    ir.ErrorMethodNotAllowed,
		Message: "the endpoint does not answer this method; see the Allow header",
		Reason:  vocab.ReasonMethodNotAllowed,
	}
}

func unknownPath() *ir.ErrorBody {
	return &ir.ErrorBody{
		Status:  ir.ErrorNotFound.Status(),
		Code:    ir.ErrorNotFound,
		Message: "no endpoint at this path; the server answers /v1/systemone, /v1/systemone/batch, /v1/decisions, /v1/bundle, /v1/models, /health and /metrics",
		Reason:  vocab.ReasonUnknownPath,
	}
}

// writeError answers with an error body in the client's schema. req is
// nil when the request was not read.
func (s *Server) writeError(w http.ResponseWriter, req *listener.ClientRequest, e *ir.ErrorBody) {
	listener.SetCode(w, string(e.Code))
	writeJSON(w, e.Status, s.errorBody(w.Header(), req, e))
}

// errorBody is e written by the codec, which writes bodies only: the
// status is e's own. Retry-After (and the retry-after-ms the official
// SDKs prefer) goes on h where the generated table says so.
func (s *Server) errorBody(h http.Header, req *listener.ClientRequest, e *ir.ErrorBody) []byte {
	_, body := s.codec.AnswerError(req, e)
	if retryAfter(e.Code) {
		h.Set(vocab.HeaderRetryAfter, strconv.Itoa(max(1, int(s.cfg.RetryAfter.Seconds()))))
		h.Set(vocab.HeaderRetryAfterMs, strconv.FormatInt(s.cfg.RetryAfter.Milliseconds(), 10))
	}
	return body
}

// writeJSON writes a JSON body with its status. Every answer of the server
// goes through it, so every answer is application/json.
func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set(vocab.HeaderContentType, "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func unwritableAnswer() *ir.ErrorBody {
	return &ir.ErrorBody{
		Status:  http.StatusInternalServerError,
		Message: "the model's answer could not be written in the client's schema",
		Reason:  vocab.ReasonInvalidModelOutput,
	}
}
