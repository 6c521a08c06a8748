package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"orderly/store"
)

// snapshot is everything a store holds, as its methods read it.
type snapshot struct {
	games  []store.Game
	events map[string][]json.RawMessage
	seats  map[string][]store.Seat
	seeds  map[string][]store.Seed
	count  int
}

// takeSnapshot reads everything s holds.
func takeSnapshot(t testing.TB, s store.Store) snapshot {
	t.Helper()
	ctx := context.Background()
	games, err := s.Games(ctx)
	if err != nil {
		t.Fatalf("Games: %v", err)
	}
	snap := snapshot{
		games:  games,
		events: map[string][]json.RawMessage{},
		seats:  map[string][]store.Seat{},
		seeds:  map[string][]store.Seed{},
	}
	for _, g := range games {
		snap.events[g.ID] = MustEvents(t, s, g.ID, 0)
		if snap.seats[g.ID], err = s.Seats(ctx, g.ID); err != nil {
			t.Fatalf("Seats(%s): %v", g.ID, err)
		}
		for _, seat := range snap.seats[g.ID] {
			if got, err := s.Seat(ctx, seat.Hash); err != nil || !reflect.DeepEqual(got, seat) {
				t.Errorf("Seat(%x) = %+v, %v; but Seats(%s) has %+v", seat.Hash, got, err, g.ID, seat)
			}
		}
		if snap.seeds[g.ID], err = s.Seeds(ctx, g.ID); err != nil {
			t.Fatalf("Seeds(%s): %v", g.ID, err)
		}
	}
	if snap.count, err = s.Count(ctx); err != nil {
		t.Fatalf("Count: %v", err)
	}
	return snap
}

// sameSnapshot fails t unless got holds what want does.
func sameSnapshot(t testing.TB, what string, got, want snapshot) {
	t.Helper()
	if got.count != want.count || len(got.games) != len(want.games) {
		t.Fatalf("%s: %d games (Count %d), want %d (Count %d)", what, len(got.games), got.count, len(want.games), want.count)
	}
	for i, w := range want.games {
		sameGame(t, fmt.Sprintf("%s: game %d", what, i+1), got.games[i], w)
		id := w.ID
		SameEvents(t, what+": events of "+id, got.events[id], want.events[id])
		if len(got.seats[id]) != 0 || len(want.seats[id]) != 0 {
			if !reflect.DeepEqual(got.seats[id], want.seats[id]) {
				t.Errorf("%s: seats of %s are %+v\nwant %+v", what, id, got.seats[id], want.seats[id])
			}
		}
		if len(got.seeds[id]) != 0 || len(want.seeds[id]) != 0 {
			if !reflect.DeepEqual(got.seeds[id], want.seeds[id]) {
				t.Errorf("%s: seeds of %s are %+v\nwant %+v", what, id, got.seeds[id], want.seeds[id])
			}
		}
	}
}

// testDurable: what was committed is there when the store is opened again
// after closing, every field of it, and the reopened store goes on.
func testDurable(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	g, seats, seeds := NewGame("g")
	g.Origin = store.OriginDemo
	g.Tables, g.TablesFile = []byte("tables:\n  - id: lob/play\n"), "my-tables.yaml"
	g.Fog, g.Dice = "on", "table"
	g.Genesis = 2
	if err := s.Create(ctx, g, seats, seeds, []json.RawMessage{Event("setup")}); err != nil {
		t.Fatal(err)
	}
	MustAppend(t, s, "g", 1, Event("2"), Event("3"))
	if err := s.Reveal(ctx, "g", 3, Seed(4)); err != nil {
		t.Fatal(err)
	}
	if err := s.Reissue(ctx, "g", Hash("g/red"), Hash("g/red-2")); err != nil {
		t.Fatal(err)
	}
	Create(t, s, "h")

	// What is about to be closed is what was written.
	want := takeSnapshot(t, s)
	g.Version = 3
	sameGame(t, "Game(g)", mustGame(t, s, "g"), g)
	wantSeats := seatsOf("g", seats...)
	wantSeats[1].Hash = Hash("g/red-2")
	sameSeats(t, s, "g", wantSeats)
	wantSeeds := seedsOf("g", Seed(1), Seed(4))
	wantSeeds[0].Revealed = 3
	sameSeeds(t, s, "g", wantSeeds)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	for round := range 2 { // the second time, a store reopened and closed
		s2 := c.again(t, s)
		sameSnapshot(t, fmt.Sprintf("reopened %d", round+1), takeSnapshot(t, s2), want)
		if _, err := s2.Seat(ctx, Hash("g/red")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("reopened %d: the reissued token finds a seat: %v", round+1, err)
		}
		if _, err := s2.Append(ctx, "g", 2, []json.RawMessage{Event("stale")}); !errors.Is(err, store.ErrConflict) {
			t.Errorf("reopened %d: a stale Append = %v, want ErrConflict", round+1, err)
		}
		MustAppend(t, s2, "h", round, Event("after reopening %d", round+1))
		want = takeSnapshot(t, s2)
		if err := s2.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		s = s2
	}
	if len(want.events["h"]) != 2 {
		t.Errorf("h has events %s, want one from each reopening", want.events["h"])
	}
}

