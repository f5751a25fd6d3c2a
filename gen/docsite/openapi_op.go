package docsite

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/vllm-sr/systemone/gen/emit"
)

// opPage is an operation's page: what it does, the credentials it takes,
// its parameters, an example request, its request body, each response
// with an example of its body, and the response headers.
func (d *apiDoc) opPage(o apiOp) (emit.File, error) {
	p := d.opPath(o)
	fm := FrontMatter{ID: pageID(p), Title: d.schema + " " + o.title(), SidebarLabel: o.title()}
	var b strings.Builder
	for _, s := range slices.Compact([]string{o.op.Summary, o.op.Description}) {
		if s != "" {
			b.WriteString(prose(s) + "\n\n")
		}
	}
	fmt.Fprintf(&b, "An operation of the %s", link(d.schema+" OpenAPI document", d.overviewPath(), p))
	if o.op.OperationID != "" {
		b.WriteString(", `operationId` " + code(o.op.OperationID))
	}
	b.WriteString(".")
	security := d.doc.Security
	if o.op.Security != nil {
		security = *o.op.Security
	}
	if s := d.securityText(security); s != "" {
		b.WriteString(" " + s)
	}
	b.WriteString("\n\n")
	d.parameters(&b, o.op.Parameters, p)
	if err := d.exampleRequest(&b, o); err != nil {
		return emit.File{}, err
	}
	d.requestBody(&b, o.op.RequestBody, p)
	if err := d.responses(&b, o.op.Responses, p); err != nil {
		return emit.File{}, err
	}
	return page(p, fm, b.String()), nil
}

func (d *apiDoc) parameters(b *strings.Builder, params openapi3.Parameters, from string) {
	var rows [][]string
	for _, pr := range params {
		if pr == nil || pr.Value == nil {
			continue
		}
		v := pr.Value
		row := d.fieldRow(v.Name, v.Schema, v.Required, v.Description, from)
		rows = append(rows, append(row[:1:1], append([]string{v.In}, row[1:]...)...))
	}
	if len(rows) == 0 {
		return
	}
	b.WriteString("## Parameters\n\n")
	table(b, []string{"Name", "In", "Type", "Description"}, rows)
}

func (d *apiDoc) requestBody(b *strings.Builder, rb *openapi3.RequestBodyRef, from string) {
	if rb == nil || rb.Value == nil {
		return
	}
	b.WriteString("## Request body\n\n")
	if rb.Value.Required {
		b.WriteString("Required. ")
	} else {
		b.WriteString("Optional. ")
	}
	b.WriteString(d.contentText(rb.Value.Content, from) + "\n\n")
	if s := prose(rb.Value.Description); s != "" {
		b.WriteString(s + "\n\n")
	}
}

// exampleRequest writes the operation's request as it goes on the wire:
// its method and path, and for a body its media type and an example of
// it (example).
func (d *apiDoc) exampleRequest(b *strings.Builder, o apiOp) error {
	b.WriteString("## Example request\n\n```http\n" + strings.ToUpper(o.method) + " " + o.path + "\n")
	if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
		for _, mt := range slices.Sorted(maps.Keys(rb.Value.Content)) {
			if !strings.Contains(mt, "json") || rb.Value.Content[mt].Schema == nil {
				continue
			}
			data, err := d.example(rb.Value.Content[mt].Schema)
			if err != nil {
				return fmt.Errorf("the request body: %w", err)
			}
			b.WriteString("Content-Type: " + mt + "\n\n" + string(data) + "\n")
			break
		}
	}
	b.WriteString("```\n\n")
	return nil
}

// contentText is a body's media types and the schema of each.
func (d *apiDoc) contentText(c openapi3.Content, from string) string {
	if len(c) == 0 {
		return "No body."
	}
	var parts []string
	for _, mt := range slices.Sorted(maps.Keys(c)) {
		parts = append(parts, code(mt)+": "+d.typeText(c[mt].Schema, from))
	}
	return "The body, " + strings.Join(parts, "; ") + "."
}

