package shapes

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Replies is what one schema's replies carry that the readers read: which
// members of each answer shape its specification defines (the bits of
// their slots in the generated <level>Slots), and on which answer types,
// from the generated member lists. A reader reads only those (each
// <level>Read's takes), so a member the validator did not check (a
// systemone/0.2 reply's extension members, which its validator ignores)
// is never read, nor relayed.
type Replies struct {
	schema table.SchemaID
	answer []answerUse
	// failed: an answer may be a failed one (the schema defines
	// answer.error, with its reason and message).
	failed bool
	// The slots each shape's schema defines.
	response, batchResponse, usage, boxRegion, spanItem, setResult uint64
	error, validationItem, listing, listingEntry, health           uint64
}

// answerUse is one answer slot under one schema.
type answerUse struct {
	defined bool
	// types are the answer types that carry the member; nil: every type.
	types []table.QuestionType
	// required: an answer of one of types must carry it. It is
	// vllm-sr/5.0's requirement on every schema: the Router relays the
	// answers it reads to clients of that schema, and to the standard's,
	// which require the same; the internal form's shapes, merged with the
	// 4.0 contract's, require none.
	required bool
	// failure: the member is one of a failed answer's (its error, and the
	// reason and message the specification gives with it).
	failure bool
}

// failureMembers are a failed answer's members: what a failed question
// answers in place of a value.
var failureMembers = []string{vocab.AnswerError, vocab.AnswerReason, vocab.AnswerMessage}

// replyLevels are the levels of the answer shapes the writers write.
var replyLevels = []table.Level{
	table.LevelResponse, table.LevelBatchResponse, table.LevelUsage, table.LevelAnswer, table.LevelBoxRegion,
	table.LevelSpanItem, table.LevelSetResult, table.LevelError, table.LevelLegacyError, table.LevelValidationItem,
	table.LevelListing, table.LevelListingEntry, table.LevelLegacyListItem, table.LevelHealth,
}

// membersOf is the generated member list of schema at level.
var membersOf = vocab.MembersOf

// repliesBySchema are every schema's Replies, built once from vocab.
var repliesBySchema = buildReplies()

// RepliesOf is schema's Replies; nil for a schema the specifications do
// not define.
func RepliesOf(schema table.SchemaID) *Replies { return repliesBySchema[schema] }

func buildReplies() map[table.SchemaID]*Replies {
	out := map[table.SchemaID]*Replies{}
	for _, lm := range vocab.Members {
		if _, ok := out[lm.Schema]; !ok {
			out[lm.Schema] = repliesOf(lm.Schema)
		}
	}
	return out
}

func repliesOf(schema table.SchemaID) *Replies {
	r := &Replies{schema: schema, answer: make([]answerUse, len(answerSlots))}
	answer := membersOf(schema, table.LevelAnswer)
	required := membersOf(table.SchemaVllmSR50, table.LevelAnswer)
	for i, name := range answerSlots {
		m, ok := memberNamed(answer, name)
		if !ok {
			continue
		}
		use := answerUse{defined: true, types: m.QuestionTypes, failure: slices.Contains(failureMembers, name)}
		if req, ok := memberNamed(required, m.Name); ok {
			use.required = req.Required
		}
		r.answer[i] = use
	}
	_, r.failed = memberNamed(answer, vocab.AnswerError)
	for _, s := range []struct {
		mask  *uint64
		level table.Level
		slots []string
	}{
		{&r.response, table.LevelResponse, responseSlots},
		{&r.batchResponse, table.LevelBatchResponse, batchResponseSlots},
		{&r.usage, table.LevelUsage, usageSlots},
		{&r.boxRegion, table.LevelBoxRegion, boxRegionSlots},
		{&r.spanItem, table.LevelSpanItem, spanItemSlots},
		{&r.setResult, table.LevelSetResult, setResultSlots},
		{&r.error, table.LevelError, errorSlots},
		{&r.validationItem, table.LevelValidationItem, validationItemSlots},
		{&r.listing, table.LevelListing, listingSlots},
		{&r.listingEntry, table.LevelListingEntry, listingEntrySlots},
		{&r.health, table.LevelHealth, healthSlots},
	} {
		*s.mask = definedSlots(schema, s.level, s.slots)
	}
	return r
}

// definedSlots are the bits of the slots whose members schema defines at
// level.
func definedSlots(schema table.SchemaID, level table.Level, slots []string) uint64 {
	var mask uint64
	ms := membersOf(schema, level)
	for i, name := range slots {
		if _, ok := memberNamed(ms, name); ok {
			mask |= 1 << i
		}
	}
	return mask
}

func memberNamed(ms []table.Member, name string) (table.Member, bool) {
	i := slices.IndexFunc(ms, func(m table.Member) bool { return m.Name == name })
	if i < 0 {
		return table.Member{}, false
	}
	return ms[i], true
}

// Schema is the schema ID the replies are read under.
func (r *Replies) Schema() table.SchemaID { return r.schema }

// carries reports whether an answer of type t carries the binding.
func (u *answerUse) carries(t table.QuestionType) bool {
	return u.defined && (u.types == nil || slices.Contains(u.types, t))
}
