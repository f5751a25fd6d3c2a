package listener

import (
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Builder reads a request body that a generated validator has already
// accepted into the IR. Because every member's name and JSON type were
// checked, it only maps values: one pass, no paths, no layout (a listener
// either forwards the client's bytes or writes the IR canonically). It
// reads the standard's, the extension set's and vllm-sr/4.0's spellings;
// which of them may reach it is the validator's business.
//
// What no validator expresses it checks itself: one state or states, one
// criteria member per question, one asset spelling, one asset per
// placeholder, a type for every asset under assets.
type Builder struct {
	// Implicit: a request without roles has 4.0's implicit roles; else it
	// has none (vllm-sr/5.0).
	Implicit bool
	// Diags receives the 4.0-only forms read; nil records nothing.
	Diags *ir.Diagnostics
}

// Request builds one request. path locates it in the body (nil for a
// request body, requests.<name> for a batch item); failures name the
// questions of item to leave out, which failed on their own.
func (b *Builder) Request(v jsonvalue.Value, path ir.Path, failures []QuestionFailure, item string) (ir.Request, *Refusal) {
	r := ir.Request{Roles: ir.Roles{Mode: ir.RoleModeNone}}
	if b.Implicit {
		r.Roles.Mode = ir.RoleModeImplicit
	}
	var assetSpellings, statesSeen int
	members := v.Members()
	for i := range members {
		m := &members[i]
		switch m.Name {
		case "model":
			s := m.Value.Str()
			r.Model = &s
		case "state":
			r.State = m.Value
		case "states":
			r.States = m.Value.Members()[:m.Value.Len():m.Value.Len()]
			statesSeen++
			b.legacy(ir.FormStates, path.Key(m.Name))
		case "roles":
			r.Roles = readRoles(m.Value)
		case "questions":
			qs, refusal := b.questions(m.Value, path.Key(m.Name), failures, item)
			if refusal != nil {
				return r, refusal
			}
			r.Questions = qs
		case "assets", "images", "videos":
			assetSpellings |= assetSpelling(m.Name)
			if refusal := b.assets(&r, m, path.Key(m.Name)); refusal != nil {
				return r, refusal
			}
		case "options":
			r.Options = b.Options(m.Value, path.Key(m.Name))
		default:
			r.Extra = append(r.Extra, *m)
		}
	}
	return r, b.checkRequest(&r, path, statesSeen > 0, assetSpellings)
}

func assetSpelling(name string) int {
	if name == "assets" {
		return 1
	}
	return 2
}

func (b *Builder) checkRequest(r *ir.Request, path ir.Path, hasStates bool, assetSpellings int) *Refusal {
	switch {
	case r.State.IsValid() && hasStates:
		return RefuseAt(string(ir.ReasonConflict), path.Key("states"), "a request has state or states, not both")
	case !r.State.IsValid() && !hasStates:
		return RefuseAt(string(table.ReasonMissingMember), path.Key("state"), "is required")
	case assetSpellings == 3:
		return RefuseAt(string(ir.ReasonConflict), path.Key("assets"), "a request spells its assets as assets or as images and videos, not both")
	}
	if r.Roles.Mode == ir.RoleModeImplicit && r.HasObjectState() {
		b.legacy(ir.FormImplicitRoles, path)
	}
	return nil
}

func (b *Builder) legacy(form string, path ir.Path) {
	if b.Diags != nil {
		b.Diags.Add(ir.DiagnosticLegacyForm, form, path)
	}
}

func readRoles(v jsonvalue.Value) ir.Roles {
	if v.IsNull() {
		return ir.Roles{Mode: ir.RoleModeNone}
	}
	ms := v.Members()
	roles := ir.Roles{Mode: ir.RoleModeExplicit, Parts: make([]ir.RolePart, len(ms))}
	for i := range ms {
		roles.Parts[i] = ir.RolePart{Key: ms[i].Name, Role: role(ms[i].Value)}
	}
	return roles
}

func (b *Builder) questions(v jsonvalue.Value, path ir.Path, failures []QuestionFailure, item string) ([]ir.Question, *Refusal) {
	ms := v.Members()
	qs := make([]ir.Question, len(ms))
	n := 0
	for i := range ms {
		if failed(failures, item, ms[i].Name) {
			continue
		}
		// Built in place: a Question is large, and copying it costs more
		// than reading it.
		if refusal := b.question(&qs[n], &ms[i], path); refusal != nil {
			return nil, refusal
		}
		n++
	}
	return qs[:n:n], nil
}

func failed(failures []QuestionFailure, item, name string) bool {
	for i := range failures {
		if failures[i].Name == name && failures[i].Item == item {
			return true
		}
	}
	return false
}

// question fills q, which is the zero Question, from entry.
func (b *Builder) question(q *ir.Question, entry *jsonvalue.Member, parent ir.Path) *Refusal {
	q.Name = entry.Name
	criteriaSeen := false
	members := entry.Value.Members()
	for i := range members {
		m := &members[i]
		switch m.Name {
		case "type":
			q.Type = questionType(m.Value)
		case "instructions":
			q.Instructions = m.Value
		case "criteria", "choices", "levels", "labels":
			if criteriaSeen {
				return RefuseAt(string(ir.ReasonConflict), parent.Key(entry.Name).Key(m.Name), "a question has one criteria member")
			}
			criteriaSeen = true
			q.Criteria = readCriteria(m.Value)
			if m.Name != "criteria" {
				b.legacy(m.Name, parent.Key(entry.Name).Key(m.Name))
			}
		default:
			extensionMember(q, m)
		}
	}
	if q.Preset != nil && !q.Instructions.IsValid() {
		b.legacy(ir.FormPresetOnly, parent.Key(entry.Name))
	}
	return nil
}

// extensionMember reads the extension members of a question.
func extensionMember(q *ir.Question, m *jsonvalue.Member) {
	switch m.Name {
	case "preset":
		s := text(m.Value)
		q.Preset = &s
	case "head":
		h := ir.SpanHead(text(m.Value))
		q.Head = &h
	case "decision_adapter":
		q.DecisionAdapter = boolPtr(m.Value)
	case "over":
		q.Over = readOver(m.Value)
	case "overflow":
		o := ir.Overflow(text(m.Value))
		q.Overflow = &o
	case "require_full_input":
		q.RequireFullInput = boolPtr(m.Value)
	case "threshold":
		q.Threshold = floatPtr(m.Value)
	case "at":
		q.At = floatPtr(m.Value)
	case "rate":
		q.Rate = intPtr(m.Value)
	default:
		q.Extra = append(q.Extra, *m)
	}
}

func readCriteria(v jsonvalue.Value) ir.Criteria {
	switch v.Kind() {
	case jsonvalue.KindObject:
		// The decoded members, capped so an append never writes into them.
		return ir.Criteria{Form: ir.CriteriaKeyed, Keyed: v.Members()[:v.Len():v.Len()]}
	case jsonvalue.KindArray:
		return ir.Criteria{Form: ir.CriteriaLevels, Levels: v.Items()[:v.Len():v.Len()]}
	}
	return ir.Criteria{Form: ir.CriteriaNull}
}

func readOver(v jsonvalue.Value) []string {
	if v.Kind() == jsonvalue.KindString {
		return []string{text(v)}
	}
	items := v.Items()
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i] = text(it)
	}
	return keys
}

