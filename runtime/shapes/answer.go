package shapes

import (
	"github.com/vllm-sr/systemone/generated/fieldtable"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The answer shape (answer, box_region) bound to ir.Answer and ir.Box:
// the generated dispatch (zz_generated.replybind.go) calls the functions
// below, one per bound member, for the writer of every listener and the
// reader of every target. An answer's type decides which members it
// carries, so the reader reads it first; a failed question's error,
// reason and message are written only for a failed answer, and the
// members of an answered question only for an answered one.

// answerWrite is the state of writing one answer.
type answerWrite struct{ a *ir.Answer }

// appendAnswer appends one answer in answerSlots' order. A number JSON
// cannot carry clears *finite (appendFloat).
func (w AnswerWriter) appendAnswer(dst []byte, a *ir.Answer, finite *bool) []byte {
	o := w.object(dst, table.LevelAnswer, a.Extra)
	s := answerWrite{a: a}
	o.each(answerSlots, func(slot int) { w.writeAnswerSlot(&o, &s, slot) })
	return o.close(finite)
}

func (w AnswerWriter) writeAnswerType(o *replyObject, s *answerWrite) {
	if s.a.Type != "" {
		o.str(vocab.AnswerType, string(s.a.Type))
	}
}

func (w AnswerWriter) writeAnswerBox(o *replyObject, s *answerWrite) {
	if s.a.Box != nil {
		o.Name(vocab.AnswerBox)
		o.Dst = w.appendBox(o.Dst, s.a.Box, &o.finite)
	}
}

// writeAnswerReason and writeAnswerMessage write a failed answer's words,
// even empty: a failed answer always names both.
func (w AnswerWriter) writeAnswerReason(o *replyObject, s *answerWrite) {
	if s.a.Error != "" {
		o.str(vocab.AnswerReason, s.a.Reason)
	}
}

// writeAnswerMessage writes only for a failed answer, as writeAnswerReason.
func (w AnswerWriter) writeAnswerMessage(o *replyObject, s *answerWrite) {
	if s.a.Error != "" {
		o.str(vocab.AnswerMessage, s.a.Message)
	}
}

// writeNumber writes name: *f unless f is nil.
func writeNumber(o *replyObject, name string, f *float64) {
	if f != nil {
		o.float(name, *f)
	}
}

// boxRegionWrite is the state of writing one box.
type boxRegionWrite struct{ b *ir.Box }

func (w AnswerWriter) appendBox(dst []byte, b *ir.Box, finite *bool) []byte {
	o := w.object(dst, table.LevelBoxRegion, b.Extra)
	s := boxRegionWrite{b: b}
	o.each(boxRegionSlots, func(slot int) { w.writeBoxRegionSlot(&o, &s, slot) })
	return o.close(finite)
}

func appendProbabilities(dst []byte, ps []ir.Probability, finite *bool) []byte {
	o := jsonvalue.OpenObject(dst)
	for i := range ps {
		o.Name(ps[i].Key)
		o.Dst = appendFloat(o.Dst, ps[i].P, finite)
	}
	return o.Close()
}

// AnswerReader reads the answers of one checked response (CheckResponse,
// CheckBatchResponse), question by question (Read). The numbers of the
// answers it reads share a few allocations rather than one each, so a
// reader belongs to one response's reading.
type AnswerReader struct {
	// Replies is the reply's schema (RepliesOf); Check its problems; Item
	// the batch item the response answers ("" for a response alone).
	Replies *Replies
	Check   ReplyCheck
	Item    string
	// numbers is the room left for the numbers answers point to.
	numbers []float64
}

// numbersPerAllocation is how many answer numbers share one allocation:
// a few answers' worth.
const numbersPerAllocation = 16

// Read reads the answer name to a question of type want ("" when not
// known), whose value is v, into a, or returns the fixed reason it fails
// and what is wrong for a person ("" when the reason says it): an answer
// of another type than want's answer type, the problem the reply's check
// found in it (the specification's word for it, and the member at fault),
// or a member vllm-sr/5.0 requires of its type missing (the internal
// form's shapes require none). A failed answer (a schema with
// answer.error) keeps its kind, and its reason and message as the
// upstream gave them, for the caller to vet. The passive members the
// schema defines go to a.Extra, in body order. a is the caller's, an
// element of its answers, so reading allocates only values; the answer's
// name is the caller's to set.
func (rd *AnswerReader) Read(a *ir.Answer, v jsonvalue.Value, name string, want table.QuestionType) (reason, what string) {
	*a = ir.Answer{Type: want}
	failed := false
	if rd.Replies.failed {
		_, failed = v.Get(vocab.AnswerError)
	}
	t, typed := v.Get(vocab.AnswerType)
	if !failed && typed && want != "" && t.Kind() == jsonvalue.KindString && table.QuestionType(t.Str()) != fieldtable.AnswerType(want) {
		return vocab.ReasonAnswerTypeMismatch, ""
	}
	if reason, what := rd.Check.answerProblem(rd.Item, name); reason != "" {
		return reason, what
	}
	// v is an answer its schema defines: every member read below has the
	// kind and range the specification gives it.
	if !failed {
		a.Type = table.QuestionType(t.Str())
	}
	s := answerRead{a: a, rs: rd.Replies, failed: failed, numbers: rd.numbers}
	read, _ := readAnswerMembers(&s, v.Members())
	a.Extra, rd.numbers = s.extra, s.numbers
	if failed {
		return "", ""
	}
	for slot := range answerSlots {
		use := &rd.Replies.answer[slot]
		if use.required && use.carries(a.Type) && read&(1<<slot) == 0 {
			return missing(answerSlots[slot])
		}
	}
	return "", ""
}

// answerRead is the state of reading one checked answer. It holds the
// reader's room for numbers rather than the reader (Read copies it back),
// so that the caller's AnswerReader stays where the caller put it.
type answerRead struct {
	a       *ir.Answer
	rs      *Replies
	failed  bool
	numbers []float64
	extra   []jsonvalue.Member
}

// takes admits the members the reply's schema defines on the answer's
// type; of a failed answer, its error, reason and message and the passive
// members alone.
func (s *answerRead) takes(slot int) bool {
	use := &s.rs.answer[slot]
	if s.failed {
		return use.defined && (use.failure || answerPassiveSlots&(1<<slot) != 0)
	}
	return use.carries(s.a.Type)
}

// readAnswerType: the type is read before the members (Read), as it
// decides which the answer carries.
func (s *answerRead) readAnswerType(*jsonvalue.Member) error { return nil }

func (s *answerRead) readAnswerBox(m *jsonvalue.Member) error {
	b := &ir.Box{}
	box := boxRegionRead{b: b, defined: s.rs.boxRegion}
	_, err := readBoxRegionMembers(&box, m.Value.Members())
	b.Extra = box.extra
	s.a.Box = b
	return err
}

// boxRegionRead is the state of reading one checked box.
type boxRegionRead struct {
	b       *ir.Box
	defined uint64
	extra   []jsonvalue.Member
}

func (s *boxRegionRead) takes(slot int) bool { return s.defined&(1<<slot) != 0 }

// missing is the reason of an answer without member, which its type
// requires, and what is wrong.
func missing(member string) (reason, what string) {
	p := table.Problem{Reason: table.ReasonMissingMember, Member: member}
	reason = string(p.Reason)
	if row, ok := vocab.ReplyProblemOf(table.LevelAnswer, []string{member}, p.Reason); ok {
		reason = row.Reason
	}
	return reason, describeMember([]string{member}, p)
}

// number returns a pointer to a copy of the checked number x, in room
// shared with the response's other numbers.
func (s *answerRead) number(x jsonvalue.Value) *float64 {
	if len(s.numbers) == 0 {
		s.numbers = make([]float64, numbersPerAllocation)
	}
	p := &s.numbers[0]
	*p, _ = x.Float()
	s.numbers = s.numbers[1:]
	return p
}

// stringList reads a checked array of strings.
func stringList(v jsonvalue.Value) []string {
	out := make([]string, 0, v.Len())
	for _, it := range v.Items() {
		out = append(out, it.Str())
	}
	return out
}

// probabilityList reads a checked object of key to number, in the order
// answered.
func probabilityList(p jsonvalue.Value) []ir.Probability {
	out := make([]ir.Probability, 0, p.Len())
	for _, m := range p.Members() {
		f, _ := m.Value.Float()
		out = append(out, ir.Probability{Key: m.Name, P: f})
	}
	return out
}
