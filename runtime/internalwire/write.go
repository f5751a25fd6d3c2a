package internalwire

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Writer is the one request writer. Its zero value writes the canonical
// vllm-sr/5.0 form (the standard's spellings, in the specification's
// member order); Lossless writes the internal form. Either way a member no
// IR field binds (an Extra) is written as it was read, unless Skip names
// it.
type Writer struct {
	// Lossless writes the internal form: each object's recorded Layout
	// replayed (member order, name quoting, literals), vllm-sr/4.0's
	// spellings kept, states and preset-only questions allowed, roles:
	// null for no roles and no member for implicit roles.
	Lossless bool
	// Skip leaves out the members a target schema does not take (for
	// systemone/0.2, the generated strip and refuse-at-load lists); nil
	// writes every member.
	Skip func(level table.Level, name string) bool
}

// EncodeRequest writes a request in the internal form: compact, in the
// member order and spellings its Layout recorded, and in the canonical
// order with the standard spellings (criteria, assets) where it recorded
// none. It refuses an IR the internal form cannot carry as written.
func EncodeRequest(r *ir.Request) ([]byte, error) {
	return Writer{Lossless: true}.AppendRequest(make([]byte, 0, 256), r)
}

// EncodeBundle writes a bundle body: {"model"?, "requests": {...}}, each
// request a complete request in the internal form. The bundle has no
// options of its own: a batch's options (vllm-sr/5.0's) are the caller's to
// copy into each item before writing, and a Batch with Options is refused.
func EncodeBundle(b *ir.Batch) ([]byte, error) {
	return Writer{Lossless: true}.AppendBatch(make([]byte, 0, 512), b)
}

// AppendRequest appends r as one POST /v1/systemone body (or, Lossless, one
// internal request).
func (w Writer) AppendRequest(dst []byte, r *ir.Request) ([]byte, error) {
	if w.Lossless {
		if err := checkRequest(r); err != nil {
			return dst, err
		}
	}
	return w.appendRequest(dst, r, true, nil)
}

// AppendBatch appends b as one POST /v1/systemone/batch body, {model,
// requests, options}, whose items take the batch's model and options; or,
// Lossless, as one bundle body, whose items are complete requests.
func (w Writer) AppendBatch(dst []byte, b *ir.Batch) ([]byte, error) {
	if len(b.Items) == 0 {
		return dst, invalidIR(ir.Path{{Name: vocab.BatchRequests}}, ir.ReasonEmpty, "a batch has at least one request")
	}
	if w.Lossless && b.Options != nil {
		return dst, &ir.ProtocolError{Category: ir.CategoryUnsupported, Reason: ir.ReasonUnsupported,
			Path: ir.Path{{Name: vocab.BatchOptions}}, Message: "the bundle carries options per request, not for the bundle"}
	}
	o := w.object(dst, &b.Layout, b.Extra, table.LevelBatch)
	var err error
	o.each(batchSlots, nil, func(slot string) {
		switch {
		case err != nil:
		case slot == vocab.BatchModel && b.Model != nil && !w.skip(table.LevelBatch, slot):
			o.scalar(slot, func(d []byte) []byte { return jsonvalue.AppendString(d, *b.Model) })
		case slot == vocab.BatchRequests:
			o.name(slot)
			o.Dst, err = w.appendItems(o.Dst, b.Items)
		case slot == vocab.BatchOptions && b.Options != nil && !w.skip(table.LevelBatch, slot):
			w.appendOptions(&o, b.Options)
		}
	})
	return o.Close(), err
}

var batchSlots = []string{vocab.BatchModel, vocab.BatchRequests, vocab.BatchOptions}

