package listener

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/internalwire"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// BuildBatch maps a validated batch body into the IR with rd, checking
// what the validator does not: an item's model only repeating the
// batch's. (An item's options need no check here: no batch item schema
// defines options, so the validator refuses them as unknown members.)
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
		if m, ok := item.Value.Get(vocab.RequestModel); ok && (batch.Model == nil || m.Str() != *batch.Model) {
			return nil, RefuseAt(string(ir.ReasonConflict), path.Key(vocab.RequestModel),
				"a request of a batch takes the batch's model and may only repeat it")
		}
		r, err := rd.Request(item.Value, path)
		if err != nil {
			return nil, RefuseError(err)
		}
		batch.Items = append(batch.Items, ir.BatchItem{Name: item.Name, Request: r})
	}
	return batch, nil
}
