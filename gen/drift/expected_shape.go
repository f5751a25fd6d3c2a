package drift

import (
	"slices"
	"strconv"

	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/runtime/table"
)

// mediaJSON is the only media type the standard's bodies have.
const mediaJSON = "application/json"

// shape is a model type as a Shape. A level is the listed component(s)
// that describe it: one by name, or a union of the per-question-type
// components discriminated by the level's field that lists the question
// types. A level the document has no component for (one only the prose
// docs describe) is a plain object.
func (e *expectation) shape(t model.Type) *Shape {
	if len(t.Kinds) == len(model.KindOrder) && t.Nullable {
		return anyShape() // the spec's "any"
	}
	s := &Shape{Nullable: t.Nullable}
	if t.Ref != "" && !e.isNamedType(t.Ref) {
		if comps := e.componentsAt(table.Level(t.Ref)); len(comps) > 0 {
			e.refer(s, table.Level(t.Ref), comps)
			return s.settle()
		}
	}
	for _, k := range t.Kinds {
		switch k {
		case model.KindObject:
			s.Object = &Object{MinProperties: t.MinCount, MaxProperties: t.MaxCount}
			if t.Values != nil {
				s.Object.Additional = e.member(*t.Values)
			}
		case model.KindArray:
			s.Array = &Array{MinItems: t.MinCount, MaxItems: t.MaxCount}
			if t.Items != nil {
				s.Array.Items = e.member(*t.Items)
			}
		default:
			s.setScalar(k, scalarOf(k, t))
		}
	}
	return s.settle()
}

// member is the Shape of a map's members or an array's items; nil when
// they may be anything, as the document's reader leaves them.
func (e *expectation) member(t model.Type) *Shape {
	if s := e.shape(t); !s.Any {
		return s
	}
	return nil
}

// scalarOf is one scalar kind of a type: the enum values of that kind
// (the spec writes every value as text) and, for numbers, the bounds.
func scalarOf(k model.Kind, t model.Type) *Scalar {
	sc := &Scalar{}
	if k == model.KindNumber || k == model.KindInteger {
		sc.Minimum, sc.Maximum = t.Minimum, t.Maximum
	}
	if len(t.Enum) == 0 {
		return sc
	}
	sc.Enum = []string{}
	for _, v := range t.Enum {
		_, err := strconv.ParseFloat(v, 64)
		numeric := err == nil && slices.ContainsFunc(t.Kinds, func(k model.Kind) bool {
			return k == model.KindNumber || k == model.KindInteger
		})
		if numeric == (k == model.KindNumber || k == model.KindInteger) {
			sc.Enum = append(sc.Enum, v)
		}
	}
	slices.Sort(sc.Enum)
	return sc
}

func (e *expectation) isNamedType(name string) bool {
	return slices.ContainsFunc(e.m.NamedTypes, func(nt model.NamedType) bool { return nt.Name == name })
}

// componentsAt are the listed components that describe a level.
func (e *expectation) componentsAt(l table.Level) []model.SourceComponent {
	var out []model.SourceComponent
	for _, c := range e.spec.Source.Components {
		if c.Level == l {
			out = append(out, c)
		}
	}
	return out
}

// refer points s at the components of a level. Several, one per question
// type, are a union discriminated by the level's field whose enum lists
// every one of their question types (question.type, answer.type).
func (e *expectation) refer(s *Shape, l table.Level, comps []model.SourceComponent) {
	for _, c := range comps {
		s.Refs = append(s.Refs, c.Name)
	}
	if len(comps) < 2 {
		return
	}
	for _, f := range e.m.SpecFields(model.SpecStandard) {
		if f.Level != l || !slices.Contains(f.DocumentedIn, model.DocOpenAPI) || len(f.Type.Enum) == 0 {
			continue
		}
		if slices.ContainsFunc(comps, func(c model.SourceComponent) bool {
			return c.QuestionType == "" || !slices.Contains(f.Type.Enum, string(c.QuestionType))
		}) {
			continue
		}
		s.Discriminator, s.Mapping = f.Name, map[string]string{}
		for _, c := range comps {
			s.Mapping[string(c.QuestionType)] = c.Name
		}
		return
	}
}

// operation is an endpoint as the document should declare it: its
// request body, and a response for each of its statuses the document
// carries (documented_in openapi), 200 with the endpoint's response level
// and the others with their status's body.
func (e *expectation) operation(ep model.Endpoint) *Operation {
	op := &Operation{Responses: map[string]*Body{}}
	if ep.Request != "" {
		op.Request = &Body{Required: true, Content: map[string]*Shape{mediaJSON: e.levelShape(ep.Request)}}
	}
	for _, code := range ep.Statuses {
		st := e.status(code)
		if st == nil || !slices.Contains(st.DocumentedIn, model.DocOpenAPI) {
			continue
		}
		body := st.Body
		if code == 200 {
			body = ep.Response
		}
		resp := &Body{Content: map[string]*Shape{}}
		if body != "" {
			resp.Content[mediaJSON] = e.levelShape(body)
		}
		op.Responses[strconv.Itoa(code)] = resp
	}
	return op
}

func (e *expectation) levelShape(l table.Level) *Shape {
	return e.shape(model.Type{Kinds: []model.Kind{model.KindObject}, Ref: string(l)})
}

func (e *expectation) status(code int) *model.Status {
	for i := range e.m.Statuses {
		if s := &e.m.Statuses[i]; s.Spec == model.SpecStandard && s.Code == code {
			return s
		}
	}
	return nil
}
