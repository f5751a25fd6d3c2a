package testkit

import (
	"bytes"
	"net/http"
	"slices"
	"sync"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/vllm-sr/systemone/runtime/jsonvalue"
)

// Scrape is one GET /metrics of a server, parsed by the Prometheus text
// parser: what a Prometheus server would read.
type Scrape map[string]*dto.MetricFamily

// ScrapeMetrics GETs url (a server's /metrics) and parses the answer with
// the Prometheus text parser, failing the test on any error.
func ScrapeMetrics(t testing.TB, url string) Scrape {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: status %d", url, resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: not the Prometheus text format: %v", url, err)
	}
	return families
}

// Value is the value of the series of family name whose labels include
// every name=value pair of labels (a counter's or gauge's value, a
// histogram's count); ok is false when no series matches.
func (s Scrape) Value(name string, labels ...string) (v float64, ok bool) {
	f := s[name]
	if f == nil {
		return 0, false
	}
	for _, m := range f.GetMetric() {
		if !hasLabels(m, labels) {
			continue
		}
		switch {
		case m.Counter != nil:
			v += m.Counter.GetValue()
		case m.Gauge != nil:
			v += m.Gauge.GetValue()
		case m.Histogram != nil:
			v += float64(m.Histogram.GetSampleCount())
		}
		ok = true
	}
	return v, ok
}

// hasLabels reports whether m has every name=value pair of pairs.
func hasLabels(m *dto.Metric, pairs []string) bool {
	for i := 0; i+1 < len(pairs); i += 2 {
		if !slices.ContainsFunc(m.GetLabel(), func(l *dto.LabelPair) bool {
			return l.GetName() == pairs[i] && l.GetValue() == pairs[i+1]
		}) {
			return false
		}
	}
	return true
}

// LogBuffer is a log destination a test reads while a server's
// goroutines write to it.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Bytes is a copy of what was written so far.
func (b *LogBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// Lines parses what was written as JSON log lines, failing t on a line
// that is not one JSON object whose member names are distinct: a log
// reader keeps the first or the last of a repeated key, as it pleases, so
// a line that repeats one says two things.
func (b *LogBuffer) Lines(t testing.TB) []jsonvalue.Value {
	t.Helper()
	var out []jsonvalue.Value
	for line := range bytes.Lines(bytes.TrimSpace(b.Bytes())) {
		v, err := jsonvalue.Decode(line, jsonvalue.Options{})
		if err != nil || v.Kind() != jsonvalue.KindObject {
			t.Fatalf("a log line is not one JSON object with distinct keys (%v):\n%s", err, line)
		}
		out = append(out, v)
	}
	return out
}
