package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"orderly/game"
	"orderly/server"
	"orderly/store"
	"orderly/store/sqlite"
)

// serveOpts are the flags of orderly serve.
type serveOpts struct {
	db, addr                  string
	demo, commanders, verbose bool
	fog, dice                 string
	open                      bool
	hosts, proxies            []string
	lim                       server.Limits
}

func (a *app) serveCmd() *cobra.Command {
	o := serveOpts{lim: server.DefaultLimits}
	c := &cobra.Command{
		Use:   "serve",
		Short: "Run the umpire server and the web map",
		Long: `Run the umpire server: games kept in an SQLite file (or a PostgreSQL
database, --db postgres://...), a JSON API, and the web page where the
umpire and each side play, each seeing only what his seat may see.
Every command is checked by the rules and saved before anyone hears of
it; dice come from a secret seed whose SHA-256 is shown when the game is
made, so every roll can be checked once it is revealed.

It prints a host link: whoever opens it can make and import games from
the front page (a new link is made at each start, and the old one stops
working). With --open anyone who reaches the server may. With --demo it
makes a game of the demo scenario, or reuses the one it made before, and
prints its join links: one for the umpire and one for each side.

An SQLite file is served by one server at a time: a second on it
refuses to start. Several instances on one PostgreSQL database serve the
same games, each hearing the others' changes. Give them all one host token in
ORDERLY_HOST_TOKEN (at least 32 letters, digits and - _ . ~), and name
their reverse proxy with --trusted-proxy, so that the limits per client
count each client rather than the proxy. GET /healthz answers while the
process runs; GET /readyz answers 200 only while the database answers
and, on PostgreSQL, the instance hears the others' changes.

It answers only to localhost, IP addresses and the names given with
--host, and every limit below is a flag. See "Running it for others" in
docs/hosting.md.`,
		Example: `  orderly serve --demo
  orderly serve --db club.db --addr 0.0.0.0:8080 --host club.example.org`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			level := slog.LevelInfo
			if o.verbose {
				level = slog.LevelDebug
			}
			return a.serve(ctx, o, slog.New(slog.NewTextHandler(a.err, &slog.HandlerOptions{Level: level})))
		},
	}
	f := c.Flags()
	a.dbFlag(c, &o.db, "where the games are kept (an SQLite file is made if missing)")
	f.StringVar(&o.addr, "addr", "127.0.0.1:8080", "the `HOST:PORT` to listen on (port 0 picks a free one; 0.0.0.0:8080 for a club network)")
	f.BoolVar(&o.demo, "demo", false, "make the demo game (or reuse the one made before) and print its join links")
	f.BoolVar(&o.commanders, "commanders", false, "with --demo, also make a seat for each commander under the army")
	f.StringVar(&o.fog, "fog", "off", "with --demo, its fog of war: off (a shared table), on (double-blind: each side sees what its troops spot) or strict (a commander sees what his formation spots)")
	f.StringVar(&o.dice, "dice", "server", "with --demo, where its dice are thrown: server (drawn by the server), table (every roll thrown at the table and typed or tapped in) or mixed (open rolls at the table, the umpire's secret ones by the server)")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "log every request (never its token)")
	f.BoolVar(&o.open, "open", false, "let anyone who reaches the server make and import games, without the host link")
	f.StringArrayVar(&o.hosts, "host", nil, "a host `NAME` the server answers to besides localhost and IP addresses (repeatable)")
	f.StringArrayVar(&o.proxies, "trusted-proxy", nil, "the `ADDRESS` or CIDR range of a reverse proxy trusted to name each request's client (X-Forwarded-For), by which the limits per client count (repeatable)")
	limitFlags(f, &o.lim)
	return c
}

