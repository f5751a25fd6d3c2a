package docsite

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"

	"github.com/vllm-sr/systemone/gen/emit"
)

// openAPISuffix ends the name of every OpenAPI document under reference/
// (emit.OpenAPIFileName).
const openAPISuffix = ".openapi.yaml"

// apiDoc is one OpenAPI document, loaded and validated by kin-openapi, and
// rendered as pages: an overview (reference/vllm-sr-5.0-openapi.md, beside
// the document it describes), a page per operation under
// reference/vllm-sr-5.0-openapi/operations/ and one per component schema
// under reference/vllm-sr-5.0-openapi/schemas/. Every page is made from
// the document, so none can disagree with it.
type apiDoc struct {
	name   string // the document's file under reference/
	source string // the repository path of a frozen document; "" for a generated one
	schema string // x-srgen-schema
	doc    *openapi3.T
	// order holds the keys of every mapping of the document in document
	// order, by JSON pointer: kin-openapi keeps maps as Go maps, and the
	// pages list paths, properties and components as the document does.
	order map[string][]string
	ops   []apiOp
	comps []string
	// uses are, by component name, the places that refer to it.
	uses map[string][]use
}

// apiOp is one operation: a method of a path.
type apiOp struct {
	method, path string
	op           *openapi3.Operation
}

// loadAPIDoc loads and validates the document name (its bytes data).
func loadAPIDoc(name string, data []byte, source string) (*apiDoc, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("%s: kin-openapi cannot load it: %w", name, err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("%s: not a valid OpenAPI document: %w", name, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d := &apiDoc{name: name, source: source, doc: doc, order: map[string][]string{}}
	if len(root.Content) == 1 {
		d.index("", root.Content[0])
	}
	d.schema, _ = doc.Extensions["x-srgen-schema"].(string)
	if d.schema == "" {
		return nil, fmt.Errorf("%s: an OpenAPI document srgen describes carries x-srgen-schema", name)
	}
	for _, p := range orderedKeys(d, "/paths", doc.Paths.Map()) {
		item := doc.Paths.Value(p)
		// Operations() is keyed by upper-case method, the document by
		// lower-case.
		ops := map[string]*openapi3.Operation{}
		for m, op := range item.Operations() {
			ops[strings.ToLower(m)] = op
		}
		for _, m := range orderedKeys(d, "/paths/"+pointerToken(p), ops) {
			d.ops = append(d.ops, apiOp{method: m, path: p, op: ops[m]})
		}
	}
	d.comps = orderedKeys(d, "/components/schemas", doc.Components.Schemas)
	d.uses = d.findUses()
	return d, nil
}

// index records the keys of every mapping under n, n at pointer ptr.
func (d *apiDoc) index(ptr string, n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode:
		var keys []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			keys = append(keys, k)
			d.index(ptr+"/"+pointerToken(k), n.Content[i+1])
		}
		d.order[ptr] = keys
	case yaml.SequenceNode:
		for i, c := range n.Content {
			d.index(ptr+"/"+strconv.Itoa(i), c)
		}
	}
}

// pointerToken escapes a key for a JSON pointer (RFC 6901).
func pointerToken(k string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
}

