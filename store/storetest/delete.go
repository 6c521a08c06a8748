package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"orderly/store"
)

// testDelete: Delete removes a game with its log, seats and seeds, and
// nothing of any other game; a second delete, or one of a game that never
// was, is ErrNotFound; the game's id and its tokens' hashes may be used
// again; a second handle on the data finds it gone too.
func testDelete(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	Create(t, s, "keep")
	MustAppend(t, s, "keep", 0, Event("kept 1"), Event("kept 2"))
	_, seats, _ := Create(t, s, "gone")
	v := MustAppend(t, s, "gone", 0, Event("gone 1"), Event("gone 2"))
	if err := s.Reveal(ctx, "gone", v, Seed(v+1)); err != nil {
		t.Fatalf("Reveal: %v", err)
	}
	keep := takeSnapshot(t, s)
	delete(keep.events, "gone")
	delete(keep.seats, "gone")
	delete(keep.seeds, "gone")
	keep.games = keep.games[:1]
	keep.count = 1

	if err := s.Delete(ctx, "gone"); err != nil {
		t.Fatalf("Delete(gone): %v", err)
	}
	gone := func(s store.Store, what string) {
		t.Helper()
		sameSnapshot(t, what, takeSnapshot(t, s), keep)
		errs := map[string]error{}
		_, errs["Game"] = s.Game(ctx, "gone")
		_, errs["Events"] = s.Events(ctx, "gone", 0, 0)
		_, errs["Seats"] = s.Seats(ctx, "gone")
		_, errs["Seeds"] = s.Seeds(ctx, "gone")
		_, errs["Append"] = s.Append(ctx, "gone", v, []json.RawMessage{Event("late")})
		for _, seat := range seats {
			_, errs["Seat "+seat.Label] = s.Seat(ctx, seat.Hash)
		}
		errs["Delete again"] = s.Delete(ctx, "gone")
		errs["Delete of no game"] = s.Delete(ctx, "never")
		for name, err := range errs {
			if !errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: %s = %v, want store.ErrNotFound", what, name, err)
			}
		}
	}
	gone(s, "after Delete")
	if s2 := c.reopen(t, s); s2 != nil {
		gone(s2, "a second handle after Delete")
	}

	// The id and the seats' hashes are free again: the game made anew
	// starts from nothing.
	Create(t, s, "gone")
	if v := MustVersion(t, s, "gone"); v != 0 {
		t.Errorf("the game made again is at version %d, want 0", v)
	}
	sameSeats(t, s, "gone", seatsOf("gone", seats...))
	sameSeeds(t, s, "gone", seedsOf("gone", Seed(1)))
	MustAppend(t, s, "gone", 0, Event("anew"))
}

// testPlayed: a game's Played is the store clock's time of its last
// change: made, appended to or its seeds revealed; a refused append, a
// reissue and a read leave it; Created, when not given, is the clock's
// time too; a game made with its Played (copied from another store)
// keeps it until it changes.
func testPlayed(t *testing.T, c contract) {
	if c.f.Clocked == nil {
		t.Skip("the store cannot be given a clock (Factory.Clocked)")
	}
	ctx := context.Background()
	var mu sync.Mutex
	at := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	tick := func(d time.Duration) time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(d)
		return at
	}
	s := c.f.Clocked(t, func() time.Time { return tick(0) })
	if s == nil {
		t.Fatal("Factory.Clocked made no store")
	}
	t.Cleanup(func() { _ = s.Close() })
	played := func(what string, want time.Time) {
		t.Helper()
		if got := mustGame(t, s, "g").Played; !got.Equal(want) {
			t.Errorf("%s: Played = %v, want %v", what, got, want)
		}
	}
	g, _, _ := Create(t, s, "g")
	made := tick(0)
	played("made", made)
	if got := mustGame(t, s, "g").Created; !got.Equal(g.Created) {
		t.Errorf("Created = %v, want the one given, %v", got, g.Created)
	}
	appended := tick(time.Minute)
	MustAppend(t, s, "g", 0, Event("1"))
	played("appended to", appended)
	tick(time.Minute)
	if _, err := s.Append(ctx, "g", 0, []json.RawMessage{Event("stale")}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a stale append: %v", err)
	}
	played("after a refused append", appended)
	revealed := tick(time.Minute)
	if err := s.Reveal(ctx, "g", 1, Seed(2)); err != nil {
		t.Fatalf("Reveal: %v", err)
	}
	played("its seeds revealed", revealed)
	tick(time.Minute)
	if err := s.Reissue(ctx, "g", Hash("g/red"), Hash("g/red again")); err != nil {
		t.Fatalf("Reissue: %v", err)
	}
	played("after a reissue", revealed)

	h, seats, seeds := NewGame("h")
	h.Created = time.Time{}
	now := tick(time.Minute)
	if err := s.Create(ctx, h, seats, seeds, nil); err != nil {
		t.Fatalf("Create(h): %v", err)
	}
	if got := mustGame(t, s, "h"); !got.Created.Equal(now) || !got.Played.Equal(now) {
		t.Errorf("a game made without Created: Created %v, Played %v; want both %v", got.Created, got.Played, now)
	}
	k, seats, seeds := NewGame("k")
	k.Played = time.Date(2025, 7, 14, 18, 30, 0, 0, time.UTC)
	if err := s.Create(ctx, k, seats, seeds, []json.RawMessage{Event("copied")}); err != nil {
		t.Fatalf("Create(k): %v", err)
	}
	if got := mustGame(t, s, "k").Played; !got.Equal(k.Played) {
		t.Errorf("a game made with its Played: %v, want %v", got, k.Played)
	}
}
