package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// gamesCmd is orderly games: the games a store keeps, and deleting one
// (issue 35, "Your games").
func (a *app) gamesCmd() *cobra.Command {
	var db, del string
	var yes bool
	c := &cobra.Command{
		Use:   "games",
		Short: "List the games orderly serve keeps, or delete one",
		Long: `List the games kept by orderly serve, the last played first: each game's
id, rule set, turn and phase, when it was last played (made, a command,
a reveal), its number of seats and its title. The host sees the same list
on the front page through the host link.

With --delete GAME and --yes the game is deleted for good, with its log,
its seats and its dice seeds: its join links stop working, also on a
server running on the same store. Export it first (orderly export) to
keep a copy.`,
		Example: `  orderly games --db club.db
  orderly games --db club.db --delete 3f9a1c2b7d4e --yes`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			srv, done, err := a.openServer(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer done()
			ctx := cmd.Context()
			list, err := srv.List(ctx)
			if err != nil {
				return err
			}
			if del != "" {
				title := ""
				for _, g := range list {
					if g.ID == del {
						title = g.Title
					}
				}
				if title == "" {
					return badf("games: --delete %s: %s holds no such game", del, dbName(db))
				}
				if !yes {
					return badf("games: --delete %s would delete %q, its log and its seats for good; add --yes to do it", del, title)
				}
				if err := srv.Delete(ctx, del); err != nil {
					return seatsErr(err)
				}
				fmt.Fprintf(a.out, "deleted game %s (%s)\n", del, title)
				return nil
			}
			if len(list) == 0 {
				fmt.Fprintf(a.out, "no games in %s\n", dbName(db))
				return nil
			}
			fmt.Fprintf(a.out, "%-12s  %-5s  %-16s  %-16s  %5s  %s\n", "GAME", "RULES", "TURN", "LAST PLAYED", "SEATS", "TITLE")
			for _, g := range list {
				turn := "not begun"
				if g.Turn > 0 {
					turn = fmt.Sprintf("%d %s", g.Turn, g.Phase)
				}
				title := g.Title
				if g.Demo {
					title += " (demo)"
				}
				fmt.Fprintf(a.out, "%-12s  %-5s  %-16s  %-16s  %5d  %s\n", g.ID, g.Rules, clip(turn, 16), g.Played.Local().Format(time.DateOnly+" 15:04"), len(g.Seats), title)
			}
			return nil
		},
	}
	a.dbFlag(c, &db, "the store of orderly serve")
	c.Flags().StringVar(&del, "delete", "", "delete the game `GAME`, its log and its seats (with --yes)")
	c.Flags().BoolVar(&yes, "yes", false, "with --delete: yes, delete it for good")
	return c
}

// clip is s cut to n characters at most, an ellipsis marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
