package engine

import (
	"errors"
	"strings"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/internalwire"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
)

// readFunc reads one request body of a schema into the IR.
type readFunc func(body []byte) (*ir.Request, ir.Diagnostics, error)

// reader returns how c reads id: the internal form with internalwire, a
// listener schema with its listener codec as POST /v1/systemone, and
// systemone/0.2 with the generated standard validator and then the 5.0
// listener codec (every standard request is a 5.0 request).
func (c *Converter) reader(id table.SchemaID) (readFunc, bool) {
	if id == table.SchemaInternal {
		return internalwire.DecodeRequest, true
	}
	if lc, err := c.reg.Listener(id); err == nil {
		return listenerReader(lc), true
	}
	if id == table.SchemaStandard02 {
		if lc, err := c.reg.Listener(table.SchemaVllmSR50); err == nil {
			return standardReader(lc), true
		}
	}
	return nil, false
}

func listenerReader(lc listener.Codec) readFunc {
	return func(body []byte) (*ir.Request, ir.Diagnostics, error) {
		cr, err := lc.Read(listener.EndpointSystemOne, body, nil)
		if err != nil {
			return nil, nil, refusal(err)
		}
		if cr.Request == nil {
			return nil, nil, errors.New("the body is not one request")
		}
		return cr.Request, cr.Diagnostics, nil
	}
}

// standardReader refuses whatever the standard does not define (every
// extension field), then reads the body as the 5.0 superset.
func standardReader(lc listener.Codec) readFunc {
	read := listenerReader(lc)
	return func(body []byte) (*ir.Request, ir.Diagnostics, error) {
		root, r := listener.Decode(body, internalwire.MaxDepth)
		if r != nil {
			return nil, nil, refusal(r)
		}
		if problems := validate.RequestStandard02(root); len(problems) > 0 {
			msgs := make([]string, len(problems))
			for i, p := range problems {
				msgs[i] = p.Message()
			}
			return nil, nil, errors.New(strings.Join(msgs, "; "))
		}
		return read(body)
	}
}

// refusal turns a listener refusal into its one-line message.
func refusal(err error) error {
	var r *listener.Refusal
	if errors.As(err, &r) {
		return errors.New(r.Body.Message)
	}
	return err
}
