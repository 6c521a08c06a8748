package main

import (
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"orderly/report"
	"orderly/rules"
)

// reportCmd is orderly report: a game's after-action report from its
// export alone (issue 36).
func (a *app) reportCmd() *cobra.Command {
	var out, format string
	c := &cobra.Command{
		Use:   "report GAME.json [-o FILE] [--format html|json|text]",
		Short: "Write a game's after-action report from its export",
		Long: `Write the after-action report of a game from its export (orderly export,
or the page's export) alone: a summary, the life of every order (written,
carried, read, acted on, with its delay), and turn by turn the orders'
stages, every roll with its table (the failures and extremes marked), and
a map of the end of the turn; then each side's luck against the exact
odds of the tables it rolled on.

--format html (the default with -o FILE.html) writes one printable page
that stands alone: its maps are inline SVG and it runs no script. text
(the default otherwise) is for a terminal, without the maps; json is the
report's data. A game played under house rules is reported with the same
--rules.`,
		Example: `  orderly report game.json
  orderly report game.json -o report.html
  orderly report game.json --format json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format == "" {
				format = "text"
				if strings.HasSuffix(strings.ToLower(out), ".html") {
					format = "html"
				}
			}
			if !slices.Contains(report.Formats(), format) {
				return badf("--format %s is not known; allowed: %s", format, strings.Join(report.Formats(), ", "))
			}
			house, err := rules.Sources(a.rules...)
			if err != nil {
				return bad(err)
			}
			mk, err := a.maker()
			if err != nil {
				return err
			}
			doc, err := readArchive(args[0])
			if err != nil {
				return err
			}
			eng := report.Engine{Rules: mk, Tables: report.Tables(rules.Builtin(), house...)}
			rep, err := report.Build(doc, eng)
			if err != nil {
				return badf("%s: %v", args[0], err)
			}
			w := a.out
			if out != "" && out != "-" {
				f, err := os.Create(out)
				if err != nil {
					return bad(err)
				}
				defer f.Close()
				w = f
			}
			return report.Write(w, rep, format)
		},
	}
	c.Flags().StringVarP(&out, "output", "o", "", "write to `FILE` instead of standard output")
	c.Flags().StringVar(&format, "format", "", "html, json or text (default text, or html for -o FILE.html)")
	return c
}
