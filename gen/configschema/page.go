package configschema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Page returns router.yaml's reference page from its schema (Schema's
// bytes): a table of keys per object, in the schema's order, each key
// with its type, its bounds or words, whether it is required, and its
// description. schemaName is the schema's file name beside the page.
func Page(schema []byte, header, schemaName, guide string) ([]byte, error) {
	var root rnode
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, fmt.Errorf("the schema: %v", err)
	}
	var b strings.Builder
	b.WriteString(header + "\n\n")
	b.WriteString("# Router configuration reference\n\n")
	fmt.Fprintf(&b, "Every key of router.yaml, from its JSON Schema, [%s](%s), which srgen writes from the Go types that state the file's keys (`%s`). ", schemaName, schemaName, Source)
	fmt.Fprintf(&b, "The [guide](%s) says what each section is for; `vllm-sr config check` checks what a schema cannot (a name that must exist, a port used twice, what a deployment can answer, an environment variable that must be set) and names every problem with its file, line and column.\n\n", guide)
	b.WriteString("An editor that runs yaml-language-server (VS Code's YAML extension, Neovim, Helix, IntelliJ) completes and checks a router.yaml whose first line names the schema:\n\n")
	fmt.Fprintf(&b, "```yaml\n# yaml-language-server: $schema=%s\n```\n\n", schemaName)
	b.WriteString("A key path below reads `<name>` for a key the configuration chooses, and `[]` for a list's items. Every string is non-empty and every list of strings lists an item once.\n")
	section(&b, "", &root)
	return []byte(b.String()), nil
}

