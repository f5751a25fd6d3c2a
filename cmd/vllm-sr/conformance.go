package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/runtime/conformance"
	"github.com/vllm-sr/systemone/runtime/table"
)

// newConformance is `vllm-sr conformance`: the black-box conformance kit
// (runtime/conformance) run against the server at --url.
func newConformance() *cobra.Command {
	var url, model, schema, keyEnv string
	var asJSON bool
	var timeout time.Duration
	var schemas []string
	for _, s := range conformance.Schemas {
		schemas = append(schemas, string(s))
	}
	cmd := &cobra.Command{
		Use:   "conformance --url URL [--model M] [--schema SCHEMA] [--api-key-env VAR] [--json]",
		Short: "Run the conformance cases against a server that claims a System One schema",
		Long: "conformance sends the project's black-box cases to the server at URL (its root, such as\n" +
			"http://127.0.0.1:8100) and checks each answer against what the schema defines: ok or FAIL\n" +
			"per case with its request and the reason, then a summary. It exits non-zero when a case fails.\n" +
			"Schemas: " + strings.Join(schemas, ", ") + ".",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			key, err := apiKey(keyEnv)
			if err != nil {
				return err
			}
			report, err := conformance.Run(cmd.Context(), conformance.Options{
				URL: url, Model: model, Schema: table.SchemaID(schema), APIKey: key, Timeout: timeout})
			if errors.Is(err, conformance.ErrNoServer) {
				return fmt.Errorf("%w: no case was run; start the server first, or give --url the root of one that listens", err)
			}
			if err != nil {
				return err
			}
			if asJSON {
				err = report.WriteJSON(cmd.OutOrStdout())
			} else {
				err = report.WriteText(cmd.OutOrStdout())
			}
			if err != nil {
				return err
			}
			if report.Failed > 0 {
				return fmt.Errorf("%d of %d conformance cases failed", report.Failed, len(report.Results))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&url, "url", "", "the server's root URL (required)")
	cmd.Flags().StringVar(&model, "model", "", "the model every request names; default: the first the listing names that answers a question")
	cmd.Flags().StringVar(&schema, "schema", string(table.SchemaVllmSR50), "the schema the server claims: "+strings.Join(schemas, ", "))
	cmd.Flags().StringVar(&keyEnv, "api-key-env", "", "the environment variable holding an API key, sent as a bearer token")
	cmd.Flags().BoolVar(&asJSON, "json", false, "write the report as JSON")
	cmd.Flags().DurationVar(&timeout, "timeout", conformance.DefaultTimeout, "the longest each HTTP call may take")
	_ = cmd.MarkFlagRequired("url")
	return cmd
}

// apiKey reads the key from the environment variable named name; ""
// when no variable is named. The key itself never appears in an error.
func apiKey(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	key := os.Getenv(name)
	if key == "" {
		return "", fmt.Errorf("--api-key-env %s: the environment variable is unset or empty", name)
	}
	return key, nil
}
