package jsonvalue

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"testing"
)

func oldSkip(data []byte, i int) int {
	for i+32 <= len(data) {
		w := (*[32]byte)(data[i : i+32])
		m0 := specialMask(binary.LittleEndian.Uint64(w[0:8]))
		m1 := specialMask(binary.LittleEndian.Uint64(w[8:16]))
		m2 := specialMask(binary.LittleEndian.Uint64(w[16:24]))
		m3 := specialMask(binary.LittleEndian.Uint64(w[24:32]))
		if m0|m1|m2|m3 != 0 {
			switch {
			case m0 != 0:
				return i + bits.TrailingZeros64(m0)>>3
			case m1 != 0:
				return i + 8 + bits.TrailingZeros64(m1)>>3
			case m2 != 0:
				return i + 16 + bits.TrailingZeros64(m2)>>3
			}
			return i + 24 + bits.TrailingZeros64(m3)>>3
		}
		i += 32
	}
	return skipShort(data, i)
}

var sink int

func BenchmarkTmpSkip(b *testing.B) {
	data := []byte(strings.Repeat("Sentence 1 about the history: the export to CSV fails with an error 500. ", 20) + `"`)
	b.Run("old", func(b *testing.B) {
		for b.Loop() {
			sink += oldSkip(data, 0)
		}
	})
	b.Run("new", func(b *testing.B) {
		for b.Loop() {
			sink += skipPlain(data, 0)
		}
	})
}

func TestTmpSkipLong(t *testing.T) {
	for n := 0; n < 1300; n += 7 {
		for at := 0; at <= n; at += 3 {
			for _, special := range []byte{'"', '\\', 0x1F, 0x80, 0xE2, 0x00, 0xFF} {
				data := make([]byte, n)
				for i := range data {
					data[i] = 'a' + byte(i%26)
				}
				want := n
				if at < n {
					data[at] = special
					want = at
				}
				if got := skipPlain(data, 0); got != want {
					t.Fatalf("len %d, %#x at %d: skipPlain = %d", n, special, at, got)
				}
			}
		}
	}
}

func BenchmarkTmpMed(b *testing.B) {
	data := []byte(strings.Repeat(`"Sentence 1 about the history: the export to CSV fails", `, 40))
	for _, f := range []struct{ n string; f func([]byte, int) int }{{"old", oldSkip}, {"new", skipPlain}} {
		b.Run(f.n, func(b *testing.B) {
			for b.Loop() {
				for i := 1; i < len(data); {
					i = f.f(data, i)
					i += 4
				}
			}
		})
	}
}