// orderedKeys are m's keys in the order of the mapping at ptr; a key the
// document does not have there (none, as m was read from it) comes after
// them, sorted, so the order is always deterministic.
func orderedKeys[V any](d *apiDoc, ptr string, m map[string]V) []string {
	var out []string
	for _, k := range d.order[ptr] {
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	var rest []string
	for k := range m {
		if !slices.Contains(out, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// stem is the document's name without its suffix: vllm-sr-5.0.
func (d *apiDoc) stem() string { return strings.TrimSuffix(d.name, openAPISuffix) }

// overviewPath is the overview page's path on the site.
func (d *apiDoc) overviewPath() string { return ReferenceDir + "/" + d.stem() + "-openapi.md" }

func (d *apiDoc) pageDir() string { return ReferenceDir + "/" + d.stem() + "-openapi" }

func (d *apiDoc) schemaPath(name string) string { return d.pageDir() + "/schemas/" + name + ".md" }

// opPath names an operation's page by its method and path, which every
// operation has: post-v1-systemone-batch.md.
func (d *apiDoc) opPath(o apiOp) string {
	slug := strings.NewReplacer("/", "-", "{", "", "}", "").Replace(strings.Trim(o.path, "/"))
	if slug == "" {
		slug = "root"
	}
	return d.pageDir() + "/operations/" + strings.ToLower(o.method) + "-" + slug + ".md"
}

func (o apiOp) title() string { return strings.ToUpper(o.method) + " " + o.path }

// summary is what an operation does, in one line: its summary, else its
// description.
func (o apiOp) summary() string {
	if o.op.Summary != "" {
		return o.op.Summary
	}
	return o.op.Description
}

const componentPrefix = "#/components/schemas/"

// component is the component schema a $ref names, if it names one.
func component(ref string) (string, bool) {
	return strings.CutPrefix(ref, componentPrefix)
}

// pages returns every page of the document and its sidebar category: the
// overview as the category's own page, then the operations and schemas.
func (d *apiDoc) pages() ([]emit.File, item, error) {
	var files []emit.File
	ops := &category{Type: "category", Label: "Operations"}
	for _, o := range d.ops {
		f, err := d.opPage(o)
		if err != nil {
			return nil, item{}, fmt.Errorf("%s: %s %s: %w", d.name, strings.ToUpper(o.method), o.path, err)
		}
		files = append(files, f)
		ops.Items = append(ops.Items, docItem(files[len(files)-1].Path))
	}
	schemas := &category{Type: "category", Label: "Schemas"}
	for _, name := range d.comps {
		files = append(files, d.schemaPage(name))
		schemas.Items = append(schemas.Items, docItem(files[len(files)-1].Path))
	}
	overview := d.overviewPage()
	c := &category{Type: "category", Label: d.schema + " OpenAPI",
		Link:  &categoryLink{Type: "doc", ID: docID(overview.Path)},
		Items: []item{{cat: ops}, {cat: schemas}}}
	return append([]emit.File{overview}, files...), item{cat: c}, nil
}

// page is a generated page: front matter, the generated-file header, and
// the body, which starts with the title as its heading.
func page(p string, fm FrontMatter, body string) emit.File {
	return emit.File{Path: p, Data: fm.Prepend([]byte(emit.MarkdownHeader + "\n\n# " + fm.Title + "\n\n" + body))}
}

func (d *apiDoc) overviewPage() emit.File {
	from := d.overviewPath()
	fm := FrontMatter{ID: pageID(from), Title: d.schema + " OpenAPI document", SidebarLabel: "Overview"}
	var b strings.Builder
	if s := prose(d.doc.Info.Description); s != "" {
		b.WriteString(s + "\n\n")
	}
	origin := "srgen generates it from the specifications, with the other reference pages; in the repository it is `docs/reference/" + d.name + "`."
	if d.source != "" {
		origin = "It is the frozen specification `" + d.source + "`, written by hand and copied here as it is."
	}
	fmt.Fprintf(&b, "[`%s`](%s) is the contract of a `%s` server as an OpenAPI %s document (`info.title` %q, `info.version` %q). %s "+
		"The pages below are made from it: one per operation and one per schema.\n\n",
		d.name, d.name, d.schema, d.doc.OpenAPI, d.doc.Info.Title, d.doc.Info.Version, origin)
	b.WriteString("## Operations\n\n")
	var rows [][]string
	for _, o := range d.ops {
		rows = append(rows, []string{link(code(o.title()), d.opPath(o), from), cell(o.summary())})
	}
	table(&b, []string{"Operation", "What it does"}, rows)
	b.WriteString("## Schemas\n\n")
	rows = nil
	for _, name := range d.comps {
		rows = append(rows, []string{link(name, d.schemaPath(name), from), cell(d.describe(name, from))})
	}
	table(&b, []string{"Schema", "What it is"}, rows)
	if s := d.securityText(d.doc.Security); s != "" {
		b.WriteString("## Credentials\n\n" + s + "\n\n")
	}
	d.implicitRoles(&b)
	return page(from, fm, b.String())
}

// describe is a component's description, or what it is made of when it
// has none: its fields, or its type.
func (d *apiDoc) describe(name, from string) string {
	s := d.doc.Components.Schemas[name].Value
	switch {
	case s == nil:
		return ""
	case s.Description != "":
		return s.Description
	case len(s.Properties) > 0:
		var fields []string
		for _, f := range orderedKeys(d, "/components/schemas/"+pointerToken(name)+"/properties", s.Properties) {
			fields = append(fields, code(f))
		}
		return "Fields " + words(fields, "and") + "."
	}
	return "Type " + d.typeText(&openapi3.SchemaRef{Value: s}, from) + "."
}

// securityText says which credentials a request presents: one of the
// requirement's alternatives, an empty one meaning none.
func (d *apiDoc) securityText(reqs openapi3.SecurityRequirements) string {
	var alts []string
	optional := false
	for _, req := range reqs {
		var names []string
		for _, name := range slices.Sorted(maps.Keys(req)) {
			text := code(name)
			if s := d.doc.Components.SecuritySchemes[name]; s != nil && s.Value != nil {
				text += " (" + strings.TrimSpace(s.Value.Type+" "+s.Value.Scheme) + ")"
			}
			names = append(names, text)
		}
		if len(names) == 0 {
			optional = true
		} else {
			alts = append(alts, words(names, "and"))
		}
	}
	switch {
	case len(alts) == 0:
		return ""
	case optional:
		return "Credentials are optional: " + words(alts, "or") + "."
	}
	return "Credentials: " + words(alts, "or") + "."
}

// implicitRoles writes the 4.0 contract's x-implicit-roles, whose only
// definition is the document.
func (d *apiDoc) implicitRoles(b *strings.Builder) {
	var roles struct {
		Default string `yaml:"default"`
		Parts   []struct {
			Key  string `yaml:"key"`
			Role string `yaml:"role"`
		} `yaml:"parts"`
	}
	raw, ok := d.doc.Extensions["x-implicit-roles"]
	if !ok {
		return
	}
	data, err := yaml.Marshal(raw)
	if err != nil || yaml.Unmarshal(data, &roles) != nil {
		return
	}
	b.WriteString("## Implicit roles\n\nAn object state's keys give their parts these roles (`x-implicit-roles`); any other key's part is " +
		code(roles.Default) + ".\n\n")
	var rows [][]string
	for _, p := range roles.Parts {
		rows = append(rows, []string{code(p.Key), code(p.Role)})
	}
	table(b, []string{"State key", "Role"}, rows)
}

// statusTitle is a response's heading: "400 Bad Request", "529", "Any
// other status".
func statusTitle(code string) string {
	if code == "default" {
		return "Any other status"
	}
	if n, err := strconv.Atoi(code); err == nil && http.StatusText(n) != "" {
		return code + " " + http.StatusText(n)
	}
	return code
}

// statusOrder sorts status codes: numbers, then ranges such as 4XX, then
// default.
func statusOrder(a, b string) int {
	rank := func(s string) (int, string) {
		if _, err := strconv.Atoi(s); err == nil {
			return 0, s
		}
		if s == "default" {
			return 2, s
		}
		return 1, s
	}
	ra, sa := rank(a)
	rb, sb := rank(b)
	if ra != rb {
		return ra - rb
	}
	return strings.Compare(sa, sb)
}
