package srun

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/listener"
)

// APIVersion is the model runtime contract the server speaks, reported as
// api_version by GET /health: a Router refuses a runtime of any other.
const APIVersion = front.RuntimeContract

// ExtensionVersion is the vllm-sr extension set the server answers with,
// reported by GET /health and in each GET /v1/models entry.
const ExtensionVersion = "5.0"

// handleHealth answers GET /health: 200 {"status": "ready", ...} once the
// model passed its self-test, and before that 503 with Retry-After whose
// body is the listener's error body for starting with the health members
// added, so a client reading either shape finds what it looks for. The
// health members are written through their binding (listener.AnswerHealth);
// the model is named as a response names it.
func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	health := ir.Health{Status: "ready", APIVersion: APIVersion, Version: ExtensionVersion,
		Model: s.model.Name, Schema: string(s.cfg.Schema)}
	if s.Ready() {
		front.WriteJSON(w, http.StatusOK, listener.AnswerHealth(&health))
		return
	}
	health.Status = vocab.CodeStarting // the status says what the error code says
	e := starting()
	body, _ := jsonvalue.Decode(s.errorBody(w.Header(), nil, e), jsonvalue.Options{})
	members, _ := jsonvalue.Decode(listener.AnswerHealth(&health), jsonvalue.Options{})
	out, _ := jsonvalue.Object(withMissing(body, members.Members()...)...)
	front.WriteJSON(w, e.Status, jsonvalue.Compact(out))
}

// withMissing is obj's members (none when it is not an object), then each
// of extra whose name obj does not have.
func withMissing(obj jsonvalue.Value, extra ...jsonvalue.Member) []jsonvalue.Member {
	var members []jsonvalue.Member
	if obj.Kind() == jsonvalue.KindObject {
		members = append(members, obj.Members()...)
	}
	for _, m := range extra {
		if _, has := obj.Get(m.Name); !has {
			members = append(members, m)
		}
	}
	return members
}