// limitFlags adds a flag for each of the server's limits.
func limitFlags(f *pflag.FlagSet, l *server.Limits) {
	f.IntVar(&l.Games, "max-games", l.Games, "the most games the server keeps")
	f.IntVar(&l.GamesPerHour, "games-per-hour", l.GamesPerHour, "games one client address may make or import in an hour (a try that fails counts)")
	f.Int64Var(&l.Upload, "max-upload", l.Upload, "the largest new-game request, in bytes (an uploaded scenario)")
	f.Int64Var(&l.Import, "max-import", l.Import, "the largest imported game, in bytes")
	f.IntVar(&l.Editor, "editor-requests", l.Editor, "how many of the scenario editor's checks and imports the server works on at once (more wait, then are told to try again)")
	f.Int64Var(&l.Module, "max-module", l.Module, "the largest VASSAL module sent to the scenario editor, in bytes of JSON (the module in base64)")
	f.Int64Var(&l.Body, "max-body", l.Body, "the largest command or other request, in bytes")
	f.IntVar(&l.IDs, "max-ids", l.IDs, "pieces and formations one command may name")
	f.IntVar(&l.CommandEvents, "max-command-events", l.CommandEvents, "events one command may add")
	f.IntVar(&l.GameEvents, "max-game-events", l.GameEvents, "events one game may hold")
	f.IntVar(&l.StreamsPerSeat, "streams-per-seat", l.StreamsPerSeat, "event streams one seat may have open at once")
	f.IntVar(&l.FailedTokens, "failed-tokens", l.FailedTokens, "unknown tokens one client address may send in a minute")
	f.IntVar(&l.Connections, "max-connections", l.Connections, "connections open at once")
	f.IntVar(&l.PerAddress, "connections-per-address", l.PerAddress, "connections one client address may have open at once (behind --trusted-proxy: requests in progress, streams included)")
	f.IntVar(&l.Commands, "max-commands", l.Commands, "commands worked on at once, more waiting at most --command-wait (0: the store's choice, 64 for SQLite, 4 for each PostgreSQL instance)")
	f.DurationVar(&l.CommandWait, "command-wait", l.CommandWait, "a command that cannot be worked on within this is refused as busy (503), to be sent again")
	f.DurationVar(&l.Idle, "idle", l.Idle, "a game unused this long leaves memory (it is read back when asked for)")
	f.DurationVar(&l.StreamWrite, "stream-timeout", l.StreamWrite, "a stream that does not take a write within this is dropped")
	f.DurationVar(&l.HeaderTimeout, "header-timeout", l.HeaderTimeout, "a request's headers must arrive within this")
	f.DurationVar(&l.ReadTimeout, "read-timeout", l.ReadTimeout, "a whole request must arrive within this")
	f.DurationVar(&l.WriteTimeout, "write-timeout", l.WriteTimeout, "an answer must be written within this")
	f.DurationVar(&l.IdleTimeout, "idle-timeout", l.IdleTimeout, "a kept-alive connection with no request is closed after this")
}

// checkLimits refuses a limit that is zero or negative.
func checkLimits(l server.Limits) error {
	ints := map[string]int64{"max-games": int64(l.Games), "games-per-hour": int64(l.GamesPerHour), "max-upload": l.Upload,
		"max-import": l.Import, "max-module": l.Module, "editor-requests": int64(l.Editor), "max-body": l.Body, "max-ids": int64(l.IDs), "max-command-events": int64(l.CommandEvents),
		"max-game-events": int64(l.GameEvents), "streams-per-seat": int64(l.StreamsPerSeat), "failed-tokens": int64(l.FailedTokens),
		"max-connections": int64(l.Connections), "connections-per-address": int64(l.PerAddress), "header-timeout": int64(l.HeaderTimeout), "command-wait": int64(l.CommandWait), "idle": int64(l.Idle), "stream-timeout": int64(l.StreamWrite),
		"read-timeout": int64(l.ReadTimeout), "write-timeout": int64(l.WriteTimeout), "idle-timeout": int64(l.IdleTimeout)}
	for _, name := range []string{"max-games", "games-per-hour", "max-upload", "max-import", "max-module", "editor-requests", "max-body", "max-ids", "max-command-events",
		"max-game-events", "streams-per-seat", "failed-tokens", "max-connections", "connections-per-address", "command-wait", "idle", "stream-timeout",
		"header-timeout", "read-timeout", "write-timeout", "idle-timeout"} {
		if ints[name] <= 0 {
			return badf("serve: --%s must be more than 0", name)
		}
	}
	if l.Commands < 0 {
		return badf("serve: --max-commands must be 0 (the store's choice) or more")
	}
	return nil
}

// serve checks the options, opens the store and serves the games until
// ctx ends, printing where, the host link and, with --demo, the demo
// game's join links.
func (a *app) serve(ctx context.Context, o serveOpts, log *slog.Logger) error {
	proxies, shared, err := a.checkServe(o)
	if err != nil {
		return err
	}
	eng, err := a.maker()
	if err != nil {
		return err
	}
	// One server to a file: another would hold games the first's writes
	// leave stale. Commands beside it (export, seats, import) do not claim.
	st, err := openStore(ctx, o.db, true, sqlite.Claim())
	if err != nil {
		return err
	}
	defer st.Close()
	srv, err := server.New(ctx, st, eng, server.WithLogger(log), server.WithLimits(o.lim), server.WithOpen(o.open),
		server.WithHosts(o.hosts...), server.WithProxies(proxies...))
	if err != nil {
		return err
	}
	if shared != "" {
		if err := srv.SetHostToken(shared); err != nil {
			return err
		}
	}
	ln, err := srv.Listen(o.addr)
	if err != nil {
		return bad(fmt.Errorf("--addr %s: %w", o.addr, err))
	}
	defer ln.Close()
	base, anywhere := linkBase(ln.Addr())
	if err := a.announce(ctx, srv, o, base, anywhere, shared); err != nil {
		return err
	}
	if o.demo {
		if err := a.announceDemo(ctx, srv, o, base); err != nil {
			return err
		}
	}
	return a.listen(ctx, srv, st, ln)
}

