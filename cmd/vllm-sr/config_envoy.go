package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/vllm-sr/systemone/runtime/routerconfig"
)

// newConfigEnvoy is `vllm-sr config envoy`: the Envoy bootstrap that puts
// several Router replicas behind one Envoy.
func newConfigEnvoy() *cobra.Command {
	var out string
	var opts routerconfig.EnvoyOptions
	cmd := &cobra.Command{
		Use:   "envoy FILE [--replica HOST]... [--listen LISTENER=IP:PORT]... [--out PATH]",
		Short: "Write the Envoy bootstrap that fronts Router replicas serving FILE",
		Long: "envoy loads FILE as serve and check do and writes an Envoy bootstrap (YAML, static\n" +
			"listeners and clusters) to standard output or --out. Each Router listener gets an Envoy\n" +
			"listener that sends exactly the paths the listener serves to a cluster of the replicas (its\n" +
			"port on every --replica host, health-checked on /health) and answers every other path with\n" +
			"404 in the listener's System One error shape. A System One route's timeout is the listener's\n" +
			"max_deadline_ms plus one second; other routes' is ten minutes. Envoy listens on each\n" +
			"listener's own address unless --listen gives another.",
		Args: oneFile,
		RunE: func(cmd *cobra.Command, args []string) error {
			regs := routerconfig.BuiltinRegistries()
			c, err := routerconfig.LoadFile(args[0], regs)
			if err != nil {
				return problems(cmd, args[0], err)
			}
			b, err := routerconfig.Envoy(c, regs, opts)
			if err != nil {
				return problems(cmd, args[0], err)
			}
			data, err := routerconfig.EnvoyYAML(b)
			if err != nil {
				return err
			}
			if out != "" {
				return os.WriteFile(out, data, 0o644)
			}
			_, err = cmd.OutOrStdout().Write(data)
			return err
		},
	}
	cmd.Flags().StringArrayVar(&opts.Replicas, "replica", nil,
		"a host running vllm-sr serve with FILE; repeatable (default: one Router at each listener's address)")
	cmd.Flags().StringToStringVar(&opts.Listen, "listen", nil, "where Envoy listens for a listener, LISTENER=IP:PORT; repeatable")
	cmd.Flags().StringVar(&out, "out", "", "write the bootstrap to this file instead of standard output")
	return cmd
}

// problems prints each problem err holds (a configuration's load
// problems, or the bootstrap's) on its own line on standard error, and
// returns the one-line summary main prints.
func problems(cmd *cobra.Command, file string, err error) error {
	var lines []string
	var le *routerconfig.LoadError
	if errors.As(err, &le) {
		for _, p := range le.Problems {
			lines = append(lines, p.String())
		}
	} else if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range joined.Unwrap() {
			lines = append(lines, e.Error())
		}
	} else {
		return err
	}
	for _, l := range lines {
		fmt.Fprintln(cmd.ErrOrStderr(), l)
	}
	return fmt.Errorf("%s: %s, no bootstrap written", file, count(len(lines), "problem"))
}
