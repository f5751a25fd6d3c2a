package bodylimit

import (
	"errors"
	"io"
)

// Chunk sizes of a body read to its end: the first chunk is firstChunk,
// each next one twice the last, up to maxChunk. A body that fits in one
// chunk is returned as it is; a longer one is copied once into a slice of
// its exact length.
//
// A body that declared its length (Content-Length) is read the same way
// until half of it has arrived, then gathered into one slice of the
// declared length, which the rest is read into: memory follows what the
// client has sent (a client that declares 32 MiB and stalls costs 64 KiB,
// not 32 MiB), and the body, once read, is one slice without a last copy.
//
// Invariant: reading a body of n bytes allocates at most about 2n bytes
// (1.5n with a declared length), never more than twice what has arrived
// plus one chunk, and a body refused past max about max bytes: never the
// doubling of a growing buffer (bytes.Buffer can hold 2x the body in its
// last buffer plus the garbage of every earlier one).
const (
	firstChunk = 64 << 10
	maxChunk   = 4 << 20
)

// errPastMax is fill's error for a source longer than max bytes.
var errPastMax = errors.New("bodylimit: past the maximum")

// reserver accounts for the memory fill allocates: reserve is called
// before each allocation of n bytes and may refuse it; release gives n
// bytes back. A nil reserver accounts for nothing.
type reserver interface {
	reserve(n int64) error
	release(n int64)
}

// fill reads src to its end into memory and returns the bytes, or
// errPastMax as soon as src has more than max bytes (having read max+1 at
// most), or src's read error. hint is the length the source declared (0
// for unknown); a wrong one costs memory, never correctness.
//
// On success the returned slice holds held bytes of r's reservation,
// which the caller releases when it drops the slice; on error fill has
// released everything it reserved.
func fill(src io.Reader, max, hint int64, r reserver) (body []byte, held int64, err error) {
	f := filler{src: src, max: max, r: r}
	hint = min(hint, max)
	size := int64(firstChunk)
	if hint > 0 {
		size = min(size, hint)
	}
	for {
		if hint > 0 && !f.gathered && f.total >= hint/2 {
			err = f.gather(hint)
		} else {
			err = f.next(min(size, max-f.total))
			size = min(2*size, maxChunk)
		}
		var done bool
		if err == nil {
			done, err = f.read()
		}
		switch {
		case err != nil:
			f.releaseAll()
			return nil, 0, err
		case done:
			return f.join()
		}
	}
}

// filler is the state of one fill: full chunks, and cur, the chunk being
// read into (its length what it holds, its capacity its size).
type filler struct {
	src      io.Reader
	max      int64
	r        reserver
	full     [][]byte
	cur      []byte
	total    int64 // bytes read
	held     int64 // bytes reserved
	gathered bool
	// probe is the byte read past a full chunk; carry says it waits for
	// the next chunk (it is counted in total already).
	probe [1]byte
	carry bool
}

// next starts a new chunk with room for n more bytes, and the carried
// byte if any.
func (f *filler) next(n int64) error {
	if f.carry {
		n++
	}
	if err := f.reserve(n); err != nil {
		return err
	}
	if f.cur != nil {
		f.full = append(f.full, f.cur)
	}
	f.cur = make([]byte, 0, n)
	if f.carry {
		f.cur, f.carry = append(f.cur, f.probe[0]), false
	}
	return nil
}

// gather copies what was read into one chunk of the declared length n
// (more, if more was read already) and gives back the chunks' reservation.
func (f *filler) gather(n int64) error {
	n = max(n, f.total)
	if err := f.reserve(n); err != nil {
		return err
	}
	c := make([]byte, 0, n)
	freed := int64(0)
	for _, p := range f.full {
		c, freed = append(c, p...), freed+int64(cap(p))
	}
	if f.cur != nil {
		c, freed = append(c, f.cur...), freed+int64(cap(f.cur))
	}
	if f.carry {
		c, f.carry = append(c, f.probe[0]), false
	}
	f.full, f.cur, f.gathered = nil, c, true
	f.unreserve(freed)
	return nil
}

// read fills cur. done reports that src ended; a source longer than max
// is errPastMax. A full chunk is followed by a one-byte probe, so a source
// that ends exactly there (a declared length read whole) costs no further
// chunk; a probed byte starts the next one.
func (f *filler) read() (done bool, err error) {
	start := len(f.cur)
	k, err := readFull(f.src, f.cur[start:cap(f.cur)])
	f.cur = f.cur[:start+k]
	f.total += int64(k)
	switch {
	case f.total > f.max:
		return false, errPastMax
	case err == io.EOF:
		return true, nil
	case err != nil:
		return false, err
	}
	k, err = readFull(f.src, f.probe[:])
	switch {
	case k == 0 && err == io.EOF:
		return true, nil
	case k == 0:
		return false, err
	case f.total+1 > f.max:
		return false, errPastMax
	}
	f.total++
	f.carry = true
	return false, nil
}

func (f *filler) reserve(n int64) error {
	if f.r == nil {
		return nil
	}
	if err := f.r.reserve(n); err != nil {
		return err
	}
	f.held += n
	return nil
}

func (f *filler) unreserve(n int64) {
	if f.r != nil && n > 0 {
		f.r.release(n)
		f.held -= n
	}
}

func (f *filler) releaseAll() {
	f.unreserve(f.held)
	f.full, f.cur = nil, nil
}

// join returns the body: the one chunk as it is, or every chunk copied
// into one slice of the exact length, reserved before it is made; the
// chunks' reservation is given back once they are copied.
func (f *filler) join() ([]byte, int64, error) {
	if len(f.full) == 0 {
		return f.cur, f.held, nil
	}
	chunksHeld := f.held
	if err := f.reserve(f.total); err != nil {
		f.releaseAll()
		return nil, 0, err
	}
	body := make([]byte, 0, f.total)
	for _, c := range f.full {
		body = append(body, c...)
	}
	body = append(body, f.cur...)
	f.full, f.cur = nil, nil
	f.unreserve(chunksHeld)
	return body, f.held, nil
}

// readFull reads until p is full, src ends (io.EOF, whatever was read
// before it) or src fails. Unlike io.ReadFull it never turns an early end
// into io.ErrUnexpectedEOF, which a gzip reader returns for a truncated
// stream and must stay an error.
func readFull(src io.Reader, p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k, err := src.Read(p[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
