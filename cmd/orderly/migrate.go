package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/spf13/cobra"

	"orderly/game"
	"orderly/rules"
	"orderly/store"
	"orderly/store/postgres"
	"orderly/strict"
	"orderly/table"
)

// migratePage is how many events migrate reads at a time, unless the app
// says (app.page).
const migratePage = 256

// storeForms is what --from and --to allow, for their errors.
const storeForms = "an SQLite FILE, or a PostgreSQL URL postgres://USER:PASSWORD@HOST/DATABASE"

func (a *app) migrateCmd() *cobra.Command {
	var from, to string
	c := &cobra.Command{
		Use:   "migrate --from STORE --to STORE",
		Short: "Copy every game of one store into another, with its log, seeds and seats",
		Long: `Copy every game of one store into another: from an SQLite file into a
PostgreSQL database, back, or between two of either kind. Each game keeps
its id, its record, its whole log byte for byte, its dice seeds (secret or
revealed, keys included, exactly as stored) and its seats (the hashes of
their tokens as stored), so every join link goes on working against the
new store, and every event's hash stays what the seats were shown. --from
must exist and is only read; --to is made, or its schema brought up to
date, if need be. Games in --to that --from does not hold are left alone.

The games are copied oldest first, each in one step, all of it or none.
Before a game is written, its hash chain is followed from its genesis
(scenario, tables, dice and fog modes, first dice seed) through every event, as orderly verify
and import do: a game that does not check out is not written, and migrate
stops there. After it is written, it is read back from --to, compared
with what was sent, and its chain followed again there; a game that fails
only then stays in --to, and is named.

A game whose id is already in --to is skipped, and said to be already
there, if it is the same there (record, seats, seeds and every event). If
it differs, migrate stops at it, says what differs and copies no game after
it; the games before it stay copied, so that a run again, once the
conflict is settled, skips them and goes on from there. Stop the servers
on both stores first: a game that changes while it is read is refused.

One line is printed per game, then the count. Passwords in URLs are never
printed. The exit status is 2 for a bad flag, 1 when a game stops the run.`,
		Example: `  orderly migrate --from club.db --to postgres://orderly:secret@db.example.org/orderly
  orderly migrate --from postgres://orderly:secret@db.example.org/orderly --to backup.db`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.migrate(cmd.Context(), from, to)
		},
	}
	c.Flags().StringVar(&from, "from", "", "the store to copy from, which must exist: an SQLite `FILE`, or a PostgreSQL URL postgres://USER:PASSWORD@HOST/DATABASE")
	c.Flags().StringVar(&to, "to", "", "the store to copy into, made if need be: an SQLite `FILE`, or a PostgreSQL URL")
	return c
}

// migrate copies every game of the store from into the store to.
func (a *app) migrate(ctx context.Context, from, to string) error {
	for _, f := range []struct{ flag, db string }{{"--from", from}, {"--to", to}} {
		if err := checkStoreFlag(f.flag, f.db); err != nil {
			return err
		}
	}
	if sameStore(from, to) {
		return badf("migrate: --from and --to are the same store, %s; --to must be another file or database", dbName(to))
	}
	mk, err := a.maker()
	if err != nil {
		return err
	}
	// --from first, so that a bad one leaves --to unmade.
	src, err := openStoreFlag(ctx, "--from", from, false)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openStoreFlag(ctx, "--to", to, true)
	if err != nil {
		return err
	}
	defer dst.Close()
	games, err := src.Games(ctx)
	if err != nil {
		return fmt.Errorf("migrate: list the games of %s: %w", dbName(from), err)
	}
	page := a.page
	if page <= 0 {
		page = migratePage
	}
	m := &migration{src: src, dst: dst, maker: mk, from: dbName(from), to: dbName(to), page: page}
	for _, g := range games {
		got, there, err := m.game(ctx, g.ID)
		if err != nil {
			return fmt.Errorf("migrate: %w; %s copied before it (and %d already there), none after it", err, game.Count(m.copied, "game was", "games were"), m.there)
		}
		how := "copied"
		if there {
			how = "already there"
			m.there++
		} else {
			m.copied++
		}
		fmt.Fprintf(a.out, "%s %s (%s, %s, %s)\n", how, g.ID, game.Count(got.rec.Version, "event", "events"), game.Count(len(got.seats), "seat", "seats"), game.Count(len(got.seeds), "seed", "seeds"))
	}
	fmt.Fprintf(a.out, "migrated %s from %s to %s: %d copied, %d already there\n", game.Count(len(games), "game", "games"), m.from, m.to, m.copied, m.there)
	return nil
}

