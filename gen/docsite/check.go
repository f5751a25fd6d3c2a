package docsite

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// Program says which program a command runs: the name of a command of
// this repository run directly ("vllm-sr ...") or as "go run ./cmd/NAME",
// or "make", with the arguments the program gets. goRun is true for the
// go run form, whose NAME must be a directory under cmd/. prog is "" for
// any other command (curl, go test, python3, ...), which is not checked.
func Program(args []string) (prog string, rest []string, goRun bool) {
	switch {
	case len(args) == 0:
		return "", nil, false
	case args[0] == "make" || isRepoCommand(args[0]):
		return args[0], args[1:], false
	case len(args) >= 3 && args[0] == "go" && args[1] == "run":
		i := 2
		for i < len(args) && strings.HasPrefix(args[i], "-") {
			i++ // go run's own flags, such as -race
		}
		if i < len(args) {
			if name, ok := strings.CutPrefix(path.Clean(args[i]), "cmd/"); ok && !strings.Contains(name, "/") {
				return name, args[i+1:], true
			}
		}
	}
	return "", nil, false
}

// RepoCommands are the commands a guide may run by name; Program reads
// any of them, and "go run ./cmd/NAME" for any NAME.
var RepoCommands = []string{"vllm-sr", "vllm-srun", "srgen"}

func isRepoCommand(name string) bool {
	for _, c := range RepoCommands {
		if c == name {
			return true
		}
	}
	return false
}

// CheckCobra checks one command line's arguments (the program name left
// out) against the command tree root, as cobra itself parses them: the
// subcommand path exists, every flag is one the command has, with a value
// of its type, the positional arguments pass the command's Args, and its
// required flags are given. The tree must be fresh: parsing sets its flag
// values. --help passes any command that exists.
func CheckCobra(root *cobra.Command, args []string) error {
	root.InitDefaultHelpCmd()
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	cmd.InitDefaultHelpFlag()
	if err := cmd.ParseFlags(rest); err != nil {
		return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
	}
	if help, _ := cmd.Flags().GetBool("help"); help {
		return nil
	}
	positional := cmd.Flags().Args()
	if !cmd.Runnable() {
		if len(positional) > 0 {
			return fmt.Errorf("unknown command %q for %q", positional[0], cmd.CommandPath())
		}
		return fmt.Errorf("%q runs nothing: name one of its subcommands", cmd.CommandPath())
	}
	if err := cmd.ValidateArgs(positional); err != nil {
		return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
	}
	if err := cmd.ValidateRequiredFlags(); err != nil {
		return fmt.Errorf("%s: %w", cmd.CommandPath(), err)
	}
	return cmd.ValidateFlagGroups()
}

// makeRuleRE matches a Makefile rule's target list: names before a ':'
// that is not part of ':=' or '::='.
var makeRuleRE = regexp.MustCompile(`^([A-Za-z0-9_.\-/ ]+?)\s*::?(?:[^=:]|$)`)

// MakeTargets returns the targets a Makefile's rules define (lines that
// start a rule, not recipes or assignments), special targets such as
// .PHONY left out.
func MakeTargets(makefile []byte) map[string]bool {
	targets := map[string]bool{}
	for _, line := range strings.Split(string(makefile), "\n") {
		m := makeRuleRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, t := range strings.Fields(m[1]) {
			if !strings.HasPrefix(t, ".") {
				targets[t] = true
			}
		}
	}
	return targets
}

// makeValueFlags are make's options that take the next word as a value.
var makeValueFlags = map[string]bool{"-C": true, "-f": true, "-I": true, "-o": true, "-W": true}

// CheckMake checks make's arguments: every word that is not an option or
// a NAME=value variable is a target the Makefile defines.
func CheckMake(targets map[string]bool, args []string) error {
	var errs []error
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case makeValueFlags[a]:
			i++
		case strings.HasPrefix(a, "-") || isAssignment(a):
		case !targets[a]:
			errs = append(errs, fmt.Errorf("make: no target %q in the Makefile", a))
		}
	}
	return errors.Join(errs...)
}

// GuideFiles are the Markdown files whose commands and links the checks
// read, relative to the repository root: README.md and the guides
// (docs/*.md).
func GuideFiles(root string) ([]string, error) {
	guides, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	files := []string{"README.md"}
	for _, g := range guides {
		files = append(files, "docs/"+filepath.Base(g))
	}
	return files, nil
}

// GuideCommands returns every command of the guides' shell blocks, and an
// error for each block the checks could not read.
func GuideCommands(root string) ([]Command, []error) {
	files, err := GuideFiles(root)
	if err != nil {
		return nil, []error{err}
	}
	var cmds []Command
	var errs []error
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		c, e := Commands(f, Scan(data))
		cmds, errs = append(cmds, c...), append(errs, e...)
	}
	return cmds, errs
}

// CheckCommands checks each command that runs prog (by name or go run)
// against a fresh tree from newRoot, and returns how many it checked and
// an error for each bad one, naming file and line.
func CheckCommands(cmds []Command, prog string, newRoot func() *cobra.Command) (checked int, errs []error) {
	for _, c := range cmds {
		p, args, _ := Program(c.Args)
		if p != prog {
			continue
		}
		checked++
		if err := CheckCobra(newRoot(), args); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c, err))
		}
	}
	return checked, errs
}
