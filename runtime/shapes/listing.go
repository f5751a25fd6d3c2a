package shapes

import (
	"strconv"

	"github.com/vllm-sr/systemone/generated/validate"
	"github.com/vllm-sr/systemone/generated/vocab"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
	"github.com/vllm-sr/systemone/runtime/table"
)

// The listing shapes (listing, listing_entry, and vllm-sr/4.0's
// legacy_list_item, which is written alone) bound to ir.Listing and
// ir.ListedModel: the generated dispatch (zz_generated.replybind.go) calls
// the functions below, one per bound member.

// The fixed words of vllm-sr/4.0's OpenAI listing that are values, not
// members: the listing's and an entry's object (the spec's enums [list]
// and [model]), and who owns every model.
const (
	legacyListObject = "list"
	legacyItemObject = "model" //vocab:not-spec legacy_list_item.object's enum value, not the model member
	legacyOwnedBy    = "vllm-sr"
)

// Listing writes GET /v1/models: {models: [...]}, and with Legacy first
// the OpenAI list {object: "list", data: [...]}.
func (w AnswerWriter) Listing(l *ir.Listing) ([]byte, error) {
	o := w.object(make([]byte, 0, 256), table.LevelListing, l.Extra)
	s := listingWrite{l: l}
	o.each(listingSlots, func(slot int) { w.writeListingSlot(&o, &s, slot) })
	return o.Close(), nil
}

// listingWrite is the state of writing one listing.
type listingWrite struct{ l *ir.Listing }

// writeListingObject and writeListingData write vllm-sr/4.0's OpenAI
// list, with Legacy alone.
func (w AnswerWriter) writeListingObject(o *replyObject, s *listingWrite) {
	if w.Legacy {
		o.str(vocab.ListingObject, legacyListObject)
	}
}

func (w AnswerWriter) writeListingData(o *replyObject, s *listingWrite) {
	if !w.Legacy {
		return
	}
	o.Name(vocab.ListingData)
	o.Dst = appendJoined(o.Dst, "[]", s.l.Models, func(dst []byte, m *ir.ListedModel) []byte {
		item := w.object(dst, table.LevelLegacyListItem, nil)
		s := legacyListItemWrite{m: m}
		item.each(legacyListItemSlots, func(slot int) { w.writeLegacyListItemSlot(&item, &s, slot) })
		return item.Close()
	})
}

func (w AnswerWriter) writeListingModels(o *replyObject, s *listingWrite) {
	o.Name(vocab.ListingModels)
	o.Dst = appendJoined(o.Dst, "[]", s.l.Models, func(dst []byte, m *ir.ListedModel) []byte {
		entry := w.object(dst, table.LevelListingEntry, m.Extra)
		s := listingEntryWrite{m: m}
		entry.each(listingEntrySlots, func(slot int) { w.writeListingEntrySlot(&entry, &s, slot) })
		return entry.Close()
	})
}

// legacyListItemWrite is the state of writing one entry of 4.0's OpenAI
// list: the listed model's.
type legacyListItemWrite struct{ m *ir.ListedModel }

// writeLegacyListItemID writes 4.0's id, which is the standard's model
// name: one IR field (ir.ListedModel.Name) both listings bind, under
// another member name here, so the naming rule cannot find it.
func (w AnswerWriter) writeLegacyListItemID(o *replyObject, s *legacyListItemWrite) {
	o.str(vocab.LegacyListItemID, s.m.Name)
}

func (w AnswerWriter) writeLegacyListItemObject(o *replyObject, s *legacyListItemWrite) {
	o.str(vocab.LegacyListItemObject, legacyItemObject)
}

// writeLegacyListItemCreated writes nothing: optional in 4.0, and no
// creation time is known.
func (w AnswerWriter) writeLegacyListItemCreated(*replyObject, *legacyListItemWrite) {}

func (w AnswerWriter) writeLegacyListItemOwnedBy(o *replyObject, s *legacyListItemWrite) {
	o.str(vocab.LegacyListItemOwnedBy, legacyOwnedBy)
}

// listingEntryWrite is the state of writing one listing entry.
type listingEntryWrite struct{ m *ir.ListedModel }

// ReadListing reads a GET /v1/models reply under the schema rs names,
// after its generated validator: {models: [{name, description,
// release_date}]}, the extension members the schema defines (each entry's
// version, features and card) and the passive members (Extra). A listing
// its schema does not define is a *ir.ProtocolError naming the first
// problem's path; members a systemone/0.2 listing has beyond its schema
// are ignored.
func ReadListing(root jsonvalue.Value, rs *Replies) (*ir.Listing, error) {
	if problems := validate.Listing(rs.schema, root); len(problems) > 0 {
		return nil, replyError(root, problems[0])
	}
	l := &ir.Listing{}
	s := listingRead{l: l, rs: rs}
	_, _ = readListingMembers(&s, root.Members())
	l.Extra = s.extra
	if l.Models == nil {
		l.Models = []ir.ListedModel{}
	}
	return l, nil
}

// listingRead is the state of reading one checked listing.
type listingRead struct {
	l     *ir.Listing
	rs    *Replies
	extra []jsonvalue.Member
}

func (s *listingRead) takes(slot int) bool { return s.rs.listing&(1<<slot) != 0 }

func (s *listingRead) readListingModels(m *jsonvalue.Member) error {
	s.l.Models = make([]ir.ListedModel, 0, m.Value.Len())
	for _, v := range m.Value.Items() {
		er := listingEntryRead{defined: s.rs.listingEntry}
		_, _ = readListingEntryMembers(&er, v.Members())
		er.m.Extra = er.extra
		s.l.Models = append(s.l.Models, er.m)
	}
	return nil
}

// readListingObject and readListingData: 4.0's OpenAI list repeats the
// models list, which the reader reads.
func (s *listingRead) readListingObject(*jsonvalue.Member) error { return nil }

func (s *listingRead) readListingData(*jsonvalue.Member) error { return nil }

// listingEntryRead is the state of reading one checked listing entry,
// which it holds (not a pointer to the caller's, which would then live on
// the heap).
type listingEntryRead struct {
	m       ir.ListedModel
	defined uint64
	extra   []jsonvalue.Member
}

func (s *listingEntryRead) takes(slot int) bool { return s.defined&(1<<slot) != 0 }

func appendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }
