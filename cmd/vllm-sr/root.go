package main

import (
	"errors"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/runtime/engine"
	"github.com/vllm-sr/systemone/runtime/front"
	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/table"
)

// maxBody is the largest body convert reads: the standard's 32 MiB.
const maxBody = 32 << 20

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "vllm-sr",
		Short:         "vLLM Semantic Router System One tools",
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       front.Build().String(),
	}
	root.SetVersionTemplate("{{.Name}} {{.Version}}\n")
	root.AddCommand(newConvert(), newConfig(), newServe(), newDecide(), newConformance())
	return root
}

func newConvert() *cobra.Command {
	var from, to string
	var deviations []string
	eng := engine.New(registry.BuiltinSchemas())
	cmd := &cobra.Command{
		Use:   "convert --from SCHEMA --to SCHEMA [--deviation ID]... [FILE|-]",
		Short: "Write one request body in another schema, through the IR",
		Long: "convert reads one request body from FILE, or standard input when FILE is - or absent,\n" +
			"and writes the same request in the target schema to standard output.\n" +
			"Reads: " + registry.JoinIDs(eng.Sources()) + ". Writes: " + registry.JoinIDs(eng.Targets()) + ".\n" +
			"Deviations: " + strings.Join(eng.Deviations(), ", ") + ".",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			body, err := readBody(cmd.InOrStdin(), args)
			if err != nil {
				return err
			}
			out, err := translate(cmd, eng, table.SchemaID(from), table.SchemaID(to), deviations, body)
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(append(out, '\n'))
			return err
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "the schema the body is written in (required)")
	cmd.Flags().StringVar(&to, "to", "", "the schema to write (required)")
	cmd.Flags().StringArrayVar(&deviations, "deviation", nil, "a deviation to apply after the target codec; repeatable")
	addHeadersFlag(cmd)
	_ = cmd.MarkFlagRequired("from")
	_ = cmd.MarkFlagRequired("to")
	return cmd
}

// readBody reads FILE, or stdin for "-" or no argument, up to maxBody.
func readBody(stdin io.Reader, args []string) ([]byte, error) {
	src := stdin
	if len(args) == 1 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			return nil, err
		}
		defer f.Close()
		src = f
	}
	body, err := io.ReadAll(io.LimitReader(src, maxBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxBody {
		return nil, errors.New("the body is larger than 32 MiB")
	}
	return body, nil
}
