package model

import (
	"strings"

	"github.com/vllm-sr/systemone/gen/load"
	"github.com/vllm-sr/systemone/runtime/table"
)

// errorReason resolves one error_reasons entry: its kind must be a
// question error kind and its code a request error code (both built
// before the reasons), its status follows from them, and each member it
// reports problems of must be a path through the specs' levels.
func (b *builder) errorReason(e load.ErrorReasonEntry) ErrorReason {
	r := ErrorReason{Reason: e.Reason, Description: e.Description, Kind: e.Kind, Code: e.Code, Unit: e.Unit}
	kindStatus, codeStatus := 0, 0
	if e.Kind != "" {
		i := indexFunc(b.m.QuestionErrors, func(q QuestionError) bool { return q.Kind == e.Kind })
		if i < 0 {
			b.problems.Add(e.Pos, "error reason %q: kind %q is not a question error kind", e.Reason, e.Kind)
		} else {
			kindStatus = b.m.QuestionErrors[i].Status
		}
	}
	if e.Code != "" {
		i := indexFunc(b.m.RequestErrors, func(c RequestError) bool { return c.Code == e.Code })
		if i < 0 {
			b.problems.Add(e.Pos, "error reason %q: code %q is not a request error code", e.Reason, e.Code)
		} else {
			codeStatus = b.m.RequestErrors[i].Status
		}
	}
	if e.Code != "" && codeStatus == 0 && e.Kind == "" {
		b.problems.Add(e.Pos, "error reason %q: code %q takes its status from a question error: name its kind", e.Reason, e.Code)
	}
	r.Status = kindStatus
	if codeStatus != 0 {
		r.Status = codeStatus
	}
	if e.Status != 0 {
		if e.Code == "" {
			b.problems.Add(e.Pos, "error reason %q: a status belongs with a code", e.Reason)
		}
		r.Status = e.Status
	}
	if (len(e.Members) == 0) != (len(e.Problems) == 0) {
		b.problems.Add(e.Pos, "error reason %q: members and problems go together", e.Reason)
	}
	for _, member := range e.Members {
		path := strings.Split(member, ".")
		if why := b.memberPath(path); why != "" {
			b.problems.Add(e.Pos, "error reason %q: member %s: %s", e.Reason, member, why)
		}
		r.Members = append(r.Members, path)
	}
	for _, p := range e.Problems {
		r.Problems = append(r.Problems, table.ProblemReason(p))
	}
	return r
}

// memberPath says why path (a level, then member names or "*" for a map's
// key or an array's index) names no member the specs define; "" when it
// does. Each named member's type leads to the next level: a level it
// refers to, or through "*" its entries' level.
func (b *builder) memberPath(path []string) string {
	level := table.Level(path[0])
	if indexOf(LevelOrder, level) == len(LevelOrder) {
		return "unknown level " + path[0]
	}
	var t *Type
	for _, seg := range path[1:] {
		switch {
		case seg == "*" && t != nil && (t.Values != nil || t.Items != nil):
			entry := t.Values
			if entry == nil {
				entry = t.Items
			}
			t = entry
			level = table.Level(t.Ref)
		case seg == "*":
			return "* follows no map or array"
		default:
			if t != nil && t.Ref != "" {
				level = table.Level(t.Ref)
			}
			f := b.definingField(level, seg)
			if f == nil {
				return "no spec defines " + string(level) + "." + seg
			}
			t = &f.Type
			level = ""
		}
	}
	return ""
}

func indexFunc[T any](items []T, f func(T) bool) int {
	for i := range items {
		if f(items[i]) {
			return i
		}
	}
	return -1
}
