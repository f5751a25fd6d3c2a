package main

import (
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/runtime/router"
)

func newServe() *cobra.Command {
	var config string
	cmd := &cobra.Command{
		Use:   "serve --config FILE",
		Short: "Run the Router: serve every configured listener until SIGINT or SIGTERM",
		Long: "serve loads the configuration (strictly: every problem is reported at once), then serves\n" +
			"each listener's APIs on its address. Logs are JSON lines on standard error.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := router.LoadConfig(config)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			run, err := router.Start(ctx, cfg, router.Options{Logger: slog.New(slog.NewJSONHandler(cmd.ErrOrStderr(), nil))})
			if err != nil {
				return err
			}
			return run.Wait()
		},
	}
	cmd.Flags().StringVar(&config, "config", "", "the Router configuration file (required)")
	_ = cmd.MarkFlagRequired("config")
	return cmd
}
