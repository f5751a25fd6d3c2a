package drift

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// operations reads every path's operations.
func (n *normaliser) operations() (map[string]*Operation, error) {
	out := map[string]*Operation{}
	paths, _ := n.raw["paths"].(map[string]any)
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		item, _ := paths[path].(map[string]any)
		if _, ok := item["$ref"]; ok {
			return nil, fmt.Errorf("paths %s: a $ref path item is not supported", path)
		}
		for _, method := range httpMethods {
			raw, ok := item[method].(map[string]any)
			if !ok {
				continue
			}
			key := strings.ToUpper(method) + " " + path
			op, err := n.operation(raw, key)
			if err != nil {
				return nil, err
			}
			out[key] = op
		}
	}
	return out, nil
}

func (n *normaliser) operation(raw map[string]any, at string) (*Operation, error) {
	op := &Operation{Responses: map[string]*Body{}}
	if rb, ok := raw["requestBody"]; ok {
		body, err := n.body(rb, "requestBodies", at+" request")
		if err != nil {
			return nil, err
		}
		op.Request = body
	}
	responses, _ := raw["responses"].(map[string]any)
	for _, status := range slices.Sorted(maps.Keys(responses)) {
		body, err := n.body(responses[status], "responses", at+" response "+status)
		if err != nil {
			return nil, err
		}
		body.Required = false
		op.Responses[status] = body
	}
	return op, nil
}

// body reads a request body or a response, following a $ref to the
// components section named by section.
func (n *normaliser) body(raw any, section, at string) (*Body, error) {
	m, _ := raw.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		prefix := "#/components/" + section + "/"
		name, inSection := strings.CutPrefix(ref, prefix)
		components, _ := n.raw["components"].(map[string]any)
		defs, _ := components[section].(map[string]any)
		var ok bool
		if m, ok = defs[name].(map[string]any); !inSection || !ok {
			return nil, fmt.Errorf("%s: unresolvable $ref %q", at, ref)
		}
	}
	b := &Body{Required: m["required"] == true, Content: map[string]*Shape{}}
	content, _ := m["content"].(map[string]any)
	for _, media := range slices.Sorted(maps.Keys(content)) {
		mt, _ := content[media].(map[string]any)
		sh, err := n.schema(mt["schema"], at+" "+media)
		if err != nil {
			return nil, err
		}
		b.Content[media] = sh
	}
	return b, nil
}
