package srun

import (
	"github.com/vllm-sr/systemone/runtime/listener"
	"github.com/vllm-sr/systemone/runtime/table"
)

// listenerCodecs are the schemas a runtime speaks to its clients, each
// with its listener codec. It is never modified after init.
var listenerCodecs = map[table.SchemaID]func() listener.Codec{
	table.SchemaVllmSR50: func() listener.Codec { return listener.V50 },
	table.SchemaVllmSR40: func() listener.Codec { return listener.V40 },
}
