package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"orderly/battle"
	"orderly/game"
	"orderly/rules"
	"orderly/server"
)

// scenarioRules finds a scenario's rule set as the server makes a new
// game's (server.RulesOf over the built-in tables and house rules, a rule
// set whose tables the user supplies over its example tables).
func (a *app) scenarioRules() (func(id string) (game.Rules, error), error) {
	mk, err := a.maker()
	if err != nil {
		return nil, err
	}
	examples := rules.Default().Examples()
	return func(id string) (game.Rules, error) { return server.RulesOf(mk, examples, id) }, nil
}

// checkScenario reads a scenario file as a new game's would be (the same
// loader, the same Prepare) and lists its problems, each file:line:
// message.
func checkScenario(file string, data []byte, find func(id string) (game.Rules, error)) []error {
	var rs game.Rules
	sc, err := battle.Read(file, data, func(id string) (battle.RuleSet, error) {
		r, err := find(id)
		rs = r
		return r, err
	})
	if err != nil {
		return battle.List(err)
	}
	if _, err := game.Prepare(sc, rs); err != nil {
		return []error{fmt.Errorf("%s: %w", file, err)}
	}
	return nil
}

// scenarioCheckCmd is orderly scenario check.
func (a *app) scenarioCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check FILE...",
		Short: "Check scenario files and list every problem",
		Long: `Check scenario files as the server reads a new game's: the same loader,
the same checks of the rule set the file names. Every problem found is
printed, one a line as FILE:LINE: message (at most 50 a file); a file
without one is printed as FILE: ok. The exit status is 1 when any file
has a problem.`,
		Example: `  orderly scenario check battle.yaml
  orderly scenario check examples/*/demo.yaml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			find, err := a.scenarioRules()
			if err != nil {
				return err
			}
			bad, count := 0, 0
			for _, file := range args {
				data, err := os.ReadFile(file)
				if err != nil {
					return badf("scenario check: %v", unwrapPath(err))
				}
				probs := checkScenario(file, data, find)
				for _, p := range probs {
					fmt.Fprintln(a.out, p)
				}
				if len(probs) == 0 {
					fmt.Fprintf(a.out, "%s: ok\n", file)
					continue
				}
				bad++
				count += len(probs)
			}
			if bad > 0 {
				return fmt.Errorf("scenario check: %d %s in %d of %d %s", count, plural(count, "problem", "problems"), bad, len(args), plural(len(args), "file", "files"))
			}
			return nil
		},
	}
}

// scenarioFormatCmd is orderly scenario format.
func (a *app) scenarioFormatCmd() *cobra.Command {
	var out string
	var write bool
	c := &cobra.Command{
		Use:   "format FILE",
		Short: "Write a scenario file in canonical form",
		Long: `Write a scenario file (YAML, or JSON) in canonical form: the keys in the
format's order, positions and lists of numbers in flow style ([12, 30]),
the terrain and elevation grids as literal blocks, everything else in
block style indented by two spaces. Comments are left out. The result
loads to the same scenario, and formatting it again changes nothing; the
editor saves scenarios in this form. The file need not load, only be
readable YAML: use orderly scenario check for its problems.

The canonical YAML goes to the standard output, to --output, or with
--write back into FILE.`,
		Example: `  orderly scenario format battle.yaml
  orderly scenario format battle.json -o battle.yaml
  orderly scenario format -w battle.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if write && out != "" {
				return badf("scenario format: give --output or --write, not both")
			}
			file := args[0]
			data, err := os.ReadFile(file)
			if err != nil {
				return badf("scenario format: %v", unwrapPath(err))
			}
			find, err := a.scenarioRules()
			if err != nil {
				return err
			}
			y, err := battle.Format(file, data, func(id string) (battle.RuleSet, error) { return find(id) })
			if err != nil {
				return bad(err)
			}
			if write {
				out = file
			}
			if out == "" {
				_, err = a.out.Write(y)
				return err
			}
			if err := os.WriteFile(out, y, 0o644); err != nil {
				return fmt.Errorf("scenario format: %w", unwrapPath(err))
			}
			return nil
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "write the canonical YAML to `OUT` instead of the standard output")
	c.Flags().BoolVarP(&write, "write", "w", false, "write the canonical YAML back into FILE")
	return c
}

// unwrapPath says a file error as the operating system does, without
// Go's wording of the call.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
