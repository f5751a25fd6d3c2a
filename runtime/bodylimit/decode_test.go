package bodylimit

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// readers are the two ways to read a body; limit logic is the same.
var readers = []struct {
	name string
	read func(http.ResponseWriter, *http.Request, int64) ([]byte, error)
}{
	{"Read", Read},
	{"ReadDecoded", ReadDecoded},
}

func request(body io.Reader, contentLength int64, coding ...string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/", body)
	r.ContentLength = contentLength
	for _, c := range coding {
		r.Header.Add("Content-Encoding", c)
	}
	return r
}

func wantTooLarge(t *testing.T, what string, err error, limit int64) {
	t.Helper()
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Limit != limit {
		t.Fatalf("%s: err %v, want a TooLargeError with limit %d", what, err, limit)
	}
}

func TestLimitExactlyAndOnePast(t *testing.T) {
	const limit = 100
	for _, rd := range readers {
		for _, declared := range []bool{true, false} {
			at := strings.Repeat("x", limit)
			length := func(n int) int64 {
				if declared {
					return int64(n)
				}
				return -1
			}
			got, err := rd.read(httptest.NewRecorder(), request(strings.NewReader(at), length(limit)), limit)
			if err != nil || string(got) != at {
				t.Fatalf("%s, declared %v: at the limit got %d bytes, %v", rd.name, declared, len(got), err)
			}
			_, err = rd.read(httptest.NewRecorder(), request(strings.NewReader(at+"x"), length(limit+1)), limit)
			wantTooLarge(t, rd.name+" one past the limit", err, limit)
		}
	}
}

// failIfRead is a body that must not be read.
type failIfRead struct{ t *testing.T }

func (f failIfRead) Read([]byte) (int, error) {
	f.t.Error("a body whose Content-Length is over the limit was read")
	return 0, errors.New("read")
}

func TestContentLengthOverTheLimitReadsNothing(t *testing.T) {
	for _, rd := range readers {
		for _, coding := range [][]string{nil, {"gzip"}, {"br"}} {
			_, err := rd.read(httptest.NewRecorder(), request(failIfRead{t}, 65, coding...), 64)
			wantTooLarge(t, rd.name, err, 64)
		}
	}
}

func TestChunkedOverTheLimit(t *testing.T) {
	for _, rd := range readers {
		src := &countingReader{r: &zeros{n: 1 << 30}}
		_, err := rd.read(httptest.NewRecorder(), request(src, -1), 1<<10)
		wantTooLarge(t, rd.name, err, 1<<10)
		if n := src.n.Load(); n > 4096 {
			t.Fatalf("%s read %d bytes for a 1 KiB limit", rd.name, n)
		}
	}
}

func TestGzipIsUndoneOnlyByReadDecoded(t *testing.T) {
	plain := []byte(`{"state":"` + strings.Repeat("é", 300) + `"}`)
	packed := gzipped(t, plain)
	for _, coding := range [][]string{{"gzip"}, {"x-gzip"}, {" GZip "}, {"identity, gzip"}, {"gzip", "identity"}} {
		got, err := ReadDecoded(httptest.NewRecorder(), request(bytes.NewReader(packed), int64(len(packed)), coding...), 1<<20)
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%q: got %d bytes, %v", coding, len(got), err)
		}
		got, err = Read(httptest.NewRecorder(), request(bytes.NewReader(packed), int64(len(packed)), coding...), 1<<20)
		if err != nil || !bytes.Equal(got, packed) {
			t.Fatalf("Read, %q: got %d bytes, %v; want the bytes as sent", coding, len(got), err)
		}
	}
	for _, coding := range [][]string{nil, {"identity"}, {"IDENTITY"}} {
		got, err := ReadDecoded(httptest.NewRecorder(), request(bytes.NewReader(plain), -1, coding...), 1<<20)
		if err != nil || !bytes.Equal(got, plain) {
			t.Fatalf("%q: got %d bytes, %v", coding, len(got), err)
		}
	}
}

// The limit applies to the decoded size: exactly the limit inflates,
// one byte more is too large though the compressed body is tiny.
func TestGzipDecodedLimit(t *testing.T) {
	const limit = 1 << 16
	at := gzipped(t, bytes.Repeat([]byte{'a'}, limit))
	got, err := ReadDecoded(httptest.NewRecorder(), request(bytes.NewReader(at), -1, "gzip"), limit)
	if err != nil || len(got) != limit {
		t.Fatalf("at the limit: %d bytes, %v", len(got), err)
	}
	past := gzipped(t, bytes.Repeat([]byte{'a'}, limit+1))
	_, err = ReadDecoded(httptest.NewRecorder(), request(bytes.NewReader(past), -1, "gzip"), limit)
	wantTooLarge(t, "one past the limit, decoded", err, limit)
}

