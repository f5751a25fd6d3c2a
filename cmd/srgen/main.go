// Command srgen generates the System One field tables, corpus and reference
// docs from the specifications. It only parses flags: every feature is a
// call into package gen.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/gen"
)

func main() {
	if err := newRoot().ExecuteContext(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "srgen:", err)
		os.Exit(1)
	}
}

func newRoot() *cobra.Command {
	var root string
	cmd := &cobra.Command{
		Use:           "srgen",
		Short:         "Generate System One tables, corpus and docs from specs/",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.PersistentFlags().StringVar(&root, "root", ".", "repository root")
	cmd.AddCommand(
		&cobra.Command{
			Use:   "generate",
			Short: "Write every artifact into generated/ and docs/reference/",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				res, err := gen.Run(cmd.Context(), gen.Config{Root: root})
				for _, c := range res.Changes {
					fmt.Fprintln(cmd.OutOrStdout(), "wrote", c)
				}
				return err
			},
		},
		&cobra.Command{
			Use:   "check",
			Short: "Fail, naming each file, when generated files are stale, missing or extra; writes nothing",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				res, err := gen.Run(cmd.Context(), gen.Config{Root: root, Check: true})
				if err != nil {
					return err
				}
				for _, c := range res.Changes {
					fmt.Fprintln(cmd.OutOrStdout(), c)
				}
				if res.Stale() {
					return fmt.Errorf("%d generated files are out of date: run 'go run ./cmd/srgen generate' (or 'make generate') and commit the result", len(res.Changes))
				}
				return nil
			},
		},
		newDocs(&root),
		&cobra.Command{
			Use:   "lint",
			Short: "Check the specifications and the corpus; writes nothing",
			Args:  cobra.NoArgs,
			RunE:  func(*cobra.Command, []string) error { return gen.Lint(root) },
		},
	)
	return cmd
}

func newDocs(root *string) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "docs",
		Short: "Write the reference Markdown alone into --out",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			files, err := gen.WriteDocs(cmd.Context(), *root, out)
			for _, f := range files {
				fmt.Fprintln(cmd.OutOrStdout(), "wrote", f.Path)
			}
			return err
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory to write the pages into (required)")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}
