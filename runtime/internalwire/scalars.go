package internalwire

import (
	"bytes"

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
		note(lm, raw, jsonvalue.AppendString(nil, s))
	}
}

// quotedCanonically reports whether raw, the quoted spelling of s, is the
// canonical one.
func quotedCanonically(raw []byte, s string) bool {
	return bytes.IndexByte(raw, '\\') < 0 || bytes.Equal(raw, jsonvalue.AppendString(nil, s))
}
