package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/runtime/registry"
	"github.com/vllm-sr/systemone/runtime/router"
	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// newConfig is `vllm-sr config`: check and migrate a Router configuration, and write its Envoy bootstrap.
func newConfig() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Check or migrate a Router configuration, or write its Envoy bootstrap",
	}
	cmd.AddCommand(newConfigCheck(), newConfigMigrate(), newConfigEnvoy())
	return cmd
}

func newConfigCheck() *cobra.Command {
	var specs, schema string
	cmd := &cobra.Command{
		Use:   "check FILE",
		Short: "Load a configuration and print every problem and refused rule, one per line",
		Long: "check loads FILE strictly. It prints every problem, one line each with its line and column;\n" +
			"a rule its deployment cannot carry or answer is refused on a line naming the rule and the\n" +
			"deployment. It exits non-zero if there is any. A configuration it accepts is described, one\n" +
			"fact per line; its warnings (a key file any user can read) go to standard error. With\n" +
			"--specs DIR it also hashes the specification files under DIR (the repository root) against\n" +
			"the ones the codecs were built from. With --schema SCHEMA it also validates FILE against that\n" +
			"JSON Schema (router.yaml's, docs/reference/router-config.schema.json, or a narrower one of\n" +
			"your own), each error at its line and column among the others.",
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			regs := routerconfig.BuiltinRegistries()
			if specs != "" {
				if err := regs.Schemas.VerifySpecFiles(specs); err != nil {
					return err
				}
			}
			var bySchema []routerconfig.Problem
			if schema != "" {
				if bySchema, err = schemaProblems(schema, args[0]); err != nil {
					return err
				}
			}
			c, err := routerconfig.LoadFile(args[0], regs)
			le := &routerconfig.LoadError{}
			if err != nil && !errors.As(err, &le) {
				return err
			}
			if problems := routerconfig.MergeProblems(le.Problems, bySchema); len(problems) > 0 {
				for _, p := range problems {
					fmt.Fprintln(cmd.OutOrStdout(), p.String())
				}
				return fmt.Errorf("%s: %s, %s", args[0], count(len(problems), "problem"), count(len(le.Refusals()), "refused rule"))
			}
			for _, w := range c.Warnings { // they do not refuse the configuration
				fmt.Fprintln(cmd.ErrOrStderr(), "warning: "+w.String())
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), routerconfig.Describe(c))
			return err
		},
	}
	cmd.Flags().StringVar(&specs, "specs", "", "also check the specification files under this repository root")
	cmd.Flags().StringVar(&schema, "schema", "", "also validate the configuration against this JSON Schema file")
	return cmd
}

// schemaProblems validates the configuration at file against the JSON
// Schema at schema.
func schemaProblems(schema, file string) ([]routerconfig.Problem, error) {
	s, err := routerconfig.CompileSchema(schema)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return s.Problems(file, data), nil
}

func newConfigMigrate() *cobra.Command {
	return &cobra.Command{
		Use:   "migrate FILE",
		Short: "Print FILE with the removed listener-level models and systemone moved into apis",
		Long: "migrate rewrites each listener that still has the removed models or systemone fields into\n" +
			"an apis map serving the same models, and prints the result. Comments and key order are kept\n" +
			"where YAML allows. A configuration with nothing to migrate is printed unchanged.",
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			data, err := os.ReadFile(args[0])
			if err != nil {
				return err
			}
			out, changed, err := routerconfig.Migrate(args[0], data, registry.BuiltinAPIs())
			var le *routerconfig.LoadError
			if errors.As(err, &le) {
				for _, p := range le.Problems {
					fmt.Fprintln(cmd.ErrOrStderr(), p.String())
				}
				return fmt.Errorf("%s: %s to migrate by hand", args[0], count(len(le.Problems), "listener"))
			}
			if err != nil {
				return err
			}
			if !changed {
				fmt.Fprintln(cmd.ErrOrStderr(), args[0]+": nothing to migrate")
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
}

// loadConfig loads the Router configuration at path as serve and decide
// do. Its problems print one per line on standard error, as config check
// prints them, and the error returned counts them.
func loadConfig(cmd *cobra.Command, path string) (*routerconfig.Config, error) {
	cfg, err := router.LoadConfig(path)
	var le *routerconfig.LoadError
	if errors.As(err, &le) {
		for _, p := range le.Problems {
			fmt.Fprintln(cmd.ErrOrStderr(), p.String())
		}
		return nil, fmt.Errorf("%s: %s, %s", path, count(len(le.Problems), "problem"), count(len(le.Refusals()), "refused rule"))
	}
	return cfg, err
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
