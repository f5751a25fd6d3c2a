package emit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The operations of the OpenAPI document: the endpoints the schema serves,
// their bodies, the statuses each answers with and, per status, the error
// codes of the error tables (request_errors, question_errors) it carries.

// oasReservedHeaders are the request headers OpenAPI does not describe as
// parameters (a Parameter Object of that name "SHALL be ignored"): the
// media type and authorization are described by content and security.
var oasReservedHeaders = []string{"Accept", "Content-Type", "Authorization"}

// endpoints are those serving the schema, in model order; the first
// definition of a method and path wins (the standard's, in spec order).
func (b *oasBuilder) endpoints() []model.Endpoint {
	var out []model.Endpoint
	seen := map[string]bool{}
	for _, e := range b.m.Endpoints {
		key := e.Method + " " + e.Path
		if slices.Contains(e.Schemas, b.s.ID) && !seen[key] {
			seen[key] = true
			out = append(out, e)
		}
	}
	return out
}

func (b *oasBuilder) paths() (*ymap, error) {
	paths := newYMap()
	for _, e := range b.endpoints() {
		item, _ := paths.get(e.Path).(*ymap)
		if item == nil {
			item = newYMap()
			paths.put(e.Path, item)
		}
		op, err := b.operation(e)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", e.Method, e.Path, err)
		}
		item.put(strings.ToLower(e.Method), op)
	}
	return paths, nil
}

// operationID is the method and the path's words after its version
// segment: postSystemoneBatch.
func operationID(e model.Endpoint) string {
	return strings.ToLower(e.Method) + strings.TrimPrefix(vocabPathName(e.Path), "Path")
}

func (b *oasBuilder) operation(e model.Endpoint) (*ymap, error) {
	op := newYMap().put("operationId", operationID(e)).put("description", e.Description)
	if e.Request != "" {
		root := string(e.Request)
		if root != b.v.Request && root != b.v.Batch {
			return nil, fmt.Errorf("the validator checks no %s body", root)
		}
		comp, err := b.checkComponent(root)
		if err != nil {
			return nil, err
		}
		var params ylist
		for _, h := range b.requestHeaders() {
			params = append(params, newYMap().put("$ref", "#/components/parameters/"+h.Name))
		}
		op.putIf(len(params) > 0, "parameters", params)
		body := newYMap().put("description", b.bodyDescription(e.Request)).put("required", true)
		body.put("content", b.content(refSchema(comp)))
		if limits := b.requestLimits(); len(limits) > 0 {
			body.put("x-srgen-limits", limits)
		}
		op.put("requestBody", body)
	}
	responses := newYMap()
	for _, status := range b.statuses(e) {
		r, err := b.response(e, status)
		if err != nil {
			return nil, fmt.Errorf("status %d: %w", status, err)
		}
		responses.put(strconv.Itoa(status), r)
	}
	return op.put("responses", responses), nil
}

// bodyDescription names the body's level and the request limits, some of
// which no member carries (the body's size).
func (b *oasBuilder) bodyDescription(level table.Level) string {
	desc := "A " + strings.ReplaceAll(string(level), "_", " ") + " body."
	for _, l := range b.m.Limits {
		if len(l.QuestionTypes) > 0 {
			continue
		}
		desc += " Limit " + l.Name + ": " + boundsText(l) + " " + l.Unit + "."
		if l.Description != "" {
			desc += " " + l.Description
		}
	}
	return desc
}

// requestLimits are the limits of a whole request (those of no question
// type), for a tool to read: x-srgen-limits of each request body. A
// question type's limits are its criteria's minItems and maxItems (or
// minProperties and maxProperties).
func (b *oasBuilder) requestLimits() ylist {
	var out ylist
	for _, l := range b.m.Limits {
		if len(l.QuestionTypes) > 0 {
			continue
		}
		entry := newYMap().put("name", l.Name)
		if l.Min != nil {
			entry.put("min", int(*l.Min))
		}
		if l.Max != nil {
			entry.put("max", int(*l.Max))
		}
		out = append(out, entry.put("unit", l.Unit))
	}
	return out
}

