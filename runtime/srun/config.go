package srun

import (
	"cmp"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
)

// Config is how a server is started. The zero value of every field but
// Model has a default (see withDefaults).
type Config struct {
	// Model is the catalogue name of the model served, such as
	// "vllm-sr/vela3-fast". A request that names no model is answered
	// with it; a request naming another is 404 model_not_found.
	Model string
	// Schema is the contract the server speaks to its clients: a listener
	// schema of Schemas, vllm-sr/5.0 (the default) or vllm-sr/4.0.
	Schema table.SchemaID
	// Schemas is the registry the listener codec of Schema is looked up
	// in; nil means registry.BuiltinSchemas().
	Schemas *registry.Schemas
	// Device is where the model runs; only cpu.
	Device string
	// Addr is the host:port to listen on; port 0 picks a free port.
	Addr string
	// MaxInFlight bounds the requests worked on at once; one more is
	// answered 529 with Retry-After.
	MaxInFlight int
	// RetryAfter is what 529 and 503 answers ask clients to wait.
	RetryAfter time.Duration
	// Timeouts bound the server's connections and requests, and Start's
	// graceful shutdown.
	front.Timeouts
	// SelfTestTimeout bounds the start-up self-test.
	SelfTestTimeout time.Duration
	// Engine answers the requests; nil means the reference scorer.
	Engine Engine
	// EngineName names the engine in meta; "reference" for the reference
	// scorer.
	EngineName string
	// Listener names the listener in metrics labels.
	Listener string
	// Logger receives the structured logs; nil means slog.Default().
	Logger *slog.Logger
}

// Defaults of Config.
const (
	DefaultAddr            = "127.0.0.1:8100"
	DefaultMaxInFlight     = 64
	DefaultRetryAfter      = time.Second
	DefaultSelfTestTimeout = 60 * time.Second
	DefaultListener        = "runtime"
)

// Devices are the devices a model runs on.
var Devices = []string{"cpu"}

// withDefaults returns c with every unset field at its default, or a
// one-line error naming a setting that cannot work and what would.
func (c Config) withDefaults() (Config, error) {
	if c.Schema == "" {
		c.Schema = table.SchemaVllmSR50
	}
	if c.Schemas == nil {
		c.Schemas = registry.BuiltinSchemas()
	}
	if _, err := c.Schemas.Listener(c.Schema); err != nil {
		return c, fmt.Errorf("unknown schema %q; supported: %s", c.Schema, registry.JoinIDs(c.Schemas.ListenerIDs()))
	}
	if c.Device == "" {
		c.Device = Devices[0]
	}
	if !slices.Contains(Devices, c.Device) {
		return c, fmt.Errorf("unknown device %q; supported: %s", c.Device, strings.Join(Devices, ", "))
	}
	if c.MaxInFlight < 0 {
		return c, fmt.Errorf("max in flight must be at least 1, got %d", c.MaxInFlight)
	}
	c.Addr = cmp.Or(c.Addr, DefaultAddr)
	c.MaxInFlight = cmp.Or(c.MaxInFlight, DefaultMaxInFlight)
	c.RetryAfter = cmp.Or(c.RetryAfter, DefaultRetryAfter)
	c.Timeouts = c.Timeouts.WithDefaults()
	c.SelfTestTimeout = cmp.Or(c.SelfTestTimeout, DefaultSelfTestTimeout)
	c.Listener = cmp.Or(c.Listener, DefaultListener)
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c, nil
}
