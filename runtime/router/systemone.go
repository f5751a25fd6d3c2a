package router

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/bodylimit"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// maxBodyBytes is the standard's request body limit.
const maxBodyBytes = vocab.LimitBodyBytes

// systemOne serves one System One request on a listener: read by the
// listener's codec, routed by its model, forwarded, answered in the
// client's schema.
func (h *listenerHandler) systemOne(w http.ResponseWriter, req *http.Request, api *routerconfig.ListenerAPI) {
	start := time.Now()
	endpoint := listener.Endpoint(req.URL.Path)
	attrs := []slog.Attr{slog.String("listener", h.lst.Name), slog.String("endpoint", endpointWord(endpoint))}
	status, cr := h.serveSystemOne(w, req, api, endpoint, &attrs)
	if cr != nil {
		attrs = append(attrs, slog.String("plan", string(cr.Plan)), slog.Any("legacy_forms", cr.Diagnostics.Forms(ir.DiagnosticLegacyForm)))
	}
	attrs = append(attrs, slog.Int("status", status), //vocab:not-spec slog attribute key
		slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000))
	h.router.log.LogAttrs(req.Context(), slog.LevelInfo, "systemone request", attrs...)
}

// serveSystemOne answers the request and returns the status it answered
// with and the request as read (nil when it could not be read).
func (h *listenerHandler) serveSystemOne(w http.ResponseWriter, req *http.Request, api *routerconfig.ListenerAPI,
	endpoint listener.Endpoint, attrs *[]slog.Attr) (int, *listener.ClientRequest) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return h.answerError(w, api, nil, &ir.ErrorBody{Status: http.StatusMethodNotAllowed, Reason: vocab.ReasonMethodNotAllowed,
			Message: "this endpoint takes POST"}), nil
	}
	body, e := readSystemOneBody(w, req)
	if e != nil {
		return h.answerError(w, api, nil, e), nil
	}
	cr, err := api.Codec.Read(endpoint, body, req.Header)
	if err != nil {
		return h.answerError(w, api, nil, refusalBody(err)), nil
	}
	h.router.metrics.recordRead(h.lst.Name, cr)
	out, retryAfter, e := h.router.forward(req.Context(), h.lst.Name, api, cr, attrs)
	if e != nil {
		setRetryAfter(w.Header(), retryAfter)
		return h.answerError(w, api, cr, e), cr
	}
	answer, err := api.Codec.AnswerSuccess(cr, out)
	if err != nil {
		return h.answerError(w, api, cr, internalError(vocab.ReasonUnwritableAnswer, "the answer could not be written in the client's schema")), cr
	}
	writeJSON(w, http.StatusOK, answer)
	return http.StatusOK, cr
}

// forward routes a read request by its model and runs it: on the
// deployment it names (refused before any call when that deployment
// cannot carry or answer it), or on the first capable member of the pool
// it names, whose answer adds routing. On an error, retryAfter is the
// delay the upstream asked for with the failure that answers the request
// (zero when none).
func (r *Router) forward(ctx context.Context, listenerName string, api *routerconfig.ListenerAPI, cr *listener.ClientRequest,
	attrs *[]slog.Attr) (out listener.Outcome, retryAfter time.Duration, e *ir.ErrorBody) {
	j := jobOf(cr)
	if j.model == "" {
		return listener.Outcome{}, 0, invalidRequest(vocab.ReasonMissingModel, "the request names no model; name a deployment or a pool")
	}
	members, known := r.cfg.Route(j.model)
	if api.Models != nil && !slices.Contains(api.Models, j.model) || !known {
		return listener.Outcome{}, 0, modelNotFound(listenerName, known, r.servedModels(api))
	}
	deadline := j.deadline(api, time.Now())
	j.capDeadline(api)
	_, pooled := r.cfg.Pool(j.model)
	var chosen choice
	if pooled {
		c, refusal := r.choose(ctx, j.model, members, j.batch, j.single)
		if refusal != nil {
			return listener.Outcome{}, 0, refusal
		}
		chosen = c
	} else {
		d := members[0]
		caps := r.capabilities(ctx, d)
		if m := missing(d, caps, j.batch); len(m) > 0 {
			return listener.Outcome{}, 0, carryRefusal(d, m, j.single)
		}
		chosen = choice{deployment: d, caps: caps}
	}
	rn, e := r.runOn(ctx, chosen.deployment, chosen.caps, j, deadline)
	if e != nil {
		return listener.Outcome{}, 0, e
	}
	*attrs = append(*attrs, slog.String("deployment", chosen.deployment.Name), slog.Int("upstream_calls", len(rn.plan.Calls)),
		slog.Bool("pass_through_bytes", rn.passThrough))
	out, retryAfter, e = outcome(j, rn)
	if e == nil && pooled {
		addRouting(&out, routing(j.model, chosen, len(rn.plan.Calls)))
	}
	return out, retryAfter, e
}

// readSystemOneBody reads a System One request body up to the
// standard's limit with its Content-Encoding (gzip, x-gzip or identity)
// undone, the limit holding for the decoded size too: the tolerant-server
// guidance is to accept gzip request bodies. The codec reads the decoded
// JSON, and the calls the Router makes upstream are new requests with no
// Content-Encoding.
func readSystemOneBody(w http.ResponseWriter, req *http.Request) ([]byte, *ir.ErrorBody) {
	body, err := bodylimit.ReadDecoded(w, req, maxBodyBytes)
	if err != nil {
		return nil, listener.RefuseBody(err)
	}
	return body, nil
}

// readLLMBody reads an LLM API request body up to the same limit, as
// sent: the LLM pass-through forwards the client's bytes and its
// Content-Encoding header unchanged, so the upstream, not the Router,
// undoes the coding (a compressed body names no model the Router can
// read, and goes to the API's one upstream if it has one).
func readLLMBody(w http.ResponseWriter, req *http.Request) ([]byte, *ir.ErrorBody) {
	body, err := bodylimit.Read(w, req, maxBodyBytes)
	if err != nil {
		return nil, listener.RefuseBody(err)
	}
	return body, nil
}

// refusalBody is the error body of a request the listener codec refused.
func refusalBody(err error) *ir.ErrorBody {
	var ref *listener.Refusal
	if !errors.As(err, &ref) {
		return invalidRequest(vocab.ReasonUnreadableRequest, "the request could not be read")
	}
	e := ref.Body
	if e.Status == 0 {
		e.Status = http.StatusBadRequest
	}
	return &e
}

// answerError writes e in the client's schema and returns the status.
func (h *listenerHandler) answerError(w http.ResponseWriter, api *routerconfig.ListenerAPI, cr *listener.ClientRequest, e *ir.ErrorBody) int {
	status, body := api.Codec.AnswerError(cr, e)
	writeJSON(w, status, body)
	return status
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set(vocab.HeaderContentType, "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
