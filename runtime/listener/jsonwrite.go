package listener

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// errNotFinite: JSON cannot carry NaN or an infinity, so an answer holding
// one is an engine bug the server reports, not a body to write.
var errNotFinite = errors.New("listener: a number to write is NaN or infinite")

// writer appends one JSON document. It is append-based and reflection-free;
// content values are written by jsonvalue's compact encoder.
type writer struct {
	dst []byte
	err error
}

// key writes a member name (with the comma before it unless first) and
// the colon.
func (w *writer) key(name string, first bool) {
	if !first {
		w.dst = append(w.dst, ',')
	}
	w.dst = appendString(w.dst, name)
	w.dst = append(w.dst, ':')
}

func (w *writer) str(s string) { w.dst = appendString(w.dst, s) }

func (w *writer) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.err = errNotFinite
		f = 0
	}
	w.dst = strconv.AppendFloat(w.dst, f, 'g', -1, 64)
}

func (w *writer) int(n int64) { w.dst = strconv.AppendInt(w.dst, n, 10) }

func (w *writer) content(v jsonvalue.Value) { w.dst = jsonvalue.AppendCompact(w.dst, v) }

// appendString appends s quoted with jsonvalue's standard escaping, without
// building a Value for the common all-plain case.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			if c >= utf8.RuneSelf && utf8.ValidString(s[i:]) && plainFrom(s, i) {
				break
			}
			return jsonvalue.AppendCompact(dst, jsonvalue.String(s))
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// plainFrom reports whether s[i:] holds no byte the escaping changes.
func plainFrom(s string, i int) bool {
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}
