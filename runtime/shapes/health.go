package shapes

import (
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The health shape (GET /health) bound to ir.Health: the generated
// dispatch (zz_generated.replybind.go) calls the functions below, one per
// bound member. A model runtime writes every member; a Router, which is
// not a model runtime, writes status and version alone. The Router reads
// a vllm-sr deployment's health for its api_version (the runtime
// contract).

// Health writes a GET /health body: status and version, which vllm-sr/5.0
// requires, the other members h holds (one "" is left out), in the
// generated health slots' order, then h's Extra.
func (w AnswerWriter) Health(h *ir.Health) []byte {
	o := w.object(make([]byte, 0, 128), table.LevelHealth, h.Extra)
	s := healthWrite{h: h}
	o.each(healthSlots, func(slot int) { w.writeHealthSlot(&o, &s, slot) })
	return o.Close()
}

// healthWrite is the state of writing one health body.
type healthWrite struct{ h *ir.Health }

// ReadHealth reads a GET /health reply under the schema rs names, after
// its generated validator (validate.Health): the members the schema
// defines, and the passive ones into Extra. A health body its schema does
// not define is a *ir.ProtocolError naming the first problem's path (a
// vllm-sr/5.0 body with a member no spec defines there is one); a member
// a schema ignores beyond its own is never read.
func ReadHealth(root jsonvalue.Value, rs *Replies) (*ir.Health, error) {
	if problems := validate.Health(rs.schema, root); len(problems) > 0 {
		return nil, replyError(root, problems[0])
	}
	s := healthRead{defined: rs.health}
	_, _ = readHealthMembers(&s, root.Members())
	s.h.Extra = s.extra
	return &s.h, nil
}

// healthRead is the state of reading one checked health body, which it
// holds.
type healthRead struct {
	h       ir.Health
	defined uint64
	extra   []jsonvalue.Member
}

func (s *healthRead) takes(slot int) bool { return s.defined&(1<<slot) != 0 }
