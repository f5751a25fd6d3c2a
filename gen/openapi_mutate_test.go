package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Mutations of a JSON body for the OpenAPI agreement tests: each is the
// body with one node changed, named by the node's JSON Pointer.

type mutation struct {
	what string
	body []byte
}

// probes replace every scalar: kinds, signs, the 0..1 range, integers and
// non-integers, enum misses, and counts around the limits.
var probes = []any{nil, true, "zz", json.Number("-1"), json.Number("0"), json.Number("0.5"), json.Number("1"),
	json.Number("1.5"), json.Number("2"), json.Number("3")}

// sizes resize every object and array, around the questions' and
// criteria's limits (1, 2 to 10, 255).
var sizes = []int{0, 1, 2, 10, 11, 255, 256}

// unknownMember is a member no schema defines.
const unknownMember = "zz_unknown"

func decodeBody(t *testing.T, raw []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return v
}

func encodeBody(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSpace(b.Bytes())
}

// mutate lists every mutation of raw.
func mutate(t *testing.T, raw []byte) []mutation {
	t.Helper()
	var out []mutation
	var walk func(ptr []string, node any)
	walk = func(ptr []string, node any) {
		at := "/" + strings.Join(ptr, "/")
		change := func(what string, fn func(any) any) {
			out = append(out, mutation{what: what + " at " + at, body: encodeBody(t, replace(decodeBody(t, raw), ptr, fn))})
		}
		switch n := node.(type) {
		case map[string]any:
			change("unknown member", func(v any) any { m := v.(map[string]any); m[unknownMember] = json.Number("1"); return m })
			for _, k := range sortedKeys(n) {
				change("without "+k, func(v any) any { m := v.(map[string]any); delete(m, k); return m })
				walk(append(ptr[:len(ptr):len(ptr)], k), n[k])
			}
			for _, size := range sizes {
				change(fmt.Sprintf("%d members", size), func(v any) any { return resizeObject(v.(map[string]any), size) })
			}
		case []any:
			for i, item := range n {
				walk(append(ptr[:len(ptr):len(ptr)], strconv.Itoa(i)), item)
			}
			for _, size := range sizes {
				change(fmt.Sprintf("%d items", size), func(v any) any { return resizeArray(v.([]any), size) })
			}
		default:
			for _, p := range probes {
				change(fmt.Sprintf("%v", p), func(any) any { return p })
			}
		}
	}
	walk(nil, decodeBody(t, raw))
	return out
}

// replace applies fn to the node at ptr within root and returns root.
func replace(root any, ptr []string, fn func(any) any) any {
	if len(ptr) == 0 {
		return fn(root)
	}
	switch n := root.(type) {
	case map[string]any:
		n[ptr[0]] = replace(n[ptr[0]], ptr[1:], fn)
	case []any:
		i, _ := strconv.Atoi(ptr[0])
		n[i] = replace(n[i], ptr[1:], fn)
	}
	return root
}

// resizeObject has size members, each a copy of the first member's value
// under a new key; an empty object stays empty unless size is 0.
func resizeObject(m map[string]any, size int) map[string]any {
	keys := sortedKeys(m)
	if len(keys) == 0 {
		return m
	}
	first := m[keys[0]]
	out := make(map[string]any, size)
	for i := range size {
		out["k"+strconv.Itoa(i)] = first
	}
	return out
}

func resizeArray(a []any, size int) []any {
	if len(a) == 0 {
		return a
	}
	out := make([]any, size)
	for i := range out {
		out[i] = a[0]
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
