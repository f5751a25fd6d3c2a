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
		// One line per problem: an error that joins several (the start
		// check's findings, a reload's problems) prints each on its own.
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintln(os.Stderr, "vllm-sr:", line)
		}
		os.Exit(1)
	}
}
