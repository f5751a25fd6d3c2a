package shapes

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// Batch reads a POST /v1/systemone/batch body a generated validator has
// accepted: {model, requests, options}, whose items take the batch's model
// and may only repeat it, and carry no options of their own (no batch item
// schema defines them, so the validator refuses them as unknown members).
func (rd *Reader) Batch(root jsonvalue.Value) (*ir.Batch, error) {
	return rd.batch(root, false)
}

// Bundle reads a POST /v1/bundle body: {"model"?, "requests": {name:
// request}}, each item a complete request with its own options. The
// internal form validates it as its batch, whose options the bundle
// refuses.
func (rd *Reader) Bundle(root jsonvalue.Value) (*ir.Batch, error) {
	return rd.batch(root, true)
}

// batchRead is the state of reading one batch or bundle (the binding's
// <level>Read of the batch level). A batch's requests are read once its
// other members are, so that each item is checked against the batch's
// model wherever the body puts it; a bundle's are read in place.
type batchRead struct {
	b        *ir.Batch
	bundle   bool
	requests jsonvalue.Value
	extra    *[]jsonvalue.Member
}

func (rd *Reader) batch(root jsonvalue.Value, bundle bool) (*ir.Batch, error) {
	b := &ir.Batch{}
	s := batchRead{b: b, bundle: bundle, extra: &b.Extra}
	members := root.Members()
	rec := rd.recorder(len(members))
	if err := rd.readBatchMembers(&s, members, &rec); err != nil {
		return nil, err
	}
	rec.store(&b.Layout)
	if !bundle {
		items, err := rd.items(s.requests, ir.Path{{Name: vocab.BatchRequests}}, b.Model, true)
		if err != nil {
			return nil, err
		}
		b.Items = items
	}
	return b, nil
}

// The batch's bound members, each read by the function the generated
// binding names for it.

func (rd *Reader) readBatchRequests(s *batchRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	if !s.bundle {
		s.requests = m.Value
		return nil
	}
	items, err := rd.items(m.Value, ir.Path{{Name: m.Name}}, nil, false)
	if err != nil {
		return err
	}
	s.b.Items = items
	return nil
}

func (rd *Reader) readBatchOptions(s *batchRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	if s.bundle {
		return ir.Refuse(ir.ReasonNotAllowedHere, ir.Path{{Name: m.Name}},
			"the bundle carries options per request, not for the bundle")
	}
	o, err := rd.optionsInto(&optionsBlock{}, m.Value, nil, m.Name)
	if err != nil {
		return err
	}
	s.b.Options = o
	return nil
}

// items reads a batch's requests, each a complete request at
// requests.<name>. With checkModel, an item's model may only repeat
// model, the batch's; a batch that names none (its model is optional on a
// server or listener of one model) takes the one its items name, which
// they must all repeat: the server then checks it as it checks a batch's.
func (rd *Reader) items(v jsonvalue.Value, path ir.Path, model *string, checkModel bool) ([]ir.BatchItem, error) {
	ms := v.Members()
	items := make([]ir.BatchItem, len(ms))
	named := false // model is the first item's, the batch naming none
	for i := range ms {
		at := path.Key(ms[i].Name)
		if checkModel {
			if m, ok := ms[i].Value.Get(vocab.RequestModel); ok {
				switch {
				case model == nil:
					model, named = new(m.Str()), true
				case m.Str() == *model:
				case named:
					return nil, ir.Refuse(ir.ReasonConflict, at.Key(vocab.RequestModel), "a batch that names no model takes its requests' model, which each may only repeat")
				default:
					return nil, ir.Refuse(ir.ReasonConflict, at.Key(vocab.RequestModel), "a request of a batch takes the batch's model and may only repeat it")
				}
			}
		}
		items[i].Name = ms[i].Name
		if err := rd.request(&items[i].Request, nil, ms[i].Value, at); err != nil {
			return nil, err
		}
		// The item's own name spelling belongs to its request's layout.
		if rd.Layout && !quotedCanonically(ms[i].RawName(), ms[i].Name) {
			items[i].Request.Layout.Entry = &ir.EntryName{Name: ms[i].Name, RawName: ms[i].RawName()}
		}
	}
	return items, nil
}

// Options reads an options object (a request's, or a batch's). The
// Options and the values its fields point at are one allocation.
func (rd *Reader) Options(v jsonvalue.Value, path ir.Path) (*ir.Options, error) {
	return rd.optionsInto(&optionsBlock{}, v, path, "")
}

// optionsBlock holds an Options and the values of its pointer fields.
type optionsBlock struct {
	options                 ir.Options
	deadlineMs, maxTokens   int64
	returnMeta, longContext bool
}

// optionsRead is the state of reading one options object (the binding's
// <level>Read of the options level): its path is parent's member name
// (or parent itself, with no name), made only when a refusal or a
// diagnostic needs it.
type optionsRead struct {
	block  *optionsBlock
	parent ir.Path
	name   string
	extra  *[]jsonvalue.Member
}

func (s *optionsRead) path() ir.Path {
	if s.name == "" {
		return s.parent
	}
	return s.parent.Key(s.name)
}

// optionsInto is Options reading into block, which must be zero, at
// parent's member name.
func (rd *Reader) optionsInto(block *optionsBlock, v jsonvalue.Value, parent ir.Path, name string) (*ir.Options, error) {
	o := &block.options
	s := optionsRead{block: block, parent: parent, name: name, extra: &o.Extra}
	members := v.Members()
	rec := rd.recorder(len(members))
	if err := rd.readOptionsMembers(&s, members, &rec); err != nil {
		return nil, err
	}
	rec.store(&o.Layout)
	return o, nil
}

// The options' bound members, each read by the function the generated
// binding names for it.

func (rd *Reader) readOptionsDeadlineMs(s *optionsRead, m *jsonvalue.Member, lm *ir.LayoutMember) error {
	s.block.deadlineMs = rd.integer(m.Value, lm)
	s.block.options.DeadlineMs = &s.block.deadlineMs
	return nil
}

func (rd *Reader) readOptionsReturnMeta(s *optionsRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	s.block.returnMeta = m.Value.Bool()
	s.block.options.ReturnMeta = &s.block.returnMeta
	return nil
}

func (rd *Reader) readOptionsMaxTokens(s *optionsRead, m *jsonvalue.Member, lm *ir.LayoutMember) error {
	s.block.maxTokens = rd.integer(m.Value, lm)
	s.block.options.MaxTokens = &s.block.maxTokens
	return nil
}

// readOptionsLongContext reads 4.0's body form of the standard's
// long-context header.
func (rd *Reader) readOptionsLongContext(s *optionsRead, m *jsonvalue.Member, _ *ir.LayoutMember) error {
	s.block.longContext = m.Value.Bool()
	s.block.options.LongContext = &s.block.longContext
	rd.legacy(ir.FormLongContext, s.path().Key(m.Name))
	return nil
}
