package router

import (
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/fleet"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/observe"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// maxBodyBytes is the standard's request body limit.
const maxBodyBytes = vocab.LimitBodyBytes

// systemOne serves one System One request on a listener: read by the
// listener's codec, routed by its model, forwarded, answered in the
// client's schema. What the request took (plan, legacy forms, deployment,
// calls) joins its access log line.
func (h *listenerHandler) systemOne(w *front.Served, req *http.Request, api *routerconfig.ListenerAPI) {
	var took routed
	_, cr := h.serveSystemOne(w, req, api, listener.Endpoint(req.URL.Path), &took)
	observe.TraceRouted(req.Context(), string(api.Schema), took.deployment, took.calls, took.passThrough)
	if took.deployment != "" {
		w.AddAttrs(slog.String("deployment", took.deployment), slog.Int("upstream_calls", took.calls), //vocab:not-spec log attribute keys
			slog.Bool("pass_through_bytes", took.passThrough))
	}
	if len(took.tries) > 0 { // a pool's members, a retry, an open circuit (runtime/fleet)
		w.AddAttrs(slog.Any("tries", fleet.TriesLog(took.tries))) //vocab:not-spec log attribute key
	}
	if cr != nil {
		w.AddAttrs(slog.String("plan", string(cr.SentPlan(took.rewrote()))), slog.Any("legacy_forms", cr.Diagnostics.Forms(ir.DiagnosticLegacyForm)))
	}
}

// routed is where forward sent a request, for its access log line.
type routed struct {
	deployment  string // "": the request was not planned
	calls       int
	passThrough bool
	// tries are the members a pool request tried or passed over, a
	// deployment's call tried again, or its open circuit; nil for one
	// plan on one deployment.
	tries []fleet.Try
}

// rewrote reports whether the request went upstream rewritten: planned
// (its calls made or tried) without the client's own bytes (a target that
// does not read the internal form, a model or deadline the Router filled
// in or capped, a question left out, a deviation). A pass-through its
// listener planned then counts, and is logged, as the translation it was.
func (r *routed) rewrote() bool { return r.calls > 0 && !r.passThrough }

// serveSystemOne answers the request and returns the status it answered
// with and the request as read (nil when it could not be read).
func (h *listenerHandler) serveSystemOne(w http.ResponseWriter, req *http.Request, api *routerconfig.ListenerAPI,
	endpoint listener.Endpoint, took *routed) (int, *listener.ClientRequest) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return h.answerError(w, api, nil, listener.ErrorOf(ir.ErrorMethodNotAllowed, vocab.ReasonMethodNotAllowed, "this endpoint takes POST")), nil
	}
	// The tolerant-server guidance is to accept gzip request bodies; the
	// calls the Router makes upstream are new requests with no
	// Content-Encoding.
	read := h.router.tracing.StartRead(req.Context(), string(api.Schema))
	body, e := listener.ReadBody(w, req, maxBodyBytes)
	if e != nil {
		observe.EndWith(read, e)
		status := h.answerError(w, api, nil, e)
		bodylimit.Linger(w, req) // an early answer: let a client still sending read it
		return status, nil
	}
	x, e := engine.Read(api.Codec, endpoint, body, req.Header)
	observe.EndWith(read, e)
	if e != nil {
		return h.answerError(w, api, nil, e), nil
	}
	cr := x.Client
	out, retryAfter, e := h.router.forward(req.Context(), h.lst.Name, api, x, took)
	for kind, form := range cr.CountedDiagnostics(took.rewrote()) {
		h.router.metrics.CountDiagnostic(h.lst.Name, kind, form)
	}
	if e == nil && cr.Endpoint == listener.EndpointDecisions {
		e = listener.NoValidQuestion(out, cr.QuestionFailures) // as vllm-srun answers it
	}
	_, sp := h.router.tracing.Start(req.Context(), observe.SpanAnswer)
	defer sp.End()
	if e != nil {
		setRetryAfter(w.Header(), e.Status, retryAfter)
		return h.answerError(w, api, cr, e), cr
	}
	answer, err := api.Codec.AnswerSuccess(cr, out)
	if err != nil {
		return h.answerError(w, api, cr, internalError(vocab.ReasonUnwritableAnswer, "the answer could not be written in the client's schema")), cr
	}
	front.WriteJSON(w, http.StatusOK, answer)
	return http.StatusOK, cr
}

// answerError writes e in the client's schema and returns the status.
func (h *listenerHandler) answerError(w http.ResponseWriter, api *routerconfig.ListenerAPI, cr *listener.ClientRequest, e *ir.ErrorBody) int {
	status, body := api.Codec.AnswerError(cr, e)
	front.SetError(w, string(e.Code), e.Reason)
	front.WriteJSON(w, status, body)
	return status
}

// setRetryAfter passes an upstream's delay on to the client as
// Retry-After, in whole seconds rounded up (the header has no fractions),
// capped at tc.MaxRetryAfter. A 429, 503 or 529 always carries one
// (tc.DefaultRetryAfter when no upstream asked for a delay); another
// status with no delay carries none.
func setRetryAfter(h http.Header, status int, d time.Duration) {
	if d <= 0 && tc.AsksRetry(status) {
		d = tc.DefaultRetryAfter
	}
	if d <= 0 {
		return
	}
	d = min(d, tc.MaxRetryAfter)
	h.Set(vocab.HeaderRetryAfter, strconv.FormatInt(int64(math.Ceil(d.Seconds())), 10))
}
