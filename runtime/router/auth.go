package router

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"slices"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/llmproxy"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// The admin paths: liveness, readiness and metrics. They need no key,
// and are served by every listener unless the configuration has an
// admin_address, which then serves them (and only them) instead.
var adminPaths = []string{vocab.PathHealth, pathReady, "/metrics"} //vocab:not-spec the Router's own metrics path

// adminName is the admin address's handler name: a name no listener can
// have (listener names start with a letter or digit).
const adminName = ":admin"

// bearerPrefix starts an Authorization header's bearer credentials.
const bearerPrefix = "Bearer "

// authorize sets Authorization: Bearer with key on an upstream call;
// nothing for no key. It is the one place a key leaves the Router.
func authorize(h http.Header, key routerconfig.Secret) {
	if !key.IsZero() {
		h.Set(vocab.HeaderAuthorization, bearerPrefix+key.Reveal())
	}
}

// authorizeCalls sets a deployment's key on each of a plan's calls, on a
// copy of the call's headers, which the codec shares between calls
// (tc.WireCall.Header).
func authorizeCalls(p *tc.Plan, key routerconfig.Secret) {
	if key.IsZero() {
		return
	}
	for i := range p.Calls {
		h := p.Calls[i].Header.Clone()
		if h == nil {
			h = http.Header{}
		}
		authorize(h, key)
		p.Calls[i].Header = h
	}
}

// admit decides whether the listener serves req at all, and answers it
// when not: on the admin handler only the admin paths are served (else
// 404); on a listener the admin paths need no key but are 404 when an
// admin_address serves them; every other path needs one of the listener's
// API keys, when it takes any, as Authorization: Bearer (else 401 in the
// API's error shape).
func (h *listenerHandler) admit(w http.ResponseWriter, req *http.Request) bool {
	admin, onAdmin := slices.Contains(adminPaths, req.URL.Path), h.lst.Name == adminName
	switch {
	case onAdmin && admin:
		return true
	case onAdmin:
		h.answerError(w, h.errors, nil, listener.ErrorOf(ir.ErrorNotFound, vocab.ReasonUnknownPath, "the admin address serves only "+strings.Join(adminPaths, ", ")))
		return false
	case admin && h.router.cfg.AdminAddress != "":
		h.answerError(w, h.errors, nil, listener.ErrorOf(ir.ErrorNotFound, vocab.ReasonUnknownPath,
			"listener "+quote(h.lst.Name)+" does not serve "+req.URL.Path+"; the admin address does"))
		return false
	case admin || len(h.lst.APIKeys) == 0:
		return true
	}
	reason := keyProblem(req.Header.Get(vocab.HeaderAuthorization), h.lst.APIKeys)
	if reason == "" {
		return true
	}
	message := "listener " + quote(h.lst.Name) + " takes an API key as Authorization: Bearer"
	if reason == vocab.ReasonInvalidAPIKey {
		message = "the request's API key is not one listener " + quote(h.lst.Name) + " takes"
	}
	w.Header().Set("WWW-Authenticate", "Bearer")
	if llm, yes := h.llmShaped(req.URL.Path); yes {
		llmproxy.Fail(w, llm, llmproxy.Unauthorized(message))
		return false
	}
	h.answerError(w, h.errors, nil, listener.ErrorOf(vocab.CodeUnauthorized, reason, message))
	return false
}

// llmShaped reports whether a refusal on path is written in an LLM API's
// error shape, and whose: an LLM API's path, or a path of no API on a
// listener that serves no System One (its clients are LLM clients; nil
// writes OpenAI's shape). Otherwise it is System One's, in the
// listener's schema.
func (h *listenerHandler) llmShaped(path string) (*routerconfig.ListenerAPI, bool) {
	if api, kind, known := h.router.apis.ByPath(path); known {
		if kind != registry.KindLLM {
			return nil, false
		}
		served, _ := h.lst.Serves(api, h.router.apis)
		return served, true
	}
	return nil, h.systemone == nil
}

// adminHandler serves the admin address: the admin paths only, with no
// key.
func (r *Router) adminHandler() *listenerHandler {
	return &listenerHandler{router: r, lst: &routerconfig.Listener{Name: adminName}, errors: r.systemone}
}

// binding is an address the Router listens on and the handler name
// serving it.
type binding struct{ Name, Address string }

// bindings are the listeners' addresses, then the admin address when the
// configuration has one.
func (r *Router) bindings() []binding {
	out := make([]binding, 0, len(r.cfg.Listeners)+1)
	for _, l := range r.cfg.Listeners {
		out = append(out, binding{l.Name, l.Address})
	}
	if r.cfg.AdminAddress != "" {
		out = append(out, binding{adminName, r.cfg.AdminAddress})
	}
	return out
}

// keyProblem is why an Authorization header does not admit a request: no
// bearer key (missing_api_key), or one none of keys equals
// (invalid_api_key); "" when it does. Keys are compared through their
// SHA-256 digests in constant time, every key compared, so neither the
// time taken nor an early exit says how much of a key matched or which.
func keyProblem(header string, keys []routerconfig.Secret) string {
	token, ok := strings.CutPrefix(header, bearerPrefix)
	if !ok {
		// The scheme is case-insensitive (RFC 9110).
		if len(header) > len(bearerPrefix) && strings.EqualFold(header[:len(bearerPrefix)], bearerPrefix) {
			token, ok = header[len(bearerPrefix):], true
		}
	}
	token = strings.TrimSpace(token)
	if !ok || token == "" {
		return vocab.ReasonMissingAPIKey
	}
	got := sha256.Sum256([]byte(token))
	match := 0
	for _, k := range keys {
		want := sha256.Sum256([]byte(k.Reveal()))
		match |= subtle.ConstantTimeCompare(got[:], want[:])
	}
	if match == 1 {
		return ""
	}
	return vocab.ReasonInvalidAPIKey
}