func boundsText(l model.Limit) string {
	switch {
	case l.Min != nil && l.Max != nil:
		return fmt.Sprintf("%d to %d", *l.Min, *l.Max)
	case l.Min != nil:
		return fmt.Sprintf("at least %d", *l.Min)
	case l.Max != nil:
		return fmt.Sprintf("at most %d", *l.Max)
	}
	return "any number of"
}

// content is a body of schema under each media type the standard's
// Content-Type header names (JSON when it names none).
func (b *oasBuilder) content(schema *ymap) *ymap {
	out := newYMap()
	for _, h := range b.headers("request") {
		if strings.EqualFold(h.Name, "Content-Type") {
			for _, v := range h.Values {
				out.put(v, newYMap().put("schema", schema))
			}
		}
	}
	if out.len() == 0 {
		out.put("application/json", newYMap().put("schema", schema))
	}
	return out
}

// statuses an endpoint answers with under the schema. An endpoint the
// schema's own spec defines lists them all. One it takes from another spec
// (the standard's POST /v1/systemone) answers that spec's statuses, less
// those the extension set replaces (the standard's 403 for a missing key,
// which vllm-sr answers 401) with their replacements, and, when it reads a
// body, every status of the error tables, as any request the server reads
// may fail with any of them.
func (b *oasBuilder) statuses(e model.Endpoint) []int {
	out := slices.Clone(e.Statuses)
	if own := b.m.Spec(e.Spec); own == nil || own.SchemaID != b.s.ID {
		if slices.Contains(b.s.Specs, model.SpecExtensions) {
			for _, r := range b.m.ReplacedStatuses {
				if i := slices.Index(out, r.Status); i >= 0 {
					out = appendNew(slices.Delete(out, i, i+1), r.ReplacedBy)
				}
			}
		}
		if e.Request != "" {
			for _, re := range b.m.RequestErrors {
				out = appendNew(out, re.Status)
			}
			for _, qe := range b.m.QuestionErrors {
				out = appendNew(out, qe.Status)
			}
		}
	}
	slices.Sort(out)
	return out
}

