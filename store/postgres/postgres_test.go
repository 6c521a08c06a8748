package postgres_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"

	"orderly/dice"
	"orderly/store"
	"orderly/store/pgtest"
	"orderly/store/postgres"
	"orderly/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// open opens a store on a new database of the test cluster.
func open(t *testing.T) *postgres.DB {
	t.Helper()
	d, err := postgres.Open(context.Background(), pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// openTwo opens two stores on one new database of the test cluster, as
// two instances would.
func openTwo(t *testing.T) (*postgres.DB, *postgres.DB) {
	t.Helper()
	url := pgtest.DB(t)
	var out [2]*postgres.DB
	for i := range out {
		d, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		out[i] = d
	}
	return out[0], out[1]
}

// TestSmoke: a game made, appended to, refused a stale append and read
// back.
func TestSmoke(t *testing.T) {
	d := open(t)
	ctx := context.Background()
	g := store.Game{ID: "g1", Title: "t", Rules: "nb", File: "f.yaml", Scenario: []byte("x: 1")}
	if err := d.Create(ctx, g, []store.Seat{{Hash: []byte("h"), Role: store.Umpire, Label: "Umpire"}}, nil, []json.RawMessage{json.RawMessage(`{"a":1}`)}); err != nil {
		t.Fatal(err)
	}
	if v, err := d.Append(ctx, "g1", 1, []json.RawMessage{json.RawMessage(`{"b":2}`), json.RawMessage(`{"c": 3}`)}); err != nil || v != 3 {
		t.Fatalf("append: %d %v", v, err)
	}
	if _, err := d.Append(ctx, "g1", 1, []json.RawMessage{json.RawMessage(`{}`)}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale append: %v", err)
	}
	evs, err := d.Events(ctx, "g1", 0, 0)
	if err != nil || len(evs) != 3 || string(evs[2]) != `{"c": 3}` {
		t.Fatalf("events: %q %v", evs, err)
	}
}

// TestListen: an append on one handle is heard on another's Listen with
// the game and its new version, and only once it commits; a listening
// connection killed by the server is made again, and caughtUp is called
// each time listening starts, so that what was missed is read.
func TestListen(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	a, b := openTwo(t)
	heard := make(chan store.Notice, 16)
	caught := make(chan struct{}, 16)
	lost := make(chan struct{}, 16)
	lctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- b.Listen(lctx, 200*time.Millisecond, store.Listener{
			Heard:     func(n store.Notice) { heard <- n },
			Listening: func() { caught <- struct{}{} },
			Lost:      func(error) { lost <- struct{}{} },
		})
	}()
	wait := func(what string) {
		t.Helper()
		select {
		case <-caught:
		case <-ctx.Done():
			t.Fatalf("no call of caughtUp %s", what)
		}
	}
	hear := func(want store.Notice) {
		t.Helper()
		select {
		case n := <-heard:
			if n != want {
				t.Fatalf("heard %+v, want %+v", n, want)
			}
		case <-ctx.Done():
			t.Fatalf("never heard %+v", want)
		}
	}
	wait("at the start")
	g := store.Game{ID: "g1", Title: "t", Rules: "nb", File: "f.yaml", Scenario: []byte("x: 1")}
	if err := a.Create(ctx, g, nil, nil, []json.RawMessage{json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	hear(store.Notice{Game: "g1", Version: 1})
	if _, err := a.Append(ctx, "g1", 1, []json.RawMessage{json.RawMessage(`{}`), json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	hear(store.Notice{Game: "g1", Version: 3})
	// A refused append announces nothing.
	if _, err := a.Append(ctx, "g1", 1, []json.RawMessage{json.RawMessage(`{}`)}); !errors.Is(err, store.ErrConflict) {
		t.Fatal(err)
	}
	// The listening connection killed: listening starts again.
	if _, err := a.Pool().Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	select {
	case <-lost:
	case <-ctx.Done():
		t.Fatal("the lost connection was not told")
	}
	wait("after the connection was lost")
	if _, err := a.Append(ctx, "g1", 3, []json.RawMessage{json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	hear(store.Notice{Game: "g1", Version: 4})
	// A reveal says the seeds changed at the version it was made.
	key := []byte("0123456789abcdef0123456789abcdef")
	if err := a.Reveal(ctx, "g1", 4, store.Seed{Game: "g1", Seed: dice.Seed{From: 5, Key: key, Commitment: dice.Commitment(key)}}); err != nil {
		t.Fatal(err)
	}
	hear(store.Notice{Game: "g1", Version: 4, Seeds: true})
	// A reissue announces the revoked token's hash; a refused one nothing.
	if err := a.Create(ctx, store.Game{ID: "g2", Title: "t", Rules: "nb", File: "f.yaml", Scenario: []byte("x: 1")},
		[]store.Seat{{Hash: []byte{1, 2, 3}, Role: store.Umpire, Label: "Umpire"}}, nil, nil); err != nil {
		t.Fatal(err)
	}
	hear(store.Notice{Game: "g2", Version: 0})
	if err := a.Reissue(ctx, "g2", []byte{9}, []byte{4}); !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	if err := a.Reissue(ctx, "g2", []byte{1, 2, 3}, []byte{4, 5}); err != nil {
		t.Fatal(err)
	}
	hear(store.Notice{Game: "g2", Revoked: string([]byte{1, 2, 3})})
	// A delete announces the game gone; a refused one nothing.
	if err := a.Delete(ctx, "g3"); !errors.Is(err, store.ErrNotFound) {
		t.Fatal(err)
	}
	if err := a.Delete(ctx, "g2"); err != nil {
		t.Fatal(err)
	}
	hear(store.Notice{Game: "g2", Deleted: true})
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Listen ended with %v", err)
	}
	select {
	case n := <-heard:
		t.Fatalf("heard %+v more", n)
	default:
	}
}

// TestContract: the store keeps every promise of store.Store, checked by
// the same suite as the SQLite store.
func TestContract(t *testing.T) {
	storetest.Run(t, storetest.Factory{
		New: func(t *testing.T) store.Store { return open(t) },
		Again: func(t *testing.T, s store.Store) store.Store {
			d, err := postgres.Open(context.Background(), s.(*postgres.DB).URL())
			if err != nil {
				t.Fatal(err)
			}
			return d
		},
		Clocked: func(t *testing.T, now func() time.Time) store.Store {
			d, err := postgres.Open(context.Background(), pgtest.DB(t), postgres.WithClock(now))
			if err != nil {
				t.Fatal(err)
			}
			return d
		},
	})
}
