package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"orderly/store"
)

// testTwoHandles: two handles on the same data see each other's writes at
// once, and appending to one game through both keeps every acknowledged
// append exactly once, where its version says; of two Creates of one id,
// exactly one wins.
func testTwoHandles(t *testing.T, c contract) {
	const writers, n = 8, 15
	ctx := context.Background()
	s1 := c.open(t)
	s2 := c.again(t, s1)
	Create(t, s1, "seen")
	if v := MustVersion(t, s2, "seen"); v != 0 {
		t.Fatalf("the other handle sees version %d", v)
	}
	MustAppend(t, s2, "seen", 0, Event("through 2"))
	SameEvents(t, "the first handle", MustEvents(t, s1, "seen", 0), []json.RawMessage{Event("through 2")})
	if _, err := s1.Append(ctx, "seen", 0, []json.RawMessage{Event("stale")}); !errors.Is(err, store.ErrConflict) {
		t.Errorf("a stale Append through the first handle = %v, want ErrConflict", err)
	}

	Create(t, s1, "g")
	acked := writeAll(ctx, t, []store.Store{s1, s2}, writers, n)
	checkAcked(t, CheckLog(t, s1, "g", writers, n), acked)
	checkAcked(t, CheckLog(t, s2, "g", writers, n), acked)

	// Creating the same id through both at once: exactly one wins.
	var wg sync.WaitGroup
	for i := range 4 {
		id := fmt.Sprintf("h%d", i)
		g, seats, seeds := NewGame(id)
		errs := make([]error, 2)
		for j, s := range []store.Store{s1, s2} {
			wg.Go(func() { errs[j] = s.Create(ctx, g, seats, seeds, nil) })
		}
		wg.Wait()
		if (errs[0] == nil) == (errs[1] == nil) || !errors.Is(errors.Join(errs...), store.ErrExists) {
			t.Errorf("Create(%s) through both handles: %v, %v; want one nil, one ErrExists", id, errs[0], errs[1])
		}
		sameSeats(t, s1, id, seatsOf(id, seats...))
	}
}

// checkAcked fails t unless each acknowledged append, writer w's i-th
// making version acked[w][i], is the event at that version.
func checkAcked(t testing.TB, events []json.RawMessage, acked [][]int) {
	t.Helper()
	for w := range acked {
		for i, v := range acked[w] {
			switch {
			case v == 0: // not acknowledged: the writer has failed already
			case v < 1 || v > len(events):
				t.Errorf("writer %d's append %d made version %d, but there are %d events", w, i, v, len(events))
			case !bytes.Equal(events[v-1], Payload{w, i}.Event()):
				t.Errorf("writer %d's append %d made version %d, but event %d is %s", w, i, v, v, events[v-1])
			}
		}
	}
}

// testConcurrentSameGame: many goroutines appending to one game through
// one store, each rereading the version when told it is stale: every
// acknowledged append is kept once, in order, where its version says.
func testConcurrentSameGame(t *testing.T, c contract) {
	const writers, n = 16, 15
	ctx := context.Background()
	s := c.open(t)
	Create(t, s, "g")
	acked := writeAll(ctx, t, []store.Store{s}, writers, n)
	checkAcked(t, CheckLog(t, s, "g", writers, n), acked)
}

// writeAll has writers goroutines each append n events to game g, writer
// w through stores[w % len(stores)], rereading the version when told it
// is stale; it returns the version each append was acknowledged at.
func writeAll(ctx context.Context, t *testing.T, stores []store.Store, writers, n int) [][]int {
	acked := make([][]int, writers)
	var wg sync.WaitGroup
	for w := range writers {
		s := stores[w%len(stores)]
		acked[w] = make([]int, n)
		wg.Go(func() {
			for i := range n {
				v, err := appendRetrying(ctx, s, "g", Payload{w, i})
				if err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
				acked[w][i] = v
			}
		})
	}
	wg.Wait()
	return acked
}

// testConcurrentManyGames: many games appended to at once, one goroutine
// each, never conflict; readers meanwhile see each log as a prefix of what
// is written, never shorter than the version they read before it.
func testConcurrentManyGames(t *testing.T, c contract) {
	const games, n = 16, 16
	ctx := context.Background()
	s := c.open(t)
	for i := range games {
		Create(t, s, fmt.Sprintf("g%d", i))
	}
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() {
			game := fmt.Sprintf("g%d", i)
			v := 0
			for j := range n {
				got, err := s.Append(ctx, game, v, []json.RawMessage{Payload{0, j}.Event()})
				if err != nil {
					t.Errorf("%s: %v", game, err)
					return
				}
				if got != v+1 {
					t.Errorf("%s: Append at %d made version %d", game, v, got)
					return
				}
				v = got
			}
		})
	}
	var stop atomic.Bool
	var readers sync.WaitGroup
	for r := range 2 {
		readers.Go(func() {
			game := fmt.Sprintf("g%d", r)
			for !stop.Load() {
				g, err := s.Game(ctx, game)
				if err != nil {
					t.Error(err)
					return
				}
				es, err := s.Events(ctx, game, 0, 0)
				if err != nil {
					t.Error(err)
					return
				}
				if len(es) < g.Version {
					t.Errorf("%s: %d events after reading version %d", game, len(es), g.Version)
					return
				}
				for j, e := range es {
					var p Payload
					if err := json.Unmarshal(e, &p); err != nil || p.N != j {
						t.Errorf("%s: read event %d as %s", game, j+1, e)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	stop.Store(true)
	readers.Wait()
	for i := range games {
		CheckLog(t, s, fmt.Sprintf("g%d", i), 1, n)
	}
}
