package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"orderly/store"
)

// payload is what the concurrency tests append: who wrote it, and its
// number among that writer's events.
type payload struct {
	W int `json:"w"`
	N int `json:"n"`
}

func (p payload) event() json.RawMessage {
	b, _ := json.Marshal(p)
	return b
}

// appendRetrying appends p to the game, reading the version afresh and
// trying again for as long as it conflicts.
func appendRetrying(ctx context.Context, d *DB, game string, p payload) error {
	for {
		g, err := d.Game(ctx, game)
		if err != nil {
			return err
		}
		_, err = d.Append(ctx, game, g.Version, []json.RawMessage{p.event()})
		if !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
}

// checkLog checks that the game's log holds exactly each of writers
// writers' n payloads once, each writer's in its order, numbered 1.. with
// no gap.
func checkLog(t *testing.T, d *DB, game string, writers, n int) {
	t.Helper()
	events := mustEvents(t, d, game, 0)
	if len(events) != writers*n {
		t.Errorf("%d events, want %d", len(events), writers*n)
	}
	if v := mustVersion(t, d, game); v != len(events) {
		t.Errorf("version %d, but %d events", v, len(events))
	}
	next := make([]int, writers) // each writer's next payload number
	for i, e := range events {
		var p payload
		if err := json.Unmarshal(e, &p); err != nil {
			t.Fatalf("event %d: %v", i+1, err)
		}
		if p.W < 0 || p.W >= writers {
			t.Fatalf("event %d is %+v, from no writer", i+1, p)
		}
		if p.N != next[p.W] {
			t.Fatalf("event %d is %+v; writer %d's next should be %d", i+1, p, p.W, next[p.W])
		}
		next[p.W]++
	}
	var count int
	if err := d.r.QueryRow(`SELECT count(*), coalesce(min(seq), 0) = 1 AND coalesce(max(seq), 0) = count(*) FROM events WHERE game = ?`, game).Scan(&count, new(bool)); err != nil || count != writers*n {
		t.Errorf("the events table holds %d rows (%v), want %d", count, err, writers*n)
	}
}

func TestConcurrentSameGame(t *testing.T) {
	const writers, n = 16, 15
	ctx := context.Background()
	d, _ := openTemp(t)
	create(t, d, "g")
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range n {
				if err := appendRetrying(ctx, d, "g", payload{w, i}); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkLog(t, d, "g", writers, n)
}

func TestConcurrentManyGames(t *testing.T) {
	const games, n = 32, 20
	ctx := context.Background()
	d, _ := openTemp(t)
	for i := range games {
		create(t, d, fmt.Sprintf("g%d", i))
	}
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() {
			game := fmt.Sprintf("g%d", i)
			v := 0
			for j := range n {
				var err error
				v, err = d.Append(ctx, game, v, []json.RawMessage{payload{0, j}.event()})
				if err != nil {
					t.Errorf("%s: %v", game, err)
					return
				}
			}
		})
	}
	// Readers meanwhile must never see a log out of step with its version.
	var stop atomic.Bool
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for !stop.Load() {
				es, err := d.Events(ctx, "g0", 0, 0)
				if err != nil {
					t.Error(err)
					return
				}
				for j, e := range es {
					var p payload
					if err := json.Unmarshal(e, &p); err != nil || p.N != j {
						t.Errorf("read event %d as %s", j+1, e)
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
		checkLog(t, d, fmt.Sprintf("g%d", i), 1, n)
	}
	if d.grouped.Load() == 0 {
		t.Errorf("no transaction held more than one append (%d transactions)", d.batches.Load())
	}
	if total := int64(games * n); d.batches.Load() >= total {
		t.Errorf("%d transactions for %d appends", d.batches.Load(), total)
	}
	t.Logf("%d appends in %d transactions, %d of them grouped, at most %d in one",
		games*n, d.batches.Load(), d.grouped.Load(), d.largest.Load())
}

func TestMaxBatch(t *testing.T) {
	const games, n = 16, 10
	d, _ := openTemp(t, WithMaxBatch(3))
	for i := range games {
		create(t, d, fmt.Sprintf("g%d", i))
	}
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() {
			for j := range n {
				if _, err := d.Append(context.Background(), fmt.Sprintf("g%d", i), j, []json.RawMessage{payload{0, j}.event()}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if l := d.largest.Load(); l > 3 {
		t.Errorf("a transaction held %d requests, the most allowed is 3", l)
	}
}

func TestTwoHandles(t *testing.T) {
	const writers, n = 8, 15
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	d1 := openAt(t, path)
	d2 := openAt(t, path)
	create(t, d1, "g")
	var wg sync.WaitGroup
	for w := range writers {
		d := d1
		if w%2 == 1 {
			d = d2
		}
		wg.Go(func() {
			for i := range n {
				if err := appendRetrying(ctx, d, "g", payload{w, i}); err != nil {
					t.Errorf("writer %d: %v", w, err)
					return
				}
			}
		})
	}
	wg.Wait()
	checkLog(t, d1, "g", writers, n)
	checkLog(t, d2, "g", writers, n)
	// Creating the same id through both: exactly one wins.
	g, seats, seeds := newGame("h")
	err1 := d1.Create(ctx, g, seats, seeds, nil)
	err2 := d2.Create(ctx, g, seats, seeds, nil)
	if err1 != nil || !errors.Is(err2, store.ErrExists) {
		t.Errorf("Create through both handles: %v, %v", err1, err2)
	}
}

func TestOpenTogether(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	var wg sync.WaitGroup
	ds := make([]*DB, 3)
	for i := range ds {
		wg.Go(func() {
			d, err := Open(context.Background(), path)
			if err != nil {
				t.Errorf("Open %d: %v", i, err)
				return
			}
			ds[i] = d
		})
	}
	wg.Wait()
	for i, d := range ds {
		if d == nil {
			continue
		}
		create(t, d, fmt.Sprintf("g%d", i))
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	}
}

// TestCloseInFlight closes the store under a stream of appends: each must
// either succeed and be kept, or fail with ErrClosed and not be.
func TestCloseInFlight(t *testing.T) {
	const writers = 16
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orderly.db")
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		create(t, d, fmt.Sprintf("g%d", w))
	}
	kept := make([]int, writers)
	var wg sync.WaitGroup
	var started sync.WaitGroup
	started.Add(writers)
	for w := range writers {
		wg.Go(func() {
			game := fmt.Sprintf("g%d", w)
			for i := 0; ; i++ {
				if i == 3 {
					started.Done()
				}
				v, err := d.Append(ctx, game, i, []json.RawMessage{payload{0, i}.event()})
				if err != nil {
					if !errors.Is(err, ErrClosed) {
						t.Errorf("writer %d: %v", w, err)
					}
					if i < 3 {
						started.Done()
					}
					kept[w] = i
					return
				}
				if v != i+1 {
					t.Errorf("writer %d: version %d, want %d", w, v, i+1)
				}
			}
		})
	}
	started.Wait()
	closed := make(chan error)
	go func() { closed <- d.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return")
	}
	wg.Wait()

	d = openAt(t, path)
	for w := range writers {
		checkLog(t, d, fmt.Sprintf("g%d", w), 1, kept[w])
	}
}

// TestFailedBatch makes a COMMIT fail: every request in the batch gets the
// error, none of its writes is kept, and the store goes on afterwards.
func TestFailedBatch(t *testing.T) {
	const games = 8
	ctx := context.Background()
	hold := make(chan struct{})
	var calls atomic.Int32
	var failedSize atomic.Int32
	d, _ := openTemp(t, func(c *config) {
		c.beforeCommit = func(n int) error {
			switch calls.Add(1) {
			case games + 1: // the first append: hold it while others queue
				<-hold
			case games + 2: // the batch of the queued ones
				failedSize.Store(int32(n))
				return errors.New("the disk is on fire")
			}
			return nil
		}
	})
	for i := range games {
		create(t, d, fmt.Sprintf("g%d", i))
	}
	first := make(chan error)
	go func() {
		_, err := d.Append(ctx, "g0", 0, []json.RawMessage{event("first")})
		first <- err
	}()
	for calls.Load() < games+1 {
		time.Sleep(time.Millisecond)
	}
	errs := make([]error, games)
	var wg sync.WaitGroup
	for i := 1; i < games; i++ {
		wg.Go(func() {
			_, errs[i] = d.Append(ctx, fmt.Sprintf("g%d", i), 0, []json.RawMessage{event("doomed"), event("doomed too")})
		})
	}
	time.Sleep(100 * time.Millisecond) // let them queue up behind the first
	close(hold)
	if err := <-first; err != nil {
		t.Fatalf("the first append: %v", err)
	}
	wg.Wait()
	failed := 0
	for i := 1; i < games; i++ {
		game := fmt.Sprintf("g%d", i)
		if errs[i] != nil {
			failed++
			if v := mustVersion(t, d, game); v != 0 {
				t.Errorf("%s failed (%v) but its version is %d", game, errs[i], v)
			}
			sameEvents(t, game, mustEvents(t, d, game, 0), nil)
		} else if v := mustVersion(t, d, game); v != 2 {
			t.Errorf("%s succeeded but its version is %d", game, v)
		}
	}
	if n := int(failedSize.Load()); n < 2 || failed != n {
		t.Errorf("%d appends failed, the failed batch had %d; want the same, and more than 1", failed, n)
	}
	// The store is still good.
	for i := range games {
		game := fmt.Sprintf("g%d", i)
		mustAppend(t, d, game, mustVersion(t, d, game), event("after"))
	}
}
