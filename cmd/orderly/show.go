package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"orderly/table"
)

func (a *app) showCmd() *cobra.Command {
	return &cobra.Command{
		Use:               "show TABLE",
		Short:             "Print a table as a rule book would: bands, modifiers, notes",
		Example:           "  orderly show nb/order-delay\n  orderly show cd/activation\n  orderly show bp/command --rules examples/rules/bp-command-variant.yaml",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: a.completeTable(anyTable),
		RunE: func(c *cobra.Command, args []string) error {
			set, err := a.loadFor(args[0])
			if err != nil {
				return err
			}
			if l := set.Lookup(args[0]); l != nil {
				return showLookup(a.out, l)
			}
			t, err := set.Table(args[0])
			if err != nil {
				return bad(err)
			}
			return showTable(a.out, t)
		},
	}
}

// title names a table for a heading, marking one that house rules changed.
func title(t *table.Table) string {
	s := fmt.Sprintf("%s: %s (%s)", t.ID, t.Title, t.Rule)
	if t.House {
		s += " [house rules: " + t.File + "]"
	}
	return s
}

func heading(w io.Writer, head, doc string) {
	fmt.Fprintln(w, head)
	if doc != "" {
		for _, line := range wrap(doc, 76) {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	fmt.Fprintln(w)
}

// wrap breaks text into lines of at most width characters.
func wrap(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && len(line)+1+len(word) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

func signed(n int) string {
	if n >= 0 {
		return fmt.Sprintf("+%d", n)
	}
	return fmt.Sprint(n)
}

func targetNames(t *table.Table) string {
	var names []string
	for _, p := range t.Params {
		if p.Target {
			names = append(names, p.Name)
		}
	}
	return strings.Join(names, " + ")
}

func showTable(w io.Writer, t *table.Table) error {
	heading(w, title(t), t.Doc)
	if t.Pool != nil {
		showPool(w, t)
	} else {
		showBands(w, t)
	}
	showParams(w, t.Params, t.Derived, false)
	showLucky(w, t)
	return nil
}

// showLucky says which way a roll on t is lucky for the side that rolls
// it, as the luck report reads it (the table's lucky key); nothing for a
// table without one.
func showLucky(w io.Writer, t *table.Table) {
	what := "natural total"
	if t.Pool != nil {
		what = "count of dice through every stage"
	}
	switch t.Lucky {
	case table.LuckyHigh:
		fmt.Fprintf(w, "Luck: a high %s is lucky for the side that rolls.\n", what)
	case table.LuckyLow:
		fmt.Fprintf(w, "Luck: a low %s is lucky for the side that rolls.\n", what)
	}
}

func showBands(w io.Writer, t *table.Table) {
	score := "total"
	add := ""
	for _, p := range t.Params {
		if p.Modifies() && !p.Target {
			add = " and add the modifiers"
		}
	}
	if len(t.Derived) > 0 {
		add = " and add the modifiers"
	}
	dc := t.Dice.String()
	if t.ClassDice {
		dc += " (or the unit's own class dice)"
	}
	if t.HasTarget() {
		fmt.Fprintf(w, "Roll %s%s; read the total less the target (%s).\n", dc, add, targetNames(t))
		score = "total - target"
	} else {
		fmt.Fprintf(w, "Roll %s%s; read the total.\n", dc, add)
	}
	for _, n := range t.Naturals {
		fmt.Fprintf(w, "A natural %d is always %s.\n", n.Natural, n.Result)
	}
	fmt.Fprintln(w)
	tw := columns(w)
	if t.RowsBy == "" {
		fmt.Fprintf(tw, "  %s\tresult\t\n", score)
		for _, b := range t.Rows[0].Bands {
			doc := ""
			if r := t.Result(b.Result); r != nil {
				doc = r.Doc
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", table.BandText(b.Lo, b.Hi), b.Result, doc)
		}
		tw.Flush()
	} else {
		// One line per interval of the score, one column per row of the table.
		cuts := []int{}
		for _, r := range t.Rows {
			if r.Fixed != "" {
				continue
			}
			for _, b := range r.Bands[1:] {
				if !slices.Contains(cuts, b.Lo) {
					cuts = append(cuts, b.Lo)
				}
			}
		}
		slices.Sort(cuts)
		fmt.Fprintf(tw, "  %s\t%s\t\n", score, strings.Join(rowKeys(t), "\t"))
		for i := 0; i <= len(cuts); i++ {
			lo, hi := table.Open()
			if i > 0 {
				lo = cuts[i-1]
			}
			if i < len(cuts) {
				hi = cuts[i] - 1
			}
			cells := []string{}
			for _, r := range t.Rows {
				if r.Fixed != "" {
					cells = append(cells, r.Fixed+" (no roll)")
					continue
				}
				cells = append(cells, r.Band(lo).Result)
			}
			fmt.Fprintf(tw, "  %s\t%s\t\n", table.BandText(lo, hi), strings.Join(cells, "\t"))
		}
		tw.Flush()
		fmt.Fprintf(w, "\nColumns: %s. Results:\n", t.RowsBy)
		tw = columns(w)
		for _, r := range t.Results {
			fmt.Fprintf(tw, "  %s\t%s\n", r.Key, r.Doc)
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
}

func rowKeys(t *table.Table) []string {
	out := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = r.Key
	}
	return out
}

func showPool(w io.Writer, t *table.Table) {
	p := t.Pool
	fmt.Fprintf(w, "Roll N dice of %s, N given by %s; each die takes these stages in turn:\n", strings.TrimPrefix(t.Dice.String(), "1"), p.Count)
	for _, s := range p.Stages {
		need := fmt.Sprintf("%d or more", s.Need)
		if s.NeedParam != "" {
			need = s.NeedParam + " or more"
		}
		parts := []string{"passes on " + need}
		if s.Modifier != "" {
			parts[0] += " after adding " + s.Modifier
		}
		if len(s.FailOn) > 0 {
			parts = append(parts, "a natural "+ints(s.FailOn)+" always fails")
		}
		if len(s.PassOn) > 0 {
			parts = append(parts, "a natural "+ints(s.PassOn)+" always passes")
		}
		for _, m := range s.Marks {
			parts = append(parts, fmt.Sprintf("a natural %d %s the target", m.Natural, m.Name))
		}
		if s.RerollIf != "" {
			parts = append(parts, "with "+s.RerollIf+"=true a failed die is rolled once more")
		}
		goOn := "dice that pass go on"
		if s.Keep == "fail" {
			goOn = "dice that fail go on"
		}
		parts = append(parts, goOn)
		lines := wrap(strings.Join(parts, "; ")+".", 66)
		for i, l := range lines {
			label := ""
			if i == 0 {
				label = s.Name
			}
			fmt.Fprintf(w, "  %-8s%s\n", label, l)
		}
	}
	fmt.Fprintf(w, "The result %s-N counts the dice that come through every stage.\n\n", p.Result)
}

func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " or ")
}

func showParams(w io.Writer, ps []*table.Param, derived []table.Derived, allRequired bool) {
	if len(ps) == 0 {
		fmt.Fprintln(w, "No parameters.")
		return
	}
	fmt.Fprintln(w, "Parameters and modifiers:")
	for _, p := range ps {
		head := p.Name
		switch {
		case p.Required || allRequired:
			head += " (required)"
		case p.Default != "":
			head += " (default " + p.Default + ")"
		default:
			head += " (optional)"
		}
		if p.Doc != "" {
			head += ": " + p.Doc
		}
		for i, l := range wrap(head, 74) {
			if i > 0 {
				l = "    " + l
			}
			fmt.Fprintln(w, "  "+l)
		}
		for _, l := range modLines(p) {
			fmt.Fprintf(w, "      %s\n", l)
		}
	}
	for _, d := range derived {
		fmt.Fprintf(w, "  %s: modifier read from %s with %s\n", d.Name, d.Lookup, strings.Join(d.Args, ", "))
	}
}

func modLines(p *table.Param) []string {
	var out []string
	role := "modifier"
	if p.Target {
		role = "added to the target"
	}
	switch p.Kind {
	case table.Enum:
		var parts []string
		for _, v := range p.Values {
			if p.Modifies() {
				parts = append(parts, v.Name+" "+signed(v.Mod))
			} else {
				parts = append(parts, v.Name)
			}
		}
		out = wrap(strings.Join(parts, ", "), 70)
	case table.Int:
		line := p.Allowed()
		if p.Per == 1 {
			if p.Target {
				line += "; its value is added to the target"
			} else {
				line += "; its value is the modifier"
			}
		} else if p.Per != 0 {
			line += fmt.Sprintf("; %s: %s per point", role, signed(p.Per))
		}
		for _, r := range p.Ranges {
			line += fmt.Sprintf("; %d..%d gives %s", r.Lo, r.Hi, signed(r.Mod))
		}
		out = append(out, line)
	case table.Bool:
		line := "true or false"
		if p.Mod != 0 {
			line += fmt.Sprintf("; %s when true", signed(p.Mod))
		}
		if p.Unless != "" {
			line += " (not while " + p.Unless + " is true)"
		}
		for _, r := range p.Renames {
			line += fmt.Sprintf("; when true, %s reads as %s", r.From, r.To)
		}
		out = append(out, line)
	}
	return out
}

// showLookup prints a lookup table as a rule book would: its heading,
// its cells (a progressive table as a grid of counts), its key and its
// parameters.
func showLookup(w io.Writer, l *table.Lookup) error {
	head := fmt.Sprintf("%s: %s (%s)", l.ID, l.Title, l.Rule)
	if l.House {
		head += " [house rules: " + l.File + "]"
	}
	heading(w, head, l.Doc)
	if l.Unit != "" {
		fmt.Fprintf(w, "Values in %s.\n", l.Unit)
	}
	fmt.Fprintln(w)
	if pr := l.Progressive; pr != nil {
		if err := showProgressive(w, l, pr); err != nil {
			return err
		}
	} else {
		showCells(w, l)
	}
	if len(l.Legend) > 0 {
		fmt.Fprintln(w, "\nKey:")
		tw := columns(w)
		for _, c := range l.Legend {
			fmt.Fprintf(tw, "  %s\t%s\n", c.Code, c.Meaning)
		}
		tw.Flush()
	}
	fmt.Fprintln(w)
	showParams(w, l.Params, nil, true)
	return nil
}

// showProgressive prints a progressive lookup: its values for the first
// counts of each step, then each step's free counts and rate.
func showProgressive(w io.Writer, l *table.Lookup, pr *table.Progressive) error {
	const shown = 8
	tw := columns(w)
	fmt.Fprintf(tw, "  %s \\ %s\t", pr.By, pr.Count)
	for k := 1; k <= shown; k++ {
		fmt.Fprintf(tw, "%d\t", k)
	}
	fmt.Fprintln(tw)
	for _, s := range pr.Steps {
		fmt.Fprintf(tw, "  %s\t", s.Key)
		for k := 1; k <= shown; k++ {
			c, err := l.Get(map[string]string{pr.By: s.Key, pr.Count: fmt.Sprint(k)})
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%s\t", c.Text)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n  The first rolls are free; then the penalty grows by one for every\n  step of extra rolls:\n")
	for _, s := range pr.Steps {
		fmt.Fprintf(w, "    %s: %d free, then -1 per %d more\n", s.Key, s.Free, s.Every)
	}
	return nil
}

// showCells prints a lookup's cells: a column of values for one
// parameter; else a row per combination of all but the last parameter,
// with a column per value of the last.
func showCells(w io.Writer, l *table.Lookup) {
	tw := columns(w)
	defer tw.Flush()
	last := l.Params[len(l.Params)-1]
	if len(l.Params) == 1 {
		fmt.Fprintf(tw, "  %s\tvalue\t\n", last.Name)
		for _, b := range l.Cells.Branches {
			fmt.Fprintf(tw, "  %s\t%s\t\n", b.Key, b.Cell.Text)
		}
		return
	}
	var heads []string
	for _, p := range l.Params[:len(l.Params)-1] {
		heads = append(heads, p.Name)
	}
	fmt.Fprintf(tw, "  %s \\ %s\t%s\t\n", strings.Join(heads, ", "), last.Name, strings.Join(last.Names(), "\t"))
	var walk func(n *table.Node, prefix []string)
	walk = func(n *table.Node, prefix []string) {
		for _, b := range n.Branches {
			key := append(slices.Clone(prefix), b.Key)
			if len(key) == len(l.Params)-1 {
				var cells []string
				for _, v := range last.Names() {
					for _, c := range b.Next.Branches {
						if c.Key == v {
							cells = append(cells, c.Cell.Text)
						}
					}
				}
				fmt.Fprintf(tw, "  %s\t%s\t\n", strings.Join(key, ", "), strings.Join(cells, "\t"))
				continue
			}
			walk(b.Next, key)
		}
	}
	walk(l.Cells, nil)
}
