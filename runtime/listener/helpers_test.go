package listener_test

import (
	"errors"
	"testing"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/testkit"
)

func fl(x float64) *float64 { return &x }
func str(x string) *string  { return &x }

// accept reads the request case name with codec, which must accept it.
func accept(t *testing.T, codec listener.Codec, name string) *listener.ClientRequest {
	t.Helper()
	c := testkit.FindListenerCase(t, name)
	cr, err := codec.Read(c.Path, c.Body, c.Header)
	if err != nil {
		t.Fatalf("%s: refused: %v", name, err)
	}
	return cr
}

// refusal reads the request case name with codec, which must refuse it,
// and returns the refusal's body.
func refusal(t *testing.T, codec listener.Codec, name string) ir.ErrorBody {
	t.Helper()
	c := testkit.FindListenerCase(t, name)
	_, err := codec.Read(c.Path, c.Body, c.Header)
	var r *listener.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("%s: want a refusal, got %v", name, err)
	}
	return r.Body
}
