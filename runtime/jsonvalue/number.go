package jsonvalue

import (
	"bytes"
	"math"
	"strconv"
)

// numberFault says why scanNumber stopped short of a valid literal.
type numberFault uint8

const (
	numberOK        numberFault = iota
	numberTruncated             // the input ended inside the literal
	numberMalformed             // a byte that cannot continue the literal
	numberLeadingZero
)

// scanNumber reads the JSON number literal that starts at b[i]:
//
//	-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?
//
// It returns the offset just past the literal, or, when fault is not
// numberOK, the offset of the byte at fault (len(b) when truncated). The
// literal ends at the first byte that cannot continue it; what follows is
// the caller's to judge, except that a digit after a leading 0 is a fault.
func scanNumber(b []byte, i int) (end int, fault numberFault) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i >= len(b) {
		return i, numberTruncated
	}
	switch c := b[i]; {
	case c == '0':
		i++
		if i < len(b) && isDigit(b[i]) {
			return i, numberLeadingZero
		}
	case c >= '1' && c <= '9':
		i = skipDigits(b, i+1)
	default:
		return i, numberMalformed
	}
	if i < len(b) && b[i] == '.' {
		if i, fault = digitsAfter(b, i+1); fault != numberOK {
			return i, fault
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i, fault = digitsAfter(b, i); fault != numberOK {
			return i, fault
		}
	}
	return i, numberOK
}

// digitsAfter requires at least one digit at b[i] and skips the run.
func digitsAfter(b []byte, i int) (int, numberFault) {
	if i >= len(b) {
		return i, numberTruncated
	}
	if !isDigit(b[i]) {
		return i, numberMalformed
	}
	return skipDigits(b, i+1), numberOK
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// appendPythonNumber appends a valid number literal as Python writes
// json.loads' result for it: an integer literal is a Python int, printed
// exactly ("-0" becomes "0"); any other literal is a float, printed as
// repr(float), with Infinity and -Infinity for literals beyond float64.
func appendPythonNumber(dst []byte, lit []byte) []byte {
	if !bytes.ContainsAny(lit, ".eE") { // neither fraction nor exponent
		if len(lit) == 2 && lit[0] == '-' && lit[1] == '0' {
			return append(dst, '0')
		}
		return append(dst, lit...)
	}
	// A range error still returns the correctly rounded ±Inf or ±0.
	f, _ := strconv.ParseFloat(string(lit), 64)
	return appendPythonFloat(dst, f)
}

// appendPythonFloat appends Python's repr of a float64 as json.dumps writes
// it: the shortest digits that round-trip, in exponent form ("1e+16",
// "1e-05", "1.5e+300") when the decimal exponent is below -4 or at least
// 16, else positional with at least one fractional digit ("100.0").
func appendPythonFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	var buf [32]byte
	// Go's 'e' form with the shortest digits is "-d.ddde±XX", with at least
	// two exponent digits: Python's exponent form exactly.
	sci := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	mark := bytes.IndexByte(sci, 'e')
	exp, _ := strconv.Atoi(string(sci[mark+1:]))
	if exp < -4 || exp >= 16 {
		return append(dst, sci...)
	}
	if sci[0] == '-' {
		dst = append(dst, '-')
		sci = sci[1:]
		mark--
	}
	var digitBuf [24]byte
	digits := append(digitBuf[:0], sci[0])
	if mark > 1 {
		digits = append(digits, sci[2:mark]...) // skip the '.'
	}
	point := exp + 1 // digits before the decimal point
	switch {
	case point <= 0:
		dst = append(dst, '0', '.')
		for ; point < 0; point++ {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	case point >= len(digits):
		dst = append(dst, digits...)
		for n := len(digits); n < point; n++ {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	}
	dst = append(dst, digits[:point]...)
	dst = append(dst, '.')
	return append(dst, digits[point:]...)
}
