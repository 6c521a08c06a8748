package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"orderly/store"
	"orderly/store/storetest"
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

// checkRows checks the file at path below what the store's methods show:
// each game's events are the rows numbered 1 to its version, no more; no
// event, seat or seed belongs to no game; and SQLite finds the file sound.
func checkRows(t testing.TB, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path, false, false))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT g.id, g.version, count(e.seq), coalesce(min(e.seq), 0), coalesce(max(e.seq), 0)
		FROM games g LEFT JOIN events e ON e.game = g.id GROUP BY g.id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			game                   string
			version, count, lo, hi int
		)
		if err := rows.Scan(&game, &version, &count, &lo, &hi); err != nil {
			t.Fatal(err)
		}
		if count != version || count > 0 && (lo != 1 || hi != version) {
			t.Errorf("game %s at version %d has %d event rows, numbered %d to %d", game, version, count, lo, hi)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	var orphans int
	if err := db.QueryRow(`SELECT
		(SELECT count(*) FROM events WHERE game NOT IN (SELECT id FROM games)) +
		(SELECT count(*) FROM seats WHERE game NOT IN (SELECT id FROM games)) +
		(SELECT count(*) FROM seeds WHERE game NOT IN (SELECT id FROM games))`).Scan(&orphans); err != nil || orphans != 0 {
		t.Errorf("%d rows of no game (%v)", orphans, err)
	}
	var ok string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Errorf("integrity_check: %q, %v", ok, err)
	}
}

// TestContract checks the store.Store contract on stores in temporary
// files, a second handle opening the same file again, and after each test
// the file's rows below the contract.
func TestContract(t *testing.T) {
	var mu sync.Mutex
	paths := map[store.Store]string{} // the file of every store made
	open := func(t *testing.T, path string) store.Store {
		t.Helper()
		d, err := Open(context.Background(), path)
		if err != nil {
			t.Fatalf("Open(%s): %v", path, err)
		}
		mu.Lock()
		defer mu.Unlock()
		paths[d] = path
		return d
	}
	storetest.Run(t, storetest.Factory{
		New: func(t *testing.T) store.Store {
			path := filepath.Join(t.TempDir(), "orderly.db")
			// Registered before the test's own cleanups, so run after them.
			t.Cleanup(func() { checkRows(t, path) })
			return open(t, path)
		},
		Again: func(t *testing.T, s store.Store) store.Store {
			mu.Lock()
			path, ok := paths[s]
			mu.Unlock()
			if !ok {
				t.Fatalf("Again of a store New did not make: %v", s)
			}
			return open(t, path)
		},
		Clocked: func(t *testing.T, now func() time.Time) store.Store {
			path := filepath.Join(t.TempDir(), "orderly.db")
			t.Cleanup(func() { checkRows(t, path) })
			d, err := Open(context.Background(), path, WithClock(now))
			if err != nil {
				t.Fatalf("Open(%s): %v", path, err)
			}
			return d
		},
	})
}

// TestStrayEvent checks the second guard: an event row the version does
// not account for (as another program might leave) makes an append that
// would collide with it a conflict, undone whole, and harms nothing else.
func TestStrayEvent(t *testing.T) {
	ctx := context.Background()
	d, path := openTemp(t)
	storetest.Create(t, d, "g")
	storetest.Create(t, d, "h")
	storetest.MustAppend(t, d, "g", 0, storetest.Event("1"))

	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.Exec(`INSERT INTO events (game, seq, data) VALUES ('g', 3, 'stray')`); err != nil {
		t.Fatal(err)
	}

	// Two events: seq 2 goes in, seq 3 collides, and seq 2 must go again.
	if _, err := d.Append(ctx, "g", 1, []json.RawMessage{storetest.Event("2"), storetest.Event("3")}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("colliding Append of two = %v, want ErrConflict", err)
	}
	storetest.SameEvents(t, "after the collision", storetest.MustEvents(t, d, "g", 0), []json.RawMessage{storetest.Event("1")})
	storetest.MustAppend(t, d, "g", 1, storetest.Event("2"))
	if _, err := d.Append(ctx, "g", 2, []json.RawMessage{storetest.Event("3")}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("colliding Append of one = %v, want ErrConflict", err)
	}
	if v := storetest.MustVersion(t, d, "g"); v != 2 {
		t.Errorf("version %d, want 2", v)
	}
	storetest.MustAppend(t, d, "h", 0, storetest.Event("h1"))
}

