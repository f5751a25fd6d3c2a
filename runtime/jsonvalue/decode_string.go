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
// (< 0x20), '"', '\\', or a byte >= 0x80. The tests are the classic "has a
// byte less than n" and "has a zero byte" bit tricks: the lowest flagged
// byte is always a true one (a borrow only flags bytes above a true one),
// so the scan may jump straight to it.
func specialMask(x uint64) uint64 {
	quote := x ^ (ones * '"')
	slash := x ^ (ones * '\\')
	control := (x - ones*0x20) &^ x
	return (control | (quote-ones)&^quote | (slash-ones)&^slash | x) & highs
}

// skipPlain returns the offset of the first byte at or after i that is not
// safeASCII, or len(data).
func skipPlain(data []byte, i int) int {
	for i+16 <= len(data) {
		lo := specialMask(binary.LittleEndian.Uint64(data[i:]))
		hi := specialMask(binary.LittleEndian.Uint64(data[i+8:]))
		if lo|hi != 0 {
			if lo != 0 {
				return i + bits.TrailingZeros64(lo)>>3
			}
			return i + 8 + bits.TrailingZeros64(hi)>>3
		}
		i += 16
	}
	for i+8 <= len(data) {
		if m := specialMask(binary.LittleEndian.Uint64(data[i:])); m != 0 {
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
func (d *decoder) str() (escaped bool, ok bool) {
	data := d.data
	i := d.pos + 1
	for {
		i = skipPlain(data, i)
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
	r, _ := hex4(data[i+2:])
	return r, true
}

func isHex(c byte) bool {
	return isDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f')
}
