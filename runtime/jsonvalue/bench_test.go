package jsonvalue

import (
	"encoding/json"
	"testing"
)

// BenchmarkRequest measures, on the small, medium and large System One
// requests and in one run, this package's decoder and encoders against the
// jsontext baseline and encoding/json on the same bytes.
//
//	go test -run '^$' -bench . -benchmem ./runtime/jsonvalue/
func BenchmarkRequest(b *testing.B) {
	sizes := []struct {
		name  string
		data  []byte
		typed func() any // a fresh typed request to unmarshal into
	}{
		{"small", smallRequest(b), func() any { return new(typedRequest[string]) }},
		{"medium", mediumRequest(b), func() any { return new(typedRequest[map[string]string]) }},
		{"large", largeRequest(b), func() any { return new(typedRequest[map[string]string]) }},
	}
	for _, size := range sizes {
		data := size.data
		v, err := Decode(data, Options{})
		if err != nil {
			b.Fatal(err)
		}
		var generic any
		if err := json.Unmarshal(data, &generic); err != nil {
			b.Fatal(err)
		}
		typed := size.typed()
		if err := json.Unmarshal(data, typed); err != nil {
			b.Fatal(err)
		}
		run := func(name string, f func(b *testing.B)) {
			b.Run(size.name+"/"+name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				f(b)
			})
		}
		run("Decode", func(b *testing.B) {
			for b.Loop() {
				if _, err := Decode(data, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		run("DecodeJSONText", func(b *testing.B) {
			for b.Loop() {
				if _, err := decodeJSONText(data, DefaultMaxDepth); err != nil {
					b.Fatal(err)
				}
			}
		})
		run("AppendCompact", func(b *testing.B) {
			buf := make([]byte, 0, 2*len(data))
			for b.Loop() {
				buf = AppendCompact(buf[:0], v)
			}
		})
		run("AppendPython", func(b *testing.B) {
			buf := make([]byte, 0, 2*len(data))
			for b.Loop() {
				buf = AppendPython(buf[:0], v)
			}
		})
		run("DecodeCompact", func(b *testing.B) {
			for b.Loop() {
				v, err := Decode(data, Options{})
				if err != nil {
					b.Fatal(err)
				}
				_ = Compact(v)
			}
		})
		run("StdUnmarshalAny", func(b *testing.B) {
			for b.Loop() {
				var out any
				if err := json.Unmarshal(data, &out); err != nil {
					b.Fatal(err)
				}
			}
		})
		run("StdUnmarshalTyped", func(b *testing.B) {
			for b.Loop() {
				if err := json.Unmarshal(data, size.typed()); err != nil {
					b.Fatal(err)
				}
			}
		})
		run("StdMarshalAny", func(b *testing.B) {
			for b.Loop() {
				if _, err := json.Marshal(generic); err != nil {
					b.Fatal(err)
				}
			}
		})
		run("StdMarshalTyped", func(b *testing.B) {
			for b.Loop() {
				if _, err := json.Marshal(typed); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