func (b *Builder) assets(r *ir.Request, m *jsonvalue.Member, path ir.Path) *Refusal {
	var implied ir.AssetType
	switch m.Name {
	case "images":
		implied = ir.AssetImage
		b.legacy(ir.FormImages, path)
	case "videos":
		implied = ir.AssetVideo
		b.legacy(ir.FormVideos, path)
	}
	for _, entry := range m.Value.Members() {
		for j := range r.Assets {
			if r.Assets[j].Placeholder == entry.Name {
				return RefuseAt(string(ir.ReasonConflict), path.Key(entry.Name), "a placeholder names one asset")
			}
		}
		a := ir.Asset{Placeholder: entry.Name, Type: implied}
		for _, f := range entry.Value.Members() {
			switch f.Name {
			case "type":
				t := ir.AssetType(text(f.Value))
				if implied != "" && t != implied {
					return RefuseAt(string(ir.ReasonConflict), path.Key(entry.Name).Key("type"), "does not match the member the asset is under")
				}
				a.Type = t
			case "format":
				s := text(f.Value)
				a.Format = &s
			case "data_base64":
				a.Data = f.Value
			default:
				a.Extra = append(a.Extra, f)
			}
		}
		if a.Type == "" {
			// Only under assets: images and videos imply the type.
			return RefuseAt(string(table.ReasonMissingMember), path.Key(entry.Name).Key("type"), "is required under assets")
		}
		r.Assets = append(r.Assets, a)
	}
	return nil
}

// Options reads an options object (a request's, or a batch's).
// The Options and the values its fields point at are one allocation.
func (b *Builder) Options(v jsonvalue.Value, path ir.Path) *ir.Options {
	block := &optionsBlock{}
	o := &block.options
	members := v.Members()
	for i := range members {
		m := &members[i]
		switch m.Name {
		case "deadline_ms":
			block.deadlineMs, _ = m.Value.Int()
			o.DeadlineMs = &block.deadlineMs
		case "return_meta":
			block.returnMeta = m.Value.Bool()
			o.ReturnMeta = &block.returnMeta
		case "max_tokens":
			block.maxTokens, _ = m.Value.Int()
			o.MaxTokens = &block.maxTokens
		case "long_context":
			block.longContext = m.Value.Bool()
			o.LongContext = &block.longContext
			b.legacy(ir.FormLongContext, path.Key(m.Name))
		default:
			o.Extra = append(o.Extra, *m)
		}
	}
	return o
}

// optionsBlock holds an Options and the values of its pointer fields.
type optionsBlock struct {
	options                 ir.Options
	deadlineMs, maxTokens   int64
	returnMeta, longContext bool
}

// questionType maps a validated type string to its constant without
// decoding it, falling back to decoding for an escaped spelling.
func questionType(v jsonvalue.Value) table.QuestionType {
	switch string(v.Raw()) {
	case `"noul"`:
		return table.QuestionNoul
	case `"choice"`:
		return table.QuestionChoice
	case `"score"`:
		return table.QuestionScore
	case `"box"`:
		return table.QuestionBox
	case `"set"`:
		return table.QuestionSet
	case `"span"`:
		return table.QuestionSpan
	case `"track"`:
		return table.QuestionTrack
	}
	return table.QuestionType(v.Str())
}

// text decodes a string the validator has checked.
func text(v jsonvalue.Value) string { return v.Str() }

func boolPtr(v jsonvalue.Value) *bool {
	b := v.Bool()
	return &b
}

func floatPtr(v jsonvalue.Value) *float64 {
	f, _ := v.Float()
	return &f
}

func intPtr(v jsonvalue.Value) *int64 {
	n, _ := v.Int()
	return &n
}

// role maps a validated role string to its constant without decoding it.
func role(v jsonvalue.Value) ir.Role {
	switch string(v.Raw()) {
	case `"user"`:
		return ir.RoleUser
	case `"context"`:
		return ir.RoleContext
	case `"answer"`:
		return ir.RoleAnswer
	}
	return ir.Role(v.Str())
}
