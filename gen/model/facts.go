package model

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

func (b *builder) buildEndpoints() {
	std, ext, con := b.raw.Standard, b.raw.Extensions, b.raw.Contract
	for _, e := range std.Endpoints {
		ep := b.yamlEndpoint(SpecStandard, e)
		ep.Since = sinceOf(std.Schema)
		ep.DocumentedIn = b.docSources(e.DocumentedIn, e.Pos)
		b.m.Endpoints = append(b.m.Endpoints, ep)
	}
	for _, e := range ext.Endpoints {
		ep := b.yamlEndpoint(SpecExtensions, e)
		ep.Since = e.Since
		ep.Families, ep.FamiliesText = b.resolveFamilies(e.Families, e.Pos)
		ep.DocumentedIn = []DocSource{DocExtension}
		b.m.Endpoints = append(b.m.Endpoints, ep)
	}
	levelOf := map[string]string{}
	for _, c := range con.Components {
		levelOf[c.Name] = c.Level
	}
	for _, op := range con.Operations {
		b.m.Endpoints = append(b.m.Endpoints, Endpoint{
			Method: op.Method, Path: op.Path, Spec: SpecContract40, Since: sinceOf(con.Schema),
			Request: table.Level(levelOf[op.Request]), Response: table.Level(levelOf[op.Response]),
			Statuses: op.Statuses, DocumentedIn: []DocSource{DocContract40},
			Schemas: b.acceptingSchemas(SpecContract40), Description: op.Summary, Pos: op.Pos,
		})
	}
	sortEndpoints(b.m.Endpoints)
	b.checkEndpoints()
}

func (b *builder) yamlEndpoint(spec SpecKind, e load.EndpointEntry) Endpoint {
	statuses := append([]int(nil), e.Statuses...)
	sort.Ints(statuses)
	return Endpoint{
		Method: e.Method, Path: e.Path, Spec: spec,
		Request: table.Level(e.Request), Response: table.Level(e.Response),
		Statuses: statuses, Schemas: b.acceptingSchemas(spec),
		Description: e.Description, Pos: e.Pos,
	}
}

// checkEndpoints: no endpoint twice in one spec, and body levels have
// fields in some spec.
func (b *builder) checkEndpoints() {
	seen := map[string]bool{}
	for _, e := range b.m.Endpoints {
		key := string(e.Spec) + " " + e.Method + " " + e.Path
		if seen[key] {
			b.problems.Add(e.Pos, "endpoint %s %s defined twice", e.Method, e.Path)
		}
		seen[key] = true
		for _, l := range []table.Level{e.Request, e.Response} {
			if l != "" && !b.levelHasFields(l) {
				b.problems.Add(e.Pos, "endpoint %s %s: level %q has no fields", e.Method, e.Path, l)
			}
		}
		if e.Response == "" {
			b.problems.Add(e.Pos, "endpoint %s %s has no 200 body", e.Method, e.Path)
		}
	}
}

func (b *builder) levelHasFields(l table.Level) bool {
	for _, f := range b.m.Fields {
		if f.Level == l {
			return true
		}
	}
	return false
}

func (b *builder) buildHeadersStatusesConflicts() {
	std := b.raw.Standard
	for _, h := range std.Headers {
		b.m.Headers = append(b.m.Headers, Header{
			Name: h.Name, Symbol: h.Symbol, Spec: SpecStandard, Direction: h.Direction, Values: h.Values,
			DocumentedIn: b.docSources(h.DocumentedIn, h.Pos), Description: h.Description,
		})
	}
	for _, s := range std.Statuses {
		b.m.Statuses = append(b.m.Statuses, Status{
			Code: s.Code, Spec: SpecStandard, Body: table.Level(s.Body), Meaning: s.Meaning,
			DocumentedIn: b.docSources(s.DocumentedIn, s.Pos),
		})
	}
	for _, qe := range b.raw.Extensions.QuestionErrors {
		b.m.Statuses = appendStatus(b.m.Statuses, qe.Status, "The status of a request that fails with question error "+qe.Kind+".")
	}
	for _, re := range b.raw.Extensions.RequestErrors {
		if re.Status != 0 {
			b.m.Statuses = appendStatus(b.m.Statuses, re.Status, "The status of request error "+re.Code+".")
		}
	}
	sortStatuses(b.m.Statuses)
	for _, c := range std.Conflicts {
		conflict := Conflict{Topic: c.Topic, Resolution: c.Resolution}
		for _, r := range c.Readings {
			conflict.Readings = append(conflict.Readings, Reading{Source: r.Source, Says: r.Says})
		}
		b.m.Conflicts = append(b.m.Conflicts, conflict)
	}
}

// appendStatus adds an extension status, or extends the meaning of one
// already listed for the extension spec.
func appendStatus(ss []Status, code int, meaning string) []Status {
	for i := range ss {
		if ss[i].Spec == SpecExtensions && ss[i].Code == code {
			ss[i].Meaning += " " + meaning
			return ss
		}
	}
	return append(ss, Status{
		Code: code, Spec: SpecExtensions, Body: table.LevelError, Meaning: meaning,
		DocumentedIn: []DocSource{DocExtension},
	})
}

