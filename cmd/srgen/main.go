// Command srgen generates the System One field tables, corpus and reference
// docs from the specifications. It only parses flags: every feature is a
// call into package gen.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/gen"
	"github.com/vllm-sr/systemone/gen/drift"
	"github.com/vllm-sr/systemone/gen/model"
	"github.com/vllm-sr/systemone/gen/write"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run executes srgen with args and returns its exit code: 0 on success, 2
// for a usage error (a missing input the command cannot run without), 1
// for any other failure, such as drift's differences or a failed fetch.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRoot()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(stderr, "srgen:", err)
		var usage usageError
		if errors.As(err, &usage) {
			return 2
		}
		return 1
	}
	return 0
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
		Version:       version(),
	}
	cmd.SetVersionTemplate("{{.Name}} {{.Version}}\n")
	// A flag srgen does not know, or a bad value, is a usage error.
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err.Error()} })
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
		Use: "docs",
		Short: "Write the doc site into --out: a landing page, the guides, the reference pages, a page per OpenAPI operation and schema, sidebars.js; " +
			"removes only files its previous run there wrote (listed in --out's " + write.ManifestName + ")",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			changes, err := gen.WriteDocs(cmd.Context(), *root, out)
			for _, c := range changes {
				verb := "wrote"
				if c.Kind == write.ChangeExtra {
					verb = "removed"
				}
				fmt.Fprintln(cmd.OutOrStdout(), verb, c.Path)
			}
			if err == nil {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %d files changed\n", out, len(changes))
			}
			return err
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory to write the pages into (required)")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}

func newDrift(root *string) *cobra.Command {
	var in drift.Input
	var fetch bool
	cmd := &cobra.Command{
		Use: "drift",
		Short: "Compare specs/systemone/systemone-0.2.schema.yaml with the published OpenAPI document: " +
			"--published FILE, or --fetch to download source.url (exit 1 on a difference or a failed fetch)",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case in.File != "" && fetch:
				return usageError{"drift takes --published FILE or --fetch, not both"}
			case in.File == "" && !fetch:
				return usageError{"drift needs --published FILE (a copy kept outside the repository: it carries no license) " +
					"or --fetch (download the spec's source.url, or --url)"}
			case in.File != "" && in.URL != "":
				return usageError{"--url goes with --fetch"}
			}
			m, err := model.LoadDir(*root)
			if err != nil {
				return err
			}
			r, err := drift.Check(cmd.Context(), m, in)
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), r.Summary())
			if r.Failed() {
				return fmt.Errorf("%d differences between %s and our description", len(r.Differences), r.Source)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&in.File, "published", "", "the published OpenAPI document, a local file (JSON or YAML)")
	cmd.Flags().BoolVar(&fetch, "fetch", false, "download the document from the spec's source.url (never saved)")
	cmd.Flags().StringVar(&in.URL, "url", "", "with --fetch: download from this URL instead of source.url")
	cmd.Flags().DurationVar(&in.Timeout, "timeout", drift.DefaultTimeout, "with --fetch: the longest the download may take")
	return cmd
}
