package postgres

import (
	"context"
	"database/sql"
	"io/fs"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"orderly/store/pgtest"
	"orderly/store/storetest"
)

// TestGenesisMigration: a database made before migration 2 keeps its
// games, each read as hashed from genesis 1, the start its chain was made
// from; a game made after it keeps the genesis it is given.
func TestGenesisMigration(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys, goose.WithDisableGlobalRegistry(true), goose.WithLogger(goose.NopLogger()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO games (id, title, rules, file, scenario, created, fog) VALUES ('old', 'Old', 'nb', 'a.yaml', 'x: 1', 1, 'on')`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if g, err := d.Game(ctx, "old"); err != nil || g.Genesis != 1 || g.Fog != "on" {
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

// TestPlayedMigration: a database made before migration 3 keeps its
// games, each last played when it was made.
func TestPlayedMigration(t *testing.T) {
	ctx := context.Background()
	url := pgtest.DB(t)
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys, goose.WithDisableGlobalRegistry(true), goose.WithLogger(goose.NopLogger()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 2); err != nil {
		t.Fatal(err)
	}
	const created = 1_700_000_000_123_456_789
	if _, err := db.Exec(`INSERT INTO games (id, title, rules, file, scenario, created) VALUES ('old', 'Old', 'nb', 'a.yaml', 'x: 1', $1)`, created); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if g, err := d.Game(ctx, "old"); err != nil || !g.Played.Equal(time.Unix(0, created)) {
		t.Fatalf("the older game: %+v, %v; want it played when made", g, err)
	}
}
