package router

import (
	"errors"
	"net/http"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	tc "github.com/vllm-sr/systemone/runtime/target"
)

// errReplyTooLarge stands for an upstream reply over the body limit.
var errReplyTooLarge = errors.New("router: the upstream reply is larger than 32 MiB")

func invalidRequest(reason, message string) *ir.ErrorBody {
	return &ir.ErrorBody{Status: http.StatusBadRequest, Code: ir.ErrorInvalidRequest, Reason: reason, Message: message}
}

// modelNotFound: the request's model names no deployment or pool the
// listener serves. The message never copies the request's model: it says
// whether the name is configured at all (known) and lists the keys the
// listener serves, which are configuration, not request data.
func modelNotFound(listenerName string, known bool, served []string) *ir.ErrorBody {
	reason, what := vocab.ReasonUnknownModel, "the request's model is not a deployment or pool of the configuration"
	if known {
		reason, what = vocab.ReasonModelNotServed, "the request's model is not a deployment or pool listener "+quote(listenerName)+" serves"
	}
	list := "none"
	if len(served) > 0 {
		quoted := make([]string, len(served))
		for i, name := range served {
			quoted[i] = quote(name)
		}
		list = strings.Join(quoted, ", ")
	}
	return &ir.ErrorBody{Status: http.StatusNotFound, Code: ir.ErrorModelNotFound, Reason: reason,
		Message: what + "; listener " + quote(listenerName) + " serves: " + list}
}

// planFailed is the error of a plan the target codec could not make: 400
// unsupported_capability for what the target cannot carry, 400
// invalid_request for a request its schema cannot write, else 500.
func planFailed(err error) *ir.ErrorBody {
	var ce *tc.CarryError
	if errors.As(err, &ce) {
		return ce.ErrorBody()
	}
	var pe *ir.ProtocolError
	if errors.As(err, &pe) && pe.Category != ir.CategoryInvalidIR {
		return &ir.ErrorBody{Status: http.StatusBadRequest, Code: ir.ErrorUnsupportedCapability,
			Reason: string(pe.Reason), Message: "the deployment's schema cannot carry the request, at " + pe.Path.String()}
	}
	return internalError(vocab.ReasonUnplannableRequest, "the request could not be written for the deployment's schema")
}

func internalError(reason, message string) *ir.ErrorBody {
	return &ir.ErrorBody{Status: http.StatusInternalServerError, Reason: reason, Message: message}
}

// quote writes a configuration name in double quotes.
func quote(s string) string { return `"` + s + `"` }
