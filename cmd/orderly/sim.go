package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"orderly/battle"
	"orderly/game"
	"orderly/rules"
	"orderly/script"
	"orderly/sim"
)

func (a *app) simCmd() *cobra.Command {
	var (
		planFile string
		runs     int
		seed     uint64
		asJSON   bool
		plotFile string
		variants []string
	)
	c := &cobra.Command{
		Use:   "sim SCENARIO.yaml --plan PLAN.yaml --runs N",
		Short: "Monte Carlo of a scenario's command layer under a fixed plan",
		Long: `Play a scenario many times with the same plan of orders and moves, each
run with its own dice, and show for each formation how the turn on which it
first acts on an order written during the game is spread: overall and per
order, with "never" for runs in which it had not acted by the end. The
plan has the turns: of a script (and optionally until:). The same --seed
gives the same result on any machine.

--variant FILE plays the same plan with the same seed again under each
house-rules FILE added to the rules (a blunder table, a staff rating
changed by a trait, other move distances) and prints the results one after
another, the rules as given first, so that variants compare run for run.`,
		Example: `  orderly sim examples/nb/demo.yaml --plan examples/nb/demo-plan.yaml --runs 10000
  orderly sim examples/nb/demo.yaml --plan examples/nb/demo-plan.yaml --runs 2000 --json
  orderly sim examples/nb/demo.yaml --plan examples/nb/demo-plan.yaml --runs 2000 --plot first-turn.svg
  orderly sim examples/bp/bp-demo.yaml --plan examples/bp/bp-demo-plan.yaml --runs 10000 --variant examples/rules/bp-staff-plus-one.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkSim(planFile, runs, plotFile); err != nil {
				return err
			}
			if !c.Flags().Changed("seed") {
				seed = a.seed()
			}
			if len(variants) > 0 && plotFile != "" {
				return badf("sim: --plot draws one result; leave it out with --variant")
			}
			in, err := a.loadSim(args[0], planFile)
			if err != nil {
				return err
			}
			opts := sim.Options{Runs: runs, Seed: seed}
			defer a.progress(&opts)()
			res, err := sim.Run(in.sc, in.rules, in.plan, opts)
			if err != nil {
				return bad(err)
			}
			if len(variants) > 0 {
				return a.simVariants(in.sc, args[0], in.data, planFile, in.pdata, opts, res, variants, asJSON)
			}
			return a.printSim(in.sc, res, plotFile, asJSON)
		},
	}
	c.Flags().StringVar(&planFile, "plan", "", "the plan `FILE`: turns of orders and moves")
	c.Flags().IntVar(&runs, "runs", 1000, "how many runs")
	c.Flags().Uint64Var(&seed, "seed", 0, "seed of the first run (default: a fresh one, printed)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	c.Flags().StringVar(&plotFile, "plot", "", "also draw the distributions to `FILE` (.svg or .png)")
	c.Flags().StringArrayVar(&variants, "variant", nil, "also run under the house-rules `FILE` added to the rules, with the same seed (repeatable)")
	return c
}

// checkSim checks sim's flags before any work is done: a plan is given,
// the runs are in range and the plot file's name is one it can draw.
func checkSim(planFile string, runs int, plotFile string) error {
	if planFile == "" {
		return badf("sim: --plan is required: the file of orders and moves to play each run")
	}
	if runs < 1 || runs > 10_000_000 {
		return badf("sim: --runs %d is out of range; allowed: 1..10000000", runs)
	}
	if plotFile != "" {
		if err := checkPlotFile(plotFile); err != nil {
			return err
		}
	}
	return nil
}

// simInput is what a sim plays: the scenario and its rules, the plan, and
// the files' bytes, which variants load again under other rules.
type simInput struct {
	sc          *battle.Scenario
	rules       game.Rules
	plan        *script.Plan
	data, pdata []byte
}

// loadSim reads the scenario in file, its rules, and the plan in planFile.
func (a *app) loadSim(file, planFile string) (*simInput, error) {
	engine, err := a.engine()
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, bad(err)
	}
	sc, err := script.LoadScenario(file, data, engine)
	if err != nil {
		return nil, bad(err)
	}
	rules, err := engine(sc.Rules)
	if err != nil {
		return nil, bad(err)
	}
	pdata, err := os.ReadFile(planFile)
	if err != nil {
		return nil, bad(err)
	}
	plan, err := script.LoadPlan(planFile, pdata, sc, rules)
	if err != nil {
		return nil, bad(err)
	}
	return &simInput{sc: sc, rules: rules, plan: plan, data: data, pdata: pdata}, nil
}

// progress shows a progress bar of the runs on the error output when it
// is a terminal, setting opts.Progress, and returns what finishes the bar
// (nothing, without one).
func (a *app) progress(opts *sim.Options) func() {
	f, ok := a.err.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return func() {}
	}
	bar := progressbar.NewOptions(opts.Runs, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription("runs"),
		progressbar.OptionShowCount(), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100_000_000))
	opts.Progress = func(done int) { _ = bar.Set(done) }
	return func() { _ = bar.Finish() }
}

// printSim prints a sim's result, as text or JSON, and with plotFile also
// draws it.
func (a *app) printSim(sc *battle.Scenario, res *sim.Result, plotFile string, asJSON bool) error {
	if plotFile != "" {
		if err := a.plotSim(plotFile, sc.Name, res, res.IDs(sc)); err != nil {
			return err
		}
	}
	if asJSON {
		enc := json.NewEncoder(a.out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	writeSim(a.out, sc.Name, res, res.IDs(sc))
	return nil
}

// maxVariants bounds the variants of one sim.
const maxVariants = 8

// simVariants runs the plan again under each variant (house rules added
// to the app's) with the same seed, and prints every result: the base
// first.
func (a *app) simVariants(base *battle.Scenario, file string, data []byte, planFile string, pdata []byte, opts sim.Options, res *sim.Result, variants []string, asJSON bool) error {
	if len(variants) > maxVariants {
		return badf("sim: %d variants; at most %d", len(variants), maxVariants)
	}
	type named struct {
		Rules  []string    `json:"rules"`
		Result *sim.Result `json:"result"`
	}
	out := []named{{Rules: a.rules, Result: res}}
	for _, v := range variants {
		set, err := rules.Load(append(slices.Clone(a.rules), v)...)
		if err != nil {
			return bad(fmt.Errorf("variant %s: %w", v, err))
		}
		if err := rules.Playable(set); err != nil {
			return bad(fmt.Errorf("variant %s: %w", v, err))
		}
		eng := func(id string) (game.Rules, error) { return rules.Engine(id, set) }
		sc, err := script.LoadScenario(file, data, eng)
		if err != nil {
			return bad(fmt.Errorf("variant %s: %w", v, err))
		}
		rs, err := eng(sc.Rules)
		if err != nil {
			return bad(fmt.Errorf("variant %s: %w", v, err))
		}
		plan, err := script.LoadPlan(planFile, pdata, sc, rs)
		if err != nil {
			return bad(fmt.Errorf("variant %s: %w", v, err))
		}
		o := opts
		o.Progress = nil
		r, err := sim.Run(sc, rs, plan, o)
		if err != nil {
			return bad(fmt.Errorf("variant %s: %w", v, err))
		}
		out = append(out, named{Rules: append(slices.Clone(a.rules), v), Result: r})
	}
	if asJSON {
		enc := json.NewEncoder(a.out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"variants": out})
	}
	for i, n := range out {
		if i > 0 {
			fmt.Fprintln(a.out)
		}
		what := "the rules as given"
		if len(n.Rules) > 0 {
			what = "rules " + strings.Join(n.Rules, " + ")
		}
		fmt.Fprintf(a.out, "== %s\n", what)
		writeSim(a.out, base.Name, n.Result, n.Result.IDs(base))
	}
	return nil
}

// simColumns is every key of the distributions, turns ascending then never.
func simColumns(res *sim.Result, ids []string) []string {
	all := map[string]float64{}
	for _, id := range ids {
		for k := range res.Subjects[id].First {
			all[k] = 1
		}
		for _, o := range res.Subjects[id].Labels {
			for k := range o {
				all[k] = 1
			}
		}
	}
	return sim.Turns(all)
}

// writeSim prints one row per formation (and per order under it) with the
// percentage of runs by first turn of action.
func writeSim(w io.Writer, name string, res *sim.Result, ids []string) {
	fmt.Fprintf(w, "%s: %d runs, seed %d\n", name, res.Runs, res.Seed)
	m := res.Measure
	fmt.Fprintf(w, "%s, %% of runs\n\n", m.What)
	cols := simColumns(res, ids)
	head := []string{m.Subject, m.Label}
	for _, c := range cols {
		head = append(head, "turn "+c)
		if c == sim.Never {
			head[len(head)-1] = c
		}
	}
	rows := [][]string{head}
	row := func(f, o string, d map[string]float64) {
		r := []string{f, o}
		for _, c := range cols {
			if p, ok := d[c]; ok && p > 0 {
				r = append(r, fmt.Sprintf("%.1f", 100*p))
			} else {
				r = append(r, "-")
			}
		}
		rows = append(rows, r)
	}
	for _, id := range ids {
		f := res.Subjects[id]
		row(id, "any", f.First)
		if len(f.Labels) > 1 {
			for _, o := range sim.Turns(toKeys(f.Labels)) {
				row("", o, f.Labels[o])
			}
		}
	}
	widths := make([]int, len(head))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i < 2 {
				fmt.Fprintf(&b, "%-*s  ", widths[i], c)
			} else {
				fmt.Fprintf(&b, "%*s  ", widths[i], c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func toKeys(m map[string]map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k := range m {
		out[k] = 1
	}
	return out
}

// plotSim draws the first turns of every subject as bars, one series per
// turn that some subject has (named as in writeSim's head).
func (a *app) plotSim(file, name string, res *sim.Result, ids []string) error {
	var cols, names []string
	for _, c := range simColumns(res, ids) {
		if slices.ContainsFunc(ids, func(id string) bool { return res.Subjects[id].First[c] > 0 }) {
			cols = append(cols, c)
			names = append(names, "turn "+c)
			if c == sim.Never {
				names[len(names)-1] = c
			}
		}
	}
	series := make([][]float64, len(ids))
	for i, id := range ids {
		series[i] = make([]float64, len(cols))
		for j, c := range cols {
			series[i][j] = res.Subjects[id].First[c]
		}
	}
	return a.plotBars(file, name+": "+res.Measure.Plot, ids, names, series)
}
