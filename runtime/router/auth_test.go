package router

import (
	"net/http"
	"testing"

	"github.com/vllm-sr/systemone/runtime/routerconfig"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// TestAuthorizeCallsCopiesTheSharedHeader: a codec shares one header
// between its calls (tc.WireCall.Header), so the key goes on each call's
// own copy and never reaches the shared header, another call or another
// deployment's plan.
func TestAuthorizeCallsCopiesTheSharedHeader(t *testing.T) {
	shared := http.Header{"Content-Type": {"application/json"}}
	p := &tc.Plan{Calls: []tc.WireCall{{Header: shared}, {Header: shared}, {}}}
	authorizeCalls(p, routerconfig.NewSecret("sk-a"))
	if len(shared) != 1 || shared.Get("Authorization") != "" {
		t.Fatalf("the shared header was modified: %v", shared)
	}
	for i, c := range p.Calls {
		if got := c.Header.Get("Authorization"); got != "Bearer sk-a" {
			t.Errorf("call %d: Authorization %q, want the deployment's key", i, got)
		}
	}
	if p.Calls[0].Header.Get("Content-Type") != "application/json" {
		t.Errorf("call 0 lost the codec's headers: %v", p.Calls[0].Header)
	}
}

func TestKeyProblem(t *testing.T) {
	keys := []routerconfig.Secret{routerconfig.NewSecret("sk-a"), routerconfig.NewSecret("sk-b")}
	for header, want := range map[string]string{
		"":             "missing_api_key",
		"Bearer":       "missing_api_key",
		"Bearer  ":     "missing_api_key",
		"Basic sk-a":   "missing_api_key",
		"Bearer sk-c":  "invalid_api_key",
		"Bearer sk-a ": "",
		"BEARER sk-b":  "",
		"Bearer sk-ab": "invalid_api_key",
		"Bearer sk-":   "invalid_api_key",
	} {
		if got := keyProblem(header, keys); got != want {
			t.Errorf("%q: %q, want %q", header, got, want)
		}
	}
}
