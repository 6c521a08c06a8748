package main

import (
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"orderly/dice"
	"orderly/table"
)

func (a *app) oddsCmd() *cobra.Command {
	var (
		vary   []string
		asJSON bool
		plotTo string
	)
	c := &cobra.Command{
		Use:   "odds TABLE [NAME=VALUE ...]",
		Short: "Exact odds of every result of a table, or a grid of them with --vary",
		Long: `Print the exact chance of every result of a dice table for the given
parameters, as a percentage and as a fraction. With --vary, print one row
per combination of the varied parameters: every value of an enum or bool
(--vary quality), or the values listed (--vary rating=6,7,8 or
--vary rating=6..10). TABLE may also be plain dice notation such as 3d6.`,
		Example: `  orderly odds nb/order-delay nation=french quality=average
  orderly odds nb/order-delay --vary nation --vary quality
  orderly odds bp/command --vary rating=5..10 --plot command.svg
  orderly odds bp/shooting dice=12 save=5 enfilade=true --json
  orderly odds bp/command --rules examples/rules/bp-command-variant.yaml`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: a.completeTable(diceTables),
		RunE: func(c *cobra.Command, args []string) error {
			in, err := params(args[1:])
			if err != nil {
				return err
			}
			if plotTo != "" {
				if err := checkPlotFile(plotTo); err != nil {
					return err
				}
			}
			if sp, err := dice.Parse(args[0]); err == nil && !strings.Contains(args[0], "/") {
				if len(in) > 0 || len(vary) > 0 {
					return badf("plain dice take no parameters")
				}
				return a.diceOdds(sp, asJSON, plotTo)
			}
			t, err := a.diceTable(args[0])
			if err != nil {
				return err
			}
			if len(vary) > 0 {
				return a.varyOdds(t, in, vary, asJSON, plotTo)
			}
			bound, o, err := odds(t, in)
			if err != nil {
				return err
			}
			if plotTo != "" {
				if err := a.plotBars(plotTo, t.ID+" "+describe(bound), []string{""}, resultsOf(o), [][]float64{floats(o)}); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSON(a.out, o.JSON(t, bound))
			}
			printOdds(a.out, t, bound, o)
			return nil
		},
	}
	c.Flags().StringArrayVar(&vary, "vary", nil, "vary a parameter: `NAME` (every value) or NAME=v1,v2 or NAME=lo..hi (repeatable)")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	c.Flags().StringVar(&plotTo, "plot", "", "also draw the odds as a bar chart to `FILE`.svg or FILE.png")
	return c
}

// odds binds parameters given as text and computes the exact odds.
func odds(t *table.Table, in map[string]string) (table.Args, table.Odds, error) {
	bound, err := t.Bind(in)
	if err != nil {
		return table.Args{}, table.Odds{}, bad(err)
	}
	o, err := t.Odds(bound)
	return bound, o, bad(err)
}

func describe(a table.Args) string {
	m := a.Map()
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, " ")
}

func resultsOf(o table.Odds) []string {
	out := make([]string, len(o.Outcomes))
	for i, c := range o.Outcomes {
		out[i] = c.Result
	}
	return out
}

func floats(o table.Odds) []float64 {
	out := make([]float64, len(o.Outcomes))
	for i, c := range o.Outcomes {
		out[i] = o.Float(c)
	}
	return out
}

func pct(f float64) string {
	if f == 0 {
		return "-"
	}
	s := strconv.FormatFloat(100*f, 'f', 1, 64)
	if s == "0.0" {
		return "<0.1%"
	}
	if s == "100.0" && f < 1 {
		return ">99.9%"
	}
	return s + "%"
}

func bar(f float64) string {
	n := int(f*40 + 0.5)
	return strings.Repeat("#", n)
}

func printOdds(w io.Writer, t *table.Table, a table.Args, o table.Odds) {
	fmt.Fprintln(w, title(t))
	line := "  " + o.Dice
	if t.Pool != nil {
		line += fmt.Sprintf(", %s to each die", signed(o.Modifier))
	} else {
		line += " " + signed(o.Modifier)
	}
	if o.Target != nil {
		line += fmt.Sprintf(", against target %d", *o.Target)
	}
	if d := describe(a); d != "" {
		line += "  (" + d + ")"
	}
	fmt.Fprintln(w, line)
	fmt.Fprintln(w)
	g := grid{left: 1, lastLeft: true}
	g.add("result", "chance", "exact", "")
	for _, c := range o.Outcomes {
		f := o.Float(c)
		g.add(c.Result, pct(f), o.Rat(c).RatString(), bar(f))
	}
	g.write(w, "  ")
}

