package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"orderly/game"
	"orderly/server"
	"orderly/store/sqlite"
)

func (a *app) serveCmd() *cobra.Command {
	var db, addr string
	var demo, commanders, verbose bool
	c := &cobra.Command{
		Use:   "serve",
		Short: "Run the umpire server and the web map",
		Long: `Run the umpire server: games kept in an SQLite file, a JSON API, and the
web page where the umpire and each side play, each seeing only what his
seat may see. Every command is checked by the rules and saved before
anyone hears of it; dice come from a secret seed whose SHA-256 is shown
when the game is made, so every roll can be checked once it is revealed.

With --demo it makes a game of the demo scenario and prints its join
links: one for the umpire and one for each side. Open them in different
browsers (or send them to the players): the token after # is the seat.`,
		Example: `  orderly serve --demo
  orderly serve --db club.db --addr 0.0.0.0:8080`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			return a.serve(ctx, db, addr, demo, commanders, slog.New(slog.NewTextHandler(a.err, &slog.HandlerOptions{Level: level})))
		},
	}
	c.Flags().StringVar(&db, "db", "orderly.db", "the SQLite `FILE` that keeps the games (made if missing)")
	c.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "the `HOST:PORT` to listen on (port 0 picks a free one)")
	c.Flags().BoolVar(&demo, "demo", false, "make a game of the demo scenario and print its join links")
	c.Flags().BoolVar(&commanders, "commanders", false, "with --demo, also make a seat for each commander under the army")
	c.Flags().BoolVarP(&verbose, "verbose", "v", false, "log every request (never its token)")
	return c
}

func (a *app) serve(ctx context.Context, db, addr string, demo, commanders bool, log *slog.Logger) error {
	eng, err := a.engine()
	if err != nil {
		return err
	}
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		return bad(fmt.Errorf("--db %s: %w", db, err))
	}
	defer st.Close()
	srv, err := server.New(ctx, st, func(id string) (game.Rules, error) { return eng(id) }, server.WithLogger(log))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return bad(fmt.Errorf("--addr %s: %w", addr, err))
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(a.out, "orderly serves %d game(s) from %s at %s\n", srv.Games(), db, base)
	if demo {
		made, err := srv.Create(ctx, server.Setup{Scenario: "demo", Commanders: commanders})
		if err != nil {
			ln.Close()
			return err
		}
		fmt.Fprintf(a.out, "\n%s (game %s)\ndice seed commitment (SHA-256): %s\n\njoin links, one per seat; keep each to its player:\n",
			made.Game.Title, made.Game.ID, made.Game.Seeds[0].Commitment)
		for _, s := range made.Seats {
			fmt.Fprintf(a.out, "  %-28s %s/play#%s\n", s.Label, base, s.Token)
		}
		fmt.Fprintln(a.out)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintln(a.out, "orderly: shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}
