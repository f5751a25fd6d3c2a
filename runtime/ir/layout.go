package ir

// Layout records how one JSON object of a message was written on the wire
// it was read from, so a codec of that wire can write it back byte for byte
// while the rest of the IR stays schema-neutral.
//
// It is a hint, never a source of truth: an encoder replays a recorded
// spelling only while the IR still holds the value the spelling stands for,
// so an IR changed after reading is written correctly, in canonical form
// where the recording no longer applies.
type Layout struct {
	// Entry is the object's own name in its parent (a question's, an
	// asset's or a batch item's name) as written, kept only when that
	// differs from the canonical quoting; nil otherwise. It is rare, so a
	// pointer keeps every IR type holding a Layout 24 bytes smaller.
	Entry *EntryName
	// Members are the object's members in the order read, under the names
	// read (choices rather than criteria, images rather than assets).
	Members []LayoutMember
}

// EntryName is an object's own name in its parent as written.
type EntryName struct {
	// Name is the decoded name and RawName the quoted name as written.
	Name    string
	RawName []byte
}

// LayoutMember is one member of a recorded object.
type LayoutMember struct {
	// Name is the member's decoded name.
	Name string
	// RawName is the quoted name as written, when it differs from the
	// canonical quoting of Name; nil otherwise.
	RawName []byte
	// Raw is the member's value as written (compact) and Canon the
	// canonical encoding of the decoded value, both kept only when they
	// differ, for values the IR holds decoded (a number written 1e3, a
	// string with needless escapes, over written as a bare string).
	Raw   []byte
	Canon []byte
}

// IsZero reports whether nothing was recorded.
func (l *Layout) IsZero() bool { return l.Entry == nil && len(l.Members) == 0 }

// Member returns the recorded member called name, or nil.
func (l *Layout) Member(name string) *LayoutMember {
	for i := range l.Members {
		if l.Members[i].Name == name {
			return &l.Members[i]
		}
	}
	return nil
}

// Has reports whether the object had a member called name.
func (l *Layout) Has(name string) bool { return l.Member(name) != nil }

// NameFor returns the recorded quoted name when it stands for name, else
// nil.
func (l *Layout) NameFor(name string) []byte {
	if l.Entry != nil && l.Entry.Name == name {
		return l.Entry.RawName
	}
	return nil
}
