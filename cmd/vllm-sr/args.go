package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// oneFile is the Args of a command that reads one FILE, the Router
// configuration: a refusal names FILE (cobra's ExactArgs says only
// "accepts 1 arg(s), received 0").
func oneFile(cmd *cobra.Command, args []string) error {
	switch {
	case len(args) == 0:
		return fmt.Errorf("%s needs FILE, the Router configuration to read (for example docs/examples/router.yaml)", cmd.CommandPath())
	case len(args) > 1:
		return fmt.Errorf("%s takes one FILE, got %d arguments: %s", cmd.CommandPath(), len(args), strings.Join(args, " "))
	}
	return nil
}
