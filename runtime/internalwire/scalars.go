package internalwire

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

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
