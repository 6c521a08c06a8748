package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"orderly/dice"
	"orderly/table"
)

func (a *app) rollCmd() *cobra.Command {
	var (
		seed    uint64
		natural string
		asJSON  bool
	)
	c := &cobra.Command{
		Use:   "roll TABLE [NAME=VALUE ...]",
		Short: "Roll a table: the natural roll, each modifier by name, the total and the result",
		Long: `Roll a dice table with the given parameters. Every roll prints the seed
that produced it, so that --seed repeats it exactly; --dice resolves the
dice a player rolled at the table instead. TABLE may also be plain dice
notation such as 2d6 or 1d10z.`,
		Example: `  orderly roll nb/order-delay nation=french quality=average
  orderly roll bp/command rating=8 --seed 7
  orderly roll nb/order-delay nation=french --dice 3
  orderly roll bp/shooting dice=12 enfilade=true --json
  orderly roll 2d6`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: a.completeTable(diceTables),
		RunE: func(c *cobra.Command, args []string) error {
			in, err := params(args[1:])
			if err != nil {
				return err
			}
			if natural == "" && !c.Flags().Changed("seed") {
				seed = a.seed()
			}
			roller, usedSeed, err := newRoller(natural, seed)
			if err != nil {
				return err
			}
			return a.roll(args[0], in, roller, usedSeed, asJSON)
		},
	}
	c.Flags().Uint64Var(&seed, "seed", 0, "seed for the dice, to repeat a roll exactly")
	c.Flags().StringVar(&natural, "dice", "", "natural faces rolled at the table, comma separated (e.g. 3 or 4,6), instead of random dice")
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	c.MarkFlagsMutuallyExclusive("seed", "dice")
	return c
}

// newRoller is the roll's dice: the faces natural lists (--dice), or
// else dice seeded with seed, which it returns to be printed.
func newRoller(natural string, seed uint64) (dice.Roller, *uint64, error) {
	if natural != "" {
		faces, err := faceList(natural)
		if err != nil {
			return nil, nil, err
		}
		return dice.NewScripted(faces...), nil, nil
	}
	return dice.NewSeeded(seed), &seed, nil
}

// roll rolls name, plain dice notation or a table bound to the
// parameters in, with roller, and prints the roll and the seed it used
// (nil for given faces), as text or JSON.
func (a *app) roll(name string, in map[string]string, roller dice.Roller, usedSeed *uint64, asJSON bool) error {
	if sp, err := dice.Parse(name); err == nil && !strings.Contains(name, "/") {
		if len(in) > 0 {
			return badf("plain dice take no parameters")
		}
		r, err := sp.Roll(roller)
		if err != nil {
			return bad(err)
		}
		if err := leftover(roller); err != nil {
			return err
		}
		return a.printDice(sp, r, usedSeed, asJSON)
	}
	t, err := a.diceTable(name)
	if err != nil {
		return err
	}
	bound, err := t.Bind(in)
	if err != nil {
		return bad(err)
	}
	r, err := t.Resolve(bound, roller)
	if err != nil {
		return bad(err)
	}
	if err := leftover(roller); err != nil {
		return err
	}
	if asJSON {
		return writeJSON(a.out, rollJSON(t, bound, r, usedSeed))
	}
	printRoll(a.out, t, r, usedSeed)
	return nil
}

func faceList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, badf("--dice %q: %q is not a whole number; give the faces as 3 or 4,6", s, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// leftover rejects given faces that the roll did not use: a typo in --dice
// must not pass silently.
func leftover(r dice.Roller) error {
	if s, ok := r.(*dice.Scripted); ok && s.Left() > 0 {
		return badf("--dice gave %d more faces than the roll used", s.Left())
	}
	return nil
}

func (a *app) printDice(sp dice.Spec, r dice.Roll, seed *uint64, asJSON bool) error {
	if asJSON {
		v := map[string]any{"dice": sp.String(), "faces": r.Faces, "natural": r.Natural, "total": r.Total}
		if seed != nil {
			v["seed"] = *seed
		}
		return writeJSON(a.out, v)
	}
	fmt.Fprintf(a.out, "%s: %s = %d\n", sp, joinInts(r.Faces, " + "), r.Natural)
	if sp.Plus != 0 {
		fmt.Fprintf(a.out, "total %d\n", r.Total)
	}
	if seed != nil {
		fmt.Fprintf(a.out, "seed %d\n", *seed)
	}
	return nil
}

func joinInts(xs []int, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, sep)
}

