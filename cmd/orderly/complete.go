package main

import (
	"strings"

	"github.com/spf13/cobra"

	"orderly/table"
)

// Which tables a command's completion offers.
const (
	anyTable = iota
	diceTables
	lookupTables
)

// completeTable completes the table id as the first argument and then
// NAME= and NAME=VALUE for its parameters.
func (a *app) completeTable(which int) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		set, err := a.load()
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		if len(args) == 0 {
			var ids []string
			if which != lookupTables {
				for _, t := range set.Tables() {
					ids = append(ids, t.ID+"\t"+t.Title)
				}
			}
			if which != diceTables {
				for _, l := range set.Lookups() {
					ids = append(ids, l.ID+"\t"+l.Title)
				}
			}
			return ids, cobra.ShellCompDirectiveNoFileComp
		}
		var ps []*table.Param
		if t, err := set.Table(args[0]); err == nil {
			ps = t.Params
		} else if l := set.Lookup(args[0]); l != nil {
			ps = l.Params
		}
		given := map[string]bool{}
		for _, arg := range args[1:] {
			k, _, _ := strings.Cut(arg, "=")
			given[k] = true
		}
		var out []string
		if name, _, ok := strings.Cut(toComplete, "="); ok {
			for _, p := range ps {
				if p.Name != name {
					continue
				}
				switch p.Kind {
				case table.Enum:
					for _, v := range p.Names() {
						out = append(out, name+"="+v)
					}
				case table.Bool:
					out = append(out, name+"=true", name+"=false")
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		}
		for _, p := range ps {
			if !given[p.Name] {
				out = append(out, p.Name+"=")
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}
