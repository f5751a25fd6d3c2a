package jsonvalue

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// firstSpecial is the reference for specialMask: the index of the first
// byte of word that is not safeASCII, or 8.
func firstSpecial(word [8]byte) int {
	for i, c := range word {
		if !safeASCII[c] {
			return i
		}
	}
	return 8
}

func maskFirst(word [8]byte) int {
	m := specialMask(binary.LittleEndian.Uint64(word[:]))
	if m == 0 {
		return 8
	}
	return bits.TrailingZeros64(m) >> 3
}

// TestSpecialMaskFindsTheFirstSpecialByte checks the word-at-a-time scan
// against the byte table: every pair of byte values at every pair of
// adjacent positions (so every borrow between neighbours), and random
// words drawn mostly from the bytes around the special ones.
func TestSpecialMaskFindsTheFirstSpecialByte(t *testing.T) {
	plain := [8]byte{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}
	for pos := 0; pos < 7; pos++ {
		for lo := 0; lo < 256; lo++ {
			for hi := 0; hi < 256; hi++ {
				w := plain
				w[pos], w[pos+1] = byte(lo), byte(hi)
				if got, want := maskFirst(w), firstSpecial(w); got != want {
					t.Fatalf("% x: specialMask finds byte %d, want %d", w, got, want)
				}
			}
		}
	}
	near := []byte{0x00, 0x01, 0x1F, 0x20, 0x21, '"', 0x23, 0x5B, '\\', 0x5D, 0x7F, 0x80, 0x81, 0xA0, 0xA2, 0xDC, 0xFF}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		var w [8]byte
		for i := range w {
			if rng.IntN(4) == 0 {
				w[i] = byte(rng.IntN(256))
			} else {
				w[i] = near[rng.IntN(len(near))]
			}
		}
		if got, want := maskFirst(w), firstSpecial(w); got != want {
			t.Fatalf("% x: specialMask finds byte %d, want %d", w, got, want)
		}
	}
}

// TestSkipPlainStopsAtTheFirstSpecialByte checks every run length and
// special byte position across the 32-byte, 8-byte and byte-wise steps.
func TestSkipPlainStopsAtTheFirstSpecialByte(t *testing.T) {
	for n := 0; n < 80; n++ {
		for at := 0; at <= n; at++ {
			for _, special := range []byte{'"', '\\', 0x1F, 0x80, 0xE2} {
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
