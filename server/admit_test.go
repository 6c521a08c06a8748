package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"orderly/game"
	"orderly/rules"
	"orderly/store"
	"orderly/store/sqlite"
)

// TestGate: a free slot is taken at once; with none free, a command waits
// the whole wait in a burst or a stall, but only overloadWait once
// commands are being taken and none without waiting for overloadAfter; a
// slot given back is taken by the one waiting; a request that ends while
// it waits gets its context's error.
func TestGate(t *testing.T) {
	clock := time.Unix(1000, 0)
	now := func() time.Time { return clock }
	g := newGate(1, 300*time.Millisecond, now)
	ctx := context.Background()
	leave, err := g.enter(ctx)
	if err != nil {
		t.Fatalf("a free slot: %v", err)
	}
	refusedAfter := func(what string, least, most time.Duration) {
		t.Helper()
		start := time.Now()
		_, err := g.enter(ctx)
		d := time.Since(start)
		switch {
		case !isBusy(err):
			t.Fatalf("%s: %v, want busy", what, err)
		case d < least:
			t.Fatalf("%s: refused after %v, want at least %v", what, d, least)
		case d > most:
			t.Fatalf("%s: refused after %v, want about %v", what, d, overloadWait)
		}
	}

	// A burst: a command was taken quickly just now, so the whole wait.
	refusedAfter("a burst", 300*time.Millisecond, time.Hour)

	// A stall: nothing taken quickly for a while, but nothing taken at
	// all lately either: the whole wait.
	clock = clock.Add(time.Second)
	refusedAfter("a stall", 300*time.Millisecond, time.Hour)

	// Overload: commands taken lately, none quickly for overloadAfter.
	// The bound is wide, to tell overloadWait from an hour on a busy
	// machine without timing anything finer.
	g.wait = time.Hour
	g.taken.Store(clock.Add(-overloadWait / 2).UnixNano())
	refusedAfter("overload", 0, 30*time.Second)

	// Given back while one waits: the waiting command takes it.
	g.quick.Store(clock.UnixNano())
	got := make(chan error, 1)
	go func() {
		l, err := g.enter(ctx)
		if err == nil {
			l()
		}
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	leave()
	if err := <-got; err != nil {
		t.Fatalf("waiting when a slot was given back: %v", err)
	}

	// A request that ends while it waits.
	leave, err = g.enter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer leave()
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if _, err := g.enter(cctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("request ended while waiting: %v, want context.Canceled", err)
	}
}

// openSQLite opens a new SQLite store and the rule sets.
func openSQLite(t *testing.T) (*sqlite.DB, rules.Maker) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "orderly.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	eng, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	return db, eng
}

func isBusy(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == Busy && e.Status() == http.StatusServiceUnavailable && e.retry == time.Second
}

// stalled is a store whose appends wait, while stall is set, until a
// value arrives on go_; entered is told each time one starts waiting.
type stalled struct {
	store.Store
	stall   atomic.Bool
	entered chan struct{}
	go_     chan struct{}
}

func (s *stalled) Append(ctx context.Context, id string, version int, events []json.RawMessage) (int, error) {
	if s.stall.Load() {
		s.entered <- struct{}{}
		select {
		case <-s.go_:
		case <-ctx.Done(): // the client gave up (a failing test)
			return 0, ctx.Err()
		}
	}
	return s.Store.Append(ctx, id, version, events)
}

