package listener

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/internalwire"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// BuildBatch maps a validated batch body into the IR with b, checking what
// the validator does not: no options in an item, and an item's model only
// repeating the batch's.
func BuildBatch(root jsonvalue.Value, rd internalwire.Reader) (*ir.Batch, *Refusal) {
	batch := &ir.Batch{}
	if m, ok := root.Get(vocab.BatchModel); ok {
		s := m.Str()
		batch.Model = &s
	}
	if o, ok := root.Get(vocab.BatchOptions); ok {
		batch.Options = rd.Options(o, ir.Path{{Name: vocab.BatchOptions}})
	}
	requests, _ := root.Get(vocab.BatchRequests)
	batch.Items = make([]ir.BatchItem, 0, requests.Len())
	for _, item := range requests.Members() {
		path := ir.Path{{Name: vocab.BatchRequests}, {Name: item.Name}}
		if refusal := checkItem(item.Value, path, batch.Model); refusal != nil {
			return nil, refusal
		}
		r, err := rd.Request(item.Value, path)
		if err != nil {
			return nil, RefuseError(err)
		}
		batch.Items = append(batch.Items, ir.BatchItem{Name: item.Name, Request: r})
	}
	return batch, nil
}

// checkItem refuses an item that carries options, or names a model other
// than the batch's.
func checkItem(item jsonvalue.Value, path ir.Path, batchModel *string) *Refusal {
	if _, ok := item.Get(vocab.RequestOptions); ok {
		return RefuseAt(string(ir.ReasonNotAllowedHere), path.Key(vocab.RequestOptions),
			"options belong to the batch, not to one of its requests")
	}
	if m, ok := item.Get(vocab.RequestModel); ok && (batchModel == nil || m.Str() != *batchModel) {
		return RefuseAt(string(ir.ReasonConflict), path.Key(vocab.RequestModel),
			"a request of a batch takes the batch's model and may only repeat it")
	}
	return nil
}

// BundleOf returns the internal bundle for a batch: the same items, each
// with the batch's options (the bundle carries options per request; an
// item of a vllm-sr/5.0 batch has none of its own), ready for
// internalwire.EncodeBundle. The batch is not modified.
func BundleOf(b *ir.Batch) *ir.Batch {
	out := &ir.Batch{Model: b.Model, Items: make([]ir.BatchItem, len(b.Items))}
	copy(out.Items, b.Items)
	if b.Options != nil {
		for i := range out.Items {
			if out.Items[i].Request.Options == nil {
				o := *b.Options
				o.Layout = ir.Layout{}
				out.Items[i].Request.Options = &o
			}
		}
	}
	return out
}