// responses writes a section per status, then one table of the response
// headers with the statuses that carry each (an operation's responses
// mostly share them).
func (d *apiDoc) responses(b *strings.Builder, rs *openapi3.Responses, from string) error {
	if rs == nil || rs.Len() == 0 {
		return nil
	}
	b.WriteString("## Responses\n\n")
	type header struct {
		ref      *openapi3.HeaderRef
		statuses []string
	}
	headers := map[string]*header{}
	statuses := slices.SortedFunc(maps.Keys(rs.Map()), statusOrder)
	for _, status := range statuses {
		r := rs.Value(status)
		if r == nil || r.Value == nil {
			continue
		}
		b.WriteString("### " + statusTitle(status) + "\n\n" + d.contentText(r.Value.Content, from) + "\n\n")
		if r.Value.Description != nil {
			if s := prose(*r.Value.Description); s != "" {
				b.WriteString(s + "\n\n")
			}
		}
		ex, err := d.exampleBlock(r.Value.Content, "the "+status+" response")
		if err != nil {
			return err
		}
		b.WriteString(ex)
		for name, h := range r.Value.Headers {
			if headers[name] == nil {
				headers[name] = &header{ref: h}
			}
			headers[name].statuses = append(headers[name].statuses, status)
		}
	}
	if len(headers) == 0 {
		return nil
	}
	b.WriteString("## Response headers\n\n")
	var rows [][]string
	names := slices.SortedFunc(maps.Keys(headers), func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	for _, name := range names {
		h := headers[name]
		on := "every response"
		if len(h.statuses) < len(statuses) {
			on = strings.Join(h.statuses, ", ")
		}
		var schema *openapi3.SchemaRef
		var desc string
		if h.ref.Value != nil {
			schema, desc = h.ref.Value.Schema, h.ref.Value.Description
		}
		rows = append(rows, []string{code(name), cell(d.typeText(schema, from)), on, cell(desc)})
	}
	table(b, []string{"Header", "Type", "On", "Description"}, rows)
	return nil
}

// use is a place that refers to a component: a page, and where on it.
type use struct {
	page, title string
	where       []string
}

// findUses finds, for each component, the operations and the components
// that refer to it: the operations first, in document order, then the
// components.
func (d *apiDoc) findUses() map[string][]use {
	uses := map[string][]use{}
	// add records the uses on one page; label, when set, is where on it
	// every use is, else the field path.
	add := func(page, title, label string) func(name, field string) {
		return func(name, field string) {
			where := label
			switch {
			case where != "":
			case field == "":
				where = "one of its alternatives"
			default:
				where = code(field)
			}
			us := uses[name]
			if len(us) == 0 || us[len(us)-1].page != page {
				us = append(us, use{page: page, title: title})
			}
			if last := &us[len(us)-1]; !slices.Contains(last.where, where) {
				last.where = append(last.where, where)
			}
			uses[name] = us
		}
	}
	for _, o := range d.ops {
		page, title := d.opPath(o), o.title()
		for _, pr := range o.op.Parameters {
			if pr != nil && pr.Value != nil {
				d.walkRefs(pr.Value.Schema, "", "", add(page, title, "the "+code(pr.Value.Name)+" parameter"))
			}
		}
		if rb := o.op.RequestBody; rb != nil && rb.Value != nil {
			for _, mt := range slices.Sorted(maps.Keys(rb.Value.Content)) {
				d.walkRefs(rb.Value.Content[mt].Schema, "", "", add(page, title, "the request body"))
			}
		}
		if o.op.Responses == nil {
			continue
		}
		for _, status := range slices.SortedFunc(maps.Keys(o.op.Responses.Map()), statusOrder) {
			if r := o.op.Responses.Value(status); r != nil && r.Value != nil {
				for _, mt := range slices.Sorted(maps.Keys(r.Value.Content)) {
					d.walkRefs(r.Value.Content[mt].Schema, "", "", add(page, title, "the "+status+" response"))
				}
			}
		}
	}
	for _, name := range d.comps {
		r := d.doc.Components.Schemas[name]
		d.walkRefs(&openapi3.SchemaRef{Value: r.Value}, "/components/schemas/"+pointerToken(name), "", add(d.schemaPath(name), name, ""))
	}
	return uses
}

// walkRefs calls f with each component the schema r (at pointer ptr)
// names, and the path of the field within r that names it ("" for r
// itself, or one of its alternatives).
func (d *apiDoc) walkRefs(r *openapi3.SchemaRef, ptr, field string, f func(name, field string)) {
	if r == nil {
		return
	}
	if name, ok := component(r.Ref); ok {
		f(name, field)
		return
	}
	s := r.Value
	if s == nil {
		return
	}
	for _, g := range []struct {
		key  string
		alts openapi3.SchemaRefs
	}{{"oneOf", s.OneOf}, {"anyOf", s.AnyOf}, {"allOf", s.AllOf}} {
		for i, a := range g.alts {
			d.walkRefs(a, ptr+"/"+g.key+"/"+strconv.Itoa(i), field, f)
		}
	}
	d.walkRefs(s.Items, ptr+"/items", field, f)
	d.walkRefs(s.AdditionalProperties.Schema, ptr+"/additionalProperties", field, f)
	for _, name := range orderedKeys(d, ptr+"/properties", s.Properties) {
		sub := name
		if field != "" {
			sub = field + "." + name
		}
		d.walkRefs(s.Properties[name], ptr+"/properties/"+pointerToken(name), sub, f)
	}
}

// usedBy writes where a component is referred to.
func (d *apiDoc) usedBy(b *strings.Builder, name, from string) {
	us := d.uses[name]
	if len(us) == 0 {
		return
	}
	b.WriteString("## Used by\n\n")
	for _, u := range us {
		b.WriteString("- " + link(u.title, u.page, from) + ": " + words(mergeResponses(u.where), "and") + "\n")
	}
	b.WriteString("\n")
}

// mergeResponses folds "the 400 response", "the 404 response" into "the
// 400 and 404 responses", where the first of them was.
func mergeResponses(where []string) []string {
	var out, statuses []string
	at := -1
	for _, w := range where {
		if status, ok := strings.CutPrefix(w, "the "); ok && strings.HasSuffix(status, " response") {
			if at < 0 {
				at = len(out)
				out = append(out, "")
			}
			statuses = append(statuses, strings.TrimSuffix(status, " response"))
			continue
		}
		out = append(out, w)
	}
	switch {
	case len(statuses) == 1:
		out[at] = "the " + statuses[0] + " response"
	case len(statuses) > 1:
		out[at] = "the " + words(statuses, "and") + " responses"
	}
	return out
}