// TestBusy: with the one slot of a server taken by a command the store is
// slow to commit, another command is answered 503 busy with Retry-After
// and changes nothing, and once the slot is free the next is accepted.
// One side of a game (here the umpire) has at most seatQueue commands
// held: its next is refused as busy at once, while the other side's is
// taken in. Those waiting for the game hold no slot, so another game's
// command gets through.
func TestBusy(t *testing.T) {
	ctx := context.Background()
	db, eng := openSQLite(t)
	st := &stalled{Store: db, entered: make(chan struct{}, 64), go_: make(chan struct{}, 64)}
	s, err := New(ctx, st, eng, WithLimits(Limits{Commands: 1, CommandWait: 100 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	client := &http.Client{Timeout: 20 * time.Second}
	make1 := func() (id, umpire, sideTok, side string) {
		made, err := s.Create(ctx, Setup{Scenario: "demo"})
		if err != nil {
			t.Fatal(err)
		}
		return made.Game.ID, made.Seats[0].Token, made.Seats[1].Token, made.Seats[1].Side
	}
	end := func(id, tok string) (*http.Response, Error) {
		req, _ := http.NewRequest("POST", ts.URL+"/api/games/"+id+"/commands", strings.NewReader(`{"end":true}`))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return nil, Error{}
		}
		defer resp.Body.Close()
		var body errorBody
		if resp.StatusCode != http.StatusOK {
			_ = json.NewDecoder(resp.Body).Decode(&body)
		}
		if body.Error == nil {
			body.Error = &Error{}
		}
		return resp, *body.Error
	}
	// status sends end and passes its answer's status (0: none) to out.
	status := func(id, tok string, out chan<- int) {
		resp, _ := end(id, tok)
		if resp == nil {
			out <- 0
			return
		}
		out <- resp.StatusCode
	}
	version := func(id string) int {
		rec, err := db.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Version
	}
	g1, u1, side1, sideName := make1()
	g2, u2, _, _ := make1()

	st.stall.Store(true)
	first := make(chan int, 1)
	go status(g1, u1, first)
	<-st.entered // the first command holds the one slot, committing
	before := version(g2)
	resp, e := end(g2, u2)
	if resp == nil {
		t.FailNow()
	}
	if resp.StatusCode != http.StatusServiceUnavailable || e.Code != Busy || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("with the one slot taken: %d %s %q (Retry-After %q), want 503 busy, Retry-After 1", resp.StatusCode, e.Code, e.Msg, resp.Header.Get("Retry-After"))
	}
	if !strings.Contains(e.Msg, "nothing was changed") {
		t.Errorf("busy message %q does not say nothing was changed", e.Msg)
	}
	st.go_ <- struct{}{}
	if code := <-first; code != http.StatusOK {
		t.Fatalf("the first command: %d, want 200", code)
	}
	st.stall.Store(false)
	if v := version(g2); v != before {
		t.Fatalf("the busy command changed the game: version %d, was %d", v, before)
	}
	if resp, e := end(g2, u2); resp == nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("with the slot free again: %v %s", resp, e.Msg)
	}

	// One game's queue, with two slots: the game's commands waiting for
	// each other hold none, so another game's command gets the second.
	s.gate = newGate(2, time.Minute, time.Now)
	st.stall.Store(true)
	codes := make(chan int, seatQueue)
	for range seatQueue {
		go status(g1, u1, codes)
	}
	<-st.entered // one commits; the others wait for the game
	l, ge := s.game(ctx, g1)
	if ge != nil {
		t.Fatal(ge)
	}
	for deadline := time.Now().Add(10 * time.Second); l.waiting(game.Umpire) < seatQueue; {
		if time.Now().After(deadline) {
			t.Fatalf("%d commands taken in from the umpire, want %d", l.waiting(game.Umpire), seatQueue)
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, e = end(g1, u1)
	if resp == nil || resp.StatusCode != http.StatusServiceUnavailable || e.Code != Busy {
		t.Fatalf("one over the umpire's queue: %v %s, want 503 busy", resp, e.Code)
	}
	// A side's command is taken in all the same (whether a seat is
	// refused as busy depends on its own side's commands alone), and then
	// refused by the rules: only the umpire ends a step.
	sideCode := make(chan int, 1)
	go status(g1, side1, sideCode)
	for deadline := time.Now().Add(10 * time.Second); l.waiting(sideName) < 1; {
		if time.Now().After(deadline) {
			t.Fatal("the side's command was not taken in")
		}
		time.Sleep(5 * time.Millisecond)
	}
	other := make(chan int, 1)
	go status(g2, u2, other)
	<-st.entered // another game's command reaches the store all the same
	st.stall.Store(false)
	for range seatQueue + 1 {
		st.go_ <- struct{}{}
	}
	if code := <-other; code != http.StatusOK {
		t.Errorf("another game's command: %d, want 200", code)
	}
	for range seatQueue {
		if code := <-codes; code != http.StatusOK {
			t.Errorf("a queued command: %d, want 200", code)
		}
	}
	if code := <-sideCode; code == http.StatusServiceUnavailable || code == http.StatusOK || code == 0 {
		t.Errorf("a side's end with the umpire's queue full: %d, want the rules' refusal", code)
	}
}

// TestGateSize: a server works on as many commands at once as its host
// says, or else as many as its store asks for (store.Paced), or else
// defaultCommands.
func TestGateSize(t *testing.T) {
	ctx := context.Background()
	db, eng := openSQLite(t)
	for _, c := range []struct {
		st   store.Store
		lim  Limits
		want int
	}{
		{db, Limits{}, db.Slots()},
		{db, Limits{Commands: 3}, 3},
		{&stalled{Store: db}, Limits{}, defaultCommands},
	} {
		s, err := New(ctx, c.st, eng, WithLimits(c.lim))
		if err != nil {
			t.Fatal(err)
		}
		if s.lim.Commands != c.want || cap(s.gate.slots) != c.want {
			t.Errorf("%T with %d asked for: %d slots (limit %d), want %d", c.st, c.lim.Commands, cap(s.gate.slots), s.lim.Commands, c.want)
		}
	}
	if db.Slots() != 64 {
		t.Errorf("SQLite asks for %d slots, want 64", db.Slots())
	}
}
