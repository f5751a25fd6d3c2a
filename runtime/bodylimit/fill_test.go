package bodylimit

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// TestFillReadsExactly: fill returns exactly the source's bytes up to max,
// errPastMax past it, whatever the reader's chunking (one byte at a time,
// data with EOF, half reads) and however wrong the declared length, and
// gives back every byte it reserved when it fails.
func TestFillReadsExactly(t *testing.T) {
	const max = 3*firstChunk + 7
	readers := map[string]func(io.Reader) io.Reader{
		"plain":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"data+EOF": iotest.DataErrReader,
		"half":     iotest.HalfReader,
	}
	for _, n := range []int{0, 1, firstChunk - 1, firstChunk, firstChunk + 1, max - 1, max, max + 1, 2 * max} {
		src := bytes.Repeat([]byte("abcdefg"), n/7+1)[:n]
		for name, wrap := range readers {
			for _, hint := range []int64{0, int64(n), int64(n) / 2, max} {
				acct := &accountant{}
				got, held, err := fill(wrap(bytes.NewReader(src)), max, hint, acct)
				switch {
				case n > max && !errors.Is(err, errPastMax):
					t.Fatalf("%d bytes, %s, hint %d: err %v, want errPastMax", n, name, hint, err)
				case n > max && acct.held != 0:
					t.Fatalf("%d bytes, %s, hint %d: %d bytes still reserved after a refusal", n, name, hint, acct.held)
				case n <= max && (err != nil || !bytes.Equal(got, src)):
					t.Fatalf("%d bytes, %s, hint %d: got %d bytes, %v", n, name, hint, len(got), err)
				case n <= max && held != acct.held:
					t.Fatalf("%d bytes, %s, hint %d: fill says %d held, the accountant %d", n, name, hint, held, acct.held)
				}
			}
		}
	}
}

// TestFillPassesErrors: a read error is passed on, never taken for the
// end of the body (io.ReadFull would make a truncated gzip stream's
// io.ErrUnexpectedEOF look like a short body).
func TestFillPassesErrors(t *testing.T) {
	for _, want := range []error{io.ErrUnexpectedEOF, errors.New("boom")} {
		src := io.MultiReader(bytes.NewReader([]byte("abc")), iotest.ErrReader(want))
		if _, _, err := fill(src, 1<<20, 0, nil); !errors.Is(err, want) {
			t.Fatalf("err %v, want %v", err, want)
		}
	}
}

// accountant is a reserver that counts what is held.
type accountant struct{ held int64 }

func (a *accountant) reserve(n int64) error { a.held += n; return nil }
func (a *accountant) release(n int64)       { a.held -= n }

// FuzzFill: fill reads any source exactly, or refuses it past max,
// whatever the declared length and the reader's chunking, and leaves no
// reservation behind on a refusal.
func FuzzFill(f *testing.F) {
	f.Add([]byte("abc"), int64(3), uint16(10), false)
	f.Add(make([]byte, 200), int64(50), uint16(199), true)
	f.Add(make([]byte, 200), int64(1000), uint16(200), false)
	f.Fuzz(func(t *testing.T, data []byte, hint int64, max uint16, oneByte bool) {
		var src io.Reader = bytes.NewReader(data)
		if oneByte {
			src = iotest.OneByteReader(src)
		}
		acct := &accountant{}
		got, held, err := fill(src, int64(max), hint, acct)
		switch {
		case len(data) > int(max) && (!errors.Is(err, errPastMax) || acct.held != 0):
			t.Fatalf("%d bytes past %d: err %v, %d held", len(data), max, err, acct.held)
		case len(data) <= int(max) && (err != nil || !bytes.Equal(got, data) || held != acct.held):
			t.Fatalf("%d bytes within %d: %d bytes, %v, %d held of %d", len(data), max, len(got), err, held, acct.held)
		}
	})
}
