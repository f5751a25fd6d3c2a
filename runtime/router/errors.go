package router

import (
	"net/http"
	"strings"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/listener"
)

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
	return listener.ErrorOf(ir.ErrorModelNotFound, reason, what+"; listener "+quote(listenerName)+" serves: "+list)
}

func internalError(reason, message string) *ir.ErrorBody {
	return &ir.ErrorBody{Status: http.StatusInternalServerError, Reason: reason, Message: message}
}

// quote writes a configuration name in double quotes.
func quote(s string) string { return `"` + s + `"` }