// rnode is a schema read back: the keys the page shows.
type rnode struct {
	Description          string          `json:"description"`
	Type                 json.RawMessage `json:"type"`
	Enum                 []string        `json:"enum"`
	Pattern              string          `json:"pattern"`
	Minimum              *float64        `json:"minimum"`
	Maximum              *float64        `json:"maximum"`
	Items                *rnode          `json:"items"`
	MinItems             *float64        `json:"minItems"`
	Properties           orderedProps    `json:"properties"`
	Required             []string        `json:"required"`
	PropertyNames        *rnode          `json:"propertyNames"`
	MinProperties        *float64        `json:"minProperties"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
	OneOf                []*rnode        `json:"oneOf"`
	Not                  *rnode          `json:"not"`
	AllOf                []*rnode        `json:"allOf"`
	Const                string          `json:"const"`
	If                   *rnode          `json:"if"`
	Then                 *rnode          `json:"then"`
}

// orderedProps keeps the properties in the schema's order.
type orderedProps []rprop

type rprop struct {
	key  string
	node *rnode
}

func (p *orderedProps) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		var n rnode
		if err := dec.Decode(&n); err != nil {
			return err
		}
		*p = append(*p, rprop{tok.(string), &n})
	}
	return nil
}

// types are a node's JSON types, null last.
func (n *rnode) types() []string {
	var one string
	if json.Unmarshal(n.Type, &one) == nil {
		return []string{one}
	}
	var many []string
	json.Unmarshal(n.Type, &many)
	return many
}

// values is the schema of a mapping's values, nil for none.
func (n *rnode) values() *rnode {
	var v rnode
	if len(n.AdditionalProperties) == 0 || json.Unmarshal(n.AdditionalProperties, &v) != nil {
		return nil
	}
	return &v
}

// section writes the table of object n at path, then those of the
// objects under it.
func section(b *strings.Builder, path string, n *rnode) {
	if path == "" {
		b.WriteString("\n## Top level\n\n")
	} else {
		fmt.Fprintf(b, "\n## `%s`\n\n", path)
	}
	b.WriteString(n.Description + "\n\n")
	if ex := exclusive(n); ex != "" {
		b.WriteString(ex + "\n\n")
	}
	b.WriteString("| Key | Type | Required | Description |\n|---|---|---|---|\n")
	var under []rprop
	for _, p := range n.Properties {
		req := ""
		for _, r := range n.Required {
			if r == p.key {
				req = "yes"
			}
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", p.key, typeText(p.node), req, cell(p.node.Description))
		if obj := objectUnder(p.node); obj != nil {
			under = append(under, rprop{join(path, p.key) + obj.suffix, obj.node})
		}
	}
	for _, u := range under {
		section(b, u.key, u.node)
	}
}

// underObject is an object a property leads to, and the path suffix it
// is at (a list's items, a mapping's values).
type underObject struct {
	suffix string
	node   *rnode
}

func objectUnder(n *rnode) *underObject {
	switch {
	case len(n.Properties) > 0:
		return &underObject{"", n}
	case n.Items != nil && len(n.Items.Properties) > 0:
		return &underObject{"[]", n.Items}
	}
	if v := n.values(); v != nil && len(v.Properties) > 0 {
		return &underObject{".<name>", v}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// exclusive says which keys of n go one without the other, and which
// one goes with another's value.
func exclusive(n *rnode) string {
	nots := []*rnode{n.Not}
	for _, a := range n.AllOf {
		nots = append(nots, a.Not)
	}
	var out []string
	for _, x := range nots {
		if x != nil && len(x.Required) == 2 {
			out = append(out, fmt.Sprintf("`%s` and `%s` are not given together.", x.Required[0], x.Required[1]))
		}
	}
	for _, a := range n.AllOf {
		if a.If != nil && len(a.If.Properties) == 1 && a.Then != nil && len(a.Then.Required) == 1 {
			when := a.If.Properties[0]
			out = append(out, fmt.Sprintf("`%s` is given exactly when `%s` is `%s`.", a.Then.Required[0], when.key, when.node.Const))
		}
	}
	return strings.Join(out, " ")
}

// typeText is a property's type cell.
func typeText(n *rnode) string {
	var parts []string
	null := ""
	for _, t := range n.types() {
		if t == "null" {
			null = " (or null: none)"
			continue
		}
		parts = append(parts, kindText(n, t))
	}
	if len(n.OneOf) > 0 {
		var forms []string
		for _, o := range n.OneOf {
			forms = append(forms, kindText(o, o.types()[0]))
		}
		parts = append(parts, strings.Join(forms, " or "))
	}
	return strings.Join(parts, " or ") + null
}

func kindText(n *rnode, t string) string {
	switch t {
	case "string":
		s := "string"
		if len(n.Enum) > 0 {
			s = "one of " + codeList(n.Enum)
		}
		if n.Pattern != "" {
			s += " matching `" + strings.ReplaceAll(n.Pattern, "|", `\|`) + "`"
		}
		return s
	case "integer", "number":
		return t + bounds(n.Minimum, n.Maximum)
	case "array":
		item := "items"
		if n.Items != nil {
			if len(n.Items.Properties) > 0 {
				item = "objects"
			} else {
				item = kindText(n.Items, n.Items.types()[0]) + "s"
				if len(n.Items.Enum) > 0 {
					item = "items, each " + kindText(n.Items, "string")
				}
			}
		}
		return "list of " + item + atLeast(n.MinItems)
	case "object":
		if len(n.Properties) > 0 {
			return "mapping"
		}
		s := "mapping"
		switch {
		case n.PropertyNames != nil && len(n.PropertyNames.Enum) > 0:
			s += " with keys " + codeList(n.PropertyNames.Enum)
		case n.PropertyNames != nil:
			s += " with keys matching `" + n.PropertyNames.Pattern + "`"
		}
		if v := n.values(); v != nil && len(v.types()) > 0 {
			s += ", each " + strings.Join(valueKinds(v), " or ")
		} else if v != nil && len(v.OneOf) > 0 {
			s += ", each " + typeText(v)
		}
		return s + atLeast(n.MinProperties)
	case "null":
		return "null"
	}
	return t
}

func valueKinds(v *rnode) []string {
	var out []string
	for _, t := range v.types() {
		out = append(out, kindText(v, t))
	}
	return out
}

func bounds(lo, hi *float64) string {
	switch {
	case lo != nil && hi != nil:
		return fmt.Sprintf(" from %s to %s", num(*lo), num(*hi))
	case lo != nil:
		return " at least " + num(*lo)
	case hi != nil:
		return " at most " + num(*hi)
	}
	return ""
}

func atLeast(n *float64) string {
	if n == nil {
		return ""
	}
	return ", at least " + num(*n)
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

func codeList(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "`" + w + "`"
	}
	return strings.Join(q, ", ")
}

// cell makes text safe in a table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