func (w Writer) appendItems(dst []byte, items []ir.BatchItem) ([]byte, error) {
	dst = append(dst, '{')
	for i := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		it := &items[i]
		dst = appendKey(dst, w.rawName(&it.Request.Layout, it.Name), it.Name)
		path := ir.Path{{Name: vocab.BatchRequests}, {Name: it.Name}}
		var err error
		if w.Lossless {
			if err = checkRequest(&it.Request); err != nil {
				return dst, prefixPath(err, path)
			}
		}
		// A bundle item is a complete request; a batch item takes the
		// batch's model and options.
		if dst, err = w.appendRequest(dst, &it.Request, w.Lossless, path); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

// requestSlots is the canonical member order of a request. Both asset
// spellings have a slot; a request writes one or the other.
var requestSlots = []string{vocab.RequestModel, vocab.RequestState, vocab.RequestStates, vocab.RequestRoles,
	vocab.RequestQuestions, vocab.RequestAssets, vocab.RequestImages, vocab.RequestVideos, vocab.RequestOptions}

// appendRequest writes one request; whole is false for a batch item, which
// carries neither model nor options.
func (w Writer) appendRequest(dst []byte, r *ir.Request, whole bool, at ir.Path) ([]byte, error) {
	if err := w.checkCanonical(r, at); err != nil {
		return dst, err
	}
	legacyAssets := w.Lossless && !r.Layout.Has(vocab.RequestAssets) &&
		(r.Layout.Has(vocab.RequestImages) || r.Layout.Has(vocab.RequestVideos))
	o := w.object(dst, &r.Layout, r.Extra, table.LevelRequest)
	var err error
	o.each(requestSlots, nil, func(slot string) {
		switch slot {
		case vocab.RequestModel:
			if whole && r.Model != nil {
				o.scalar(slot, func(d []byte) []byte { return jsonvalue.AppendString(d, *r.Model) })
			}
		case vocab.RequestState:
			if r.State.IsValid() {
				o.name(slot)
				o.Dst = jsonvalue.AppendCompact(o.Dst, r.State)
			}
		case vocab.RequestStates:
			if r.States != nil {
				o.name(slot)
				o.Dst = w.appendMembers(o.Dst, r.States)
			}
		case vocab.RequestRoles:
			if err == nil && !w.skip(table.LevelRequest, slot) {
				err = w.appendRoles(&o, r, at)
			}
		case vocab.RequestQuestions:
			o.name(slot)
			o.Dst = w.appendQuestions(o.Dst, r.Questions)
		case vocab.RequestAssets:
			// An empty assets object that was read is written back: the
			// layout keeps it, and it means the same as none.
			if !legacyAssets && (len(r.Assets) > 0 || (w.Lossless && r.Layout.Has(slot))) {
				o.name(slot)
				o.Dst = w.appendAssets(o.Dst, r.Assets, "")
			}
		case vocab.RequestImages, vocab.RequestVideos:
			t := ir.AssetImage
			if slot == vocab.RequestVideos {
				t = ir.AssetVideo
			}
			if legacyAssets && (slices.ContainsFunc(r.Assets, func(a ir.Asset) bool { return a.Type == t }) || r.Layout.Has(slot)) {
				o.name(slot)
				o.Dst = w.appendAssets(o.Dst, r.Assets, t)
			}
		case vocab.RequestOptions:
			if whole && r.Options != nil && !w.skip(table.LevelRequest, slot) {
				w.appendOptions(&o, r.Options)
			}
		}
	})
	return o.Close(), err
}

// checkCanonical refuses what only the internal form can carry.
func (w Writer) checkCanonical(r *ir.Request, at ir.Path) error {
	if w.Lossless {
		return nil
	}
	if r.States != nil {
		return &ir.ProtocolError{Category: ir.CategoryUnsupported, Reason: ir.ReasonUnsupported,
			Path: at.Key(vocab.RequestStates), Message: "vllm-sr/5.0 has no states form; send each state as a request of a batch"}
	}
	if !r.State.IsValid() {
		return invalidIR(at.Key(vocab.RequestState), ir.ReasonMissingMember, "a request needs a state")
	}
	for i := range r.Questions {
		if r.Questions[i].Type == "" {
			return invalidIR(at.Key(vocab.RequestQuestions).Key(r.Questions[i].Name).Key(vocab.QuestionType), ir.ReasonMissingMember,
				"a question needs a type; a preset-only question is expanded before writing")
		}
	}
	return nil
}

func (w Writer) skip(level table.Level, name string) bool {
	return w.Skip != nil && w.Skip(level, name)
}

// rawName is an entry's recorded quoting, replayed only by the internal
// form.
func (w Writer) rawName(l *ir.Layout, name string) []byte {
	if !w.Lossless {
		return nil
	}
	return l.NameFor(name)
}