// checkStoreFlag checks a --from or --to before anything is opened.
func checkStoreFlag(flag, db string) error {
	switch {
	case db == "":
		return badf("migrate: %s is required: %s", flag, storeForms)
	case postgres.IsURL(db):
		return nil
	case strings.Contains(db, "://"):
		// Not printed whole: it may hold a password.
		scheme, _, _ := strings.Cut(db, "://")
		return badf("migrate: %s is a URL of scheme %s; allowed: %s", flag, strict.Quote(scheme, 20), storeForms)
	}
	return nil
}

// sameStore reports whether from and to name one store: one file (however
// its path is written), or one database of one server.
func sameStore(from, to string) bool {
	if postgres.IsURL(from) || postgres.IsURL(to) {
		if !postgres.IsURL(from) || !postgres.IsURL(to) {
			return false
		}
		a, aerr := pgconn.ParseConfig(from)
		b, berr := pgconn.ParseConfig(to)
		if aerr != nil || berr != nil {
			return from == to // opening it will say what is wrong
		}
		return a.Host == b.Host && a.Port == b.Port && a.Database == b.Database
	}
	if a, err := os.Stat(from); err == nil {
		if b, err := os.Stat(to); err == nil {
			return os.SameFile(a, b)
		}
	}
	a, aerr := filepath.Abs(from)
	b, berr := filepath.Abs(to)
	return aerr == nil && berr == nil && a == b
}

// migration is one run of migrate: its stores, the rule sets each game's
// events are decoded with, and what it has done so far.
type migration struct {
	src, dst      store.Store
	maker         rules.Maker
	from, to      string // the stores' names as they may be printed
	page          int    // events read at a time
	copied, there int
}

// stored is a game as a store holds it.
type stored struct {
	rec    store.Game
	seats  []store.Seat
	seeds  []store.Seed
	events []json.RawMessage
}

// game copies one game, or finds it there already (there). Its chain is
// followed before anything is written, and again from what --to holds
// once it is written.
func (m *migration) game(ctx context.Context, id string) (got *stored, there bool, err error) {
	src, err := readGame(ctx, m.src, id, m.page)
	if err != nil {
		return nil, false, fmt.Errorf("game %s in %s: %w", id, m.from, err)
	}
	if err := m.check(src); err != nil {
		return nil, false, fmt.Errorf("game %s in %s does not check out, so it was not copied: %w", id, m.from, err)
	}
	switch _, err := m.dst.Game(ctx, id); {
	case err == nil:
		what, _, err := differs(ctx, m.dst, src, m.page, nil)
		if err != nil {
			return nil, false, fmt.Errorf("game %s in %s: %w", id, m.to, err)
		}
		if what != "" {
			return nil, false, fmt.Errorf("game %s is already in %s and differs from the one in %s: %s", id, m.to, m.from, what)
		}
		return src, true, nil
	case !errors.Is(err, store.ErrNotFound):
		return nil, false, fmt.Errorf("game %s in %s: %w", id, m.to, err)
	}
	if err := m.dst.Create(ctx, src.rec, src.seats, src.seeds, src.events); err != nil {
		return nil, false, fmt.Errorf("game %s could not be copied to %s: %w", id, m.to, err)
	}
	// Read back: each page of --to's log is compared with what was sent,
	// and decoded for the chain.
	var evs []game.Event
	what, back, err := differs(ctx, m.dst, src, m.page, func(page []json.RawMessage, after int) error {
		var err error
		evs, err = decodeEvents(page, after, evs)
		return err
	})
	if err == nil && what != "" {
		err = errors.New(what)
	}
	if err == nil {
		err = m.chain(back.rec, back.seeds, evs)
	}
	if err != nil {
		return nil, false, fmt.Errorf("game %s was written to %s but does not read back as sent, and is left there: %w", id, m.to, err)
	}
	return src, false, nil
}

