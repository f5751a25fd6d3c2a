package model

import (
	"regexp"
	"sort"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Corpus is the round-trip golden corpus: requests in the internal wire
// form, from specs/corpus/*.yaml.
type Corpus struct {
	// Files are the corpus files' repository paths, sorted.
	Files []string `json:"files"`
	// Forms are every form a legacy case may name: the removed forms, then
	// each file's extra forms, in file order.
	Forms []CorpusForm `json:"forms"`
	// Cases in file order, then the order each file lists them.
	Cases []CorpusCase `json:"cases"`
}

// CorpusForm is a 4.0 request form the corpus exercises.
type CorpusForm struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Removed: one of the extension spec's removed forms.
	Removed bool `json:"removed"`
}

// CorpusCase is one checked corpus request.
type CorpusCase struct {
	Name   string           `json:"name"`
	Kind   table.CorpusKind `json:"kind"`
	Family table.Family     `json:"family,omitempty"`
	Form   string           `json:"form,omitempty"`
	// Endpoint is the path the request is sent to.
	Endpoint    string `json:"endpoint"`
	Description string `json:"description"`
	// Source is the corpus file it comes from.
	Source string `json:"source"`
	// Path is where its JSON lives inside the corpus package:
	// <kind>/<name>.json.
	Path string `json:"path"`
	// Body is the request body, member order and literals as written.
	Body jsonvalue.Value `json:"-"`
	Pos  Position        `json:"-"`
}

var corpusName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*(/[a-z0-9][a-z0-9_-]*)?$`)

// BuildCorpus checks the corpus files against the model and returns the
// corpus. It needs the model's families, removed forms and endpoints, so it
// runs after Build. Every problem is reported at once.
func BuildCorpus(m *Model, files []load.CorpusFile) (Corpus, error) {
	var problems load.Problems
	files = append([]load.CorpusFile(nil), files...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	c := Corpus{Forms: corpusForms(m, files, &problems)}
	seen := map[string]load.Position{}
	for _, f := range files {
		c.Files = append(c.Files, f.Path)
		for _, raw := range f.Cases {
			if at, dup := seen[raw.Name]; dup {
				problems.Add(raw.Pos, "case %q already defined at %s", raw.Name, at)
				continue
			}
			seen[raw.Name] = raw.Pos
			c.Cases = append(c.Cases, buildCase(m, c.Forms, f.Path, raw, &problems))
		}
	}
	if len(c.Cases) == 0 {
		problems.Add(load.Position{File: "specs/corpus"}, "the corpus has no cases")
	}
	return c, problems.Err()
}

func corpusForms(m *Model, files []load.CorpusFile, problems *load.Problems) []CorpusForm {
	var forms []CorpusForm
	known := map[string]bool{}
	for _, r := range m.RemovedForms {
		forms = append(forms, CorpusForm{Name: r.Form, Description: r.Note, Removed: true})
		known[r.Form] = true
	}
	for _, f := range files {
		for _, x := range f.ExtraForms {
			if known[x.Name] {
				problems.Add(x.Pos, "extra form %q is already a form", x.Name)
				continue
			}
			known[x.Name] = true
			forms = append(forms, CorpusForm{Name: x.Name, Description: x.Description})
		}
	}
	return forms
}

func buildCase(m *Model, forms []CorpusForm, source string, raw load.CorpusCase, problems *load.Problems) CorpusCase {
	c := CorpusCase{
		Name:        raw.Name,
		Kind:        table.CorpusKind(raw.Kind),
		Family:      table.Family(raw.Family),
		Form:        raw.Form,
		Endpoint:    raw.Endpoint,
		Description: raw.Description,
		Source:      source,
		Path:        raw.Kind + "/" + raw.Name + ".json",
		Body:        raw.Body,
		Pos:         raw.Pos,
	}
	if !corpusName.MatchString(c.Name) {
		problems.Add(c.Pos, "case name %q must be lowercase words joined by - or _, with at most one /", c.Name)
	}
	switch c.Kind {
	case table.CorpusFamilySelfTest:
		checkSelfTest(m, c, problems)
	case table.CorpusLegacyForm:
		if c.Family != "" {
			problems.Add(c.Pos, "case %q: a legacy_form case names no family", c.Name)
		}
		if !hasForm(forms, c.Form) {
			problems.Add(c.Pos, "case %q: form %q is neither a removed form nor an extra form", c.Name, c.Form)
		}
	default:
		problems.Add(c.Pos, "case %q: kind %q is not %s or %s", c.Name, raw.Kind, table.CorpusFamilySelfTest, table.CorpusLegacyForm)
	}
	if !postEndpoint(m, c.Endpoint) {
		problems.Add(c.Pos, "case %q: endpoint %q is not a POST endpoint with a request body", c.Name, c.Endpoint)
	}
	return c
}

// checkSelfTest requires a known family that answers every question type
// the request asks.
func checkSelfTest(m *Model, c CorpusCase, problems *load.Problems) {
	if c.Form != "" {
		problems.Add(c.Pos, "case %q: a family_self_test case names no form", c.Name)
	}
	var family *Family
	for i := range m.Families {
		if m.Families[i].Name == c.Family {
			family = &m.Families[i]
		}
	}
	if family == nil {
		problems.Add(c.Pos, "case %q: family %q is not a family of the extension spec", c.Name, c.Family)
		return
	}
	questions, _ := c.Body.Get("questions")
	for _, q := range questions.Members() {
		t, ok := q.Value.Get("type")
		if !ok {
			continue
		}
		if !hasQuestionType(family.QuestionTypes, table.QuestionType(t.Str())) {
			problems.Add(c.Pos, "case %q: question %q is a %s, which %s does not answer", c.Name, q.Name, t.Str(), c.Family)
		}
	}
}

func hasForm(forms []CorpusForm, name string) bool {
	for _, f := range forms {
		if f.Name == name {
			return true
		}
	}
	return false
}

func hasQuestionType(types []table.QuestionType, t table.QuestionType) bool {
	for _, x := range types {
		if x == t {
			return true
		}
	}
	return false
}

func postEndpoint(m *Model, path string) bool {
	for _, e := range m.Endpoints {
		if e.Method == "POST" && e.Path == path && e.Request != "" {
			return true
		}
	}
	return false
}
