package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) lookupCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "lookup TABLE NAME=VALUE ...",
		Short: "Read a value off a lookup table (no dice)",
		Example: `  orderly lookup cd/movement type=infantry formation=column
  orderly lookup nb/orders-per-turn nation=british
  orderly lookup nes/terrain terrain=woods unit=infantry
  orderly lookup cd/command-style style=french-model roll=5 --json`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: a.completeTable(lookupTables),
		RunE: func(c *cobra.Command, args []string) error {
			in, err := params(args[1:])
			if err != nil {
				return err
			}
			set, err := a.loadFor(args[0])
			if err != nil {
				return err
			}
			l, err := set.FindLookup(args[0])
			if err != nil {
				return bad(err)
			}
			cell, err := l.Get(in)
			if err != nil {
				return bad(err)
			}
			meaning := l.Meaning(cell)
			if asJSON {
				v := map[string]any{"table": l.ID, "rule": l.Rule, "params": in, "value": cell.Text}
				if cell.Num != nil {
					f, _ := cell.Num.Float64()
					v["number"] = f
					v["exact"] = cell.Num.RatString()
				}
				if l.Unit != "" {
					v["unit"] = l.Unit
				}
				if cell.Note != "" {
					v["note"] = cell.Note
				}
				if meaning != "" {
					v["meaning"] = meaning
				}
				return writeJSON(a.out, v)
			}
			line := cell.Text
			if meaning != "" {
				if n := cell.Num; n != nil && l.Unit != "" {
					meaning = n.RatString() + " " + l.Unit + "; " + meaning
				}
				line += "  (" + meaning + ")"
			}
			fmt.Fprintln(a.out, line)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}
