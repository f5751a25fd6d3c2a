package internalwire

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// The readers of the scalars the IR holds decoded. Each checks the JSON
// type and records, on the member's layout, a literal that was not written
// canonically, so the encoder can replay it.

func wrongType(path ir.Path, want string) error {
	return ir.Refuse(ir.ReasonWrongType, path, "must be "+want)
}

func readString(v jsonvalue.Value, path ir.Path, lm *ir.LayoutMember) (string, error) {
	if v.Kind() != jsonvalue.KindString {
		return "", wrongType(path, "a string")
	}
	s := v.Str()
	noteString(lm, v.Raw(), s)
	return s, nil
}

func readBool(v jsonvalue.Value, path ir.Path) (*bool, error) {
	if v.Kind() != jsonvalue.KindBool {
		return nil, wrongType(path, "a boolean")
	}
	b := v.Bool()
	return &b, nil
}

// readInt reads an integer literal (1.0 and 1e3 are refused: the internal
// form writes integers as integers) of at least min.
func readInt(v jsonvalue.Value, path ir.Path, min int64, lm *ir.LayoutMember) (*int64, error) {
	n, ok := v.Int()
	if !ok {
		return nil, wrongType(path, "an integer")
	}
	if n < min {
		return nil, ir.Refuse(ir.ReasonOutOfRange, path, "must be at least "+strconv.FormatInt(min, 10))
	}
	note(lm, v.Raw(), strconv.AppendInt(nil, n, 10))
	return &n, nil
}

// readNumber reads a finite number that inRange accepts; want says which
// numbers those are.
func readNumber(v jsonvalue.Value, path ir.Path, inRange func(float64) bool, want string, lm *ir.LayoutMember) (*float64, error) {
	f, ok := v.Float()
	if !ok {
		return nil, wrongType(path, "a finite number")
	}
	if !inRange(f) {
		return nil, ir.Refuse(ir.ReasonOutOfRange, path, "must be "+want)
	}
	note(lm, v.Raw(), appendFloat(nil, f))
	return &f, nil
}

// readContent checks a content value: a string, an object or an array, or
// null where nullable.
func readContent(v jsonvalue.Value, path ir.Path, nullable bool) error {
	switch v.Kind() {
	case jsonvalue.KindString, jsonvalue.KindObject, jsonvalue.KindArray:
		return nil
	case jsonvalue.KindNull:
		if nullable {
			return nil
		}
	}
	if nullable {
		return wrongType(path, "a string, an object, an array or null")
	}
	return wrongType(path, "a string, an object or an array")
}

// note records raw on lm when it differs from the canonical canon.
func note(lm *ir.LayoutMember, raw, canon []byte) {
	if lm != nil && !bytes.Equal(raw, canon) {
		lm.Raw, lm.Canon = raw, canon
	}
}

// noteString records a string literal written with escapes the canonical
// quoting would not use. A literal without a backslash is canonical: JSON
// forbids raw control characters and quotes, and the decoder has checked
// its UTF-8.
func noteString(lm *ir.LayoutMember, raw []byte, s string) {
	if lm != nil && bytes.IndexByte(raw, '\\') >= 0 {
		note(lm, raw, appendString(nil, s))
	}
}

// quotedCanonically reports whether raw, the quoted spelling of s, is the
// canonical one.
func quotedCanonically(raw []byte, s string) bool {
	return bytes.IndexByte(raw, '\\') < 0 || bytes.Equal(raw, appendString(nil, s))
}

// appendString appends s quoted with the standard escaping (jsonvalue's),
// without building a Value for the common all-plain case.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return jsonvalue.AppendCompact(dst, jsonvalue.String(s))
		}
	}
	if !utf8.ValidString(s) {
		return jsonvalue.AppendCompact(dst, jsonvalue.String(s))
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// appendFloat appends f in jsonvalue.Float's shortest form.
func appendFloat(dst []byte, f float64) []byte {
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}
