package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"orderly/table"
)

func (a *app) tablesCmd() *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:     "tables",
		Short:   "List every table with its rule ID and parameters",
		Example: "  orderly tables\n  orderly tables --json\n  orderly tables --rules examples/rules/bp-command-variant.yaml",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			set, err := a.load()
			if err != nil {
				return err
			}
			if asJSON {
				return a.tablesJSON(set)
			}
			w := columns(a.out)
			fmt.Fprintln(w, "TABLE\tRULE\tDICE\tPARAMETERS")
			for _, t := range set.Tables() {
				dice := t.Dice.String()
				if t.Pool != nil {
					dice = "N" + strings.TrimPrefix(dice, "1")
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", t.ID, t.Rule, dice, paramSummary(t.Params))
			}
			for _, l := range set.Lookups() {
				var names []string
				for _, p := range l.Params {
					names = append(names, p.Name+"=?")
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", l.ID, l.Rule, "lookup", strings.Join(names, " "))
			}
			if err := w.Flush(); err != nil {
				return err
			}
			fmt.Fprintln(a.out, "\nNAME=? must be given, NAME=- may be left out, NAME=X defaults to X; orderly show TABLE lists the values.")
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return c
}

// paramSummary gives each parameter as name=allowed(default).
func paramSummary(ps []*table.Param) string {
	if len(ps) == 0 {
		return "-"
	}
	var parts []string
	for _, p := range ps {
		parts = append(parts, paramShort(p))
	}
	return strings.Join(parts, " ")
}

// paramShort gives a parameter as NAME=DEFAULT, NAME=? when it must be
// given, or NAME=- when it may be left out.
func paramShort(p *table.Param) string {
	switch {
	case p.Default != "":
		return p.Name + "=" + p.Default
	case p.Required:
		return p.Name + "=?"
	}
	return p.Name + "=-"
}

type paramJSON struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Values   []string `json:"values,omitempty"`
	Min      *int     `json:"min,omitempty"`
	Max      *int     `json:"max,omitempty"`
	Default  string   `json:"default,omitempty"`
	Required bool     `json:"required,omitempty"`
	Doc      string   `json:"doc,omitempty"`
}

func paramsJSON(ps []*table.Param) []paramJSON {
	out := []paramJSON{}
	for _, p := range ps {
		out = append(out, paramJSON{p.Name, string(p.Kind), p.Names(), p.Min, p.Max, p.Default, p.Required, p.Doc})
	}
	return out
}

func (a *app) tablesJSON(set *table.Set) error {
	type entry struct {
		ID      string      `json:"id"`
		Rule    string      `json:"rule"`
		Title   string      `json:"title"`
		Kind    string      `json:"kind"`
		Dice    string      `json:"dice,omitempty"`
		Params  []paramJSON `json:"params"`
		Results []string    `json:"results,omitempty"`
	}
	var out []entry
	for _, t := range set.Tables() {
		e := entry{ID: t.ID, Rule: t.Rule, Title: t.Title, Kind: "dice", Dice: t.Dice.String(), Params: paramsJSON(t.Params)}
		if t.Pool != nil {
			e.Kind = "pool"
		}
		for _, r := range t.Results {
			e.Results = append(e.Results, r.Key)
		}
		out = append(out, e)
	}
	for _, l := range set.Lookups() {
		out = append(out, entry{ID: l.ID, Rule: l.Rule, Title: l.Title, Kind: "lookup", Params: paramsJSON(l.Params)})
	}
	return writeJSON(a.out, out)
}

func writeJSON(w interface{ Write([]byte) (int, error) }, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
