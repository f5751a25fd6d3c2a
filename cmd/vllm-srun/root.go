package main

import (
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/srun"
	"github.com/vllm-sr/systemone/runtime/table"
)

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "vllm-srun",
		Short:         "The vLLM Semantic Router System One model runtime",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newServe())
	return root
}

// serveFlags are serve's flags, parsed into an srun.Config.
type serveFlags struct {
	host            string
	port            int
	device          string
	schema          string
	maxInFlight     int
	shutdownTimeout time.Duration
	logFormat       string
}

func newServe() *cobra.Command {
	var f serveFlags
	schemas := registry.BuiltinSchemas()
	cmd := &cobra.Command{
		Use:   "serve MODEL",
		Short: "Serve one model over the System One HTTP API",
		Long: "serve answers POST /v1/systemone, /v1/systemone/batch, /v1/decisions and /v1/bundle,\n" +
			"GET /v1/models, /health and /metrics with MODEL, until SIGINT or SIGTERM.\n" +
			"Models: " + strings.Join(srun.ModelNames(), ", ") + ".",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := f.config(args[0], schemas, cmd)
			if err != nil {
				return err
			}
			run, err := srun.Start(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			return run.Wait()
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.host, "host", "127.0.0.1", "the address to listen on")
	fl.IntVar(&f.port, "port", 8100, "the port to listen on; 0 picks a free one")
	fl.StringVar(&f.device, "device", "cpu", "where the model runs; supported: "+strings.Join(srun.Devices, ", "))
	fl.StringVar(&f.schema, "systemone-schema", string(table.SchemaVllmSR50),
		"the contract spoken to clients; supported: "+registry.JoinIDs(schemas.ListenerIDs()))
	fl.IntVar(&f.maxInFlight, "max-in-flight", srun.DefaultMaxInFlight, "requests worked on at once; more are answered 529")
	fl.DurationVar(&f.shutdownTimeout, "shutdown-timeout", srun.DefaultShutdownTimeout,
		"how long a shutdown waits for requests in flight")
	fl.StringVar(&f.logFormat, "log-format", "json", "log format on standard error: json or text")
	return cmd
}

// config turns the flags into the server's configuration; a value no
// server accepts is one line naming the flag.
func (f *serveFlags) config(model string, schemas *registry.Schemas, cmd *cobra.Command) (srun.Config, error) {
	if f.port < 0 || f.port > 65535 {
		return srun.Config{}, fmt.Errorf("--port must be 0 to 65535, got %d", f.port)
	}
	if f.maxInFlight < 1 {
		return srun.Config{}, fmt.Errorf("--max-in-flight must be at least 1, got %d", f.maxInFlight)
	}
	var handler slog.Handler
	switch f.logFormat {
	case "json":
		handler = slog.NewJSONHandler(cmd.ErrOrStderr(), nil)
	case "text":
		handler = slog.NewTextHandler(cmd.ErrOrStderr(), nil)
	default:
		return srun.Config{}, fmt.Errorf("unknown --log-format %q; supported: json, text", f.logFormat)
	}
	return srun.Config{
		Model:           model,
		Schema:          table.SchemaID(f.schema),
		Schemas:         schemas,
		Device:          f.device,
		Addr:            net.JoinHostPort(f.host, strconv.Itoa(f.port)),
		MaxInFlight:     f.maxInFlight,
		ShutdownTimeout: f.shutdownTimeout,
		Logger:          slog.New(handler),
	}, nil
}
