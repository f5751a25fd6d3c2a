package listener

import (
	"net/http"
	"slices"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The native endpoints read the internal form on every listener, with
// runtime/shapes, and go on as they came: a pass-through plan.

// ReadDecisions reads a POST /v1/decisions body, checked by the generated
// internal-schema validator (vllm-sr/4.0's forms plus roles, roles null and
// preset-only questions). A question that breaks its schema fails on its
// own and is answered with its error in the 200; the other questions go
// on. A request none of whose questions is valid is refused.
//
// Without failures the plan is pass-through with the client's bytes; with
// some it is translate, since the failed questions must not go on: the IR
// then holds the request without them, read by shapes from the body
// with those questions removed.
//
// The standard's long-context header is honoured as on /v1/systemone: it
// sets Options.LongContext. A request whose body does not already say so
// (4.0's options.long_context) is translated, as the design's plans say of
// a request with the header: the body written from the IR carries the
// flag, and the call carries the header too (target.Internal).
func ReadDecisions(schema table.SchemaID, body []byte, header http.Header) (*ClientRequest, error) {
	root, refusal := Decode(body, shapes.MaxDepth)
	if refusal != nil {
		return nil, refusal
	}
	t := TriageProblems(validate.Request(table.SchemaInternal, root), false, nil)
	if len(t.Request) > 0 {
		return nil, RefuseProblems(table.SchemaInternal, t.Request)
	}
	cr := &ClientRequest{Endpoint: EndpointDecisions, Schema: schema, Plan: PlanPassThrough, Body: body}
	cr.QuestionFailures = t.Failures(root)
	if len(cr.QuestionFailures) > 0 {
		questions, _ := root.Get(vocab.RequestQuestions)
		if len(cr.QuestionFailures) == questions.Len() {
			return nil, RefuseNoValidQuestion(cr.QuestionFailures)
		}
		root = withoutFailed(root, cr.QuestionFailures)
		cr.Plan = PlanTranslate
	}
	rd := shapes.Reader{Implicit: true, Layout: true, Diags: &cr.Diagnostics}
	r, err := rd.Request(root, nil)
	if err != nil {
		return nil, RefuseError(err)
	}
	if LongContext(header) && !longContextInBody(r.Options) {
		ApplyLongContext(&r.Options, header)
		cr.Plan = PlanTranslate
	}
	cr.Request = r
	return cr, nil
}

// withoutFailed returns the request object with the failed questions left
// out of its questions, every other member as it was.
func withoutFailed(root jsonvalue.Value, failures []QuestionFailure) jsonvalue.Value {
	members := append([]jsonvalue.Member(nil), root.Members()...)
	for i := range members {
		if members[i].Name != vocab.RequestQuestions {
			continue
		}
		var kept []jsonvalue.Member
		for _, q := range members[i].Value.Members() {
			if !slices.ContainsFunc(failures, func(f QuestionFailure) bool { return f.Item == "" && f.Name == q.Name }) {
				kept = append(kept, q)
			}
		}
		members[i].Value, _ = jsonvalue.Object(kept...)
	}
	v, _ := jsonvalue.Object(members...)
	return v
}

// ReadBundle reads a POST /v1/bundle body: named requests in the internal
// form, each complete with its own options, checked by the generated
// internal batch validator (whose items keep options: the spec limits the
// batch-item refusal of options to vllm-sr/5.0 and 4.0), then read by
// shapes and passed through. Any problem refuses the whole bundle. The
// standard's long-context header applies to every request of the bundle
// (a bundle has no options of its own), as options.long_context in each
// would.
func ReadBundle(schema table.SchemaID, body []byte, header http.Header) (*ClientRequest, error) {
	root, refusal := Decode(body, shapes.MaxDepth)
	if refusal != nil {
		return nil, refusal
	}
	if problems := validate.BatchRequestInternal(root); len(problems) > 0 {
		return nil, RefuseProblems(table.SchemaInternal, problems)
	}
	cr := &ClientRequest{Endpoint: EndpointBundle, Schema: schema, Plan: PlanPassThrough, Body: body}
	rd := shapes.Reader{Implicit: true, Layout: true, Diags: &cr.Diagnostics}
	b, err := rd.Bundle(root)
	if err != nil {
		return nil, RefuseError(err)
	}
	if LongContext(header) {
		for i := range b.Items {
			ApplyLongContext(&b.Items[i].Request.Options, header)
		}
		cr.Plan = PlanTranslate
	}
	cr.Batch = b
	return cr, nil
}

// PresetOnlyTolerance drops the missing-type problem of a question that
// names a preset: vllm-sr/4.0 accepts a preset-only question, whose preset
// implies its type, although the frozen 4.0 OpenAPI lists type as
// required. (The internal schema says so itself; only the 4.0 listener
// needs this.)
func PresetOnlyTolerance(root jsonvalue.Value, batch bool) Ignore {
	return func(segs []string, p table.Problem) bool {
		if p.Reason != table.ReasonMissingMember || p.Member != vocab.QuestionType {
			return false
		}
		q := root
		for _, s := range segs[:len(segs)-1] {
			q, _ = q.Get(s)
		}
		_, hasPreset := q.Get(vocab.QuestionPreset)
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
