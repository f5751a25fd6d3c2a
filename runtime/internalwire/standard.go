package internalwire

import (
	"errors"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// DecodeStandardRequest reads one systemone/0.2 request body: decoded
// once, refused with every problem the generated standard validator finds
// (each extension member among them), else read by the Reader as the
// vllm-sr/5.0 superset every standard body is. A refusal is one line,
// worded as a listener codec words its refusals: JSON pointers and paths,
// never request values.
func DecodeStandardRequest(body []byte) (*ir.Request, error) {
	root, err := jsonvalue.Decode(body, jsonvalue.Options{MaxDepth: MaxDepth})
	var se *jsonvalue.SyntaxError
	switch {
	case errors.As(err, &se):
		return nil, errors.New("the body is not valid JSON: " + se.Reason + " at " + se.Path + " (byte " + strconv.FormatInt(se.Offset, 10) + ")")
	case err != nil:
		return nil, errors.New("the body cannot be read")
	}
	if problems := validate.RequestStandard02(root); len(problems) > 0 {
		msgs := make([]string, len(problems))
		for i, p := range problems {
			msgs[i] = p.Message()
		}
		return nil, errors.New(strings.Join(msgs, "; "))
	}
	var rd Reader
	r, err := rd.Request(root, nil)
	var pe *ir.ProtocolError
	if errors.As(err, &pe) && pe.Cause == nil {
		return nil, errors.New(pe.Path.String() + ": " + pe.Message)
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}
