package target

import (
	"net/http"
	"slices"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/modelcheck"
	"github.com/vllm-sr/systemone/runtime/shapes"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Standard02 is the Router's client codec for deployments that speak
// systemone/0.2, the published System One standard. It is stateless and
// safe for concurrent use.
//
// What goes on the wire is only the standard's: one POST /v1/systemone per
// batch item (the standard has no batch endpoint), run at most
// Target.MaxConcurrency at a time under the caller's deadline, each body
// with the target's model, the standard question types and the standard
// members. In particular:
//
//   - Presets are expanded from the catalogue's canonical preset texts
//     (modelcheck.ExpandPreset), and the preset member is then stripped.
//   - Extension members are stripped by the generated strip list
//     (fieldtable.StrippedField), options with them, so no deadline field
//     is sent. Explicit roles have no standard spelling: the whole state
//     is sent as it is, every part as the user's content, and a "dropped
//     roles" diagnostic is recorded.
//   - What the standard cannot carry (fieldtable.RefusedAtLoad), and any
//     question type or medium outside the deployment's declared
//     capabilities, is refused by CheckCarry with a *CarryError before
//     any call, at configuration load for each rule and in Plan.
//   - The long-context flag goes as the standard's long-context header,
//     and image assets or box questions add its images header.
//
// Replies are read as the standard's: a 200 into the item's response
// (extension members ignored), any other status into the Router's error
// table's entry for it (ReplyReader.Error) and its Retry-After delay. A
// call that got no reply fails only its own item. The standard has no
// model card, so the deployment's declared capabilities stand in for one;
// the listing is read for its standard members only.
var Standard02 standard02Codec

// standard02Codec is Standard02's type; its zero value is ready.
type standard02Codec struct{}

var _ Codec = standard02Codec{}

// standard02Writer writes the standard's members only: every member the
// generated strip list names is left out, and so is every refused-at-load
// member (which CheckCarry has already refused; skipping it too
// means no extension member can reach a standard server).
var standard02Writer = shapes.Writer{Skip: func(level table.Level, name string) bool {
	if _, stripped := fieldtable.StrippedField(level, name); stripped {
		return true
	}
	_, refused := fieldtable.Refused(level, name)
	return refused
}}

// standard02Reader reads the standard's reply members only.
var standard02Reader = NewReplyReader(table.SchemaStandard02)

// standard02Traits: the standard carries the standard question types and
// images; its listing is GET /v1/models.
var standard02Traits = Traits{
	Schema:       table.SchemaStandard02,
	Capabilities: CapabilitySet{CapBox, CapChoice, CapImage, CapLongContext, CapNoul, CapScore},
	Stateless:    true,
	ListingPath:  vocab.PathModels,
}

// Traits are the standard's.
func (standard02Codec) Traits() Traits { return standard02Traits }

// DecodeListing reads the standard's listing members.
func (standard02Codec) DecodeListing(status int, body []byte) (*ir.Listing, error) {
	return standard02Reader.Listing(status, body)
}

// Plan checks b against the standard and t (CheckCarry), then writes one
// POST call per item, in order.
func (standard02Codec) Plan(b *ir.Batch, t Target, p Policy) (Plan, ir.Diagnostics, error) {
	if t.Endpoint == "" {
		return Plan{}, nil, ErrNoEndpoint
	}
	if err := CheckCarry(Standard02, b, t); err != nil {
		return Plan{}, nil, err
	}
	var diags ir.Diagnostics
	noteOptions(b.Options, ir.Path{{Name: vocab.BatchOptions}}, &diags)
	plan := Plan{MaxConcurrency: t.MaxConcurrencyOrDefault(), Deadline: p.Deadline,
		Calls: make([]WireCall, 0, len(b.Items))}
	for i := range b.Items {
		it := &b.Items[i]
		at := ir.Path{{Name: vocab.BatchRequests}, {Name: it.Name}}
		r := sendable(&it.Request, t.Model, at, &diags)
		body, err := standard02Writer.AppendRequest(make([]byte, 0, 512), &r)
		if err != nil {
			return Plan{}, nil, err
		}
		plan.Order = append(plan.Order, it.Name)
		plan.Items = append(plan.Items, PlannedItem{Name: it.Name, Questions: QuestionsOf(&r)})
		plan.Calls = append(plan.Calls, WireCall{Method: http.MethodPost, URL: t.Endpoint,
			Header: header(&r, b.Options), Body: body, Items: []string{it.Name}})
	}
	return plan, diags, nil
}

// sendable returns the request as it goes to the target: its model, its
// presets expanded (on a copy of the questions; the IR read stays as
// read), and a diagnostic for each member the standard drops.
func sendable(in *ir.Request, model string, at ir.Path, diags *ir.Diagnostics) ir.Request {
	r := *in
	r.Model = &model
	r.Questions = append([]ir.Question(nil), in.Questions...)
	for i := range r.Questions {
		q := &r.Questions[i]
		qa := at.Key(vocab.RequestQuestions).Key(q.Name)
		if q.Preset != nil {
			diags.Add(ir.DiagnosticApproximated, vocab.QuestionPreset, qa.Key(vocab.QuestionPreset))
			modelcheck.ExpandPreset(q)
		}
		if q.Overflow != nil {
			diags.Add(ir.DiagnosticDropped, vocab.QuestionOverflow, qa.Key(vocab.QuestionOverflow))
		}
	}
	if r.Roles.Mode == ir.RoleModeExplicit || r.Roles.Mode == ir.RoleModeImplicit && r.State.Len() > 0 {
		diags.Add(ir.DiagnosticDropped, vocab.RequestRoles, at.Key(vocab.RequestRoles))
	}
	noteOptions(r.Options, at.Key(vocab.RequestOptions), diags)
	return r
}

// noteOptions records each stripped option: the standard bounds a call by
// the client's own timeout, so no deadline field is sent.
func noteOptions(o *ir.Options, at ir.Path, diags *ir.Diagnostics) {
	if o == nil {
		return
	}
	set := map[string]bool{
		vocab.OptionsDeadlineMs: o.DeadlineMs != nil,
		vocab.OptionsReturnMeta: o.ReturnMeta != nil,
		vocab.OptionsMaxTokens:  o.MaxTokens != nil,
	}
	for _, name := range fieldtable.StrippedMembers(table.LevelOptions) {
		if set[name] {
			diags.Add(ir.DiagnosticDropped, name, at.Key(name))
		}
	}
}

// header is a call's headers: JSON, and the standard's danger-zone flags
// for long context and for images (image assets or box questions).
func header(r *ir.Request, batch *ir.Options) http.Header {
	images := slices.ContainsFunc(r.Assets, func(a ir.Asset) bool { return a.Type == ir.AssetImage }) ||
		slices.ContainsFunc(r.Questions, func(q ir.Question) bool { return q.Type == table.QuestionBox })
	return callHeader(LongContext(r, batch), images)
}

// DecodeReply reads one call's reply into its one item's result.
func (standard02Codec) DecodeReply(p Plan, call WireCall, reply WireReply) ([]ItemResult, error) {
	items, ok := CallItems(&p, &call)
	if !ok || len(items) != 1 {
		return nil, ErrCallNotInPlan
	}
	return standard02Reader.SingleResults(&p, &call, items[0], &reply), nil
}