func appendNew(xs []int, x int) []int {
	if x == 0 || slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

// response is one status of one operation. A 2xx carries the endpoint's
// response level; an error status the error body its status documents,
// with its code constrained to the codes of the error tables that answer
// with the status, where they name any.
func (b *oasBuilder) response(e model.Endpoint, status int) (*ymap, error) {
	r := newYMap()
	var schema *ymap
	if status < 300 {
		comp, err := b.levelComponent(e.Response)
		if err != nil {
			return nil, err
		}
		r.put("description", "A "+strings.ReplaceAll(string(e.Response), "_", " ")+" body.")
		schema = refSchema(comp)
	} else {
		codes := b.codesAt(status, b.statuses(e))
		r.put("description", b.statusDescription(e, status, codes))
		if level := b.errorBody(status); level != "" {
			comp, err := b.levelComponent(level)
			if err != nil {
				return nil, err
			}
			schema = b.errorSchema(comp, level, codes)
		}
	}
	if hs := b.headers("response"); len(hs) > 0 {
		headers := newYMap()
		for _, h := range hs {
			headers.put(h.Name, newYMap().put("$ref", "#/components/headers/"+h.Name))
		}
		r.put("headers", headers)
	}
	if schema != nil {
		r.put("content", b.content(schema))
	}
	return r, nil
}

// errorBody is the level of the body a status documents under the schema.
func (b *oasBuilder) errorBody(status int) table.Level {
	for _, st := range b.m.Statuses {
		if st.Code == status && st.Body != "" && slices.Contains(b.s.Specs, st.Spec) {
			return st.Body
		}
	}
	return ""
}

// errorSchema is the error body with its code member limited to codes.
func (b *oasBuilder) errorSchema(comp string, level table.Level, codes []codeDoc) *ymap {
	msg := b.s.Message(level)
	if len(codes) == 0 || msg == nil || msg.Member(model.ErrorCodeFieldName) == nil {
		return refSchema(comp)
	}
	var enum yflow
	for _, c := range codes {
		enum = append(enum, c.code)
	}
	only := newYMap().put("properties", newYMap().put(model.ErrorCodeFieldName, newYMap().put("enum", enum)))
	return newYMap().put("allOf", ylist{refSchema(comp), only})
}

// codeDoc is one error code a status carries, for the description.
type codeDoc struct{ code, text string }

// codesAt are the error codes an endpoint answers status with: the
// request errors of that status, and the code a failed question answers
// the request with (the request error without a status of its own), where
// a question error has that status. An endpoint that does not list every
// question error's status answers failed questions inside its 200 instead
// (POST /v1/decisions), so it never carries that code.
func (b *oasBuilder) codesAt(status int, statuses []int) []codeDoc {
	failsRequests := len(b.m.QuestionErrors) > 0
	for _, qe := range b.m.QuestionErrors {
		failsRequests = failsRequests && slices.Contains(statuses, qe.Status)
	}
	var out []codeDoc
	for _, re := range b.m.RequestErrors {
		text := re.Description
		switch {
		case re.Status == status:
		case re.Status == 0 && failsRequests:
			var kinds []string
			for _, qe := range b.m.QuestionErrors {
				if qe.Status == status {
					kinds = append(kinds, "`"+qe.Kind+"` ("+strings.TrimSuffix(qe.Description, ".")+")")
				}
			}
			if len(kinds) == 0 {
				continue
			}
			text += " Question errors of this status: " + strings.Join(kinds, ", ") + "."
		default:
			continue
		}
		if re.RetryAfter {
			text += " The response headers say when to retry."
		}
		out = append(out, codeDoc{re.Code, text})
	}
	return out
}

// statusDescription lists the codes of a status, or else says what the
// spec that defines the endpoint says the status means (another spec's
// meaning may be another endpoint's: the extension set's 422 is a failed
// question, the standard's GET /v1/models 422 a schema violation).
func (b *oasBuilder) statusDescription(e model.Endpoint, status int, codes []codeDoc) string {
	if len(codes) > 0 {
		lines := []string{"An error; its " + model.ErrorCodeFieldName + " is one of:"}
		for _, c := range codes {
			lines = append(lines, "- `"+c.code+"`: "+c.text)
		}
		return strings.Join(lines, "\n")
	}
	for _, spec := range append([]model.SpecKind{e.Spec}, b.s.Specs...) {
		for _, st := range b.m.Statuses {
			if st.Code == status && st.Spec == spec {
				return st.Meaning
			}
		}
	}
	return "Status " + strconv.Itoa(status) + "."
}

// headers of the schema's specs in one direction.
func (b *oasBuilder) headers(direction string) []model.Header {
	var out []model.Header
	for _, h := range b.m.Headers {
		if h.Direction == direction && slices.Contains(b.s.Specs, h.Spec) {
			out = append(out, h)
		}
	}
	return out
}

// requestHeaders are the request headers described as parameters.
func (b *oasBuilder) requestHeaders() []model.Header {
	var out []model.Header
	for _, h := range b.headers("request") {
		if !slices.ContainsFunc(oasReservedHeaders, func(r string) bool { return strings.EqualFold(r, h.Name) }) {
			out = append(out, h)
		}
	}
	return out
}

// headerComponents are the request headers as parameters, the response
// headers, and the standard's bearer key as an http security scheme.
func (b *oasBuilder) headerComponents() (params, headers, security *ymap) {
	params, headers, security = newYMap(), newYMap(), newYMap()
	for _, h := range b.requestHeaders() {
		params.put(h.Name, newYMap().put("name", h.Name).put("in", "header").put("required", false).
			put("description", h.Description).put("schema", headerSchema(h)))
	}
	for _, h := range b.headers("response") {
		headers.put(h.Name, newYMap().put("description", h.Description).put("schema", headerSchema(h)))
	}
	for _, h := range b.headers("request") {
		if strings.EqualFold(h.Name, "Authorization") && slices.ContainsFunc(h.Values, func(v string) bool { return strings.HasPrefix(v, "Bearer ") }) {
			security.put(h.Name, newYMap().put("type", "http").put("scheme", "bearer").put("description", h.Description))
		}
	}
	return params, headers, security
}

// headerSchema is a string, one of the header's values when it names any.
func headerSchema(h model.Header) *ymap {
	s := newYMap().put("type", "string")
	if len(h.Values) > 0 {
		s.put("enum", yflow(h.Values))
	}
	return s
}
