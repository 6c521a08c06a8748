package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"orderly/dice"
	"orderly/store"
)

// Hash is the SHA-256 of s: a seat's token hash, or a seed's secret.
func Hash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// Seed is a dice seed from event from, with a secret of its own and its
// commitment.
func Seed(from int) store.Seed {
	secret := Hash(fmt.Sprintf("secret from %d", from))
	c := sha256.Sum256(secret)
	return store.Seed{Seed: dice.Seed{From: from, Key: secret, Commitment: fmt.Sprintf("%x", c)}}
}

// NewGame is a game with an umpire's and two sides' seats, whose hashes
// are Hash(id+"/umpire"), Hash(id+"/red") and Hash(id+"/blue"), and a
// first seed, Seed(1). Its optional fields (Origin, Tables, Fog, Dice,
// Genesis) are empty.
func NewGame(id string) (store.Game, []store.Seat, []store.Seed) {
	g := store.Game{
		ID:       id,
		Title:    "The battle of " + id,
		Rules:    "orderly-1",
		File:     id + ".yaml",
		Scenario: []byte("title: " + id + "\n"),
		Created:  time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC),
	}
	seats := []store.Seat{
		{Hash: Hash(id + "/umpire"), Role: store.Umpire, Label: "Umpire"},
		{Hash: Hash(id + "/red"), Role: store.Side, Side: "red", Label: "Red"},
		{Hash: Hash(id + "/blue"), Role: store.Commander, Side: "blue", Formation: "1st Brigade", Label: "Blue, 1st Brigade"},
	}
	return g, seats, []store.Seed{Seed(1)}
}

// Create records NewGame(id) in s, without events, and returns what it
// recorded.
func Create(t testing.TB, s store.Store, id string) (store.Game, []store.Seat, []store.Seed) {
	t.Helper()
	g, seats, seeds := NewGame(id)
	if err := s.Create(context.Background(), g, seats, seeds, nil); err != nil {
		t.Fatalf("Create(%s): %v", id, err)
	}
	return g, seats, seeds
}

