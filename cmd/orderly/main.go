// Command orderly runs the command-and-control layer of horse-and-musket
// wargames: the dice tables of the rule sets, their exact odds and their
// rolls, from the command line.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"orderly/rules"
	"orderly/table"
)

func main() {
	a := &app{
		out:  os.Stdout,
		err:  os.Stderr,
		seed: func() uint64 { return uint64(time.Now().UnixNano()) },
		env:  os.Getenv,
	}
	os.Exit(a.run(context.Background(), os.Args[1:]))
}

// app is one run of the command line, with its outputs and its source of
// fresh seeds injected (tests give fixed ones).
type app struct {
	out, err io.Writer
	seed     func() uint64
	rules    []string // house-rule files from --rules
	// env reads the environment (os.Getenv; nil reads nothing).
	env func(string) string
	// page is how many events migrate reads at a time (0: migratePage);
	// tests make it small, so that their games take several pages.
	page int
}

// inputError marks an error caused by what the user typed: exit status 2.
type inputError struct{ error }

func (e inputError) Unwrap() error { return e.error }

func bad(err error) error {
	if err == nil {
		return nil
	}
	return inputError{err}
}

func badf(format string, args ...any) error { return inputError{fmt.Errorf(format, args...)} }

// run executes the command line and returns the exit status: 0 on success,
// 2 for bad input, 1 for any other failure.
func (a *app) run(ctx context.Context, args []string) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(a.err, "orderly: internal error: %v; please report it with the command that caused it\n", r)
			status = 1
		}
	}()
	root := a.root()
	root.SetArgs(args)
	root.SetOut(a.out)
	root.SetErr(a.err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	msg := strings.TrimSpace(strings.ReplaceAll(err.Error(), "\n", " "))
	fmt.Fprintf(a.err, "orderly: %s\n", msg)
	var ie inputError
	if errors.As(err, &ie) {
		return 2
	}
	return 1
}

// usage makes every error about a command's words an inputError: its
// flags (through the flag error function), its arguments (each command's
// Args wrapped here), and an unknown command (the root's Args).
func usage(root *cobra.Command) {
	root.Args = func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			return badf("unknown command %q for %q; see orderly --help", args[0], c.CommandPath())
		}
		return nil
	}
	root.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	var wrap func(c *cobra.Command)
	wrap = func(c *cobra.Command) {
		if check := c.Args; check != nil && c != root {
			c.Args = func(c *cobra.Command, args []string) error { return bad(check(c, args)) }
		}
		for _, sub := range c.Commands() {
			wrap(sub)
		}
	}
	wrap(root)
}

func (a *app) root() *cobra.Command {
	root := &cobra.Command{
		Use:   "orderly",
		Short: "Command and control for horse-and-musket wargames",
		Long: `orderly resolves the dice and lookup tables of the command rules of
Napoleonic and American Civil War wargames, gives their exact odds, and
compares house-rule variants side by side.`,
		Example: `  orderly tables
  orderly odds nb/order-delay nation=french quality=average
  orderly roll bp/command rating=8
  orderly lookup cd/movement type=infantry formation=column`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.PersistentFlags().StringArrayVar(&a.rules, "rules", nil, "house-rules YAML `FILE` that adds or overrides tables (repeatable)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return badf("%s: %v; see orderly %s --help", c.Name(), err, c.Name())
	})
	root.AddCommand(a.tablesCmd(), a.showCmd(), a.rollCmd(), a.oddsCmd(), a.lookupCmd(), a.runCmd(), a.simCmd(), a.schemaCmd(), a.serveCmd(), a.exportCmd(), a.importCmd(), a.verifyCmd(), a.seatsCmd(), a.migrateCmd(), a.loadCmd())
	if sc := a.scenarioCmd(); sc.HasSubCommands() {
		root.AddCommand(sc)
	}
	if g := a.gamesCmd(); g != nil {
		root.AddCommand(g)
	}
	if r := a.reportCmd(); r != nil {
		root.AddCommand(r)
	}
	usage(root)
	return root
}

// load reads the built-in rules and the house rules named by --rules.
func (a *app) load() (*table.Set, error) {
	s, err := rules.Load(a.rules...)
	return s, bad(err)
}

// loadFor reads what answering table id needs (rules.LoadFor) with the
// house rules named by --rules: the tables of its rule set and of those
// the house rules change, not every rule set's.
func (a *app) loadFor(id string) (*table.Set, error) {
	s, err := rules.LoadFor(id, a.rules...)
	return s, bad(err)
}

// diceTable loads the rules table id needs and finds that dice table.
func (a *app) diceTable(id string) (*table.Table, error) {
	set, err := a.loadFor(id)
	if err != nil {
		return nil, err
	}
	t, err := set.Table(id)
	return t, bad(err)
}

// params reads NAME=VALUE arguments.
func params(args []string) (map[string]string, error) {
	out := map[string]string{}
	for _, arg := range args {
		k, v, ok := strings.Cut(arg, "=")
		if !ok || k == "" || v == "" {
			return nil, badf("argument %q is not NAME=VALUE (e.g. quality=good)", arg)
		}
		if _, dup := out[k]; dup {
			return nil, badf("parameter %s is given twice", k)
		}
		out[k] = v
	}
	return out, nil
}