// TestMigrations: each migration is applied once, however often the file
// is opened. (That the data outlives a reopening is the contract's.)
func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "orderly.db")
	files, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("migrations: %v, %v", files, err)
	}
	for range 3 { // the second time and after, there is nothing to migrate
		d, err := Open(context.Background(), path)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		var recorded int
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

// TestClosed: after Close, a second Close returns nil, and every method
// says ErrClosed. (That nothing is written is the contract's.)
func TestClosed(t *testing.T) {
	ctx := context.Background()
	d, _ := openTemp(t)
	g, seats, seeds := storetest.Create(t, d, "g")
	if err := d.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	errs := map[string]error{}
	_, errs["Append"] = d.Append(ctx, "g", 0, []json.RawMessage{storetest.Event("late")})
	errs["Create"] = d.Create(ctx, g, seats, seeds, nil)
	errs["Reveal"] = d.Reveal(ctx, "g", 0, storetest.Seed(1))
	_, errs["Events"] = d.Events(ctx, "g", 0, 0)
	_, errs["Game"] = d.Game(ctx, "g")
	_, errs["Games"] = d.Games(ctx)
	_, errs["Seat"] = d.Seat(ctx, storetest.Hash("g/red"))
	_, errs["Seats"] = d.Seats(ctx, "g")
	_, errs["Seeds"] = d.Seeds(ctx, "g")
	_, errs["Count"] = d.Count(ctx)
	errs["Reissue"] = d.Reissue(ctx, "g", storetest.Hash("g/red"), storetest.Hash("new"))
	for name, err := range errs {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close = %v, want ErrClosed", name, err)
		}
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

// TestGenesisMigration: a file made before migration 6 keeps its games,
// each read as hashed from genesis 1, the start its chain was made from;
// a game made after it keeps the genesis it is given.
func TestGenesisMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orderly.db")
	db, err := sql.Open("sqlite", dsn(path, false, true))
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys, goose.WithDisableGlobalRegistry(true), goose.WithLogger(goose.NopLogger()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO games (id, title, rules, file, scenario, created, dice) VALUES ('old', 'Old', 'nb', 'a.yaml', 'x: 1', 1, 'table')`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	d := openAt(t, path)
	if g, err := d.Game(ctx, "old"); err != nil || g.Genesis != 1 || g.Dice != "table" {
		t.Fatalf("the older game: %+v, %v", g, err)
	}
	g, seats, seeds := storetest.NewGame("new")
	g.Genesis = 2
	if err := d.Create(ctx, g, seats, seeds, nil); err != nil {
		t.Fatal(err)
	}
	if g, err := d.Game(ctx, "new"); err != nil || g.Genesis != 2 {
		t.Fatalf("the new game: %+v, %v", g, err)
	}
}

// TestFullDisk: a file that cannot grow (WithMaxSize, as a full disk)
// refuses an append and a new game with store.ErrUnavailable, keeps
// nothing of them, goes on reading, and takes writes again once there is
// room (a reopening without the cap).
func TestFullDisk(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orderly.db")
	d := openAt(t, path, WithMaxSize(256<<10))
	storetest.Create(t, d, "g")
	big := json.RawMessage(`{"e":"` + strings.Repeat("x", 16<<10) + `"}`)
	v := 0
	var err error
	for range 64 {
		var next int
		if next, err = d.Append(ctx, "g", v, []json.RawMessage{big, big}); err != nil {
			break
		}
		v = next
	}
	if !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "full") {
		t.Fatalf("an append to a full file = %v, want store.ErrUnavailable saying it is full", err)
	}
	if got := storetest.MustVersion(t, d, "g"); got != v {
		t.Errorf("version %d after the refused append, want %d", got, v)
	}
	if n := len(storetest.MustEvents(t, d, "g", 0)); n != v {
		t.Errorf("%d events after the refused append, want %d", n, v)
	}
	h, seats, seeds := storetest.NewGame("h")
	if err := d.Create(ctx, h, seats, seeds, []json.RawMessage{big, big}); !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("a new game in a full file = %v, want store.ErrUnavailable", err)
	}
	if _, err := d.Game(ctx, "h"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the refused game: %v, want store.ErrNotFound", err)
	}
	checkRows(t, path)
	d.Close()
	d = openAt(t, path)
	storetest.MustAppend(t, d, "g", v, big)
}

// TestPlayedMigration: a file made before migration 7 keeps its games,
// each last played when it was made.
func TestPlayedMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orderly.db")
	db, err := sql.Open("sqlite", dsn(path, false, true))
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, fsys, goose.WithDisableGlobalRegistry(true), goose.WithLogger(goose.NopLogger()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 6); err != nil {
		t.Fatal(err)
	}
	const created = 1_700_000_000_123_456_789
	if _, err := db.Exec(`INSERT INTO games (id, title, rules, file, scenario, created) VALUES ('old', 'Old', 'nb', 'a.yaml', 'x: 1', ?)`, created); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	d := openAt(t, path)
	if g, err := d.Game(ctx, "old"); err != nil || !g.Played.Equal(time.Unix(0, created)) {
		t.Fatalf("the older game: %+v, %v; want it played when made", g, err)
	}
}

// TestFailedDelete: a delete whose transaction fails to commit keeps the
// whole game, its log, seats and seeds, and the store goes on.
func TestFailedDelete(t *testing.T) {
	ctx := context.Background()
	var fail atomic.Bool
	d, path := openTemp(t, func(c *config) {
		c.beforeCommit = func(int) error {
			if fail.Load() {
				return errors.New("the disk is on fire")
			}
			return nil
		}
	})
	_, seats, _ := storetest.Create(t, d, "g")
	storetest.MustAppend(t, d, "g", 0, storetest.Event("1"), storetest.Event("2"))
	fail.Store(true)
	if err := d.Delete(ctx, "g"); err == nil {
		t.Fatal("a delete whose commit failed succeeded")
	}
	fail.Store(false)
	storetest.SameEvents(t, "after a failed delete", storetest.MustEvents(t, d, "g", 0), []json.RawMessage{storetest.Event("1"), storetest.Event("2")})
	for _, s := range seats {
		if _, err := d.Seat(ctx, s.Hash); err != nil {
			t.Errorf("seat %s after a failed delete: %v", s.Label, err)
		}
	}
	if seeds, err := d.Seeds(ctx, "g"); err != nil || len(seeds) != 1 {
		t.Errorf("seeds after a failed delete: %v, %v", seeds, err)
	}
	if err := d.Delete(ctx, "g"); err != nil {
		t.Fatalf("Delete after the failed one: %v", err)
	}
	checkRows(t, path)
}
