// Command vllm-sr is the vllm-sr command line. It only parses flags: every
// feature is a call into a runtime package (convert: runtime/engine).
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
)

func main() {
	if err := newRoot().ExecuteContext(context.Background()); err != nil {
		// One line, whatever the error wraps.
		fmt.Fprintln(os.Stderr, "vllm-sr:", strings.ReplaceAll(err.Error(), "\n", " "))
		os.Exit(1)
	}
}
