package refscorer

import (
	"context"
	"io/fs"
	"math"
	"testing"

	"github.com/vllm-sr/systemone/generated/catalog"
	"github.com/vllm-sr/systemone/generated/corpus"
	"github.com/vllm-sr/systemone/runtime/distribution"
	"github.com/vllm-sr/systemone/runtime/shapes"
)

// FuzzDecideNeverPanics: any request the internal codec reads gets, from
// every catalogue model, one answer or failure per question at least, and
// choice and score probabilities that sum to exactly 1 in units.
func FuzzDecideNeverPanics(f *testing.F) {
	for _, c := range corpus.Cases {
		if data, err := fs.ReadFile(corpus.FS, c.Path); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(everyType))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, _, err := shapes.DecodeRequest(body)
		if err != nil || req.States != nil {
			return
		}
		for _, m := range catalog.Models() {
			resp, err := (&Scorer{}).Decide(context.Background(), m, req)
			if err != nil {
				t.Fatalf("%s: %v", m.Name, err)
			}
			if len(resp.Answers) < len(req.Questions) {
				t.Fatalf("%s: %d answers for %d questions", m.Name, len(resp.Answers), len(req.Questions))
			}
			for _, a := range resp.Answers {
				if len(a.Probabilities) == 0 {
					continue
				}
				var sum int64
				for _, p := range a.Probabilities {
					sum += int64(math.Round(p.P * distribution.Units))
				}
				if sum != distribution.Units {
					t.Fatalf("%s: %s probabilities sum to %d units", m.Name, a.Name, sum)
				}
			}
		}
	})
}

func BenchmarkDecide(b *testing.B) {
	req, _, err := shapes.DecodeRequest([]byte(everyType))
	if err != nil {
		b.Fatal(err)
	}
	m, _ := catalog.Model("vllm-sr/vela2")
	s := &Scorer{}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Decide(context.Background(), m, req); err != nil {
			b.Fatal(err)
		}
	}
}
