package srun

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
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
// added, so a client reading either shape finds what it looks for.
func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request) {
	health := []jsonvalue.Member{
		{Name: vocab.HealthStatus, Value: jsonvalue.String("ready")},
		{Name: vocab.HealthAPIVersion, Value: jsonvalue.String(APIVersion)},
		{Name: vocab.HealthVersion, Value: jsonvalue.String(ExtensionVersion)},
		{Name: vocab.ResponseModel, Value: jsonvalue.String(s.model.Name)}, // the model named as a response names it
		{Name: "schema", Value: jsonvalue.String(string(s.cfg.Schema))},
	}
	if s.Ready() {
		body, _ := jsonvalue.Object(health...)
		front.WriteJSON(w, http.StatusOK, jsonvalue.Compact(body))
		return
	}
	health[0].Value = jsonvalue.String(vocab.CodeStarting) // the status says what the error code says
	e := starting()
	body, _ := jsonvalue.Decode(s.errorBody(w.Header(), nil, e), jsonvalue.Options{})
	out, _ := jsonvalue.Object(withMissing(body, health...)...)
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
