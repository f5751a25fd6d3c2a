package main

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/runtime/front"
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
		Version:       front.Build().String(),
	}
	root.SetVersionTemplate("{{.Name}} {{.Version}}\n")
	root.AddCommand(newServe(), newCalibrate())
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
	readTimeout     time.Duration
	writeTimeout    time.Duration
	logFormat       string
	logLevel        string
	llm             llmFlags
}

func newServe() *cobra.Command {
	var f serveFlags
	schemas := registry.BuiltinSchemas()
	cmd := &cobra.Command{
		Use:   "serve [MODEL]",
		Short: "Serve one model over the System One HTTP API",
		Long: "serve answers " + srun.Endpoints() + "\nwith MODEL, until SIGINT or SIGTERM.\n" +
			"Models: " + strings.Join(srun.ModelNames(), ", ") + ".\n" +
			"With --llm-url, serves the LLM --llm-model of an OpenAI-compatible server (vLLM, llama.cpp, Ollama)\n" +
			"instead, answering from its token log-probabilities (docs/serving-an-llm.md); MODEL is then not given.",
		Args: f.serveArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			model := ""
			if len(args) == 1 {
				model = args[0]
			}
			cfg, logs, err := f.config(model, schemas, cmd)
			if err != nil {
				return err
			}
			if err := f.llm.engine(&cfg); err != nil {
				logs.Close()
				return err
			}
			defer logs.Close() // the buffered log lines, written before exit
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
	fl.DurationVar(&f.shutdownTimeout, "shutdown-timeout", front.DefaultShutdownTimeout,
		"how long a shutdown waits for requests in flight")
	fl.DurationVar(&f.readTimeout, "read-timeout", front.DefaultReadTimeout,
		"how long a request's body may take to arrive; a stalled client is cut off after it")
	fl.DurationVar(&f.writeTimeout, "write-timeout", front.DefaultWriteTimeout,
		"how long each write of an answer may take; a client that stops reading is cut off after it")
	fl.StringVar(&f.logFormat, "log-format", "json", "log format on standard error: "+strings.Join(front.LogFormats, " or "))
	fl.StringVar(&f.logLevel, "log-level", "info", "the lowest level logged: "+strings.Join(front.LogLevels, ", "))
	f.llm.register(fl)
	return cmd
}

// serveArgs takes exactly one MODEL, or none with --llm-url, and a
// refusal names what is missing and the models there are (cobra's
// ExactArgs says only "accepts 1 arg(s)").
func (f *serveFlags) serveArgs(_ *cobra.Command, args []string) error {
	switch {
	case len(args) > 1:
		return fmt.Errorf("serve takes one MODEL, got %d arguments: %s", len(args), strings.Join(args, " "))
	case f.llm.url == "" && len(args) == 0:
		return fmt.Errorf("serve needs MODEL, the model to serve (one of %s), or --llm-url and --llm-model", strings.Join(srun.ModelNames(), ", "))
	case f.llm.url != "" && len(args) == 1:
		return fmt.Errorf("serve takes MODEL or --llm-url, not both: the LLM is named by --llm-model (and served as --name)")
	}
	return nil
}

// config turns the flags into the server's configuration, with its
// logger's buffered writer, which the caller closes once the server has
// stopped; a value no server accepts is one line naming the flag.
func (f *serveFlags) config(model string, schemas *registry.Schemas, cmd *cobra.Command) (srun.Config, *front.LogWriter, error) {
	if f.port < 0 || f.port > 65535 {
		return srun.Config{}, nil, fmt.Errorf("--port must be 0 to 65535, got %d", f.port)
	}
	if f.maxInFlight < 1 {
		return srun.Config{}, nil, fmt.Errorf("--max-in-flight must be at least 1, got %d", f.maxInFlight)
	}
	for _, d := range []struct {
		flag string
		v    time.Duration
	}{{"--shutdown-timeout", f.shutdownTimeout}, {"--read-timeout", f.readTimeout}, {"--write-timeout", f.writeTimeout}} {
		if d.v <= 0 {
			return srun.Config{}, nil, fmt.Errorf("%s must be positive, got %v", d.flag, d.v)
		}
	}
	log, logs, err := front.NewLogger(cmd.ErrOrStderr(), f.logFormat, f.logLevel)
	if err != nil {
		return srun.Config{}, nil, err
	}
	return srun.Config{
		Model:       model,
		Schema:      table.SchemaID(f.schema),
		Schemas:     schemas,
		Device:      f.device,
		Addr:        net.JoinHostPort(f.host, strconv.Itoa(f.port)),
		MaxInFlight: f.maxInFlight,
		Timeouts:    front.Timeouts{ShutdownTimeout: f.shutdownTimeout, ReadTimeout: f.readTimeout, WriteTimeout: f.writeTimeout},
		Logger:      log,
	}, logs, nil
}