// checkServe checks serve's options before anything is opened, and
// returns the trusted proxies and the shared host token
// (ORDERLY_HOST_TOKEN; "" for none).
func (a *app) checkServe(o serveOpts) ([]netip.Prefix, string, error) {
	if err := game.CheckFog(o.fog); err != nil {
		return nil, "", fmt.Errorf("--fog: %w", err)
	}
	if err := game.CheckDice(o.dice); err != nil {
		return nil, "", fmt.Errorf("--dice: %w", err)
	}
	if err := checkLimits(o.lim); err != nil {
		return nil, "", err
	}
	proxies, err := parseProxies(o.proxies)
	if err != nil {
		return nil, "", err
	}
	shared := a.getenv("ORDERLY_HOST_TOKEN")
	if shared != "" {
		if err := server.CheckHostToken(shared); err != nil {
			return nil, "", badf("serve: ORDERLY_HOST_TOKEN: %v", err)
		}
	}
	return proxies, shared, nil
}

// announce prints how many games the server holds and where it serves
// them, and the host link: the shared token's, or a fresh token's.
func (a *app) announce(ctx context.Context, srv *server.Server, o serveOpts, base string, anywhere bool, shared string) error {
	stored, err := srv.Stored(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.out, "orderly serves %s from %s at %s\n", game.Count(stored, "game", "games"), dbName(o.db), base)
	if anywhere {
		fmt.Fprintf(a.out, "it listens on every address of this machine: players use its IP address, or a name given with --host\n")
	}
	if o.open {
		fmt.Fprintf(a.out, "anyone who reaches it may make games (--open)\n")
	}
	if shared != "" {
		fmt.Fprintf(a.out, "host link, to make and import games: %s/#host= followed by the token in ORDERLY_HOST_TOKEN\n", base)
		return nil
	}
	host, err := srv.NewHostToken()
	if err != nil {
		return err
	}
	fmt.Fprintf(a.out, "host link, to make and import games (keep it to yourself): %s/#host=%s\n", base, host)
	return nil
}

// announceDemo makes the demo game (or reuses the one made before) and
// prints its title, its dice seed's commitment and a join link per seat.
func (a *app) announceDemo(ctx context.Context, srv *server.Server, o serveOpts, base string) error {
	made, reused, err := srv.Demo(ctx, server.Setup{Commanders: o.commanders, Fog: o.fog, Dice: o.dice})
	if err != nil {
		return err
	}
	how := ""
	if reused {
		how = ", made before; its links are new and the old ones no longer work"
	}
	if made.Game.Fog != game.FogOff {
		how += ", fog of war " + made.Game.Fog
	}
	if made.Game.Dice != game.DiceServer {
		how += ", dice thrown at the table (" + made.Game.Dice + ")"
	}
	fmt.Fprintf(a.out, "\n%s (game %s%s)\ndice seed commitment (SHA-256): %s\n\njoin links, one per seat; keep each to its player:\n",
		made.Game.Title, made.Game.ID, how, made.Game.Seeds[len(made.Game.Seeds)-1].Commitment)
	for _, s := range made.Seats {
		fmt.Fprintf(a.out, "  %-28s %s/play#%s\n", s.Label, base, s.Token)
	}
	fmt.Fprintln(a.out)
	return nil
}

// listen serves on ln until ctx ends (with the janitor, and following
// other instances' changes where the store tells of them), then shuts
// down, giving requests in progress 5 s.
func (a *app) listen(ctx context.Context, srv *server.Server, st store.Store, ln net.Listener) error {
	hs := srv.HTTPServer(ctx)
	go srv.Janitor(ctx, time.Minute)
	if w, ok := st.(store.Watcher); ok {
		// Other instances may serve the same games: hear their changes.
		go func() { _ = srv.Follow(ctx, w) }()
	}
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
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// parseProxies reads the --trusted-proxy values: addresses or CIDR ranges.
func parseProxies(vals []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, v := range vals {
		if p, err := netip.ParsePrefix(v); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(v)
		if err != nil {
			return nil, badf("serve: --trusted-proxy %q is neither an IP address nor a CIDR range such as 10.0.0.0/8", v)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// linkBase is the address to print in links: the listen address, or
// localhost when it listens on every address.
func linkBase(addr net.Addr) (string, bool) {
	ta, ok := addr.(*net.TCPAddr)
	if !ok || !ta.IP.IsUnspecified() {
		return "http://" + addr.String(), false
	}
	return fmt.Sprintf("http://localhost:%d", ta.Port), true
}
