package jsonvalue

import "testing"

// TestCloneOutlivesRelease clones values of a borrowed document, releases
// it (which zeroes its containers) and checks the clones still hold the
// values, kinds included (an empty object stays an object).
func TestCloneOutlivesRelease(t *testing.T) {
	const text = `{"a":{"b":[1,{"c":null},[]],"d":{}},"e":"x","f":[{"g":true},"h"],"\u0069":[]}`
	doc, err := DecodeBorrowed([]byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	whole := Clone(doc.Root)
	members := CloneMembers(doc.Root.Members())
	f, _ := doc.Root.Get("f")
	items := CloneItems(f.Items())
	doc.Release()
	if got := string(Compact(whole)); got != text {
		t.Errorf("Clone after release: %s", got)
	}
	obj, ok := Object(members...)
	if !ok || string(Compact(obj)) != text {
		t.Errorf("CloneMembers after release: %s", Compact(obj))
	}
	if got := string(Compact(Array(items...))); got != `[{"g":true},"h"]` {
		t.Errorf("CloneItems after release: %s", got)
	}
	plain, err := Decode([]byte(text), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !Equal(whole, plain) {
		t.Error("the clone is not Equal to a plain decode")
	}
	if CloneMembers(nil) != nil || CloneItems(nil) != nil || Clone(Value{}).IsValid() {
		t.Error("cloning nothing gives something")
	}
}

// TestBorrowedDocumentsReuseMemory decodes documents of several shapes,
// each after the last's release, and checks each reads as a plain decode
// does: reused memory must come back zeroed.
func TestBorrowedDocumentsReuseMemory(t *testing.T) {
	texts := []string{
		`{"a":[1,2,{"b":{"c":[3]}}],"d":"e"}`,
		`[{"x":1},{"y":[]},{}]`,
		`{"a":"s","b":{"c":"t"}}`,
		`[1,[2,[3,[4]]]]`,
		`"scalar"`,
	}
	for range 3 {
		for _, text := range texts {
			doc, err := DecodeBorrowed([]byte(text), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(Compact(doc.Root)); got != text {
				t.Errorf("borrowed %s reads as %s", text, got)
			}
			doc.Release()
		}
	}
	if _, err := DecodeBorrowed([]byte(`{"a":1,"a":2}`), Options{}); err == nil {
		t.Error("a duplicate member is accepted")
	}
}

// CloneMembers returns a copy of members whose values share no container
// with them (see Clone), nil for nil.
func CloneMembers(members []Member) []Member {
	var c Copier
	c.CountMembers(members)
	return c.Members(members)
}

// CloneItems is CloneMembers for an array's items.
func CloneItems(items []Value) []Value {
	var c Copier
	c.CountItems(items)
	return c.Items(items)
}