// buildRemovedForms resolves each replacement to a field, endpoint or
// header of the standard or the extension set.
func (b *builder) buildRemovedForms() {
	for _, r := range b.raw.Extensions.RemovedForms {
		rf := RemovedForm{Form: r.Form, Level: table.Level(r.Level), ReplacedBy: r.ReplacedBy, Note: r.Note, Pos: r.Pos}
		if !knownFieldLevel(r.Level) {
			b.problems.Add(r.Pos, "removed form %q: unknown level %q", r.Form, r.Level)
		}
		switch {
		case r.Field != "":
			rf.Replacement = b.fieldReplacement(r)
		case r.Endpoint != "":
			rf.Replacement = Replacement{Kind: ReplacedByEndpoint, Name: r.Endpoint}
			if !b.hasEndpoint(r.Endpoint) {
				b.problems.Add(r.Pos, "removed form %q: replacement endpoint %q is not defined", r.Form, r.Endpoint)
			}
		case r.Header != "":
			rf.Replacement = Replacement{Kind: ReplacedByHeader, Name: r.Header, Value: r.Value}
			if !b.hasHeader(r.Header, r.Value) {
				b.problems.Add(r.Pos, "removed form %q: replacement header %s: %s is not defined", r.Form, r.Header, r.Value)
			}
		default:
			b.problems.Add(r.Pos, "removed form %q has no replacement", r.Form)
		}
		b.m.RemovedForms = append(b.m.RemovedForms, rf)
	}
}

func (b *builder) fieldReplacement(r load.RemovedFormEntry) Replacement {
	level, name, _ := strings.Cut(r.Field, ".")
	rep := Replacement{Kind: ReplacedByField, Level: table.Level(level), Name: name}
	for _, f := range b.m.Fields {
		if f.Spec != SpecContract40 && f.Level == rep.Level && f.Name == name {
			return rep
		}
	}
	b.problems.Add(r.Pos, "removed form %q: replacement field %s is not defined by the standard or the extension set", r.Form, r.Field)
	return rep
}

func (b *builder) hasEndpoint(methodPath string) bool {
	for _, e := range b.m.Endpoints {
		if e.Spec != SpecContract40 && e.Method+" "+e.Path == methodPath {
			return true
		}
	}
	return false
}

func (b *builder) hasHeader(name, value string) bool {
	for _, h := range b.m.Headers {
		if strings.EqualFold(h.Name, name) && (value == "" || indexOf(h.Values, value) < len(h.Values)) {
			return true
		}
	}
	return false
}

func (b *builder) buildErrorsAndLimits() {
	ext := b.raw.Extensions
	seen := map[string]load.Position{}
	unique := func(kind, name string, pos load.Position) {
		key := kind + " " + name
		if at, dup := seen[key]; dup {
			b.problems.Add(pos, "%s %q already defined at %s", kind, name, at)
		}
		seen[key] = pos
	}
	for _, e := range ext.QuestionErrors {
		unique("question error", e.Kind, e.Pos)
		b.m.QuestionErrors = append(b.m.QuestionErrors, QuestionError{Kind: e.Kind, Status: e.Status, Description: e.Description})
	}
	b.checkAnswerErrorEnum()
	for _, e := range ext.RequestErrors {
		unique("request error", e.Code, e.Pos)
		b.m.RequestErrors = append(b.m.RequestErrors, RequestError{Code: e.Code, Status: e.Status, RetryAfter: e.RetryAfter, Description: e.Description})
	}
	b.buildReplacedStatuses()
	for _, l := range ext.Limits {
		unique("limit", l.Name, l.Pos)
		if l.Min != nil && l.Max != nil && *l.Min > *l.Max {
			b.problems.Add(l.Pos, "limit %q: min %d is above max %d", l.Name, *l.Min, *l.Max)
		}
		b.m.Limits = append(b.m.Limits, Limit{
			Name: l.Name, Min: l.Min, Max: l.Max, Unit: l.Unit, Description: l.Description,
			QuestionTypes: b.questionTypes(l.QuestionTypes, l.Pos),
		})
	}
	for _, r := range ext.ErrorReasons {
		unique("error reason", r.Reason, r.Pos)
		b.m.ErrorReasons = append(b.m.ErrorReasons, b.errorReason(r))
	}
}

// checkAnswerErrorEnum: the answer's error field lists exactly the
// question error kinds, in the same order.
func (b *builder) checkAnswerErrorEnum() {
	kinds := make([]string, 0, len(b.m.QuestionErrors))
	for _, e := range b.m.QuestionErrors {
		kinds = append(kinds, e.Kind)
	}
	sort.Strings(kinds)
	for _, f := range b.m.Fields {
		if f.Spec == SpecExtensions && f.Level == table.LevelAnswer && f.Name == "error" {
			enum := append([]string(nil), f.Type.Enum...)
			sort.Strings(enum)
			if fmt.Sprint(enum) != fmt.Sprint(kinds) {
				b.problems.Add(f.Pos, "answer.error lists %v but the question errors are %v", enum, kinds)
			}
		}
	}
}

// buildReplacedStatuses: each replaced status is one the standard
// documents, replaced once, by the status of one of the extension set's
// request errors (what the server answers instead).
func (b *builder) buildReplacedStatuses() {
	seen := map[int]bool{}
	for _, r := range b.raw.Extensions.ReplacedStatuses {
		documented := slices.ContainsFunc(b.raw.Standard.Statuses, func(s load.StatusEntry) bool { return s.Code == r.Status })
		answered := slices.ContainsFunc(b.m.RequestErrors, func(e RequestError) bool { return e.Status == r.ReplacedBy })
		switch {
		case !documented:
			b.problems.Add(r.Pos, "replaced status %d: the standard documents no such status", r.Status)
		case seen[r.Status]:
			b.problems.Add(r.Pos, "replaced status %d is replaced twice", r.Status)
		case !answered:
			b.problems.Add(r.Pos, "replaced status %d: no request error answers %d, its replacement", r.Status, r.ReplacedBy)
		}
		seen[r.Status] = true
		b.m.ReplacedStatuses = append(b.m.ReplacedStatuses, ReplacedStatus{Status: r.Status, ReplacedBy: r.ReplacedBy, Reason: r.Reason})
	}
}
