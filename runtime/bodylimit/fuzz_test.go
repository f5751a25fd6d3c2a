package bodylimit

import (
	"bytes"
	"errors"
	"net/http/httptest"
	"slices"
	"testing"
)

// FuzzReadDecoded: any body under any Content-Encoding is either read
// within the limit or refused with one of the package's typed errors
// (a bytes.Reader never fails to read); it never panics.
func FuzzReadDecoded(f *testing.F) {
	plain := []byte(`{"model":"vllm-sr/vela3-fast","state":"the export fails","questions":{"urgent":{"type":"noul"}}}`)
	packed := gzipped(f, plain)
	f.Add(packed, "gzip")
	f.Add(packed[:len(packed)/2], "gzip")
	f.Add(append(slices.Clone(packed), packed...), "x-gzip")
	f.Add(plain, "")
	f.Add(plain, "identity")
	f.Add(plain, "br")
	f.Add(gzipped(f, make([]byte, 4096)), "gzip")
	const limit = 1024
	f.Fuzz(func(t *testing.T, body []byte, coding string) {
		r := request(bytes.NewReader(body), int64(len(body)))
		r.Header.Set("Content-Encoding", coding)
		got, err := ReadDecoded(httptest.NewRecorder(), r, limit)
		var tl *TooLargeError
		var ue *UnsupportedEncodingError
		var ce *CorruptGzipError
		switch {
		case err == nil && len(got) > limit:
			t.Fatalf("read %d bytes under a %d-byte limit", len(got), limit)
		case err != nil && !errors.As(err, &tl) && !errors.As(err, &ue) && !errors.As(err, &ce):
			t.Fatalf("untyped error %v", err)
		}
	})
}
