package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"orderly/store"
	"orderly/store/postgres"
)

// TestHold: while one handle holds a game, another's hold and its plain
// append wait; the holder reads the log as it stands and appends without
// being refused; the waiting append then finds the version moved on and
// the waiting hold sees the new version. A released hold changes nothing,
// and a missing game cannot be held.
func TestHold(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, b := openTwo(t)
	ev := func(s string) []json.RawMessage { return []json.RawMessage{json.RawMessage(s)} }
	g := store.Game{ID: "g1", Title: "t", Rules: "nb", File: "f.yaml", Scenario: []byte("x: 1")}
	if err := a.Create(ctx, g, nil, nil, ev(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Hold(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("hold of a missing game: %v", err)
	}

	h, err := a.Hold(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Release()
	if h.Version() != 1 {
		t.Fatalf("held at version %d, want 1", h.Version())
	}
	plain := make(chan error, 1)
	go func() { _, err := b.Append(ctx, "g1", 1, ev(`{"n":"b"}`)); plain <- err }()
	time.Sleep(300 * time.Millisecond)
	select {
	case err := <-plain:
		t.Fatalf("an append went through a held game: %v", err)
	default:
	}
	if evs, err := h.Events(ctx, 0, 0); err != nil || len(evs) != 1 || string(evs[0]) != `{"n":1}` {
		t.Fatalf("events under the hold: %q %v", evs, err)
	}
	if v, err := h.Append(ctx, ev(`{"n":2}`)); err != nil || v != 2 {
		t.Fatalf("append under the hold: %d %v", v, err)
	}
	if err := <-plain; !errors.Is(err, store.ErrConflict) {
		t.Fatalf("the append that waited: %v, want a conflict", err)
	}
	if _, err := h.Append(ctx, ev(`{}`)); err == nil {
		t.Fatal("a second append on one hold went through")
	}

	// A second hold waits for the first, which lets go unchanged.
	h1, err := a.Hold(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	defer h1.Release()
	second := make(chan store.Held, 1)
	go func() {
		h2, err := b.Hold(ctx, "g1")
		if err != nil {
			t.Error(err)
		}
		second <- h2
	}()
	time.Sleep(300 * time.Millisecond)
	select {
	case <-second:
		t.Fatal("two holds of one game at once")
	default:
	}
	h1.Release()
	h2 := <-second
	if h2 == nil {
		t.FailNow()
	}
	defer h2.Release()
	if h2.Version() != 2 {
		t.Fatalf("the second hold is at %d, want 2", h2.Version())
	}
	if evs, err := h2.Events(ctx, 1, 0); err != nil || len(evs) != 1 || string(evs[0]) != `{"n":2}` {
		t.Fatalf("events after 1 under the second hold: %q %v", evs, err)
	}
	h2.Release()
	h2.Release()
	if _, err := h2.Append(ctx, ev(`{}`)); err == nil {
		t.Fatal("an append after release went through")
	}
	if rec, err := a.Game(ctx, "g1"); err != nil || rec.Version != 2 {
		t.Fatalf("after release: version %d, %v", rec.Version, err)
	}
	// The connections went back to the pools: each can hold again at once.
	for _, d := range []*postgres.DB{a, b} {
		h, err := d.Hold(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		h.Release()
	}
}
