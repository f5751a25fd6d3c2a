package jsonvalue

// Borrowed is a document decoded by DecodeBorrowed: its containers (every
// object's members, every array's items) live in memory the decoder keeps
// for the next document, so decoding allocates nothing for them. Root and
// every container reached from it are valid until Release. Scalars and
// member names never live there (they alias the input, or an allocation of
// their own), so what outlives Release is a scalar or a Clone.
//
// A reader that maps a request into its own types and keeps a few
// subtrees (a state, a question's criteria) so allocates for what it
// keeps, not for the whole document.
type Borrowed struct {
	Root Value
	d    *decoder
}

// DecodeBorrowed is Decode into pooled memory; see Borrowed. The caller
// calls Release once nothing it keeps refers to a container of Root; a
// Borrowed never released is only memory the pool does not get back.
func DecodeBorrowed(data []byte, opts Options) (*Borrowed, error) {
	d := decoderPool.Get().(*decoder)
	d.reset(data, opts)
	d.borrow = true
	v, ok := d.document()
	d.borrow = false
	fault := d.fault
	d.release()
	if !ok {
		decoderPool.Put(d)
		return nil, fault
	}
	d.borrowed = Borrowed{Root: v, d: d}
	return &d.borrowed, nil
}

// Release hands the memory back for the next document. Root and the
// containers reached from it must not be used afterwards.
func (b *Borrowed) Release() {
	d := b.d
	if d == nil {
		return
	}
	b.Root, b.d = Value{}, nil
	k := &d.kept
	k.members = clearKept(k.members)
	k.items = clearKept(k.items)
	k.containers = clearKept(k.containers)
	decoderPool.Put(d)
}

// clearKept zeroes s, not only reslices it: build fills zeroed slots field
// by field, and the pool should not keep the previous input alive. One
// grown beyond maxPooledScratch entries is dropped instead.
func clearKept[T any](s []T) []T {
	if cap(s) > maxPooledScratch {
		return nil
	}
	clear(s)
	return s
}

// keptTree is the pooled memory of a borrowed document's containers. Its
// slices are as long as the last document used (so Release clears just
// that) and keep their capacity up to maxPooledScratch entries.
type keptTree struct {
	members    []Member
	items      []Value
	containers []container
}

// newTree returns the tree build fills: fresh slices, or for a borrowed
// document the pooled ones (zero, as Release left them).
func (d *decoder) newTree() tree {
	nm, ni, nc := len(d.doneMembers), len(d.doneItems), d.containers
	if !d.borrow {
		return tree{members: make([]Member, nm), items: make([]Value, ni), containers: make([]container, nc)}
	}
	k := &d.kept
	k.members = reuse(k.members, nm)
	k.items = reuse(k.items, ni)
	k.containers = reuse(k.containers, nc)
	return tree{members: k.members, items: k.items, containers: k.containers}
}

// reuse returns s resliced to n zero entries (every entry of s is zero:
// see clearKept), or a new slice when s is too small.
func reuse[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, max(n, 2*cap(s)))
}

// Clone returns v with containers of its own: a deep copy of an object or
// array (its names and scalars, which are immutable, shared), and v
// itself for a scalar or the zero Value. Whatever v's size, the copy is at
// most three allocations.
func Clone(v Value) Value {
	var c Copier
	c.Count(v)
	return c.Value(v)
}

// Copier clones several values into one allocation each of members, items
// and containers: Count every value, then copy each (Value, Members,
// Items) exactly once. Copying what was not counted panics.
type Copier struct {
	members, items, containers int // counted, then left to hand out
	t                          tree
	allocated                  bool
}

// Count counts v for a later Value.
func (c *Copier) Count(v Value) {
	if v.c == nil {
		return
	}
	c.containers++
	c.CountMembers(v.c.members)
	c.CountItems(v.c.items)
}

// CountMembers counts members for a later Members.
func (c *Copier) CountMembers(members []Member) {
	c.members += len(members)
	for i := range members {
		c.Count(members[i].Value)
	}
}

// CountItems counts items for a later Items.
func (c *Copier) CountItems(items []Value) {
	c.items += len(items)
	for i := range items {
		c.Count(items[i])
	}
}

// allocate makes the counted entries and containers, once.
func (c *Copier) allocate() {
	if c.allocated {
		return
	}
	c.allocated = true
	c.t.members = make([]Member, c.members)
	c.t.items = make([]Value, c.items)
	c.t.containers = make([]container, c.containers)
}

// Value is the copy of v (see Clone).
func (c *Copier) Value(v Value) Value {
	if v.c == nil {
		return v
	}
	c.allocate()
	var out Value
	c.fill(&out, v)
	return out
}

// Members is the copy of members (see Clone), capped so an append never
// writes into the next copy; nil for nil.
func (c *Copier) Members(members []Member) []Member {
	if members == nil {
		return nil
	}
	c.allocate()
	dst := take(&c.t.members, len(members))
	for i := range members {
		dst[i].Name, dst[i].raw = members[i].Name, members[i].raw
		c.fill(&dst[i].Value, members[i].Value)
	}
	return dst
}

// Items is Members for items.
func (c *Copier) Items(items []Value) []Value {
	if items == nil {
		return nil
	}
	c.allocate()
	dst := take(&c.t.items, len(items))
	for i := range items {
		c.fill(&dst[i], items[i])
	}
	return dst
}

// take hands out the next n entries of *slots, capped; never nil (an
// object's members and an array's items are never nil).
func take[T any](slots *[]T, n int) []T {
	dst := (*slots)[:n:n]
	if dst == nil {
		dst = []T{}
	}
	*slots = (*slots)[n:]
	return dst
}

// fill writes the copy of v into dst, a zero Value.
func (c *Copier) fill(dst *Value, v Value) {
	if v.c == nil {
		dst.raw = v.raw
		return
	}
	k := &c.t.containers[0]
	c.t.containers = c.t.containers[1:]
	k.members = c.Members(v.c.members)
	k.items = c.Items(v.c.items)
	dst.c = k
}
