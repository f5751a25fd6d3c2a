package table

// SchemaID names a wire schema: "systemone/0.2", "vllm-sr/5.0",
// "vllm-sr/4.0", or "internal" for the hops inside a deployment.
type SchemaID string

const (
	SchemaStandard02 SchemaID = "systemone/0.2"
	SchemaVllmSR50   SchemaID = "vllm-sr/5.0"
	SchemaVllmSR40   SchemaID = "vllm-sr/4.0"
	SchemaInternal   SchemaID = "internal"
)

// Level is where a field lives in a message.
type Level string

const (
	LevelRequest        Level = "request"
	LevelOptions        Level = "options"
	LevelQuestion       Level = "question"
	LevelNoulCriteria   Level = "noul_criteria"
	LevelQuestionType   Level = "question_type"
	LevelAsset          Level = "asset"
	LevelAssetType      Level = "asset_type"
	LevelAnswer         Level = "answer"
	LevelResponse       Level = "response"
	LevelUsage          Level = "usage"
	LevelError          Level = "error"
	LevelValidationItem Level = "validation_item"
	LevelListing        Level = "listing"
	LevelListingEntry   Level = "listing_entry"
	LevelEndpoint       Level = "endpoint"
	LevelHeader         Level = "header"

	// Levels added with the three specifications (srgen's model).
	LevelBatch          Level = "batch"            // POST /v1/systemone/batch body
	LevelBatchResponse  Level = "batch_response"   // its response
	LevelBundle         Level = "bundle"           // 4.0 POST /v1/bundle body
	LevelState          Level = "state"            // the state and its parts (4.0 states, implicit roles)
	LevelBoxRegion      Level = "box_region"       // a box answer's edges
	LevelSpanItem       Level = "span_item"        // one span of a span answer
	LevelSetResult      Level = "set_result"       // one set question's result
	LevelRouting        Level = "routing"          // the Router's routing member of a pool's answer
	LevelRoutingTry     Level = "routing_try"      // one member a pool request went to or passed over
	LevelErrorDetail    Level = "error_detail"     // the standard's object detail
	LevelLegacyError    Level = "legacy_error"     // 4.0's {"error": {...}} object
	LevelLegacyListItem Level = "legacy_list_item" // an entry of 4.0's OpenAI data list
	LevelHealth         Level = "health"           // GET /health body
)

// Disposition is what a Router sends to a systemone/0.2 target for a field.
type Disposition string

const (
	// DispositionStandard: the field is the standard's own; sent as is.
	DispositionStandard Disposition = "standard"
	// DispositionStripped: the standard part of the message already
	// expresses it, so it is removed before sending.
	DispositionStripped Disposition = "stripped"
	// DispositionRefusedAtLoad: the standard cannot carry it; a rule or
	// request that needs it is refused before any call.
	DispositionRefusedAtLoad Disposition = "refused_at_load"
	// DispositionNeverSent: a response or error field a standard server
	// never sends and the Router never expects.
	DispositionNeverSent Disposition = "never_sent"
	// DispositionLegacy: a 4.0-only form; never sent to a standard target.
	DispositionLegacy Disposition = "legacy"
)

// Family is a model family.
type Family string

const (
	FamilyDecision1 Family = "decision1"
	FamilyDecision2 Family = "decision2"
	FamilyDecision3 Family = "decision3"
	FamilyVela2     Family = "vela2"
	FamilyVela3     Family = "vela3"
	FamilyVela3D3   Family = "vela3_d3"
	// FamilyLLM: any chat model an OpenAI-compatible server serves,
	// answered from its token log-probabilities (runtime/llm).
	FamilyLLM Family = "llm"
)

// QuestionType is a question's `type`.
type QuestionType string

const (
	QuestionNoul   QuestionType = "noul"
	QuestionChoice QuestionType = "choice"
	QuestionScore  QuestionType = "score"
	QuestionBox    QuestionType = "box"
	QuestionSet    QuestionType = "set"
	QuestionSpan   QuestionType = "span"
	QuestionTrack  QuestionType = "track"
)

// CorpusKind says where a corpus request comes from.
type CorpusKind string

const (
	// CorpusFamilySelfTest: a model family's own start-up self-test request.
	CorpusFamilySelfTest CorpusKind = "family_self_test"
	// CorpusLegacyForm: one request for a 4.0 request form.
	CorpusLegacyForm CorpusKind = "legacy_form"
)

// CorpusCase is one request of the round-trip golden corpus. The bytes are
// canonical JSON in the internal wire form (4.0 forms plus roles).
type CorpusCase struct {
	Name     string     // unique, e.g. "vela3/relevance"
	Path     string     // path inside the corpus package's embedded FS
	Kind     CorpusKind // family self-test or legacy form
	Family   Family     // the family whose self-test it is; "" for a legacy form
	Form     string     // the 4.0 form it exercises (choices, states, ...); "" for a self-test
	Endpoint string     // the path it is sent to, e.g. /v1/decisions
}
