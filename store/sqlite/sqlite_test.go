package sqlite

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"orderly/dice"
	"orderly/store"
)

// openAt opens the store at path, closing it when the test ends.
func openAt(t testing.TB, path string, opts ...Option) *DB {
	t.Helper()
	d, err := Open(context.Background(), path, opts...)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// openTemp opens a new store in a temporary directory.
func openTemp(t testing.TB, opts ...Option) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "orderly.db")
	return openAt(t, path, opts...), path
}

func hash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func seed(from int) store.Seed {
	secret := hash(fmt.Sprintf("secret from %d", from))
	c := sha256.Sum256(secret)
	return store.Seed{Seed: dice.Seed{From: from, Key: secret, Commitment: fmt.Sprintf("%x", c)}}
}

// newGame is a game with an umpire's and two sides' seats and a first seed.
func newGame(id string) (store.Game, []store.Seat, []store.Seed) {
	g := store.Game{
		ID:       id,
		Title:    "The battle of " + id,
		Rules:    "orderly-1",
		File:     id + ".yaml",
		Scenario: []byte("title: " + id + "\n"),
		Created:  time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC),
	}
	seats := []store.Seat{
		{Hash: hash(id + "/umpire"), Role: store.Umpire, Label: "Umpire"},
		{Hash: hash(id + "/red"), Role: store.Side, Side: "red", Label: "Red"},
		{Hash: hash(id + "/blue"), Role: store.Commander, Side: "blue", Formation: "1st Brigade", Label: "Blue, 1st Brigade"},
	}
	return g, seats, []store.Seed{seed(1)}
}

func create(t testing.TB, d *DB, id string) (store.Game, []store.Seat, []store.Seed) {
	t.Helper()
	g, seats, seeds := newGame(id)
	if err := d.Create(context.Background(), g, seats, seeds, nil); err != nil {
		t.Fatalf("Create(%s): %v", id, err)
	}
	return g, seats, seeds
}

