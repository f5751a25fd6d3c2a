package model

import (
	"strings"

	"github.com/vllm-sr/systemone/runtime/table"
)

// The names the model gives things for people and for Go code.

// KindsText names kinds for a person: "string, object or array", with
// " or null" appended when nullable.
func KindsText(kinds []Kind, nullable bool) string {
	names := make([]string, 0, len(kinds)+1)
	for _, k := range kinds {
		names = append(names, string(k))
	}
	if nullable {
		names = append(names, "null")
	}
	return orList(names)
}

func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// SchemaGoName is a schema ID's Go name as runtime/table spells its
// constants after "Schema": the standard's IDs are "Standard" and the
// version's digits, others their camel-cased prefix ("VllmSR50").
func SchemaGoName(id table.SchemaID) string {
	prefix, version, _ := strings.Cut(string(id), "/")
	digits := strings.ReplaceAll(version, ".", "")
	switch prefix {
	case "systemone":
		return "Standard" + digits
	case "vllm-sr":
		return "VllmSR" + digits
	}
	var b strings.Builder
	for _, part := range strings.FieldsFunc(prefix, func(r rune) bool { return r == '-' || r == '_' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String() + digits
}
