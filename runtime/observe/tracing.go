package observe

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// Tracing is the Router's span export: a tracer provider sampling with a
// parent-based ratio sampler and exporting in batches, off the request
// path. One lives as long as the Router's process: a reload keeps it
// (and refuses a configuration whose tracing settings differ,
// SameTracing). A nil *Tracing is tracing off, which every method takes:
// the Router then records nothing, and only passes a client's trace
// context on (TraceRequest).
type Tracing struct {
	provider *sdktrace.TracerProvider
	tracer   trace.Tracer
	// calls holds each call URL's span attributes (callTarget), made once.
	calls callTargets
}

// tracerName is the instrumentation scope of the Router's spans: the
// Router's package, as before its observation had a package of its own,
// so that a collector's views and queries keep matching.
const tracerName = "github.com/vllm-sr/systemone/runtime/router"

// serviceName is the service.name of the Router's spans, unless
// OTEL_SERVICE_NAME says otherwise.
const serviceName = "vllm-sr"

// NewTracing starts the span export settings ask for: to exporter, or
// when nil over OTLP/HTTP to settings.OTLPEndpoint. nil when tracing is
// off. The SDK's environment variables apply as it defines them
// (OTEL_EXPORTER_OTLP_HEADERS, OTEL_BSP_*, OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES ...), but the endpoint is the configuration's.
func NewTracing(ctx context.Context, settings routerconfig.Tracing, exporter sdktrace.SpanExporter) (*Tracing, error) {
	if !settings.On() {
		return nil, nil
	}
	if exporter == nil {
		exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(settings.OTLPEndpoint))
		if err != nil {
			return nil, fmt.Errorf("tracing: %w", err)
		}
		exporter = exp
	}
	// Later options override earlier ones: the environment may rename the
	// service.
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName(serviceName), semconv.ServiceVersion(front.Build().Version)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	provider := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res),
		sdktrace.WithSampler(sdktrace.ParentBased(sdktrace.TraceIDRatioBased(settings.SampleRatio))))
	return &Tracing{provider: provider, tracer: provider.Tracer(tracerName)}, nil
}

// SameTracing refuses a configuration whose tracing settings differ from
// the running ones: the export is set up at start, so changing it takes a
// restart.
func SameTracing(running, next *routerconfig.Config) error {
	if running.Tracing != next.Tracing {
		return errors.New("tracing: a reload keeps the same tracing settings; restart the Router to change them")
	}
	return nil
}

// Shutdown exports the spans still queued, within ctx, and stops the
// export.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil {
		return nil
	}
	return t.provider.Shutdown(ctx)
}

// Span is one of the Router's spans; the zero value, what every start
// returns with tracing off, does nothing. Call sites set attributes only
// when recording, so tracing off builds none.
type Span struct{ s trace.Span }

// Recording reports whether the span records what is set on it.
func (s Span) Recording() bool { return s.s != nil && s.s.IsRecording() }

// End ends the span.
func (s Span) End() {
	if s.s != nil {
		s.s.End()
	}
}

// Start begins an internal span named name, a child of ctx's Span, and
// returns the context the span is current in.
func (t *Tracing) Start(ctx context.Context, name string) (context.Context, Span) {
	if t == nil {
		return ctx, Span{}
	}
	ctx, s := t.tracer.Start(ctx, name)
	return ctx, Span{s}
}
