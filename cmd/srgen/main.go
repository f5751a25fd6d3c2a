// Command srgen generates the System One field tables, corpus and reference
// docs from the specifications. It only parses flags: every feature is a
// call into package gen.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/gen"
	"github.com/vllm-sr/systemone/gen/drift"
	"github.com/vllm-sr/systemone/gen/model"
)

func main() {
	if err := newRoot().ExecuteContext(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "srgen:", err)
		var usage usageError
		if errors.As(err, &usage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// usageError is a missing input the command cannot run without; srgen
// exits 2 for it, 1 for any other failure.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

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
		newDrift(&root),
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

func newDrift(root *string) *cobra.Command {
	var published string
	cmd := &cobra.Command{
		Use:   "drift",
		Short: "Compare specs/systemone/systemone-0.2.schema.yaml with a published OpenAPI document (--published FILE); downloads nothing",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := model.LoadDir(*root)
			if err != nil {
				return err
			}
			if published == "" {
				url := "the standard's source.url"
				if s := m.Spec(model.SpecStandard); s != nil && s.Source != nil {
					url = s.Source.URL
				}
				return usageError{fmt.Sprintf("drift needs --published FILE: fetch %s on a machine with network access "+
					"(for example: curl -fsSL -o openapi.json %s), keep it outside the repository (it carries no license), "+
					"then run srgen drift --published openapi.json", url, url)}
			}
			r, err := drift.CompareFile(m, published)
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), r.Summary())
			if len(r.Differences) > 0 {
				return fmt.Errorf("%d differences between %s and our description", len(r.Differences), published)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&published, "published", "", "the published OpenAPI document, a file")
	return cmd
}
