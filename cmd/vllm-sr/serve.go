package main

import (
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"go.opentelemetry.io/otel"

	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/router"
)

// serveGCPercent is the Router's GOGC unless the environment sets one.
const serveGCPercent = 400

// serveFlags are serve's flags, parsed into router.Options.
type serveFlags struct {
	config                                     string
	logFormat, logLevel                        string
	shutdownTimeout, readTimeout, writeTimeout time.Duration
	checkInterval                              time.Duration
	strict                                     bool // --strict: the start check's findings are errors
}

func newServe() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve --config FILE",
		Short: "Run the Router: serve every configured listener until SIGINT or SIGTERM; SIGHUP reloads",
		Long: "serve loads the configuration (strictly: every problem is reported at once), then serves\n" +
			"each listener's APIs on its address. Logs are structured lines on standard error.\n" +
			"SIGHUP reloads the configuration file: a valid one is swapped in without dropping a request,\n" +
			"an invalid one is refused with each problem logged and the one in force kept.\n" +
			"SIGINT and SIGTERM drain: no new connections, the requests in flight finish within\n" +
			"--shutdown-timeout, then serve exits 0.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return f.serve(cmd) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.config, "config", "", "the Router configuration file (required)")
	fl.StringVar(&f.logFormat, "log-format", "json", "log format on standard error: "+strings.Join(front.LogFormats, " or "))
	fl.StringVar(&f.logLevel, "log-level", "info", "the lowest level logged: "+strings.Join(front.LogLevels, ", "))
	fl.DurationVar(&f.shutdownTimeout, "shutdown-timeout", front.DefaultShutdownTimeout,
		"how long a shutdown waits for the requests in flight")
	fl.DurationVar(&f.readTimeout, "read-timeout", front.DefaultReadTimeout,
		"how long a request's body may take to arrive; a stalled client is cut off after it")
	fl.DurationVar(&f.writeTimeout, "write-timeout", front.DefaultWriteTimeout,
		"how long each write of an answer may take; a client that stops reading is cut off after it")
	fl.DurationVar(&f.checkInterval, "check-interval", router.DefaultCheckInterval,
		"how often each deployment's readiness (GET /ready) is checked")
	fl.BoolVar(&f.strict, "strict", false,
		"refuse to start (or reload) when a deployment's upstream does not list its model, lists features a rule needs but lacks,\n"+
			"or is a model runtime that reports a contract (api_version in GET /health) other than this Router's")
	_ = cmd.MarkFlagRequired("config")
	return cmd
}

// serve runs the Router until SIGINT or SIGTERM, reloading on SIGHUP.
func (f *serveFlags) serve(cmd *cobra.Command) error {
	if os.Getenv("GOGC") == "" {
		// The Router's live heap is small and its garbage per request
		// steady: collecting at 5x the live heap rather than Go's 2x cuts
		// the collector's share of a proxied request's CPU by more than
		// half (docs/performance.md) for a few MiB more. GOGC set in the
		// environment wins.
		debug.SetGCPercent(serveGCPercent)
	}
	// SIGHUP is taken first, so a reload signal sent while the Router
	// starts never falls back to the default action, which ends the
	// process; one that early reloads once the Router runs.
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--shutdown-timeout", f.shutdownTimeout}, {"--read-timeout", f.readTimeout}, {"--write-timeout", f.writeTimeout},
		{"--check-interval", f.checkInterval}} {
		if d.v <= 0 {
			return fmt.Errorf("%s must be positive, got %v", d.flag, d.v)
		}
	}
	log, logs, err := front.NewLogger(cmd.ErrOrStderr(), f.logFormat, f.logLevel)
	if err != nil {
		return err
	}
	defer logs.Close() // the buffered log lines, written before exit
	// The OpenTelemetry SDK reports a failed span export (tracing in the
	// configuration) through its process-wide handler: into the log.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) {
		log.Warn("trace export failed", slog.String("error", err.Error())) //vocab:not-spec log attribute key
	}))

	cfg, err := loadConfig(cmd, f.config) // problems one per line, as config check prints them
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	run, err := router.Start(ctx, cfg, router.Options{Logger: log,
		Timeouts:      front.Timeouts{ShutdownTimeout: f.shutdownTimeout, ReadTimeout: f.readTimeout, WriteTimeout: f.writeTimeout},
		CheckInterval: f.checkInterval, StrictUpstreams: f.strict})
	if err != nil {
		return err
	}
	for {
		select {
		case <-hup:
			_ = run.Reload(f.config) // a refused reload is logged; the Router keeps serving
		case <-run.Done():
			return run.Wait()
		}
	}
}
