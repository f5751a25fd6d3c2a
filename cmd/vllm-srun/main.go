// Command vllm-srun is the System One model runtime: `vllm-srun serve
// MODEL` serves one model over HTTP. It only parses flags; the server is
// runtime/srun.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	// SIGINT and SIGTERM cancel the context, which starts a graceful
	// shutdown that lets the requests in flight finish.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := newRoot().ExecuteContext(ctx)
	stop()
	if err != nil {
		// One line, whatever the error wraps.
		fmt.Fprintln(os.Stderr, "vllm-srun:", strings.ReplaceAll(err.Error(), "\n", " "))
		os.Exit(1)
	}
}