func printRoll(w io.Writer, t *table.Table, r table.Roll, seed *uint64) {
	fmt.Fprintln(w, title(t))
	tw := columns(w)
	if t.Pool != nil {
		for _, s := range r.Stages {
			if s.Certain {
				fmt.Fprintf(tw, "  %s\tno roll needed (%d+ cannot change the outcome); %d go on\n", s.Name, s.Need, s.Kept)
				continue
			}
			line := fmt.Sprintf("%d dice, %d+ needed", len(s.Faces), s.Need)
			if len(s.Faces) > 0 {
				line += ": " + joinInts(s.Faces, " ")
			}
			if len(s.Rerolls) > 0 {
				line += "; rolled again: " + joinInts(s.Rerolls, " ")
			}
			line += fmt.Sprintf("; %d go on", s.Kept)
			fmt.Fprintf(tw, "  %s\t%s\n", s.Name, line)
		}
		for _, m := range r.Mods {
			fmt.Fprintf(tw, "  %s\t%s to each die\n", m.Name, signed(m.Amount))
		}
	} else {
		if r.Faces != nil {
			roll := joinInts(r.Faces, " + ")
			if len(r.Faces) > 1 {
				roll += fmt.Sprintf(" = %d", r.Natural)
			}
			fmt.Fprintf(tw, "  roll\t%s\t%s\n", t.Dice, roll)
			if t.Dice.Plus != 0 {
				fmt.Fprintf(tw, "  \tdice constant\t%s\n", signed(t.Dice.Plus))
			}
		}
		for _, m := range r.Mods {
			if m.Value == "false" {
				continue
			}
			amount := signed(m.Amount)
			if m.Target {
				amount = "target " + amount
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", m.Name, m.Value, amount)
		}
		if r.Faces != nil {
			fmt.Fprintf(tw, "  total\t%d\t\n", r.Total)
		}
		if r.Target != nil {
			fmt.Fprintf(tw, "  target\t%d\t\n", *r.Target)
		}
	}
	tw.Flush()
	doc := ""
	if res := t.Result(r.Result); res != nil && res.Doc != "" {
		doc = ": " + res.Doc
	}
	fmt.Fprintf(w, "  result  %s%s\n", r.Result, doc)
	fmt.Fprintf(w, "          (%s)\n", r.Reason)
	for _, m := range r.Marks {
		fmt.Fprintf(w, "  mark    %s\n", m)
	}
	if seed != nil {
		fmt.Fprintf(w, "  seed    %d (--seed %d repeats this roll)\n", *seed, *seed)
	}
}

type modJSON struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Amount int    `json:"amount"`
	Target bool   `json:"target,omitempty"`
}

type stageJSON struct {
	Name    string `json:"name"`
	Need    int    `json:"need"`
	Faces   []int  `json:"faces"`
	Rerolls []int  `json:"rerolls,omitempty"`
	Kept    int    `json:"kept"`
	Rolled  bool   `json:"rolled"`
}

type rollOut struct {
	Table     string            `json:"table"`
	Rule      string            `json:"rule"`
	Params    map[string]string `json:"params"`
	Dice      string            `json:"dice"`
	Faces     []int             `json:"faces,omitempty"`
	Natural   *int              `json:"natural,omitempty"`
	Modifiers []modJSON         `json:"modifiers"`
	Modifier  int               `json:"modifier"`
	Target    *int              `json:"target,omitempty"`
	Total     *int              `json:"total,omitempty"`
	Result    string            `json:"result"`
	Reason    string            `json:"reason"`
	Stages    []stageJSON       `json:"stages,omitempty"`
	Marks     []string          `json:"marks,omitempty"`
	Seed      *uint64           `json:"seed,omitempty"`
}

func rollJSON(t *table.Table, a table.Args, r table.Roll, seed *uint64) rollOut {
	out := rollOut{Table: t.ID, Rule: t.Rule, Params: a.Map(), Dice: r.Dice, Modifiers: []modJSON{},
		Modifier: r.Modifier, Target: r.Target, Result: r.Result, Reason: r.Reason, Marks: r.Marks, Seed: seed}
	if r.Faces != nil || t.Pool != nil {
		out.Faces = r.Faces
		total := r.Total
		out.Total = &total
		if t.Pool == nil {
			nat := r.Natural
			out.Natural = &nat
		}
	}
	for _, m := range r.Mods {
		out.Modifiers = append(out.Modifiers, modJSON{m.Name, m.Value, m.Amount, m.Target})
	}
	for _, s := range r.Stages {
		out.Stages = append(out.Stages, stageJSON{s.Name, s.Need, s.Faces, s.Rerolls, s.Kept, !s.Certain})
	}
	return out
}
