package target

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// StateTextID is the state_text deviation's configuration name.
const StateTextID = "state_text"

// StateText, the state_text deviation, sends an object or array state as
// the exact text of Python's json.dumps(state, ensure_ascii=False)
// (jsonvalue.AppendPython), for a gateway that accepts only text states.
// Decision 3 renders an object state as that very text, and Vela parses
// it back, so the model input is unchanged. A request whose state it
// rewrites loses its roles (a text state has no keys for them to name),
// with a dropped diagnostic. It rewrites a single request's state and
// every state of a vllm-sr/5.0 batch body; replies carry no state and
// pass unchanged. The zero value is ready.
type StateText struct{}

var _ Deviation = StateText{}

// ID returns state_text.
func (StateText) ID() string { return StateTextID }

// AppliesTo reports whether schema's bodies carry a top-level state the
// deviation can rewrite: systemone/0.2 and vllm-sr/5.0.
func (StateText) AppliesTo(schema table.SchemaID) bool {
	return schema == table.SchemaStandard02 || schema == table.SchemaVllmSR50
}

// RewriteRequest rewrites the call's state (or, in a batch body, every
// request's state) when it is an object or an array, recording an
// approximated diagnostic for each. A text state is left as it is, and a
// body with nothing to rewrite keeps its bytes.
func (StateText) RewriteRequest(call *WireCall) (ir.Diagnostics, error) {
	root, err := jsonvalue.Decode(call.Body, jsonvalue.Options{MaxDepth: MaxDepth})
	if err != nil || root.Kind() != jsonvalue.KindObject {
		return nil, &ir.ProtocolError{Category: ir.CategoryInvalidIR, Reason: ir.ReasonInvalidJSON,
			Message: "state_text rewrites a JSON object body", Cause: err}
	}
	var diags ir.Diagnostics
	var rewritten jsonvalue.Value
	if requests, ok := root.Get(vocab.BatchRequests); ok && requests.Kind() == jsonvalue.KindObject {
		items := make([]jsonvalue.Member, len(requests.Members()))
		for i, m := range requests.Members() {
			at := ir.Path{{Name: vocab.BatchRequests}, {Name: m.Name}}
			m.Value = rewriteState(m.Value, at, &diags)
			items[i] = m
		}
		rewritten = replace(root, vocab.BatchRequests, object(items))
	} else {
		rewritten = rewriteState(root, callPath(call), &diags)
	}
	if len(diags) > 0 {
		call.Body = jsonvalue.AppendCompact(make([]byte, 0, len(call.Body)+len(call.Body)/8), rewritten)
	}
	return diags, nil
}

// callPath locates a split call's body inside its batch: requests.<item>
// for a call carrying one item, the root otherwise.
func callPath(call *WireCall) ir.Path {
	if len(call.Items) == 1 {
		return ir.Path{{Name: vocab.BatchRequests}, {Name: call.Items[0]}}
	}
	return nil
}

// RewriteReply leaves the reply as it is: answers never echo the state.
func (StateText) RewriteReply(*WireReply) error { return nil }

// rewriteState returns request with its state as text when it is an
// object or an array.
func rewriteState(request jsonvalue.Value, at ir.Path, diags *ir.Diagnostics) jsonvalue.Value {
	state, ok := request.Get(vocab.RequestState)
	if !ok || state.Kind() != jsonvalue.KindObject && state.Kind() != jsonvalue.KindArray {
		return request
	}
	diags.Add(ir.DiagnosticApproximated, StateTextID, at.Key(vocab.RequestState))
	request = replace(request, vocab.RequestState, StateTextOf(state))
	if _, hasRoles := request.Get(vocab.RequestRoles); hasRoles {
		// A text state has no keys for roles to name; the whole text is the
		// user's content, as on every family without roles.
		diags.Add(ir.DiagnosticDropped, vocab.RequestRoles, at.Key(vocab.RequestRoles))
		request = object(slices.DeleteFunc(slices.Clone(request.Members()),
			func(m jsonvalue.Member) bool { return m.Name == vocab.RequestRoles }))
	}
	return request
}

// StateTextOf is the text an object or array state is sent as:
// json.dumps(state, ensure_ascii=False), as a JSON string.
func StateTextOf(state jsonvalue.Value) jsonvalue.Value {
	return jsonvalue.String(string(jsonvalue.Python(state)))
}

// replace returns obj with member name's value swapped for v, in place of
// the old one.
func replace(obj jsonvalue.Value, name string, v jsonvalue.Value) jsonvalue.Value {
	members := append([]jsonvalue.Member(nil), obj.Members()...)
	for i := range members {
		if members[i].Name == name {
			members[i].Value = v
		}
	}
	return object(members)
}

// object rebuilds an object from members read from one: their names are
// distinct and their values valid, so construction cannot fail.
func object(members []jsonvalue.Member) jsonvalue.Value {
	v, _ := jsonvalue.Object(members...)
	return v
}
