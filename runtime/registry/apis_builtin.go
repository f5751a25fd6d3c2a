package registry

import (
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The LLM APIs' schema IDs.
const (
	SchemaOpenAIV1    table.SchemaID = "openai/v1"
	SchemaAnthropic01 table.SchemaID = "anthropic/2023-06-01"
)

// The registry's API names.
const (
	ChatCompletions = "chat_completions"
	Responses       = "responses" //vocab:not-spec the OpenAI Responses API's registry name
	Messages        = "messages"
	Images          = "images" //vocab:not-spec the OpenAI Images API's registry name
	SystemOne       = "systemone"
)

// MaxDeadlineSetting is systemone's max_deadline_ms: the longest deadline
// a listener grants a System One request, in milliseconds.
const MaxDeadlineSetting = "max_deadline_ms"

// BuiltinAPIs returns the API registry the Router runs with. It panics
// only if the entries below are inconsistent, a programmer error a test
// catches.
func BuiltinAPIs() *APIs {
	r, err := NewAPIs(builtinAPIEntries(), []Alias{
		{Name: "openai", API: ChatCompletions},
		{Name: "anthropic", API: Messages},
	})
	if err != nil {
		panic("registry: the built-in API registry is invalid: " + err.Error())
	}
	return r
}

func builtinAPIEntries() []API {
	llm := func(name string, schema table.SchemaID, paths ...string) API {
		return API{
			Name:            name,
			Paths:           paths,
			Kind:            KindLLM,
			Schemas:         []table.SchemaID{schema},
			ListenerDefault: schema,
			UpstreamDefault: schema,
			UpstreamSchemas: []table.SchemaID{schema},
			DefaultOn:       true,
		}
	}
	return []API{
		llm(ChatCompletions, SchemaOpenAIV1, "/v1/chat/completions"),
		llm(Responses, SchemaOpenAIV1, "/v1/responses"),
		llm(Messages, SchemaAnthropic01, "/v1/messages"),
		llm(Images, SchemaOpenAIV1, "/v1/images/*"),
		{
			Name:            SystemOne,
			Paths:           []string{vocab.PathSystemone, vocab.PathSystemoneBatch, vocab.PathDecisions, vocab.PathSystemoneModels},
			Kind:            KindDecision,
			Schemas:         []table.SchemaID{table.SchemaVllmSR50, table.SchemaVllmSR40},
			ListenerDefault: table.SchemaVllmSR50,
			UpstreamDefault: table.SchemaStandard02,
			UpstreamSchemas: []table.SchemaID{table.SchemaStandard02, table.SchemaVllmSR50},
			Settings: []Setting{{
				Name: MaxDeadlineSetting, Min: 1, Max: 600_000,
				Doc: "the longest deadline the listener grants a request, in milliseconds",
			}},
		},
	}
}
