package jsonvalue

import "strconv"

// ObjectWriter appends one JSON object, member by member, with no
// reflection and no Value built: every hand-written writer of a JSON
// object (the request writer, the answer writers) writes through it, so
// member separators and name quoting are decided in one place. Open it
// with OpenObject, write each member as Name (or RawName) then a value
// appended to Dst, and Close it.
type ObjectWriter struct {
	Dst []byte
	n   int
}

// OpenObject starts an object at the end of dst.
func OpenObject(dst []byte) ObjectWriter {
	return ObjectWriter{Dst: append(dst, '{')}
}

// Name writes the separator before every member but the first, name
// quoted with the standard escaping, and the colon.
func (o *ObjectWriter) Name(name string) {
	o.separate()
	o.Dst = AppendString(o.Dst, name)
	o.Dst = append(o.Dst, ':')
}

// RawName is Name for a name already quoted, written as given.
func (o *ObjectWriter) RawName(quoted []byte) {
	o.separate()
	o.Dst = append(o.Dst, quoted...)
	o.Dst = append(o.Dst, ':')
}

func (o *ObjectWriter) separate() {
	if o.n > 0 {
		o.Dst = append(o.Dst, ',')
	}
	o.n++
}

// Len is the number of members written.
func (o *ObjectWriter) Len() int { return o.n }

// Close ends the object and returns the bytes.
func (o *ObjectWriter) Close() []byte { return append(o.Dst, '}') }

// AppendFloat appends f in Float's shortest form. The caller keeps NaN
// and infinities out: JSON cannot carry them.
func AppendFloat(dst []byte, f float64) []byte { return strconv.AppendFloat(dst, f, 'g', -1, 64) }
