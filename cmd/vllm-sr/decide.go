package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/rules"
)

func newDecide() *cobra.Command {
	var config string
	var ruleNames, inputs []string
	cmd := &cobra.Command{
		Use:   "decide --config FILE --rule NAME... [--input PART=TEXT]...",
		Short: "Evaluate rules through the Router's Decide path and print the answers as JSON",
		Long: "decide builds a state from the input parts, asks each named rule's deployment as the\n" +
			"Router would (rules bound to one deployment travel as one batch), and prints every rule's\n" +
			"outcome and answers; for a rule with a match, also its match (matched, not_matched or\n" +
			"unknown: the x-vsr-rule-<name> header a listener running it sends upstream) and whether it\n" +
			"fired. It fails when a rule's answer is unknown and its on_unknown is fail. Configuration\n" +
			"problems print one per line, as config check prints them.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			input, err := parseInputs(inputs)
			if err != nil {
				return err
			}
			cfg, err := loadConfig(cmd, config)
			if err != nil {
				return err
			}
			r, err := router.New(cfg, router.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				return err
			}
			results, err := r.Decide(cmd.Context(), ruleNames, input)
			if err != nil {
				return err
			}
			out, err := r.DecideJSON(results)
			if err != nil {
				return err
			}
			if _, err := cmd.OutOrStdout().Write(out); err != nil {
				return err
			}
			for _, res := range results {
				if res.Outcome == rules.OutcomeFail {
					return fmt.Errorf("rule %q: an answer is unknown and its on_unknown is fail", res.Rule)
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&config, "config", "", "the Router configuration file (required)")
	cmd.Flags().StringArrayVar(&ruleNames, "rule", nil, "a rule to evaluate; repeatable (required)")
	cmd.Flags().StringArrayVar(&inputs, "input", nil, "an input part and its text, PART=TEXT; repeatable")
	_ = cmd.MarkFlagRequired("config")
	_ = cmd.MarkFlagRequired("rule")
	return cmd
}

// parseInputs reads PART=TEXT flags; a part given twice is an error.
func parseInputs(flags []string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range flags {
		part, text, ok := strings.Cut(f, "=")
		if !ok || part == "" {
			return nil, errors.New("--input takes PART=TEXT")
		}
		if _, dup := out[part]; dup {
			return nil, fmt.Errorf("--input gives the part %q twice", part)
		}
		out[part] = text
	}
	return out, nil
}