// testCancelled: a call with a cancelled context fails with
// context.Canceled and changes nothing, and the store goes on.
func testCancelled(t *testing.T, c contract) {
	s := c.open(t)
	Create(t, s, "g")
	MustAppend(t, s, "g", 0, Event("1"))
	before := takeSnapshot(t, s)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 20 {
		if _, err := s.Append(ctx, "g", 1, []json.RawMessage{Event("never")}); !errors.Is(err, context.Canceled) {
			t.Fatalf("Append with a cancelled context = %v", err)
		}
	}
	g, seats, seeds := NewGame("h")
	errs := map[string]error{}
	errs["Create"] = s.Create(ctx, g, seats, seeds, []json.RawMessage{Event("setup")})
	errs["Reveal"] = s.Reveal(ctx, "g", 1, Seed(2))
	errs["Reissue"] = s.Reissue(ctx, "g", Hash("g/red"), Hash("never"))
	_, errs["Events"] = s.Events(ctx, "g", 0, 0)
	_, errs["Game"] = s.Game(ctx, "g")
	_, errs["Games"] = s.Games(ctx)
	_, errs["Count"] = s.Count(ctx)
	_, errs["Seat"] = s.Seat(ctx, Hash("g/red"))
	_, errs["Seats"] = s.Seats(ctx, "g")
	_, errs["Seeds"] = s.Seeds(ctx, "g")
	for name, err := range errs {
		if !errors.Is(err, context.Canceled) || errors.Is(err, store.ErrUnavailable) {
			t.Errorf("%s with a cancelled context = %v, want context.Canceled (the caller gave up; the store is not unavailable)", name, err)
		}
	}
	sameSnapshot(t, "after cancelled calls", takeSnapshot(t, s), before)
	MustAppend(t, s, "g", 1, Event("2"))
}

// closedTimeout is how long testClosed waits for the calls to a closed
// store, which should fail at once.
const closedTimeout = 10 * time.Second

// testClosed: Close succeeds, a second Close does not panic, and then every
// method fails promptly, with none of the store's own errors (a closed
// store knows nothing of games) but store.ErrUnavailable, and writes
// nothing.
func testClosed(t *testing.T, c contract) {
	ctx := context.Background()
	s := c.open(t)
	g, seats, seeds := Create(t, s, "g")
	MustAppend(t, s, "g", 0, Event("1"), Event("2"))
	before := takeSnapshot(t, s)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("a second Close panicked: %v", p)
			}
		}()
		_ = s.Close()
	}()

	// The calls run apart, so that one that never returns fails the test
	// rather than hanging it.
	errs := map[string]error{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h, hSeats, hSeeds := NewGame("h")
		_, errs["Append"] = s.Append(ctx, "g", 2, []json.RawMessage{Event("late")})
		errs["Create"] = s.Create(ctx, h, hSeats, hSeeds, nil)
		errs["Create of a taken id"] = s.Create(ctx, g, seats, seeds, nil)
		errs["Reveal"] = s.Reveal(ctx, "g", 2, Seed(3))
		errs["Reissue"] = s.Reissue(ctx, "g", Hash("g/red"), Hash("new"))
		_, errs["Events"] = s.Events(ctx, "g", 0, 0)
		_, errs["Game"] = s.Game(ctx, "g")
		_, errs["Games"] = s.Games(ctx)
		_, errs["Count"] = s.Count(ctx)
		_, errs["Seat"] = s.Seat(ctx, Hash("g/red"))
		_, errs["Seats"] = s.Seats(ctx, "g")
		_, errs["Seeds"] = s.Seeds(ctx, "g")
	}()
	select {
	case <-done:
	case <-time.After(closedTimeout):
		t.Fatalf("calls to a closed store had not all returned after %v", closedTimeout)
	}
	for name, err := range errs {
		switch {
		case err == nil:
			t.Errorf("%s after Close succeeded", name)
		case isStoreError(err):
			t.Errorf("%s after Close = %v, which is not about the store being closed", name, err)
		case !errors.Is(err, store.ErrUnavailable):
			t.Errorf("%s after Close = %v, want store.ErrUnavailable", name, err)
		}
	}
	if s2 := c.reopen(t, s); s2 != nil {
		sameSnapshot(t, "reopened after calls to the closed store", takeSnapshot(t, s2), before)
	}
}
