package listener

import (
	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/runtime/internalwire"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The native endpoints read the internal form on every listener, with
// runtime/internalwire, and go on as they came: a pass-through plan.

// ReadDecisions reads a POST /v1/decisions body. The internal form is
// vllm-sr/4.0's forms plus roles, so the generated vllm-sr/4.0 validator
// checks it (tolerating what the internal form adds: roles null, and a
// preset-only question without a type). A question that breaks its schema
// fails on its own and is answered with its error in the 200; the other
// questions go on. A request none of whose questions is valid is refused.
//
// Without failures the plan is pass-through with the client's bytes; with
// some it is translate, since the failed questions must not go on: the IR
// then holds the request without them, read by internalwire from the body
// with those questions removed.
func ReadDecisions(schema table.SchemaID, body []byte) (*ClientRequest, error) {
	root, refusal := Decode(body, internalwire.MaxDepth)
	if refusal != nil {
		return nil, refusal
	}
	t := TriageProblems(validate.RequestVllmSR40(root), false, InternalTolerance(root))
	if len(t.Request) > 0 {
		return nil, RefuseProblems(table.SchemaInternal, t.Request)
	}
	cr := &ClientRequest{Endpoint: EndpointDecisions, Schema: schema, Plan: PlanPassThrough, Body: body}
	cr.QuestionFailures = t.Failures(root)
	forward := body
	if len(cr.QuestionFailures) > 0 {
		questions, _ := root.Get("questions")
		if len(cr.QuestionFailures) == questions.Len() {
			return nil, RefuseNoValidQuestion(cr.QuestionFailures)
		}
		forward = jsonvalue.Compact(withoutFailed(root, cr.QuestionFailures))
		cr.Plan = PlanTranslate
	}
	r, diags, err := internalwire.DecodeRequest(forward)
	if err != nil {
		return nil, RefuseError(err)
	}
	cr.Request, cr.Diagnostics = r, diags
	return cr, nil
}

// withoutFailed returns the request object with the failed questions left
// out of its questions, every other member as it was.
func withoutFailed(root jsonvalue.Value, failures []QuestionFailure) jsonvalue.Value {
	members := append([]jsonvalue.Member(nil), root.Members()...)
	for i := range members {
		if members[i].Name != "questions" {
			continue
		}
		var kept []jsonvalue.Member
		for _, q := range members[i].Value.Members() {
			if !failed(failures, "", q.Name) {
				kept = append(kept, q)
			}
		}
		members[i].Value, _ = jsonvalue.Object(kept...)
	}
	v, _ := jsonvalue.Object(members...)
	return v
}

// ReadBundle reads a POST /v1/bundle body: named requests in the internal
// form, checked by internalwire and passed through.
func ReadBundle(schema table.SchemaID, body []byte) (*ClientRequest, error) {
	if refusal := CheckSize(body); refusal != nil {
		return nil, refusal
	}
	b, diags, err := internalwire.DecodeBundle(body)
	if err != nil {
		return nil, RefuseError(err)
	}
	return &ClientRequest{Endpoint: EndpointBundle, Schema: schema, Batch: b, Plan: PlanPassThrough,
		Diagnostics: diags, Body: body}, nil
}

// InternalTolerance drops the problems the vllm-sr/4.0 validator reports
// for what the internal form adds: roles null (no roles), and those of
// PresetOnlyTolerance.
func InternalTolerance(root jsonvalue.Value) Ignore {
	presetOnly := PresetOnlyTolerance(root, false)
	return func(segs []string, p table.Problem) bool {
		if len(segs) == 1 && segs[0] == "roles" && p.Reason == table.ReasonNotAllowedNull {
			return true
		}
		return presetOnly(segs, p)
	}
}

// PresetOnlyTolerance drops the missing-type problem of a question that
// names a preset: vllm-sr/4.0 (and the internal form) accept a preset-only
// question, whose preset implies its type, although the frozen 4.0
// OpenAPI lists type as required.
func PresetOnlyTolerance(root jsonvalue.Value, batch bool) Ignore {
	return func(segs []string, p table.Problem) bool {
		if p.Reason != table.ReasonMissingMember || p.Member != "type" {
			return false
		}
		q := root
		for _, s := range segs[:len(segs)-1] {
			q, _ = q.Get(s)
		}
		_, hasPreset := q.Get("preset")
		_, _, inQuestion := questionOf(segs, batch)
		return inQuestion && len(segs) == questionDepth(batch)+1 && hasPreset
	}
}

// questionDepth is how many segments locate a question.
func questionDepth(batch bool) int {
	if batch {
		return 4
	}
	return 2
}
