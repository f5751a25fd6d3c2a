package routerconfig

import (
	neturl "net/url"

	yaml "go.yaml.in/yaml/v3"
)

// Tracing is the configuration's tracing section: where the Router
// exports its spans, and which share of traces it samples. The zero value
// exports nothing; the Router still passes W3C trace context on.
type Tracing struct {
	// OTLPEndpoint is the OTLP/HTTP URL spans are exported to: the
	// configured URL, with /v1/traces as its path when it gave none. "":
	// tracing is off.
	OTLPEndpoint string
	// SampleRatio is the share of new traces sampled, from 0 to 1: the
	// ratio of a parent-based sampler, so a client's sampled flag decides
	// for the traces it starts. DefaultSampleRatio when not given.
	SampleRatio float64
}

// On reports whether the Router exports spans.
func (t Tracing) On() bool { return t.OTLPEndpoint != "" }

// DefaultSampleRatio is tracing.sample_ratio's default: every trace, as
// the OpenTelemetry SDK's default sampler.
const DefaultSampleRatio = 1.0

// otlpTracesPath is the OTLP/HTTP traces path, added to an endpoint
// without a path of its own.
const otlpTracesPath = "/v1/traces"

var tracingKeys = keysOf(tracingForm{})

// tracing reads the tracing section: otlp_endpoint is required in it (a
// section that exports nowhere is a mistake), sample_ratio is a number
// from 0 to 1.
func (l *loader) tracing(n *yaml.Node) {
	s, ok := l.fields(n, "tracing", tracingKeys, nil)
	if !ok || !s.require(requiredOf(tracingForm{})...) {
		return
	}
	t := Tracing{SampleRatio: DefaultSampleRatio}
	if raw, ok := s.str("otlp_endpoint"); ok {
		u, err := neturl.Parse(raw)
		switch {
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
			s.fail("otlp_endpoint", "must be an absolute http or https URL, such as http://collector:4318")
		case u.User != nil || u.RawQuery != "" || u.Fragment != "":
			s.fail("otlp_endpoint", "must have no user, query or fragment; the collector's headers come from OTEL_EXPORTER_OTLP_HEADERS")
		default:
			if u.Path == "" || u.Path == "/" {
				u.Path = otlpTracesPath
			}
			t.OTLPEndpoint = u.String()
		}
	}
	if v, ok := s.value("sample_ratio"); ok {
		if ratio, ok := l.number(v, s.at("sample_ratio")); ok {
			if ratio < 0 || ratio > 1 {
				s.fail("sample_ratio", "must be between 0 and 1")
			}
			t.SampleRatio = ratio
		}
	}
	l.cfg.Tracing = t
}
