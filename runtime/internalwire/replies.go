package internalwire

import (
	"slices"

	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Replies is what one schema's replies carry that the readers read: which
// members of each reply binding its specification defines, and on which
// answer types, from the generated member lists. A reader reads only
// those, so a member the validator did not check (a systemone/0.2 reply's
// extension members, which its validator ignores) is never read.
type Replies struct {
	schema table.SchemaID
	answer [len(answerMembers)]answerUse
	// failed: an answer may be a failed one (the schema defines
	// answer.error, with its reason and message).
	failed   bool
	response [len(responseExtensions)]bool
	listing  [len(listingExtensions)]bool
	// errorFlat: the error body's flat members (code, reason, question,
	// state, limit), which only the extension set defines.
	errorFlat bool
}

// answerUse is one answer binding under one schema.
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
}

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
	r := &Replies{schema: schema}
	answer := vocab.MembersOf(schema, table.LevelAnswer)
	required := vocab.MembersOf(table.SchemaVllmSR50, table.LevelAnswer)
	for i := range answerMembers {
		m, ok := memberNamed(answer, answerMembers[i].name)
		if !ok {
			continue
		}
		use := answerUse{defined: true, types: m.QuestionTypes}
		if req, ok := memberNamed(required, m.Name); ok {
			use.required = req.Required
		}
		r.answer[i] = use
	}
	_, r.failed = memberNamed(answer, vocab.AnswerError)
	response := vocab.MembersOf(schema, table.LevelResponse)
	for i := range responseExtensions {
		_, r.response[i] = memberNamed(response, responseExtensions[i].name)
	}
	entry := vocab.MembersOf(schema, table.LevelListingEntry)
	for i := range listingExtensions {
		_, r.listing[i] = memberNamed(entry, listingExtensions[i].name)
	}
	_, r.errorFlat = memberNamed(vocab.MembersOf(schema, table.LevelError), vocab.ErrorCode)
	return r
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