// Event is a small JSON event, {"e": the formatted text}.
func Event(format string, args ...any) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"e":%q}`, fmt.Sprintf(format, args...)))
}

// MustAppend appends events to game at version and returns the new
// version, failing t unless the append succeeds with version+len(events).
func MustAppend(t testing.TB, s store.Store, game string, version int, events ...json.RawMessage) int {
	t.Helper()
	v, err := s.Append(context.Background(), game, version, events)
	if err != nil {
		t.Fatalf("Append(%s, %d, %d events): %v", game, version, len(events), err)
	}
	if want := version + len(events); v != want {
		t.Fatalf("Append(%s, %d, %d events) = %d, want %d", game, version, len(events), v, want)
	}
	return v
}

// MustEvents is every event of game after the first since.
func MustEvents(t testing.TB, s store.Store, game string, since int) []json.RawMessage {
	t.Helper()
	es, err := s.Events(context.Background(), game, since, 0)
	if err != nil {
		t.Fatalf("Events(%s, %d): %v", game, since, err)
	}
	return es
}

// MustVersion is game's version.
func MustVersion(t testing.TB, s store.Store, game string) int {
	t.Helper()
	g, err := s.Game(context.Background(), game)
	if err != nil {
		t.Fatalf("Game(%s): %v", game, err)
	}
	return g.Version
}

// mustGame is game's record.
func mustGame(t testing.TB, s store.Store, game string) store.Game {
	t.Helper()
	g, err := s.Game(context.Background(), game)
	if err != nil {
		t.Fatalf("Game(%s): %v", game, err)
	}
	return g
}

// SameEvents fails t unless got holds want's events, byte for byte, in
// order.
func SameEvents(t testing.TB, what string, got, want []json.RawMessage) {
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

// Payload is an event the concurrency tests append: who wrote it (W), and
// its number among that writer's events (N, from 0).
type Payload struct {
	W int `json:"w"`
	N int `json:"n"`
}

// Event is p as an event.
func (p Payload) Event() json.RawMessage {
	b, _ := json.Marshal(p)
	return b
}

// appendRetrying appends p to game, reading the version afresh and trying
// again for as long as it conflicts, and returns the version that its
// append made, which must be the one it read plus one.
func appendRetrying(ctx context.Context, s store.Store, game string, p Payload) (int, error) {
	for {
		g, err := s.Game(ctx, game)
		if err != nil {
			return 0, err
		}
		v, err := s.Append(ctx, game, g.Version, []json.RawMessage{p.Event()})
		switch {
		case err == nil && v != g.Version+1:
			return v, fmt.Errorf("Append(%s, %d, 1 event) = %d, want %d", game, g.Version, v, g.Version+1)
		case !errors.Is(err, store.ErrConflict):
			return v, err
		}
	}
}

// CheckLog checks that game's log holds exactly each of writers writers'
// n payloads once, each writer's in its order, that its version is the
// number of its events, and returns the events.
func CheckLog(t testing.TB, s store.Store, game string, writers, n int) []json.RawMessage {
	t.Helper()
	events := MustEvents(t, s, game, 0)
	if len(events) != writers*n {
		t.Errorf("%s: %d events, want %d", game, len(events), writers*n)
	}
	if v := MustVersion(t, s, game); v != len(events) {
		t.Errorf("%s: version %d, but %d events", game, v, len(events))
	}
	next := make([]int, writers) // each writer's next payload number
	for i, e := range events {
		var p Payload
		if err := json.Unmarshal(e, &p); err != nil {
			t.Fatalf("%s: event %d: %v", game, i+1, err)
		}
		if p.W < 0 || p.W >= writers {
			t.Fatalf("%s: event %d is %+v, from no writer", game, i+1, p)
		}
		if p.N != next[p.W] {
			t.Fatalf("%s: event %d is %+v; writer %d's next should be %d", game, i+1, p, p.W, next[p.W])
		}
		next[p.W]++
	}
	return events
}

// sameGame fails t unless got is want as the store keeps it: the same
// instant for Created and Played (in whatever location; Played is not
// compared when want's is zero, for a game as given to Create), and an
// empty byte field the same whether nil or not.
func sameGame(t testing.TB, what string, got, want store.Game) {
	t.Helper()
	if !got.Created.Equal(want.Created) {
		t.Errorf("%s: Created = %v, want %v", what, got.Created, want.Created)
	}
	if !want.Played.IsZero() && !got.Played.Equal(want.Played) {
		t.Errorf("%s: Played = %v, want %v", what, got.Played, want.Played)
	}
	norm := func(g store.Game) store.Game {
		g.Created, g.Played = time.Time{}, time.Time{}
		if len(g.Scenario) == 0 {
			g.Scenario = nil
		}
		if len(g.Tables) == 0 {
			g.Tables = nil
		}
		return g
	}
	if g, w := norm(got), norm(want); !reflect.DeepEqual(g, w) {
		t.Errorf("%s = %+v\nwant %+v", what, g, w)
	}
}

// seatsOf is seats as Seats returns them for game: with their Game set.
func seatsOf(game string, seats ...store.Seat) []store.Seat {
	out := make([]store.Seat, len(seats))
	for i, s := range seats {
		s.Game = game
		out[i] = s
	}
	return out
}

// seedsOf is seeds as Seeds returns them for game: with their Game set.
func seedsOf(game string, seeds ...store.Seed) []store.Seed {
	out := make([]store.Seed, len(seeds))
	for i, s := range seeds {
		s.Game = game
		out[i] = s
	}
	return out
}

// sameSeats fails t unless game's seats are want, in order.
func sameSeats(t testing.TB, s store.Store, game string, want []store.Seat) {
	t.Helper()
	got, err := s.Seats(context.Background(), game)
	if err != nil {
		t.Fatalf("Seats(%s): %v", game, err)
	}
	if len(got) != 0 || len(want) != 0 {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Seats(%s) = %+v\nwant %+v", game, got, want)
		}
	}
}

// sameSeeds fails t unless game's seeds are want, in order.
func sameSeeds(t testing.TB, s store.Store, game string, want []store.Seed) {
	t.Helper()
	got, err := s.Seeds(context.Background(), game)
	if err != nil {
		t.Fatalf("Seeds(%s): %v", game, err)
	}
	if len(got) != 0 || len(want) != 0 {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Seeds(%s) = %+v\nwant %+v", game, got, want)
		}
	}
}

// isStoreError reports whether err is one of the store's own errors, which
// say something about the data.
func isStoreError(err error) bool {
	return errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrExists)
}
