package emit

import (
	"bytes"
	"path"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// python writes generated/python/systemone_fields.py: the field tables the
// Python model runtime reads, as data only (dicts and tuples, no logic).
func (o Options) python(m *model.Model) ([]File, error) {
	var b bytes.Buffer
	b.WriteString("# " + goHeader(specPaths(m)) + "\n")
	b.WriteString(`"""System One field tables for the Python model runtime: data only."""` + "\n")
	entries, err := pythonTables(m)
	if err != nil {
		return nil, err
	}
	for _, entry := range entries {
		if err := pyAssign(&b, entry.name, entry.doc, entry.value); err != nil {
			return nil, &Error{Path: entry.name, Err: err}
		}
	}
	return []File{{Path: path.Join(o.GeneratedDir, "python", "systemone_fields.py"), Data: b.Bytes()}}, nil
}

type pyEntry struct {
	name, doc string
	value     any
}

func pythonTables(m *model.Model) ([]pyEntry, error) {
	stripped, err := pyDisposition(m, table.DispositionStripped)
	if err != nil {
		return nil, err
	}
	refused, err := pyDisposition(m, table.DispositionRefusedAtLoad)
	if err != nil {
		return nil, err
	}
	return []pyEntry{
		{"SPECS", "The specifications: schema ID, path and sha256.", pySpecs(m)},
		{"FIELDS", "Every field of the three specifications.", pyFields(m)},
		{"KNOWN", "Per schema and level, the members a message may carry.", pyKnown(m)},
		{"REMOVED_FORMS", "The 4.0 forms vllm-sr/5.0 answers with 400, and their replacements.", pyRemoved(m)},
		{"FAMILIES", "The model families and what they answer.", pyFamilies(m)},
		{"QUESTION_ERRORS", "Question error kind to HTTP status.", pyQuestionErrors(m)},
		{"REQUEST_ERRORS", "Request error code to HTTP status (0: the failed question's own).", pyRequestErrors(m)},
		{"LIMITS", "Limit name to its inclusive bounds (None: unbounded).", pyLimits(m)},
		{"IMPLICIT_ROLES", "4.0's role of each Router part name in an object state without roles.", pyImplicitRoles(m)},
		{"DEFAULT_IMPLICIT_ROLE", "4.0's role of any other state key.", m.ImplicitRoles.Default},
		{"STRIPPED", "Members stripped for a systemone/0.2 target: (level, name, question types).", stripped},
		{"REFUSED_AT_LOAD", "Fields that refuse a rule at load for a systemone/0.2 target: (level, name, question types).", refused},
		{"ENDPOINTS", "Every endpoint: (method, path, defining spec).", pyEndpoints(m)},
	}, nil
}

func pySpecs(m *model.Model) pyTuple {
	out := pyTuple{}
	for _, s := range m.Specs {
		out = append(out, pyDict{{"schema", string(s.SchemaID)}, {"path", s.Path}, {"sha256", s.SHA256}})
	}
	return out
}

func pyFields(m *model.Model) pyTuple {
	out := pyTuple{}
	for _, f := range m.Fields {
		out = append(out, pyDict{
			{"name", f.Name},
			{"level", string(f.Level)},
			{"spec", string(f.Spec)},
			{"type", f.TypeText},
			{"required", f.Required},
			{"since", f.Since},
			{"families", pyStrings(f.Families)},
			{"question_types", pyStrings(f.QuestionTypes)},
			{"disposition", string(f.Disposition)},
			{"schemas", pyStrings(f.Schemas)},
		})
	}
	return out
}

func pyKnown(m *model.Model) pyDict {
	out := pyDict{}
	for _, s := range m.Schemas {
		levels := pyDict{}
		for _, msg := range s.Messages {
			names := make(pyTuple, len(msg.Members))
			for i, mem := range msg.Members {
				names[i] = mem.Name
			}
			levels = append(levels, pyItem{string(msg.Level), names})
		}
		out = append(out, pyItem{string(s.ID), levels})
	}
	return out
}

func pyRemoved(m *model.Model) pyTuple {
	out := pyTuple{}
	for _, r := range m.RemovedForms {
		out = append(out, pyDict{{"form", r.Form}, {"level", string(r.Level)}, {"replaced_by", r.ReplacedBy}})
	}
	return out
}

func pyFamilies(m *model.Model) pyDict {
	out := pyDict{}
	for _, f := range m.Families {
		out = append(out, pyItem{string(f.Name), pyDict{
			{"question_types", pyStrings(f.QuestionTypes)},
			{"role_aware", f.RoleAware},
			{"modalities", pyStrings(f.Modalities)},
		}})
	}
	return out
}

func pyQuestionErrors(m *model.Model) pyDict {
	out := pyDict{}
	for _, q := range m.QuestionErrors {
		out = append(out, pyItem{q.Kind, q.Status})
	}
	return out
}

func pyRequestErrors(m *model.Model) pyDict {
	out := pyDict{}
	for _, r := range m.RequestErrors {
		out = append(out, pyItem{r.Code, r.Status})
	}
	return out
}

func pyLimits(m *model.Model) pyDict {
	out := pyDict{}
	for _, l := range m.Limits {
		var lo, hi any
		if l.Min != nil {
			lo = *l.Min
		}
		if l.Max != nil {
			hi = *l.Max
		}
		out = append(out, pyItem{l.Name, pyTuple{lo, hi}})
	}
	return out
}

func pyImplicitRoles(m *model.Model) pyDict {
	out := pyDict{}
	for _, p := range m.ImplicitRoles.Parts {
		out = append(out, pyItem{p.Key, p.Role})
	}
	return out
}

func pyDisposition(m *model.Model, d table.Disposition) (pyTuple, error) {
	fields, err := standardTargetFields(m, d)
	out := pyTuple{}
	for _, f := range fields {
		out = append(out, pyTuple{string(f.Level), f.Name, pyStrings(f.QuestionTypes)})
	}
	return out, err
}

func pyEndpoints(m *model.Model) pyTuple {
	out := pyTuple{}
	for _, e := range m.Endpoints {
		out = append(out, pyTuple{e.Method, e.Path, string(e.Spec)})
	}
	return out
}
