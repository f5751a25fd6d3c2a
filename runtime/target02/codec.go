package target02

import (
	"net/http"

	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/presetexpand"
	"github.com/vllm-sr/systemone/runtime/requestwire"
	"github.com/vllm-sr/systemone/runtime/table"
	tc "github.com/vllm-sr/systemone/runtime/targetcodec"
	"github.com/vllm-sr/systemone/runtime/upstreamreply"
)

// Codec is the systemone/0.2 client codec. The zero value is ready; it is
// stateless and safe for concurrent use.
type Codec struct{}

var _ tc.Codec = Codec{}

// writer writes the standard's members only: every member the generated
// strip list names is left out, and so is every refused-at-load member
// (which CheckCarry has already refused; skipping it too means no
// extension member can reach a standard server).
var writer = requestwire.Writer{Skip: func(level table.Level, name string) bool {
	if _, stripped := fieldtable.StrippedField(level, name); stripped {
		return true
	}
	_, refused := fieldtable.Refused(level, name)
	return refused
}}

// reader reads the standard's reply members only.
var reader = upstreamreply.Reader{}

// ID returns systemone/0.2.
func (Codec) ID() table.SchemaID { return table.SchemaStandard02 }

// Spec names the standard's description and its sha256.
func (Codec) Spec() tc.SpecRef {
	return tc.SpecRef{Path: fieldtable.SpecStandard02Path, SHA256: fieldtable.SpecStandard02SHA256}
}

// Capabilities are what the standard carries, sorted.
func (Codec) Capabilities() tc.CapabilitySet {
	return tc.CapabilitySet{tc.CapBox, tc.CapChoice, tc.CapImage, tc.CapLongContext, tc.CapNoul, tc.CapScore}
}

// Stateless reports true.
func (Codec) Stateless() bool { return true }

// ListingPath is the standard's GET /v1/models.
func (Codec) ListingPath() string { return "/v1/models" }

// DecodeListing reads the standard's listing members.
func (Codec) DecodeListing(status int, body []byte) (*ir.Listing, error) {
	return reader.Listing(status, body)
}

// Plan checks b against the standard and t (CheckCarry), then writes one
// POST call per item, in order.
func (Codec) Plan(b *ir.Batch, t tc.Target, p tc.Policy) (tc.Plan, ir.Diagnostics, error) {
	if t.Endpoint == "" {
		return tc.Plan{}, nil, tc.ErrNoEndpoint
	}
	if err := CheckCarry(b, t); err != nil {
		return tc.Plan{}, nil, err
	}
	var diags ir.Diagnostics
	noteBatchOptions(b.Options, &diags)
	plan := tc.Plan{MaxConcurrency: t.MaxConcurrencyOrDefault(), Deadline: p.Deadline,
		Calls: make([]tc.WireCall, 0, len(b.Items))}
	for i := range b.Items {
		it := &b.Items[i]
		at := ir.Path{{Name: "requests"}, {Name: it.Name}}
		r := sendable(&it.Request, t.Model, at, &diags)
		body, err := writer.AppendRequest(make([]byte, 0, 512), &r)
		if err != nil {
			return tc.Plan{}, nil, err
		}
		plan.Order = append(plan.Order, it.Name)
		plan.Items = append(plan.Items, tc.PlannedItem{Name: it.Name, Questions: tc.QuestionsOf(&r)})
		plan.Calls = append(plan.Calls, tc.WireCall{Method: http.MethodPost, URL: t.Endpoint,
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
		qa := at.Key("questions").Key(q.Name)
		if q.Preset != nil {
			diags.Add(ir.DiagnosticApproximated, "preset", qa.Key("preset"))
			presetexpand.Expand(q)
		}
		if q.Overflow != nil {
			diags.Add(ir.DiagnosticDropped, "overflow", qa.Key("overflow"))
		}
	}
	if r.Roles.Mode == ir.RoleModeExplicit || r.Roles.Mode == ir.RoleModeImplicit && r.State.Len() > 0 {
		diags.Add(ir.DiagnosticDropped, "roles", at.Key("roles"))
	}
	noteOptions(r.Options, at.Key("options"), diags)
	return r
}

func noteBatchOptions(o *ir.Options, diags *ir.Diagnostics) {
	noteOptions(o, ir.Path{{Name: "options"}}, diags)
}

// noteOptions records each stripped option: the standard bounds a call by
// the client's own timeout, so no deadline field is sent.
func noteOptions(o *ir.Options, at ir.Path, diags *ir.Diagnostics) {
	if o == nil {
		return
	}
	for _, name := range fieldtable.StrippedMembers(table.LevelOptions) {
		if optionSet(o, name) {
			diags.Add(ir.DiagnosticDropped, name, at.Key(name))
		}
	}
}

func optionSet(o *ir.Options, name string) bool {
	switch name {
	case "deadline_ms":
		return o.DeadlineMs != nil
	case "return_meta":
		return o.ReturnMeta != nil
	case "max_tokens":
		return o.MaxTokens != nil
	}
	return false
}

// header is a call's headers: JSON, and the standard's danger-zone flags
// for long context and for images (image assets or box questions).
func header(r *ir.Request, batch *ir.Options) http.Header {
	h := tc.JSONHeader()
	if tc.LongContext(r, batch) {
		h.Set(tc.LongContextHeader, "true")
	}
	if needsImages(r) {
		h.Set(tc.ImagesHeader, "true")
	}
	return h
}

func needsImages(r *ir.Request) bool {
	for i := range r.Assets {
		if r.Assets[i].Type == ir.AssetImage {
			return true
		}
	}
	for i := range r.Questions {
		if r.Questions[i].Type == table.QuestionBox {
			return true
		}
	}
	return false
}

// DecodeReply reads one call's reply into its item's result: the
// response on a 2xx, else the error body with its status and Retry-After;
// a call with no reply, or a reply the standard does not define, fails
// its item alone.
func (Codec) DecodeReply(p tc.Plan, call tc.WireCall, reply tc.WireReply) ([]tc.ItemResult, error) {
	items, ok := upstreamreply.CallItems(&p, &call)
	if !ok || len(items) != 1 {
		return nil, tc.ErrCallNotInPlan
	}
	return reader.SingleResults(&p, &call, items[0], &reply), nil
}
