package server

import (
	"context"
	"strconv"
	"testing"
	"time"

	"orderly/game"
	"orderly/rules"
	"orderly/store"
	"orderly/store/pgtest"
	"orderly/store/postgres"
)

// TestHeldReadsFirst: two servers on one database that do not hear each
// other. A server behind the store, on a game another has written to
// lately, holds the game and reads what it lacks before it works the
// command out: the command is accepted on the game in memory, extended
// and never rebuilt. On a game it has not seen another write to, it works
// the command out first, is refused as stale, rebuilds the game from the
// store and tries again (and then knows the game is contended).
func TestHeldReadsFirst(t *testing.T) {
	url := pgtest.DB(t)
	ctx := context.Background()
	eng, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	open := func() (*Server, *postgres.DB) {
		db, err := postgres.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		s, err := New(ctx, db, eng)
		if err != nil {
			t.Fatal(err)
		}
		return s, db
	}
	a, dbA := open()
	b, dbB := open()
	if a.lim.Commands != 4 {
		t.Errorf("a server on PostgreSQL works on %d commands at once, want the store's 4", a.lim.Commands)
	}
	made, err := a.Create(ctx, Setup{Scenario: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	id := made.Game.ID
	la, e := a.game(ctx, id)
	if e != nil {
		t.Fatal(e)
	}
	lb, e := b.game(ctx, id)
	if e != nil {
		t.Fatal(e)
	}
	now := time.Now()
	umpire := func(*game.State, *game.Command) *Error { return nil }
	french := func(_ *game.State, c *game.Command) *Error {
		return authorize(store.Seat{Role: store.Side, Side: "french"}, la.rules, la.g, c)
	}
	move := func(x float64) game.Command {
		c, err := decodeCommand(la.rules, []byte(`{"move":{"unit":"F-I-1-a","to":[`+ftoa(x)+`,32]}}`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	stored := func() int {
		rec, err := dbA.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Version
	}

	// a ends the setup step; b has not heard.
	if _, err := la.do(ctx, dbA, nil, now, a.lim, game.Umpire, game.Command{Side: game.Umpire, Verb: game.End}, umpire); err != nil {
		t.Fatal(err)
	}
	behind := lb.g.Len()
	if behind >= stored() {
		t.Fatalf("b is at %d, the store at %d: b should be behind", behind, stored())
	}
	lb.rival.Store(now.UnixNano())
	g := lb.g
	if _, err := lb.do(ctx, dbB, nil, now, b.lim, "french", move(26.5), french); err != nil {
		t.Fatalf("a move on b, behind, holding the game: %v", err)
	}
	if lb.g != g {
		t.Error("b rebuilt its game: it worked the command out before reading what it lacked")
	}
	if lb.g.Len() != stored() {
		t.Errorf("b is at %d, the store at %d", lb.g.Len(), stored())
	}

	// a has not seen b write: it is refused as stale, rebuilds and retries.
	g = la.g
	if la.rival.Load() != 0 {
		t.Fatal("a counts the game contended before it saw another write")
	}
	if _, err := la.do(ctx, dbA, nil, now, a.lim, "french", move(26.7), french); err != nil {
		t.Fatalf("a move on a, behind, not holding: %v", err)
	}
	if la.g == g {
		t.Error("a did not rebuild its game, yet it was behind and did not hold it")
	}
	if la.g.Len() != stored() || la.rival.Load() == 0 {
		t.Errorf("a is at %d, the store at %d; contended since %d", la.g.Len(), stored(), la.rival.Load())
	}
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
