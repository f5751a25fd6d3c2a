package srun

import (
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/listener4"
	"github.com/vllm-sr/systemone/runtime/listener5"
	"github.com/vllm-sr/systemone/runtime/table"
)

// listenerCodecs are the schemas a runtime speaks to its clients, each
// with its listener codec. It is never modified after init.
var listenerCodecs = map[table.SchemaID]func() listener.Codec{
	table.SchemaVllmSR50: func() listener.Codec { return listener5.Codec{} },
	table.SchemaVllmSR40: func() listener.Codec { return listener4.Codec{} },
}