// A gzip bomb (64 KiB that inflate to 64 MiB) is refused having read
// little of it: inflating stops one byte past the limit.
func TestGzipBombStopsAtTheLimit(t *testing.T) {
	const limit = 1 << 20
	bomb := gzipped(t, make([]byte, 64<<20))
	if len(bomb) >= limit {
		t.Fatalf("the bomb is %d bytes, not under the limit", len(bomb))
	}
	src := &countingReader{r: bytes.NewReader(bomb)}
	_, err := ReadDecoded(httptest.NewRecorder(), request(src, int64(len(bomb)), "gzip"), limit)
	wantTooLarge(t, "gzip bomb", err, limit)
	if n := src.n.Load(); n > 16<<10 {
		t.Fatalf("read %d of the bomb's %d bytes; inflating did not stop at the limit", n, len(bomb))
	}
}

func TestCorruptGzip(t *testing.T) {
	packed := gzipped(t, []byte(strings.Repeat(`{"state":"the export fails"}`, 40)))
	badSum := slices.Clone(packed)
	badSum[len(badSum)-8] ^= 0xff // the CRC-32 in the trailer
	badData := slices.Clone(packed)
	for i := 12; i < 20; i++ {
		badData[i] ^= 0xff
	}
	for _, tc := range []struct {
		name    string
		body    []byte
		notGzip bool
	}{
		{"empty", nil, true},
		{"plain JSON", []byte(`{"state":"x"}`), true},
		{"short header", packed[:5], true},
		{"truncated", packed[:len(packed)-4], false},
		{"checksum", badSum, false},
		{"deflate data", badData, false},
		{"trailing garbage", append(slices.Clone(packed), "garbage!!!!"...), false},
	} {
		_, err := ReadDecoded(httptest.NewRecorder(), request(bytes.NewReader(tc.body), int64(len(tc.body)), "gzip"), 1<<20)
		var ce *CorruptGzipError
		if !errors.As(err, &ce) || ce.NotGzip != tc.notGzip {
			t.Fatalf("%s: err %v, want a CorruptGzipError with NotGzip %v", tc.name, err, tc.notGzip)
		}
	}
}

func TestUnsupportedEncoding(t *testing.T) {
	for _, coding := range [][]string{{"br"}, {"deflate"}, {"gzip, br"}, {"gzip", "gzip"}, {"zstd", "identity"}} {
		body := []byte("secret-coding-body")
		_, err := ReadDecoded(httptest.NewRecorder(), request(bytes.NewReader(body), int64(len(body)), coding...), 1<<20)
		var ue *UnsupportedEncodingError
		if !errors.As(err, &ue) || !slices.Equal(ue.Supported, []string{"gzip", "x-gzip", "identity"}) {
			t.Fatalf("%q: err %v, want an UnsupportedEncodingError naming gzip, x-gzip, identity", coding, err)
		}
		msg := err.Error()
		if !strings.Contains(msg, "gzip, x-gzip, identity") {
			t.Fatalf("%q: message %q does not name the supported codings", coding, msg)
		}
		for _, sent := range []string{"br", "deflate", "zstd", "secret"} {
			if strings.Contains(msg, sent) {
				t.Fatalf("%q: message %q copies the request's %q", coding, msg, sent)
			}
		}
		// Read forwards any coding as sent.
		if got, err := Read(httptest.NewRecorder(), request(bytes.NewReader(body), int64(len(body)), coding...), 1<<20); err != nil || !bytes.Equal(got, body) {
			t.Fatalf("Read, %q: %q, %v", coding, got, err)
		}
	}
}

// A connection error while inflating is passed on, not called corrupt.
func TestGzipPassesReadErrors(t *testing.T) {
	boom := errors.New("boom")
	packed := gzipped(t, bytes.Repeat([]byte("abc"), 1000))
	for _, cut := range []int{0, 20} {
		body := io.MultiReader(bytes.NewReader(packed[:cut]), errReader{boom})
		_, err := ReadDecoded(httptest.NewRecorder(), request(body, -1, "gzip"), 1<<20)
		if !errors.Is(err, boom) {
			t.Fatalf("cut at %d: err %v, want the read error", cut, err)
		}
	}
}

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// zeros yields n zero bytes.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), z.n)
	clear(p[:k])
	z.n -= k
	return int(k), nil
}
