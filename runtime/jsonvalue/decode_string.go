package jsonvalue

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// Word-at-a-time constants: each byte of ones is 0x01, of highs 0x80.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specialMask flags, in the high bit of each byte, the bytes of the eight
// packed in x that a string scan must look at: a control character
// (< 0x20), '"', '\\', or a byte >= 0x80. Each term is a "has a byte below
// n" or "has a zero byte" bit trick, which may also flag bytes above a
// flagged one (a borrow runs upwards) but never below it, so the lowest
// flagged byte is always a true one and the scan may jump straight to it.
// The usual "&^ x" that stops bytes >= 0x80 from being flagged is left out:
// those bytes are special here, and "| x" flags them anyway.
func specialMask(x uint64) uint64 {
	control := x - ones*0x20
	quote := (x ^ (ones * '"')) - ones
	slash := (x ^ (ones * '\\')) - ones
	return (control | quote | slash | x) & highs
}

// skipPlain returns the offset of the first byte at or after i that is not
// safeASCII, or len(data). Long runs go 32 bytes a step, looking at the
// four words' masks only when one of them flags a byte.
func skipPlain(data []byte, i int) int {
	for i+32 <= len(data) {
		// One bounds check for the four words: constant offsets into an
		// array need none.
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
	for i+8 <= len(data) {
		if m := specialMask(binary.LittleEndian.Uint64(data[i : i+8])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(data) && safeASCII[data[i]] {
		i++
	}
	return i
}

// str reads the string literal starting at d.pos (its opening quote) and
// leaves d.pos just past its closing quote. It validates escapes and UTF-8
// and reports whether the literal holds any escape.
//
// Most names and short values end within their first eight bytes, so the
// first word is looked at here, before skipPlain's 32-byte steps.
func (d *decoder) str() (escaped bool, ok bool) {
	data := d.data
	i := d.pos + 1
	if i+8 <= len(data) {
		if m := specialMask(binary.LittleEndian.Uint64(data[i : i+8])); m != 0 {
			i += bits.TrailingZeros64(m) >> 3
		} else {
			i = skipPlain(data, i+8)
		}
	} else {
		i = skipPlain(data, i)
	}
	for {
		if i >= len(data) {
			return escaped, d.failEnd()
		}
		switch c := data[i]; {
		case c == '"':
			d.pos = i + 1
			return escaped, true
		case c == '\\':
			escaped = true
			if i, ok = d.escape(i); !ok {
				return escaped, false
			}
		case c < 0x20:
			return escaped, d.fail(i, ReasonInvalidSyntax, "control character in a string")
		default:
			size := runeSize(data, i)
			if size == 0 {
				return escaped, d.fail(i, ReasonInvalidUTF8, "invalid UTF-8 in a string")
			}
			i += size
		}
		i = skipPlain(data, i)
	}
}

// runeSize returns the length of the valid multi-byte UTF-8 sequence at
// data[i], or 0 when it is invalid (overlong, a surrogate, beyond U+10FFFF,
// or cut short). Two- and three-byte sequences, the common ones, are checked
// inline.
func runeSize(data []byte, i int) int {
	c := data[i]
	switch {
	case c >= 0xC2 && c < 0xE0:
		if i+1 < len(data) && data[i+1]&0xC0 == 0x80 {
			return 2
		}
		return 0
	case c >= 0xE0 && c < 0xF0 && i+2 < len(data):
		c1, c2 := data[i+1], data[i+2]
		if c1&0xC0 != 0x80 || c2&0xC0 != 0x80 ||
			(c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) {
			return 0
		}
		return 3
	}
	r, size := utf8.DecodeRune(data[i:])
	if r == utf8.RuneError && size == 1 {
		return 0
	}
	return size
}

// escape validates the escape sequence at data[i] ('\\') and returns the
// offset just past it. A \u escape of a high surrogate must be followed by
// one of a low surrogate; any other surrogate escape is refused.
func (d *decoder) escape(i int) (int, bool) {
	data := d.data
	if i+1 >= len(data) {
		return i, d.failEnd()
	}
	switch data[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2, true
	case 'u':
	default:
		return i, d.fail(i, ReasonInvalidSyntax, "invalid escape in a string")
	}
	r, ok := d.hexEscape(i)
	if !ok {
		return i, false
	}
	switch {
	case r < 0xD800 || r >= 0xE000:
		return i + 6, true
	case r >= 0xDC00:
		return i, d.fail(i, ReasonInvalidUTF8, "escaped lone low surrogate")
	}
	j := i + 6
	switch {
	case j >= len(data):
		return i, d.failEnd()
	case data[j] != '\\':
		return i, d.fail(i, ReasonInvalidUTF8, "escaped lone high surrogate")
	case j+1 >= len(data):
		return i, d.failEnd()
	case data[j+1] != 'u':
		return i, d.fail(i, ReasonInvalidUTF8, "escaped lone high surrogate")
	}
	lo, ok := d.hexEscape(j)
	if !ok {
		return i, false
	}
	if lo < 0xDC00 || lo >= 0xE000 {
		return i, d.fail(i, ReasonInvalidUTF8, "escaped lone high surrogate")
	}
	return j + 6, true
}

// hexEscape reads the four hex digits of the \u escape at data[i].
func (d *decoder) hexEscape(i int) (rune, bool) {
	data := d.data
	for k := i + 2; k < i+6; k++ {
		if k >= len(data) {
			return 0, d.failEnd()
		}
		if !isHex(data[k]) {
			return 0, d.fail(k, ReasonInvalidSyntax, "invalid hex digit in a \\u escape")
		}
	}
	return hex4(data[i+2:]), true
}

func isHex(c byte) bool {
	return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f')
}
