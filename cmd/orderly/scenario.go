package main

import "github.com/spf13/cobra"

// scenarioCmd is orderly scenario: commands over scenario files (check,
// format, import). Each subcommand is made in its own file.
func (a *app) scenarioCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "scenario",
		Short: "Check, format and import scenario files",
	}
	for _, sub := range []*cobra.Command{a.scenarioCheckCmd(), a.scenarioFormatCmd(), a.scenarioImportCmd()} {
		if sub != nil {
			c.AddCommand(sub)
		}
	}
	return c
}
