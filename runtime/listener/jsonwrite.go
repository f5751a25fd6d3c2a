package listener

import (
	"errors"
	"math"
	"strconv"

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
	w.dst = jsonvalue.AppendString(w.dst, name)
	w.dst = append(w.dst, ':')
}

func (w *writer) str(s string) { w.dst = jsonvalue.AppendString(w.dst, s) }

func (w *writer) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.err = errNotFinite
		f = 0
	}
	w.dst = jsonvalue.AppendFloat(w.dst, f)
}

func (w *writer) int(n int64) { w.dst = strconv.AppendInt(w.dst, n, 10) }

func (w *writer) content(v jsonvalue.Value) { w.dst = jsonvalue.AppendCompact(w.dst, v) }