// varySpec is one --vary flag: a parameter and the values to try.
type varySpec struct {
	name   string
	values []string
}

func parseVary(t *table.Table, flags []string, fixed map[string]string) ([]varySpec, error) {
	var out []varySpec
	for _, f := range flags {
		name, list, hasList := strings.Cut(f, "=")
		p := t.Param(name)
		if p == nil {
			names := make([]string, len(t.Params))
			for i, q := range t.Params {
				names[i] = q.Name
			}
			return nil, badf("--vary %s: %s has no parameter %q; allowed: %s", f, t.ID, name, strings.Join(names, ", "))
		}
		if _, dup := fixed[name]; dup {
			return nil, badf("--vary %s: %s is also given as %s=%s; give it one way", f, name, name, fixed[name])
		}
		if slices.ContainsFunc(out, func(v varySpec) bool { return v.name == name }) {
			return nil, badf("--vary %s: %s is varied twice", f, name)
		}
		v := varySpec{name: name}
		switch {
		case hasList && strings.Contains(list, ".."):
			lo, hi, ok := strings.Cut(list, "..")
			l, err1 := strconv.Atoi(lo)
			h, err2 := strconv.Atoi(hi)
			if !ok || err1 != nil || err2 != nil || l > h || h-l > 100 {
				return nil, badf("--vary %s: %q is not a range lo..hi of at most 101 whole numbers", f, list)
			}
			for x := l; x <= h; x++ {
				v.values = append(v.values, strconv.Itoa(x))
			}
		case hasList:
			for _, x := range strings.Split(list, ",") {
				if x = strings.TrimSpace(x); x != "" {
					v.values = append(v.values, x)
				}
			}
		case p.Kind == table.Enum:
			v.values = p.Names()
		case p.Kind == table.Bool:
			v.values = []string{"false", "true"}
		case p.Min != nil && p.Max != nil && *p.Max-*p.Min <= 100:
			for x := *p.Min; x <= *p.Max; x++ {
				v.values = append(v.values, strconv.Itoa(x))
			}
		default:
			return nil, badf("--vary %s: %s takes %s; list the values, e.g. --vary %s=1,2,3 or %s=1..6", f, name, p.Allowed(), name, name)
		}
		if len(v.values) == 0 {
			return nil, badf("--vary %s: no values given", f)
		}
		out = append(out, v)
	}
	return out, nil
}

type gridRow struct {
	Params   map[string]string   `json:"params"`
	Modifier int                 `json:"modifier"`
	Target   *int                `json:"target,omitempty"`
	Outcomes []table.OutcomeJSON `json:"outcomes"`
	combo    []string
	odds     table.Odds
}

// varyOdds prints the odds of t for every combination of the varied
// parameters (flags, as --vary gives them) with the fixed ones: as a grid,
// or as JSON, and with plotTo also as a bar chart.
func (a *app) varyOdds(t *table.Table, fixed map[string]string, flags []string, asJSON bool, plotTo string) error {
	specs, err := parseVary(t, flags, fixed)
	if err != nil {
		return err
	}
	n := 1
	for _, s := range specs {
		n *= len(s.values)
	}
	if n > 10000 {
		return badf("--vary makes %d combinations; allowed at most 10000", n)
	}
	rows, err := gridRows(t, fixed, specs, n)
	if err != nil {
		return err
	}
	cols := gridColumns(t, rows)
	if plotTo != "" {
		if err := a.plotGrid(plotTo, t, specs, rows, cols); err != nil {
			return err
		}
	}
	if asJSON {
		var names []string
		for _, s := range specs {
			names = append(names, s.name)
		}
		return writeJSON(a.out, struct {
			Table string    `json:"table"`
			Rule  string    `json:"rule"`
			Vary  []string  `json:"vary"`
			Rows  []gridRow `json:"rows"`
		}{t.ID, t.Rule, names, rows})
	}
	return writeGrid(a.out, t, fixed, specs, rows, cols)
}

