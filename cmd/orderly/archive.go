package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"orderly/archive"
	"orderly/game"
	"orderly/server"
)

// openServer opens the games in a store (an SQLite file that exists, or
// a PostgreSQL database), as orderly serve would.
func (a *app) openServer(ctx context.Context, db string) (*server.Server, func(), error) {
	eng, err := a.maker()
	if err != nil {
		return nil, nil, err
	}
	st, err := openStore(ctx, db, false)
	if err != nil {
		return nil, nil, err
	}
	srv, err := server.New(ctx, st, eng)
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return srv, func() { st.Close() }, nil
}

func (a *app) exportCmd() *cobra.Command {
	var db, out string
	var secrets bool
	c := &cobra.Command{
		Use:   "export GAME",
		Short: "Write a game as one JSON document",
		Long: `Write a game kept by orderly serve as one JSON document: its scenario, its
whole log, its dice seeds' commitments (and the keys of those revealed),
and the hash of where it stands. Check it with orderly verify; move it to
another server, or send it for play by e-mail, with orderly import.

--secrets adds the keys of the seeds not yet revealed: such a file lets
whoever holds it foresee the rolls to come, so keep it from the players.`,
		Example: `  orderly export --db club.db 3f9a1c2b7d4e > game.json
  orderly export --db club.db 3f9a1c2b7d4e -o game.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			srv, done, err := a.openServer(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer done()
			doc, err := srv.Export(cmd.Context(), args[0], secrets)
			if err != nil {
				var e *server.Error
				if errors.As(err, &e) && e.Code == server.NotFound {
					return badf("export: %s", e.Msg)
				}
				return err
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
			return doc.Write(w)
		},
	}
	a.dbFlag(c, &db, "the store of orderly serve")
	c.Flags().StringVarP(&out, "output", "o", "", "write to `FILE` instead of standard output")
	c.Flags().BoolVar(&secrets, "secrets", false, "include the keys of seeds not yet revealed")
	return c
}

func (a *app) importCmd() *cobra.Command {
	var db, base string
	var commanders bool
	c := &cobra.Command{
		Use:   "import GAME.json",
		Short: "Make a new game from an exported one",
		Long: `Make a new game in an SQLite file from a document written by orderly
export: its log is replayed and checked against the document's hash, and
every roll against the revealed seeds. Play goes on under a fresh secret
seed, with new seats; their join links are printed. A server running on
the same file takes the game up when one of its seats first calls.`,
		Example: `  orderly import --db club.db game.json`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			doc, err := readArchive(args[0])
			if err != nil {
				return err
			}
			// A new file is fine for import.
			st, err := openStore(cmd.Context(), db, true)
			if err != nil {
				return err
			}
			st.Close()
			srv, done, err := a.openServer(cmd.Context(), db)
			if err != nil {
				return err
			}
			defer done()
			made, err := srv.Import(cmd.Context(), doc, commanders)
			if err != nil {
				return bad(fmt.Errorf("%s: %w", args[0], err))
			}
			fmt.Fprintf(a.out, "%s (game %s), %d events; new dice seed commitment %s\njoin links:\n",
				made.Game.Title, made.Game.ID, made.Game.Version, made.Game.Seeds[len(made.Game.Seeds)-1].Commitment)
			for _, s := range made.Seats {
				fmt.Fprintf(a.out, "  %-28s %s/play#%s\n", s.Label, base, s.Token)
			}
			return nil
		},
	}
	a.dbFlag(c, &db, "the store of orderly serve")
	c.Flags().StringVar(&base, "url", "http://127.0.0.1:8080", "the server's address, for the join links")
	c.Flags().BoolVar(&commanders, "commanders", false, "also make a seat for each commander under the army")
	return c
}

func (a *app) verifyCmd() *cobra.Command {
	var heads []string
	c := &cobra.Command{
		Use:   "verify GAME.json [--head HASH]...",
		Short: "Check that an exported game is the one played: its chain, its rolls, its state",
		Long: `Check a game written by orderly export (or the page's export). In event
order: each event's hash must follow from the log before it (the hash
chain docs/api.md describes: an event changed, removed, added or moved, or
its audience changed, breaks it), and each roll must be the one its
revealed dice seed gives for its event, table and subject, with the
modifiers, total and result its table gives for those faces and params.
Then the log must replay to the state the document records, each revealed
seed must match the commitment published when it was made, and each
--head (the hash of an event your seat was shown during play) must be in
the chain: a forger who holds the revealed keys could make a whole new
chain, but not one through a hash you noted.

The chain's start binds the scenario, the game's own tables file, its dice
and fog modes and its first dice seed, so that a header edited alone fails
too. A document of format orderly-game/3, from an older orderly (or the
export of a game it made), is checked as before; its chain binds neither
dice nor fog, and verify says so.

The first event that disagrees is named; what it should have held is not
said. A game played under house rules is checked with the same --rules.
A document that fails exits with status 2; one whose later events are
under a seed still secret (export without --secrets, before the reveal)
is checked as far as it can be and exits with status 1.`,
		Example: `  orderly verify game.json
  orderly verify game.json --head 3f2a9c0d1e7b4a5f6c8d9e0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			mk, err := a.maker()
			if err != nil {
				return err
			}
			doc, err := readArchive(args[0])
			if err != nil {
				return err
			}
			// A game played on its own tables is checked on them.
			eng := func(id string) (game.Rules, error) { return mk(id, doc.Own()...) }
			rep, err := doc.Verify(eng, heads...)
			// An older format's chain leaves some of the header unchecked:
			// say which, whatever else is found.
			defer a.unbound(args[0], doc)
			if err != nil {
				fmt.Fprintf(a.out, "%s: %d events, %d followed along the chain, %d unchecked; %d rolls checked, %d under a secret seed, %d thrown at the table\n",
					args[0], rep.Events, rep.Chained, rep.Unchained, rep.Rolls, rep.Secret, rep.Table)
				if errors.Is(err, archive.ErrSecret) {
					return fmt.Errorf("%s: %w", args[0], err)
				}
				return bad(fmt.Errorf("%s: %w", args[0], err))
			}
			rolls := fmt.Sprintf("all %d rolls match their revealed seeds", rep.Rolls)
			if rep.Rolls == 1 {
				rolls = "its one roll matches its revealed seed"
			}
			fmt.Fprintf(a.out, "%s: ok: %s replay to state %s; %s (%s); every event's hash follows from the log before it",
				args[0], game.Count(rep.Events, "event", "events"), rep.Hash[:16], rolls, game.Count(len(doc.Seeds), "seed", "seeds"))
			if rep.Table > 0 {
				fmt.Fprintf(a.out, "; %s thrown at the table (dice %s): no seed draws them, and what their tables make of their faces checks out", game.Count(rep.Table, "roll was", "rolls were"), doc.Dice)
			}
			if rep.Heads > 0 {
				fmt.Fprintf(a.out, "; %s found in the chain", game.Count(rep.Heads, "head", "heads"))
			}
			fmt.Fprintln(a.out)
			return nil
		},
	}
	c.Flags().StringArrayVar(&heads, "head", nil, "the `HASH` of an event a seat was shown during play, which must be in the chain (repeatable)")
	return c
}

// unbound notes the header fields an older format's chain does not bind.
func (a *app) unbound(file string, doc *archive.Game) {
	b := doc.Basis()
	if u := b.Unbound(); len(u) > 0 {
		fmt.Fprintf(a.out, "%s: note: format %s, an older orderly's, does not bind %s to the chain: they are taken on the document's word\n",
			file, doc.Format, strings.Join(u, " and "))
	}
}

// readArchive reads a game document from a file.
func readArchive(path string) (*archive.Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, bad(err)
	}
	defer f.Close()
	doc, err := archive.Read(f, path)
	return doc, bad(err)
}
