package srun

import (
	"cmp"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
)

func modelNotFound(served string) *ir.ErrorBody {
	return listener.ErrorOf(ir.ErrorModelNotFound, vocab.ReasonUnknownModel,
		"the server does not answer with the model named; it answers with "+served)
}

func overloaded() *ir.ErrorBody {
	return listener.ErrorOf(ir.ErrorOverloaded, vocab.ReasonOverloaded, "the server has as many requests in flight as it admits; retry later")
}

func starting() *ir.ErrorBody {
	return listener.ErrorOf(vocab.CodeStarting, vocab.ReasonStarting, "the server is starting: the model is loading or running its self-test")
}

func methodNotAllowed() *ir.ErrorBody {
	return listener.ErrorOf(ir.ErrorMethodNotAllowed, vocab.ReasonMethodNotAllowed, "the endpoint does not answer this method; see the Allow header")
}

func unknownPath() *ir.ErrorBody {
	return listener.ErrorOf(ir.ErrorNotFound, vocab.ReasonUnknownPath,
		"no endpoint at this path; the server answers /v1/systemone, /v1/systemone/batch, /v1/decisions, /v1/bundle, /v1/models, /health and /metrics")
}

// writeError answers with an error body in the client's schema. req is
// nil when the request was not read.
func (s *Server) writeError(w http.ResponseWriter, req *listener.ClientRequest, e *ir.ErrorBody) {
	s.writeErrorAfter(w, req, e, 0)
}

// writeErrorAfter is writeError asking for retryAfter where the error's
// code takes a Retry-After (0: the server's own delay).
func (s *Server) writeErrorAfter(w http.ResponseWriter, req *listener.ClientRequest, e *ir.ErrorBody, retryAfter time.Duration) {
	front.SetError(w, string(e.Code), e.Reason)
	front.WriteJSON(w, e.Status, s.errorBodyAfter(w.Header(), req, e, retryAfter))
}

// errorBody is e written by the codec, which writes bodies only: the
// status is e's own. Retry-After (and the retry-after-ms the official
// SDKs prefer) goes on h where the generated table says so.
func (s *Server) errorBody(h http.Header, req *listener.ClientRequest, e *ir.ErrorBody) []byte {
	return s.errorBodyAfter(h, req, e, 0)
}

func (s *Server) errorBodyAfter(h http.Header, req *listener.ClientRequest, e *ir.ErrorBody, retryAfter time.Duration) []byte {
	_, body := s.codec.AnswerError(req, e)
	if t, ok := fieldtable.RequestError(string(e.Code)); ok && t.RetryAfter {
		after := cmp.Or(retryAfter, s.cfg.RetryAfter)
		h.Set(vocab.HeaderRetryAfter, strconv.Itoa(max(1, int(math.Ceil(after.Seconds())))))
		h.Set(vocab.HeaderRetryAfterMs, strconv.FormatInt(after.Milliseconds(), 10))
	}
	return body
}

func unwritableAnswer() *ir.ErrorBody {
	return &ir.ErrorBody{Status: http.StatusInternalServerError, Reason: vocab.ReasonInvalidModelOutput,
		Message: "the model's answer could not be written in the client's schema"}
}
