package jsonvalue

import (
	"bytes"
	"unicode/utf8"
)

// The standard escaping, used for every string this package writes from
// decoded text (constructors, names built with Object, the Python encoder):
// '"' and '\\' are escaped, the control characters U+0000..U+001F are written
// as \b \f \n \r \t or \u00XX with lowercase hex, and every other character,
// U+007F and U+2028 included, is written as raw UTF-8. It is exactly the
// escaping of Python's json.dumps(..., ensure_ascii=False), so a constructed
// string writes the same bytes in the compact and the Python form.

const hexDigits = "0123456789abcdef"

// safeASCII[c] reports whether byte c stands for itself inside a JSON string
// under the standard escaping: printable ASCII (with U+007F) other than '"'
// and '\\'. Bytes >= 0x80 are false: they start UTF-8 sequences to validate.
var safeASCII = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// AppendString appends s as a JSON string with the standard escaping, as
// String and the compact encoder write it. Runs of invalid UTF-8 are
// written as one U+FFFD each, as strings.ToValidUTF8 replaces them.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if safeASCII[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			for i < len(s) {
				if r, size = utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError || size != 1 {
					break
				}
				i++
			}
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		dst = appendEscapedASCII(dst, c)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendEscapedASCII appends the standard escape of an ASCII byte that is
// not safeASCII: '"', '\\' or a control character.
func appendEscapedASCII(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
}

// appendRequoted appends the string literal raw (quotes included, escapes as
// written, already validated) in the standard escaping: the decoded text
// quoted again. A literal without escapes is already in that form, since a
// valid literal holds no raw '"', '\\' or control character.
func appendRequoted(dst []byte, raw []byte) []byte {
	if bytes.IndexByte(raw, '\\') < 0 {
		return append(dst, raw...)
	}
	return append(appendUnquoted(append(dst, '"'), raw, true), '"')
}

// unquote returns the decoded text of a string literal (quotes included,
// escapes as written, already validated by the decoder or written by
// AppendString).
func unquote(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	return string(appendUnquoted(make([]byte, 0, len(raw)), raw, false))
}

// appendUnquoted appends the decoded text of a validated string literal;
// with escape, in the standard escaping (which the text between its
// escapes is in already: see appendRequoted).
func appendUnquoted(dst []byte, raw []byte, escape bool) []byte {
	body := raw[1 : len(raw)-1]
	for {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			return append(dst, body...)
		}
		dst = append(dst, body[:i]...)
		r, n := decodeEscape(body[i:])
		if escape && r < utf8.RuneSelf && !safeASCII[r] {
			dst = appendEscapedASCII(dst, byte(r))
		} else {
			dst = utf8.AppendRune(dst, r)
		}
		body = body[i+n:]
	}
}

// decodeEscape decodes the escape sequence at the start of esc (esc[0] is
// '\\') and returns the rune and the number of bytes it spans. The escape
// is valid: every string literal a Value holds was validated by the
// decoder (which refuses a lone surrogate) or written by AppendString, so
// a \u escape of a surrogate is a high one followed by a low one, and the
// pair spans both escapes.
func decodeEscape(esc []byte) (rune, int) {
	switch esc[1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r := hex4(esc[2:])
		if r < 0xD800 || r >= 0xE000 {
			return r, 6
		}
		return 0x10000 + (r-0xD800)<<10 + (hex4(esc[8:]) - 0xDC00), 12
	}
	return rune(esc[1]), 2 // '"', '\\', '/'
}

// hex4 is the value of the four hex digits, already validated, at the
// start of b.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		d := rune(c - '0')
		if c > '9' {
			d = rune(c|0x20-'a') + 10
		}
		r = r<<4 | d
	}
	return r
}