// readGame reads a game whole from st, its log in pages of size events. A
// game that moves on while it is read (a server still plays it) is an
// error.
func readGame(ctx context.Context, st store.Store, id string, size int) (*stored, error) {
	g := &stored{}
	var err error
	if g.rec, err = st.Game(ctx, id); err != nil {
		return nil, err
	}
	if g.seats, err = st.Seats(ctx, id); err != nil {
		return nil, err
	}
	if g.seeds, err = st.Seeds(ctx, id); err != nil {
		return nil, err
	}
	for {
		page, err := st.Events(ctx, id, len(g.events), size)
		if err != nil {
			return nil, err
		}
		g.events = append(g.events, page...)
		if len(page) < size {
			break
		}
	}
	rec, err := st.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	seeds, err := st.Seeds(ctx, id)
	if err != nil {
		return nil, err
	}
	if rec.Version != g.rec.Version || len(g.events) != g.rec.Version || !slices.EqualFunc(seeds, g.seeds, sameSeed) {
		return nil, errors.New("it changed while it was read (is a server still playing it?); stop the servers and run migrate again")
	}
	return g, nil
}

// differs compares the game st holds under want's id with want: its
// record, seats, seeds and log, the log in pages of size events, each page handed to
// each (if given) once it matches. It says what differs first ("" for
// nothing), and returns the record, seats and seeds st holds.
func differs(ctx context.Context, st store.Store, want *stored, size int, each func(page []json.RawMessage, after int) error) (string, *stored, error) {
	id := want.rec.ID
	got := &stored{}
	var err error
	if got.rec, err = st.Game(ctx, id); err != nil {
		return "", nil, err
	}
	if got.seats, err = st.Seats(ctx, id); err != nil {
		return "", nil, err
	}
	if got.seeds, err = st.Seeds(ctx, id); err != nil {
		return "", nil, err
	}
	if what := recordDiffers(got.rec, want.rec); what != "" {
		return what, got, nil
	}
	if len(got.seats) != len(want.seats) {
		return fmt.Sprintf("it has %d seats there, %d to copy", len(got.seats), len(want.seats)), got, nil
	}
	for i := range got.seats {
		if !sameSeat(got.seats[i], want.seats[i]) {
			return fmt.Sprintf("its seat %d (%s)", i+1, strict.Quote(want.seats[i].Label, 40)), got, nil
		}
	}
	if len(got.seeds) != len(want.seeds) {
		return fmt.Sprintf("it has %d dice seeds there, %d to copy", len(got.seeds), len(want.seeds)), got, nil
	}
	for i := range got.seeds {
		if !sameSeed(got.seeds[i], want.seeds[i]) {
			return fmt.Sprintf("its dice seed %d (from event %d)", i+1, want.seeds[i].From), got, nil
		}
	}
	for n := 0; ; {
		page, err := st.Events(ctx, id, n, size)
		if err != nil {
			return "", nil, err
		}
		if n+len(page) > len(want.events) {
			return fmt.Sprintf("it has more than %d events there", len(want.events)), got, nil
		}
		for i, e := range page {
			if !bytes.Equal(e, want.events[n+i]) {
				return fmt.Sprintf("its event %d", n+i+1), got, nil
			}
		}
		if each != nil {
			if err := each(page, n); err != nil {
				return "", nil, err
			}
		}
		n += len(page)
		if len(page) < size {
			if n < len(want.events) {
				return fmt.Sprintf("it has %d events there, %d to copy", n, len(want.events)), got, nil
			}
			return "", got, nil
		}
	}
}

