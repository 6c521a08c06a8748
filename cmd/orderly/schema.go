package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"orderly/battle"
	"orderly/strict"
)

// schemas are the file formats that orderly schema prints, by name.
var schemas = []struct {
	name, about string
	doc         func() []byte
}{
	{"scenario", "a scenario file: the field, the sides and their orders", battle.Schema},
}

func schemaNames() []string {
	var out []string
	for _, s := range schemas {
		out = append(out, s.name)
	}
	return out
}

func (a *app) schemaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "schema NAME",
		Short: "Print the JSON Schema of a file format",
		Long: `Print the JSON Schema (draft 2020-12) of one of orderly's file formats,
for editors and other tools that check YAML or JSON as it is written.
The loader remains the final word: it also checks what a schema cannot,
such as ids used once and pieces standing on the table.

Schemas: ` + strings.Join(schemaNames(), ", ") + `.`,
		Example: `  orderly schema scenario
  orderly schema scenario > scenario.schema.json`,
		Args: func(_ *cobra.Command, args []string) error {
			allowed := strings.Join(schemaNames(), ", ")
			switch {
			case len(args) == 0:
				return badf("schema: name the schema to print; allowed: %s", allowed)
			case len(args) > 1:
				return badf("schema: give one schema name, got %d; allowed: %s", len(args), allowed)
			}
			return nil
		},
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var out []string
			for _, s := range schemas {
				out = append(out, s.name+"\t"+s.about)
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(_ *cobra.Command, args []string) error {
			for _, s := range schemas {
				if s.name == args[0] {
					_, err := a.out.Write(s.doc())
					return err
				}
			}
			names := schemaNames()
			hint := ""
			if m := strict.Near(args[0], names); len(m) > 0 {
				hint = fmt.Sprintf(" (did you mean %s?)", m[0])
			}
			return badf("unknown schema %q%s; allowed: %s", args[0], hint, strings.Join(names, ", "))
		},
	}
}