// gridRows works out the odds of t for each of the n combinations of the
// specs' values with the fixed parameters, the last spec varying fastest.
func gridRows(t *table.Table, fixed map[string]string, specs []varySpec, n int) ([]gridRow, error) {
	var rows []gridRow
	idx := make([]int, len(specs))
	for range n {
		in := map[string]string{}
		for k, v := range fixed {
			in[k] = v
		}
		combo := make([]string, len(specs))
		for i, s := range specs {
			in[s.name] = s.values[idx[i]]
			combo[i] = s.values[idx[i]]
		}
		bound, o, err := odds(t, in)
		if err != nil {
			return nil, err
		}
		rows = append(rows, gridRow{Params: bound.Map(), Modifier: o.Modifier, Target: o.Target, Outcomes: o.OutcomesJSON(t), combo: combo, odds: o})
		for i := len(idx) - 1; i >= 0; i-- {
			idx[i]++
			if idx[i] < len(specs[i].values) {
				break
			}
			idx[i] = 0
		}
	}
	return rows, nil
}

// plotGrid draws the grid's odds to plotTo: a group of bars per row, a
// series per result column.
func (a *app) plotGrid(plotTo string, t *table.Table, specs []varySpec, rows []gridRow, cols []string) error {
	groups := make([]string, len(rows))
	series := make([][]float64, len(rows))
	for i, r := range rows {
		groups[i] = strings.Join(r.combo, " ")
		series[i] = make([]float64, len(cols))
		for j, c := range cols {
			series[i][j] = ratFloat(r.odds.P(c))
		}
	}
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	return a.plotBars(plotTo, t.ID+" by "+strings.Join(names, ", "), groups, cols, series)
}

// writeGrid prints the grid: a title, the fixed parameters, and a row per
// combination with the chance of each result column.
func writeGrid(w io.Writer, t *table.Table, fixed map[string]string, specs []varySpec, rows []gridRow, cols []string) error {
	fmt.Fprintf(w, "%s, chance of each result\n", title(t))
	if len(fixed) > 0 {
		keys := make([]string, 0, len(fixed))
		for k := range fixed {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			keys[i] = k + "=" + fixed[k]
		}
		fmt.Fprintf(w, "  with %s\n", strings.Join(keys, " "))
	}
	fmt.Fprintln(w)
	g := grid{left: len(specs)}
	var head []string
	for _, s := range specs {
		head = append(head, s.name)
	}
	g.add(append(head, cols...)...)
	for _, r := range rows {
		cells := slices.Clone(r.combo)
		for _, c := range cols {
			cells = append(cells, pct(ratFloat(r.odds.P(c))))
		}
		g.add(cells...)
	}
	return g.write(w, "  ")
}

// gridColumns lists the results that occur in any row, in table order.
func gridColumns(t *table.Table, rows []gridRow) []string {
	seen := map[string]bool{}
	for _, r := range rows {
		for _, c := range r.odds.Outcomes {
			seen[c.Result] = true
		}
	}
	var cols []string
	if t.Pool != nil {
		most := -1
		for k := range seen {
			var n int
			fmt.Sscanf(k[strings.LastIndexByte(k, '-')+1:], "%d", &n)
			most = max(most, n)
		}
		for k := 0; k <= most; k++ {
			cols = append(cols, fmt.Sprintf("%s-%d", t.Pool.Result, k))
		}
		return cols
	}
	for _, r := range t.Results {
		if seen[r.Key] {
			cols = append(cols, r.Key)
		}
	}
	return cols
}

func ratFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

func (a *app) diceOdds(sp dice.Spec, asJSON bool, plotTo string) error {
	d, err := sp.Dist()
	if err != nil {
		return bad(err)
	}
	var res []string
	var fs []float64
	out := table.OddsJSON{Table: sp.String(), Dice: sp.String(), Modifier: sp.Plus, Outcomes: []table.OutcomeJSON{}}
	for i := range d.Ways {
		p := d.Prob(d.Min + i)
		total := strconv.Itoa(d.Min + i + sp.Plus)
		f := ratFloat(p)
		res = append(res, total)
		fs = append(fs, f)
		out.Outcomes = append(out.Outcomes, table.OutcomeJSON{Result: total, Probability: f, Exact: p.RatString()})
	}
	if plotTo != "" {
		if err := a.plotBars(plotTo, sp.String(), []string{""}, res, [][]float64{fs}); err != nil {
			return err
		}
	}
	if asJSON {
		return writeJSON(a.out, out)
	}
	fmt.Fprintf(a.out, "%s\n\n", sp)
	g := grid{lastLeft: true}
	g.add("total", "chance", "exact", "")
	for i, o := range out.Outcomes {
		g.add(o.Result, pct(fs[i]), o.Exact, bar(fs[i]))
	}
	return g.write(a.out, "  ")
}
