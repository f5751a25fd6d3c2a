package shapes

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchBodies are the requests the benchmarks round-trip, built
// deterministically: small (one question, a ~150-byte text state), medium
// (a ~5 KB object state, 5 questions) and large (a 1 MiB object state).
func benchBodies() []struct {
	name string
	body []byte
} {
	return []struct {
		name string
		body []byte
	}{
		{"small", []byte(`{"model":"vllm-sr/vela3-fast","state":"Our export button fails with a 500 since this morning and the whole finance team is blocked. Please open a ticket and tell us when it is fixed.","questions":{"urgent":{"type":"noul","instructions":"Does the user report a problem that blocks their work?"}}}`)},
		{"medium", benchBody(5<<10, true)},
		{"large", benchBody(1<<20, false)},
	}
}

// benchBody builds a request whose object state holds turns of history
// until the body reaches size bytes.
func benchBody(size int, fiveQuestions bool) []byte {
	var b strings.Builder
	b.WriteString(`{"model":"vllm-sr/vela3","state":{"request":"Is the answer right, and which team owns it?","history":[`)
	for i := 0; b.Len() < size-900; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"turn":%d,"role":"user","text":"Message %d: the export to CSV fails with \"error 500\" on invoice n\u00b0%d; it worked yesterday.","score":0.%02d}`, i, i, 1000+i, i%100)
	}
	b.WriteString(`],"answer":"The export fails because the invoice has no VAT number."},"roles":{"request":"user","history":"context","answer":"answer"},"questions":{`)
	b.WriteString(`"correct":{"type":"noul","instructions":"Is the answer supported by the history?","over":["history","answer"]}`)
	if fiveQuestions {
		b.WriteString(`,"team":{"type":"choice","instructions":"Which team should handle this request?","choices":{"billing":"Payments, invoices and refunds","engineering":"Outages, errors and bugs","other":null}}`)
		b.WriteString(`,"effort":{"type":"score","instructions":"How much work does it take?","levels":["Trivial","Moderate","Substantial"]}`)
		b.WriteString(`,"topics":{"type":"set","instructions":"What is it about?","labels":{"invoice":"Invoices","outage":"Failures"},"threshold":0.35}`)
		b.WriteString(`,"pii":{"type":"span","preset":"pii","labels":{"EMAIL":"An email address"},"head":"router"}`)
	}
	b.WriteString(`},"options":{"deadline_ms":1500,"max_tokens":8192}}`)
	return []byte(b.String())
}

// BenchmarkInternalRoundTrip reads each body into the IR and writes it back.
func BenchmarkInternalRoundTrip(b *testing.B) {
	for _, c := range benchBodies() {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			dst := make([]byte, 0, len(c.body))
			for b.Loop() {
				r, _, err := DecodeRequest(c.body)
				if err != nil {
					b.Fatal(err)
				}
				if dst, err = (Writer{Lossless: true}).AppendRequest(dst[:0], r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncodingJSONRoundTrip is the baseline: encoding/json Unmarshal
// into any and Marshal, on the same bytes (which loses member order).
func BenchmarkEncodingJSONRoundTrip(b *testing.B) {
	for _, c := range benchBodies() {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for b.Loop() {
				var v any
				if err := json.Unmarshal(c.body, &v); err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestBenchBodiesRoundTrip(t *testing.T) {
	for _, c := range benchBodies() {
		r, _, err := DecodeRequest(c.body)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := EncodeRequest(r)
		if err != nil || string(got) != string(c.body) {
			t.Fatalf("%s: not lossless (%v)", c.name, err)
		}
		t.Logf("%s: %d bytes, %d questions", c.name, len(c.body), len(r.Questions))
	}
}