// recordDiffers names the first field of a game's record in which got
// is not want ("" for none).
func recordDiffers(got, want store.Game) string {
	switch {
	case got.Version != want.Version:
		return fmt.Sprintf("it has %d events there, %d to copy", got.Version, want.Version)
	case got.Title != want.Title:
		return "its title"
	case got.Rules != want.Rules:
		return "its rule set"
	case got.File != want.File:
		return "its scenario file's name"
	case !bytes.Equal(got.Scenario, want.Scenario):
		return "its scenario"
	case !got.Created.Equal(want.Created):
		return "the time it was made"
	case got.Origin != want.Origin:
		return "its origin"
	case !bytes.Equal(got.Tables, want.Tables):
		return "its tables"
	case got.TablesFile != want.TablesFile:
		return "its tables file's name"
	case got.Fog != want.Fog:
		return "its fog of war mode"
	case got.Dice != want.Dice:
		return "its dice mode"
	case got.Genesis != want.Genesis:
		return "how its hash chain starts"
	}
	return ""
}

func sameSeat(a, b store.Seat) bool {
	return bytes.Equal(a.Hash, b.Hash) && a.Game == b.Game && a.Role == b.Role && a.Side == b.Side && a.Formation == b.Formation && a.Label == b.Label
}

func sameSeed(a, b store.Seed) bool {
	return a.From == b.From && a.Commitment == b.Commitment && bytes.Equal(a.Key, b.Key) && a.Game == b.Game && a.Revealed == b.Revealed
}

// decodeEvents appends stored events, the first of which is number
// after+1, to into, each with its payload left raw (game.Decode types it).
func decodeEvents(raw []json.RawMessage, after int, into []game.Event) ([]game.Event, error) {
	for i, r := range raw {
		var e game.Event
		if err := json.Unmarshal(r, &e); err != nil {
			return nil, fmt.Errorf("its event %d does not decode: %w", after+i+1, err)
		}
		into = append(into, e)
	}
	return into, nil
}

// check follows the chain of a game read whole, its events decoded for
// it alone: only their stored bytes stay in memory after, for Create.
func (m *migration) check(g *stored) error {
	evs, err := decodeEvents(g.events, 0, nil)
	if err != nil {
		return err
	}
	return m.chain(g.rec, g.seeds, evs)
}

// chain follows a game's hash chain from its genesis (its scenario, its
// own tables, its dice and fog modes as its genesis binds them, its first
// seed) through every event with game.VerifyChain,
// as archive.Game.Verify does for orderly verify and import: each
// payload is typed by the game's rule set first, since the chain hashes
// it as the rule set writes it. The store holds every seed's key, so
// every event is followed.
func (m *migration) chain(rec store.Game, seeds []store.Seed, events []game.Event) error {
	var own []table.Source
	if len(rec.Tables) > 0 {
		own = []table.Source{{Name: rec.TablesFile, Data: rec.Tables}}
	}
	r, err := m.maker(rec.Rules, own...)
	if err != nil {
		return fmt.Errorf("its rule set %s: %w", strict.Quote(rec.Rules, 40), err)
	}
	if err := game.Decode(r, events); err != nil {
		return err
	}
	keys := make([]game.Seed, len(seeds))
	for i, s := range seeds {
		keys[i] = s.Seed
	}
	b := game.Basis{Genesis: rec.Genesis, Scenario: rec.Scenario, Tables: rec.Tables, Dice: rec.Dice, Fog: rec.Fog}
	v, err := game.VerifyChain(events, keys, b)
	if err != nil {
		return fmt.Errorf("its hash chain: %w", err)
	}
	if v.Unchecked > 0 {
		return fmt.Errorf("its hash chain cannot be followed past event %d: the key of a dice seed is missing", v.Checked)
	}
	return nil
}
