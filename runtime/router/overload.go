package router

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/llmproxy"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// bounded reports whether a request on path takes one of the listener's
// in-flight slots: every path but the probes (/health, /ready, /metrics),
// which must answer while the listener is full, or an orchestrator would
// restart a Router that is only busy.
func bounded(path string) bool { return !slices.Contains(adminPaths, path) }

// answerOverloaded answers a request past the listener's max_in_flight:
// 529 overloaded, with Retry-After and retry-after-ms (vllm-srun's
// delay, tc.DefaultRetryAfter), in the shape of the path's API (an LLM
// API's own error shape, else the listener's System One error). Its body
// is never read: net/http discards what fits its small allowance after
// the answer and closes the connection otherwise. vsr_requests_total
// counts it with status 529 and code overloaded.
func (h *listenerHandler) answerOverloaded(w *front.Served, req *http.Request) {
	if api, _, known := h.router.apis.ByPath(req.URL.Path); known {
		w.Endpoint, w.API = req.URL.Path, api // a registry path: not request data
	}
	w.Header().Set(vocab.HeaderRetryAfter, strconv.Itoa(max(1, int(tc.DefaultRetryAfter.Seconds()))))
	w.Header().Set(vocab.HeaderRetryAfterMs, strconv.FormatInt(tc.DefaultRetryAfter.Milliseconds(), 10))
	message := "listener " + quote(h.lst.Name) + " has as many requests in flight as its max_in_flight (" +
		strconv.Itoa(h.inFlight.Limit()) + "); retry later"
	if llm, yes := h.llmShaped(req.URL.Path); yes {
		front.SetError(w, string(ir.ErrorOverloaded), vocab.ReasonOverloaded)
		llmproxy.WriteFailure(w, llm, llmproxy.Overloaded(ir.ErrorOverloaded.Status(), vocab.CodeOverloaded, message))
		return
	}
	h.answerError(w, h.errors, nil, listener.ErrorOf(ir.ErrorOverloaded, vocab.ReasonOverloaded, message))
}

// listenerAdmission is the in-flight bound of lst (max_in_flight, else
// the default): prev's (the configuration a reload replaces) when it has
// the same bound, so the requests it is serving keep counting, else a new
// one.
func listenerAdmission(prev *listenerHandler, lst *routerconfig.Listener) *front.Admission {
	limit := cmp.Or(lst.MaxInFlight, routerconfig.DefaultMaxInFlight)
	if prev != nil && prev.inFlight != nil && prev.inFlight.Limit() == limit {
		return prev.inFlight
	}
	return front.NewAdmission(limit)
}
