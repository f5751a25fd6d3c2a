package router

import (
	"net/http"
	"testing"
	"time"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/ir"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

func TestDeadlineIsCappedByTheListener(t *testing.T) {
	now := time.Unix(1000, 0)
	capped := &routerconfig.ListenerAPI{Settings: []routerconfig.SettingValue{{Name: registry.MaxDeadlineSetting, Value: 500}}}
	open := &routerconfig.ListenerAPI{}
	ms := func(v int64) *ir.Options { return &ir.Options{DeadlineMs: &v} }
	for _, c := range []struct {
		api  *routerconfig.ListenerAPI
		opts *ir.Options
		want time.Duration
	}{
		{capped, ms(200), 200 * time.Millisecond},
		{capped, ms(9000), 500 * time.Millisecond},
		{capped, nil, 500 * time.Millisecond},
		{open, ms(9000), 9 * time.Second},
		{open, nil, 0},
	} {
		got := deadline(&engine.Exchange{Batch: &ir.Batch{Options: c.opts}}, c.api, now)
		if c.want == 0 && !got.IsZero() || c.want != 0 && got.Sub(now) != c.want {
			t.Errorf("%+v: deadline %v after now, want %v", c.opts, got.Sub(now), c.want)
		}
	}
}

// TestSetRetryAfter: whole seconds rounded up, capped at a minute, and
// always present on 429, 503 and 529.
func TestSetRetryAfter(t *testing.T) {
	for _, c := range []struct {
		status int
		d      time.Duration
		want   string
	}{{500, 0, ""}, {500, -time.Second, ""}, {500, time.Millisecond, "1"}, {529, 1500 * time.Millisecond, "2"}, {429, 3 * time.Second, "3"},
		{529, 0, "1"}, {503, 0, "1"}, {429, -time.Second, "1"}, {503, time.Hour, "60"}} {
		h := http.Header{}
		setRetryAfter(h, c.status, c.d)
		if got := h.Get("Retry-After"); got != c.want {
			t.Errorf("%d %v: %q, want %q", c.status, c.d, got, c.want)
		}
	}
}
