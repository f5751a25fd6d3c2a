package llmproxy

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/vllm-sr/systemone/generated/vocab"
)

// The Router follows no upstream redirect: a 302 would re-send a call as
// a GET, a 307 its body (a client's request, credentials) to whatever URL
// the upstream names. A redirect is an upstream error naming the
// deployment (System One calls: target.ReplyReader.Error answers its
// status 502 upstream_error upstream_redirect) or the upstream (the LLM
// pass-through: 502 upstream_redirect).

// errUpstreamRedirect is the LLM pass-through's upstream answering with a
// redirect.
var errUpstreamRedirect = errors.New("llmproxy: the upstream answered with a redirect")

// refuseRedirect is the LLM pass-through's ModifyResponse: a redirect
// becomes an error (answered by the proxy's ErrorHandler) instead of
// reaching the client. 304 Not Modified is no redirect: it answers the
// client's own conditional request.
func refuseRedirect(resp *http.Response) error {
	if resp.StatusCode >= 300 && resp.StatusCode <= 399 && resp.StatusCode != http.StatusNotModified {
		return errors.Join(errUpstreamRedirect, errors.New("status "+strconv.Itoa(resp.StatusCode)+" to "+resp.Header.Get("Location")))
	}
	return nil
}

// upstreamFailure is the reason and message of an LLM pass-through
// whose upstream failed with err: a redirect, or no reply.
func upstreamFailure(err error) (reason, message string) {
	if errors.Is(err, errUpstreamRedirect) {
		return vocab.ReasonUpstreamRedirect, "the upstream answered with a redirect, which the Router does not follow"
	}
	return vocab.ReasonUpstreamUnreachable, "the upstream could not be reached"
}
