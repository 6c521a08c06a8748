package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"orderly/server"
)

func (a *app) seatsCmd() *cobra.Command {
	var db, base, reissue string
	c := &cobra.Command{
		Use:   "seats GAME",
		Short: "List a game's seats, or give one a new join link",
		Long: `List the seats of a game kept by orderly serve: each seat's name, role
and label. With --reissue SEAT (a name from the list: umpire, a side's
id, or a commander's formation) the seat gets a new join link, printed
here, and its old link stops working at once, also on a server running
on the same file. The umpire can do the same from the game's page.`,
		Example: `  orderly seats --db club.db 3f9a1c2b7d4e
  orderly seats --db club.db 3f9a1c2b7d4e --reissue french`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			srv, done, err := a.openServer(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer done()
			ctx := cmd.Context()
			if reissue != "" {
				made, err := srv.Reissue(ctx, args[0], reissue)
				if err != nil {
					return seatsErr(err)
				}
				fmt.Fprintf(a.out, "%s: new join link for %s (the old one no longer works):\n  %s/play#%s\n", args[0], made.Label, base, made.Token)
				return nil
			}
			seats, err := srv.Seats(ctx, args[0])
			if err != nil {
				return seatsErr(err)
			}
			fmt.Fprintf(a.out, "%-16s %-10s %s\n", "SEAT", "ROLE", "LABEL")
			for _, s := range seats {
				fmt.Fprintf(a.out, "%-16s %-10s %s\n", s.Name, s.Role, s.Label)
			}
			return nil
		},
	}
	a.dbFlag(c, &db, "the store of orderly serve")
	c.Flags().StringVar(&base, "url", "http://127.0.0.1:8080", "the server's address, for the join link")
	c.Flags().StringVar(&reissue, "reissue", "", "give `SEAT` a new join link, revoking the old one")
	return c
}

// seatsErr makes the server's answer about a game or seat a user error.
func seatsErr(err error) error {
	var e *server.Error
	if errors.As(err, &e) && (e.Code == server.NotFound || e.Code == server.Invalid) {
		return badf("seats: %s", e.Msg)
	}
	return err
}