func event(format string, args ...any) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"e":%q}`, fmt.Sprintf(format, args...)))
}

func mustAppend(t testing.TB, d *DB, game string, version int, events ...json.RawMessage) int {
	t.Helper()
	v, err := d.Append(context.Background(), game, version, events)
	if err != nil {
		t.Fatalf("Append(%s, %d, %d events): %v", game, version, len(events), err)
	}
	if want := version + len(events); v != want {
		t.Fatalf("Append(%s, %d, %d events) = %d, want %d", game, version, len(events), v, want)
	}
	return v
}

func mustEvents(t testing.TB, d *DB, game string, since int) []json.RawMessage {
	t.Helper()
	es, err := d.Events(context.Background(), game, since, 0)
	if err != nil {
		t.Fatalf("Events(%s, %d): %v", game, since, err)
	}
	return es
}

func mustVersion(t testing.TB, d *DB, game string) int {
	t.Helper()
	g, err := d.Game(context.Background(), game)
	if err != nil {
		t.Fatalf("Game(%s): %v", game, err)
	}
	return g.Version
}

func sameEvents(t testing.TB, what string, got, want []json.RawMessage) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d events, want %d:\n got %s\nwant %s", what, len(got), len(want), got, want)
	}
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("%s: event %d is %s, want %s", what, i+1, got[i], want[i])
		}
	}
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	d, _ := openTemp(t)

	g1, seats1, seeds1 := create(t, d, "g1")
	// g0 is made later but is older: Games goes by Created.
	g0, _, _ := newGame("g0")
	g0.Created = g1.Created.Add(-time.Hour)
	g0Events := []json.RawMessage{event("setup 1"), event("setup 2")}
	if err := d.Create(ctx, g0, nil, []store.Seed{seed(1), seed(2)}, g0Events); err != nil {
		t.Fatal(err)
	}
	// g2 has the same Created as g1 and is made after it.
	create(t, d, "g2")

	got, err := d.Game(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if !got.Created.Equal(g1.Created) {
		t.Errorf("Created = %v, want %v", got.Created, g1.Created)
	}
	got.Created = g1.Created
	if !reflect.DeepEqual(got, g1) {
		t.Errorf("Game(g1) = %+v\nwant %+v", got, g1)
	}

	var want []json.RawMessage
	v := 0
	for _, n := range []int{2, 1, 3} {
		var batch []json.RawMessage
		for range n {
			batch = append(batch, event("g1 event %d", len(want)+len(batch)+1))
		}
		v = mustAppend(t, d, "g1", v, batch...)
		want = append(want, batch...)
	}
	sameEvents(t, "Events(g1, 0)", mustEvents(t, d, "g1", 0), want)
	sameEvents(t, "Events(g1, -1)", mustEvents(t, d, "g1", -1), want)
	sameEvents(t, "Events(g1, 4)", mustEvents(t, d, "g1", 4), want[4:])
	sameEvents(t, "Events(g1, 6)", mustEvents(t, d, "g1", 6), nil)
	sameEvents(t, "Events(g1, 9)", mustEvents(t, d, "g1", 9), nil)
	if v := mustVersion(t, d, "g1"); v != 6 {
		t.Errorf("g1's version is %d, want 6", v)
	}

	sameEvents(t, "Events(g0, 0)", mustEvents(t, d, "g0", 0), g0Events)
	if v := mustVersion(t, d, "g0"); v != 2 {
		t.Errorf("g0's version is %d, want 2", v)
	}
	mustAppend(t, d, "g0", 2, event("g0 event 3"))
	sameEvents(t, "Events(g0, 1)", mustEvents(t, d, "g0", 1), []json.RawMessage{g0Events[1], event("g0 event 3")})
	sameEvents(t, "Events(g2, 0)", mustEvents(t, d, "g2", 0), nil)

	games, err := d.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range games {
		ids = append(ids, g.ID)
	}
	if want := []string{"g0", "g1", "g2"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("Games() = %v, want %v", ids, want)
	}
	if games[0].Version != 3 || games[1].Version != 6 || games[2].Version != 0 {
		t.Errorf("versions in Games() are %d, %d, %d; want 3, 6, 0", games[0].Version, games[1].Version, games[2].Version)
	}

	for _, s := range seats1 {
		got, err := d.Seat(ctx, s.Hash)
		if err != nil {
			t.Fatalf("Seat(%s): %v", s.Label, err)
		}
		s.Game = "g1"
		if !reflect.DeepEqual(got, s) {
			t.Errorf("Seat(%s) = %+v, want %+v", s.Label, got, s)
		}
	}
	seats, err := d.Seats(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, s := range seats {
		labels = append(labels, s.Label)
	}
	// The hashes do not sort in this order: the order is the one given.
	if want := []string{"Umpire", "Red", "Blue, 1st Brigade"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("Seats(g1) = %q, want %q", labels, want)
	}
	if seats, err := d.Seats(ctx, "g0"); err != nil || len(seats) != 0 {
		t.Errorf("Seats(g0) = %v, %v; want none", seats, err)
	}

	seeds, err := d.Seeds(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	seeds1[0].Game = "g1"
	if !reflect.DeepEqual(seeds, seeds1) {
		t.Errorf("Seeds(g1) = %+v, want %+v", seeds, seeds1)
	}
	if seeds, err := d.Seeds(ctx, "g0"); err != nil || len(seeds) != 2 || seeds[0].From != 1 || seeds[1].From != 2 {
		t.Errorf("Seeds(g0) = %+v, %v; want from 1 and 2", seeds, err)
	}
}

func TestReveal(t *testing.T) {
	ctx := context.Background()
	d, _ := openTemp(t)
	create(t, d, "g")
	create(t, d, "other")
	mustAppend(t, d, "g", 0, event("1"), event("2"), event("3"))

	before, err := d.Seeds(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		game    string
		version int
		next    store.Seed
		want    error
	}{
		{"stale version", "g", 2, seed(3), store.ErrConflict},
		{"future version", "g", 4, seed(5), store.ErrConflict},
		{"next from too early", "g", 3, seed(3), store.ErrConflict},
		{"next from too late", "g", 3, seed(5), store.ErrConflict},
		{"unknown game", "nope", 3, seed(4), store.ErrNotFound},
	} {
		err := d.Reveal(ctx, c.game, c.version, c.next)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: Reveal = %v, want %v", c.name, err, c.want)
		}
	}
	if after, _ := d.Seeds(ctx, "g"); !reflect.DeepEqual(after, before) {
		t.Fatalf("failed reveals changed the seeds: %+v, was %+v", after, before)
	}

	if err := d.Reveal(ctx, "g", 3, seed(4)); err != nil {
		t.Fatalf("Reveal: %v", err)
	}
	// A second reveal at the same version is someone else's, too late.
	if err := d.Reveal(ctx, "g", 3, seed(4)); !errors.Is(err, store.ErrConflict) {
		t.Errorf("second Reveal at 3 = %v, want ErrConflict", err)
	}
	mustAppend(t, d, "g", 3, event("4"), event("5"))
	if err := d.Reveal(ctx, "g", 5, seed(6)); err != nil {
		t.Fatalf("Reveal at 5: %v", err)
	}
	seeds, err := d.Seeds(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	want := []store.Seed{seed(1), seed(4), seed(6)}
	want[0].Revealed, want[1].Revealed = 3, 5
	for i := range want {
		want[i].Game = "g"
	}
	if !reflect.DeepEqual(seeds, want) {
		t.Errorf("Seeds = %+v\nwant %+v", seeds, want)
	}
	other, err := d.Seeds(ctx, "other")
	if err != nil || len(other) != 1 || other[0].Revealed != 0 {
		t.Errorf("another game's seeds were touched: %+v, %v", other, err)
	}
	if v := mustVersion(t, d, "g"); v != 5 {
		t.Errorf("Reveal changed the version to %d", v)
	}
}

func TestConflicts(t *testing.T) {
	ctx := context.Background()
	d, _ := openTemp(t)
	create(t, d, "g")
	mustAppend(t, d, "g", 0, event("a"))

	for _, c := range []struct {
		version int
		events  []json.RawMessage
	}{
		{0, []json.RawMessage{event("stale")}},
		{0, []json.RawMessage{event("stale 1"), event("stale 2")}},
		{2, []json.RawMessage{event("ahead")}},
		{-1, []json.RawMessage{event("negative")}},
		{0, nil},
	} {
		v, err := d.Append(ctx, "g", c.version, c.events)
		if !errors.Is(err, store.ErrConflict) {
			t.Errorf("Append(g, %d) = %d, %v; want ErrConflict", c.version, v, err)
		} else if !strings.Contains(err.Error(), "game g") {
			t.Errorf("the error does not name the game: %v", err)
		}
	}
	sameEvents(t, "after conflicts", mustEvents(t, d, "g", 0), []json.RawMessage{event("a")})
	if v := mustVersion(t, d, "g"); v != 1 {
		t.Errorf("version %d after conflicts, want 1", v)
	}
	// An empty append at the right version changes nothing and succeeds.
	if v, err := d.Append(ctx, "g", 1, nil); err != nil || v != 1 {
		t.Errorf("empty Append = %d, %v; want 1, nil", v, err)
	}
	if _, err := d.Append(ctx, "g", 1, []json.RawMessage{event("x"), nil}); err == nil {
		t.Error("an empty event was accepted")
	}

	notFound := map[string]error{}
	_, notFound["Append"] = d.Append(ctx, "nope", 0, []json.RawMessage{event("x")})
	_, notFound["Events"] = d.Events(ctx, "nope", 0, 0)
	_, notFound["Game"] = d.Game(ctx, "nope")
	_, notFound["Seats"] = d.Seats(ctx, "nope")
	_, notFound["Seeds"] = d.Seeds(ctx, "nope")
	_, notFound["Seat"] = d.Seat(ctx, hash("nope"))
	notFound["Reveal"] = d.Reveal(ctx, "nope", 0, seed(1))
	notFound["Reissue"] = d.Reissue(ctx, "nope", hash("nope/umpire"), hash("x"))
	for name, err := range notFound {
		if !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s of an unknown game or seat = %v, want ErrNotFound", name, err)
		}
	}

	// A taken id: ErrExists, and the game as it was.
	g, seats, seeds := newGame("g")
	g.Title = "impostor"
	seats = seats[:1]
	seats[0].Hash = hash("impostor")
	if err := d.Create(ctx, g, seats, seeds, nil); !errors.Is(err, store.ErrExists) {
		t.Errorf("Create of a taken id = %v, want ErrExists", err)
	}
	if got, err := d.Game(ctx, "g"); err != nil || got.Title != "The battle of g" || got.Version != 1 {
		t.Errorf("the game changed: %+v, %v", got, err)
	}
	if _, err := d.Seat(ctx, hash("impostor")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the failed Create left its seat: %v", err)
	}

	// A taken seat hash: nothing of the new game is kept.
	g, seats, seeds = newGame("h")
	seats = append(seats, store.Seat{Hash: hash("g/red"), Role: store.Side, Side: "red", Label: "stolen"})
	err := d.Create(ctx, g, seats, seeds, []json.RawMessage{event("setup")})
	if !errors.Is(err, store.ErrExists) {
		t.Errorf("Create with a taken seat = %v, want ErrExists", err)
	}
	if _, err := d.Game(ctx, "h"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Game(h) after a failed Create = %v, want ErrNotFound", err)
	}
	if _, err := d.Seat(ctx, hash("h/umpire")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a failed Create left a seat: %v", err)
	}
	if s, err := d.Seat(ctx, hash("g/red")); err != nil || s.Game != "g" {
		t.Errorf("the taken seat is now %+v, %v", s, err)
	}
	// And the id is free to use.
	g, seats, seeds = newGame("h")
	if err := d.Create(ctx, g, seats, seeds, nil); err != nil {
		t.Errorf("Create(h) after the failed one: %v", err)
	}
}

// TestStrayEvent checks the second guard: an event row the version does
// not account for (as another program might leave) makes an append that
// would collide with it a conflict, undone whole, and harms nothing else.
func TestStrayEvent(t *testing.T) {
	ctx := context.Background()
	d, path := openTemp(t)
	create(t, d, "g")
	create(t, d, "h")
	mustAppend(t, d, "g", 0, event("1"))

	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`INSERT INTO events (game, seq, data) VALUES ('g', 3, 'stray')`); err != nil {
		t.Fatal(err)
	}

	// Two events: seq 2 goes in, seq 3 collides, and seq 2 must go again.
	if _, err := d.Append(ctx, "g", 1, []json.RawMessage{event("2"), event("3")}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("colliding Append of two = %v, want ErrConflict", err)
	}
	sameEvents(t, "after the collision", mustEvents(t, d, "g", 0), []json.RawMessage{event("1")})
	mustAppend(t, d, "g", 1, event("2"))
	if _, err := d.Append(ctx, "g", 2, []json.RawMessage{event("3")}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("colliding Append of one = %v, want ErrConflict", err)
	}
	if v := mustVersion(t, d, "g"); v != 2 {
		t.Errorf("version %d, want 2", v)
	}
	mustAppend(t, d, "h", 0, event("h1"))
}

func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orderly.db")
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	g, seats, seeds := create(t, d, "g")
	mustAppend(t, d, "g", 0, event("1"), event("2"))
	if err := d.Reveal(ctx, "g", 2, seed(3)); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	for range 2 { // the second time, there is nothing left to migrate
		d, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("reopen: %v", err)
		}
		got, err := d.Game(ctx, "g")
		if err != nil || got.Title != g.Title || got.Version != 2 || !bytes.Equal(got.Scenario, g.Scenario) {
			t.Errorf("Game after reopening = %+v, %v", got, err)
		}
		sameEvents(t, "after reopening", mustEvents(t, d, "g", 0), []json.RawMessage{event("1"), event("2")})
		if got, err := d.Seats(ctx, "g"); err != nil || len(got) != len(seats) {
			t.Errorf("Seats after reopening = %+v, %v", got, err)
		}
		if got, err := d.Seeds(ctx, "g"); err != nil || len(got) != len(seeds)+1 || got[0].Revealed != 2 {
			t.Errorf("Seeds after reopening = %+v, %v", got, err)
		}
		var recorded int
		files, _ := fs.Glob(migrations, "migrations/*.sql")
		if err := d.r.QueryRow(`SELECT count(*) FROM goose_db_version WHERE version_id > 0`).Scan(&recorded); err != nil || recorded != len(files) {
			t.Errorf("%d migrations recorded (%v), want %d, one per file, each once", recorded, err, len(files))
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPragmas(t *testing.T) {
	for _, full := range []bool{true, false} {
		d, _ := openTemp(t, WithSync(full))
		want := map[string]int64{"synchronous": 1, "foreign_keys": 1, "busy_timeout": 5000, "query_only": 1}
		if full {
			want["synchronous"] = 2
		}
		for name, w := range want {
			var got int64
			if err := d.r.QueryRow("PRAGMA " + name).Scan(&got); err != nil || got != w {
				t.Errorf("full %v: reader's %s = %d (%v), want %d", full, name, got, err, w)
			}
		}
		want["query_only"] = 0
		for name, w := range want {
			var got int64
			if err := d.wconn.QueryRowContext(context.Background(), "PRAGMA "+name).Scan(&got); err != nil || got != w {
				t.Errorf("full %v: writer's %s = %d (%v), want %d", full, name, got, err, w)
			}
		}
		var mode string
		if err := d.r.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("journal_mode = %q (%v), want wal", mode, err)
		}
		if d.w.Stats().MaxOpenConnections != 1 {
			t.Errorf("the writer has %d connections, want 1", d.w.Stats().MaxOpenConnections)
		}
	}
}

func TestClosed(t *testing.T) {
	ctx := context.Background()
	d, _ := openTemp(t)
	g, seats, seeds := create(t, d, "g")
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	errs := map[string]error{}
	_, errs["Append"] = d.Append(ctx, "g", 0, []json.RawMessage{event("late")})
	errs["Create"] = d.Create(ctx, g, seats, seeds, nil)
	errs["Reveal"] = d.Reveal(ctx, "g", 0, seed(1))
	_, errs["Events"] = d.Events(ctx, "g", 0, 0)
	_, errs["Game"] = d.Game(ctx, "g")
	_, errs["Games"] = d.Games(ctx)
	_, errs["Seat"] = d.Seat(ctx, hash("g/red"))
	_, errs["Count"] = d.Count(ctx)
	errs["Reissue"] = d.Reissue(ctx, "g", hash("g/red"), hash("new"))
	for name, err := range errs {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close = %v, want ErrClosed", name, err)
		}
	}
}

func TestCancelled(t *testing.T) {
	d, _ := openTemp(t)
	create(t, d, "g")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 20 {
		if _, err := d.Append(ctx, "g", 0, []json.RawMessage{event("never")}); !errors.Is(err, context.Canceled) {
			t.Fatalf("Append with a cancelled context = %v", err)
		}
	}
	if v := mustVersion(t, d, "g"); v != 0 {
		t.Errorf("cancelled appends were written: version %d", v)
	}
}

func TestOpenBadPath(t *testing.T) {
	for _, p := range []string{"", ":memory:", "file:x.db", filepath.Join(t.TempDir(), "a?b.db")} {
		if d, err := Open(context.Background(), p); err == nil {
			d.Close()
			t.Errorf("Open(%q) succeeded", p)
		}
	}
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "no", "such", "dir.db")); err == nil {
		t.Error("Open in a missing directory succeeded")
	}
}

// Events reads a long log in pages: each page starts where the last ended
// and holds at most its limit.
func TestEventsInPages(t *testing.T) {
	d, _ := openTemp(t)
	create(t, d, "g")
	var all []json.RawMessage
	for i := range 25 {
		all = append(all, event("e%d", i+1))
	}
	mustAppend(t, d, "g", 0, all...)
	var got []json.RawMessage
	for since := 0; ; {
		page, err := d.Events(context.Background(), "g", since, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) > 10 {
			t.Fatalf("a page of %d events, over its limit of 10", len(page))
		}
		if len(page) == 0 {
			break
		}
		got = append(got, page...)
		since += len(page)
	}
	sameEvents(t, "paged", got, all)
}

func TestCountAndOrigin(t *testing.T) {
	ctx := context.Background()
	d, _ := openTemp(t)
	if n, err := d.Count(ctx); err != nil || n != 0 {
		t.Fatalf("Count of an empty store = %d, %v", n, err)
	}
	create(t, d, "a")
	g, seats, seeds := newGame("demo")
	g.Origin = store.OriginDemo
	if err := d.Create(ctx, g, seats, seeds, nil); err != nil {
		t.Fatal(err)
	}
	if n, err := d.Count(ctx); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v; want 2", n, err)
	}
	got, err := d.Game(ctx, "demo")
	if err != nil || got.Origin != store.OriginDemo {
		t.Fatalf("Game(demo).Origin = %q, %v", got.Origin, err)
	}
	if got, _ := d.Game(ctx, "a"); got.Origin != "" {
		t.Errorf("a game made without an origin has %q", got.Origin)
	}
}

// A game's own tables file is kept with it, and a game without one has
// none.
func TestTables(t *testing.T) {
	ctx := context.Background()
	d, _ := openTemp(t)
	create(t, d, "plain")
	g, seats, seeds := newGame("lob")
	g.Tables, g.TablesFile = []byte("tables:\n  - id: lob/play\n"), "my-tables.yaml"
	if err := d.Create(ctx, g, seats, seeds, nil); err != nil {
		t.Fatal(err)
	}
	got, err := d.Game(ctx, "lob")
	if err != nil || string(got.Tables) != string(g.Tables) || got.TablesFile != "my-tables.yaml" {
		t.Fatalf("Game(lob) tables = %q from %q, %v; want %q from my-tables.yaml", got.Tables, got.TablesFile, err, g.Tables)
	}
	all, err := d.Games(ctx)
	if err != nil || len(all) != 2 || len(all[0].Tables) != 0 || all[0].TablesFile != "" || all[1].TablesFile != "my-tables.yaml" {
		t.Fatalf("Games = %+v, %v; want plain without tables, then lob with them", all, err)
	}
}

// A game's fog of war mode is kept with it; a game without fog has none.
func TestFog(t *testing.T) {
	ctx := context.Background()
	d, _ := openTemp(t)
	create(t, d, "open")
	g, seats, seeds := newGame("blind")
	g.Fog = "strict"
	if err := d.Create(ctx, g, seats, seeds, nil); err != nil {
		t.Fatal(err)
	}
	got, err := d.Game(ctx, "blind")
	if err != nil || got.Fog != "strict" {
		t.Fatalf("Game(blind) fog = %q, %v; want strict", got.Fog, err)
	}
	all, err := d.Games(ctx)
	if err != nil || len(all) != 2 || all[0].Fog != "" || all[1].Fog != "strict" {
		t.Fatalf("Games = %+v, %v; want open without fog, then blind with strict", all, err)
	}
}

// Reissue revokes the old token at once and keeps the seat what it was.
func TestReissue(t *testing.T) {
	ctx := context.Background()
	d, _ := openTemp(t)
	_, seats, _ := create(t, d, "g")
	create(t, d, "h")
	if err := d.Reissue(ctx, "g", hash("g/red"), hash("g/red-2")); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Seat(ctx, hash("g/red")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the old token still finds a seat: %v", err)
	}
	s, err := d.Seat(ctx, hash("g/red-2"))
	if err != nil || s.Side != "red" || s.Role != store.Side || s.Game != "g" {
		t.Fatalf("the new token finds %+v, %v", s, err)
	}
	got, _ := d.Seats(ctx, "g")
	if len(got) != len(seats) || got[1].Label != seats[1].Label {
		t.Errorf("seats after a reissue: %+v", got)
	}
	// A seat of another game, a hash in use: refused, nothing changed.
	if err := d.Reissue(ctx, "g", hash("h/red"), hash("x")); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("reissuing another game's seat = %v, want ErrNotFound", err)
	}
	if err := d.Reissue(ctx, "g", hash("g/blue"), hash("h/umpire")); !errors.Is(err, store.ErrExists) {
		t.Errorf("reissuing onto a taken hash = %v, want ErrExists", err)
	}
	if _, err := d.Seat(ctx, hash("g/blue")); err != nil {
		t.Errorf("a refused reissue changed the seat: %v", err)
	}
	// Appends in the same batch as a reissue keep their versions.
	mustAppend(t, d, "g", 0, event("a"))
	if err := d.Reissue(ctx, "g", hash("g/umpire"), hash("g/umpire-2")); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, d, "g", 1, event("b"))
}
