package shapes

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Writer is the one request writer. Its zero value writes the canonical
// vllm-sr/5.0 form (the standard's spellings, in the order of the
// generated <level>Slots); Lossless writes the internal form. Either way a
// member no IR field binds (an Extra) is written as it was read, and any
// member Skip names is left out.
type Writer struct {
	// Lossless writes the internal form: each object's recorded Layout
	// replayed (member order, name quoting, literals), vllm-sr/4.0's
	// spellings kept, states and preset-only questions allowed, roles:
	// null for no roles and no member for implicit roles.
	Lossless bool
	// Skip leaves out the members a target schema does not take (for
	// systemone/0.2, the generated strip and refuse-at-load lists), bound,
	// passive or extra, at every level; nil writes every member.
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
	s := batchWrite{b: b}
	err := o.each(batchSlots, func(slot int) error { return w.writeBatchSlot(&o, &s, slot) })
	return o.Close(), err
}

// batchWrite is the state of writing one batch (the binding's <level>Write
// of the batch level).
type batchWrite struct {
	b *ir.Batch
}

// The batch's bound members, each written by the function the generated
// binding names for it.

func (w Writer) writeBatchRequests(o *objectWriter, s *batchWrite) error {
	o.name(vocab.BatchRequests)
	var err error
	o.Dst, err = w.appendItems(o.Dst, s.b.Items)
	return err
}

func (w Writer) writeBatchOptions(o *objectWriter, s *batchWrite) error {
	if s.b.Options != nil {
		w.appendOptions(o, vocab.BatchOptions, s.b.Options)
	}
	return nil
}

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

// requestWrite is the state of writing one request (the binding's
// <level>Write of the request level): whole is false for a batch item,
// which carries neither model nor options; legacyAssets, that the
// internal form writes the assets as 4.0's images and videos, as they were
// read.
type requestWrite struct {
	r            *ir.Request
	whole        bool
	at           ir.Path
	legacyAssets bool
}

// appendRequest writes one request; whole is false for a batch item.
func (w Writer) appendRequest(dst []byte, r *ir.Request, whole bool, at ir.Path) ([]byte, error) {
	if err := w.checkCanonical(r, at); err != nil {
		return dst, err
	}
	s := requestWrite{r: r, whole: whole, at: at, legacyAssets: w.Lossless && !r.Layout.Has(vocab.RequestAssets) &&
		(r.Layout.Has(vocab.RequestImages) || r.Layout.Has(vocab.RequestVideos))}
	o := w.object(dst, &r.Layout, r.Extra, table.LevelRequest)
	err := o.each(requestSlots, func(slot int) error { return w.writeRequestSlot(&o, &s, slot) })
	return o.Close(), err
}

// The request's bound members, each written by the function the generated
// binding names for it.

// writeRequestModel writes the model of a whole request only: a batch item
// takes its batch's.
func (w Writer) writeRequestModel(o *objectWriter, s *requestWrite) error {
	if s.whole {
		appendStringMember(o, vocab.RequestModel, s.r.Model)
	}
	return nil
}

func (w Writer) writeRequestStates(o *objectWriter, s *requestWrite) error {
	if s.r.States != nil {
		o.name(vocab.RequestStates)
		o.Dst = w.appendMembers(o.Dst, s.r.States)
	}
	return nil
}

func (w Writer) writeRequestRoles(o *objectWriter, s *requestWrite) error {
	return w.appendRoles(o, s.r, s.at)
}

func (w Writer) writeRequestQuestions(o *objectWriter, s *requestWrite) error {
	o.name(vocab.RequestQuestions)
	o.Dst = w.appendQuestions(o.Dst, s.r.Questions)
	return nil
}

// writeRequestAssets writes the assets under the standard's spelling. An
// empty assets object that was read is written back: the layout keeps it,
// and it means the same as none.
func (w Writer) writeRequestAssets(o *objectWriter, s *requestWrite) error {
	if !s.legacyAssets && (len(s.r.Assets) > 0 || (w.Lossless && s.r.Layout.Has(vocab.RequestAssets))) {
		o.name(vocab.RequestAssets)
		o.Dst = w.appendAssets(o.Dst, s.r.Assets, "")
	}
	return nil
}

func (w Writer) writeRequestImages(o *objectWriter, s *requestWrite) error {
	w.appendLegacyAssets(o, s, vocab.RequestImages, ir.AssetImage)
	return nil
}

func (w Writer) writeRequestVideos(o *objectWriter, s *requestWrite) error {
	w.appendLegacyAssets(o, s, vocab.RequestVideos, ir.AssetVideo)
	return nil
}

// appendLegacyAssets writes the assets of type t under 4.0's member name
// for them, when the internal form writes the assets as they were read
// and there are some (or the member was read).
func (w Writer) appendLegacyAssets(o *objectWriter, s *requestWrite, name string, t ir.AssetType) {
	if s.legacyAssets && (slices.ContainsFunc(s.r.Assets, func(a ir.Asset) bool { return a.Type == t }) || s.r.Layout.Has(name)) {
		o.name(name)
		o.Dst = w.appendAssets(o.Dst, s.r.Assets, t)
	}
}

func (w Writer) writeRequestOptions(o *objectWriter, s *requestWrite) error {
	if s.whole && s.r.Options != nil {
		w.appendOptions(o, vocab.RequestOptions, s.r.Options)
	}
	return nil
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
