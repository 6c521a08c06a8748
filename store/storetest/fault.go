package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"orderly/store"
)

// ErrInjected is the cause of every failure Inject's store makes up; the
// error returned is also store.ErrUnavailable, as a real outage's is.
var ErrInjected = errors.New("a fault injected by the test")

// Fault is when an injected failure of an append strikes.
type Fault int

const (
	// BeforeCommit fails the append before it reaches the store: nothing
	// is committed.
	BeforeCommit Fault = iota + 1
	// AfterCommit commits the append and then tells its caller it failed,
	// as a connection lost while the commit was answered would.
	AfterCommit
)

// Faults says which calls of a store made by Inject fail. Its methods are
// safe for concurrent use.
type Faults struct {
	mu      sync.Mutex
	appends []Fault // the next appends' faults, first first
	reads   bool
	writes  bool
	failed  int
}

// FailAppend makes the next append (Store.Append or Held.Append) that no
// earlier FailAppend claimed fail as when says.
func (f *Faults) FailAppend(when Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.appends = append(f.appends, when)
}

// FailReads makes every read (Events, Game, Games, Count, Seat, Seats,
// Seeds, Held.Events) fail while on.
func (f *Faults) FailReads(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads = on
}

// FailWrites makes every write (Create, Append, Reveal, Reissue, Delete, Hold) fail
// before it reaches the store while on.
func (f *Faults) FailWrites(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.writes = on
}

// Down is FailReads and FailWrites together: the store cannot be reached.
func (f *Faults) Down(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads, f.writes = on, on
}

// Failed is how many calls have failed so far.
func (f *Faults) Failed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed
}

// read is the error of a read now, if it is to fail.
func (f *Faults) read() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.reads {
		return nil
	}
	f.failed++
	return store.Unavailable(ErrInjected)
}

// write is the error of a write other than an append now, if it is to
// fail.
func (f *Faults) write() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.writes {
		return nil
	}
	f.failed++
	return store.Unavailable(ErrInjected)
}

// append is when an append now fails, if it does (0 if not): writes
// failing fail it before commit, else the next FailAppend.
func (f *Faults) append() Fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	var when Fault
	switch {
	case f.writes:
		when = BeforeCommit
	case len(f.appends) > 0:
		when = f.appends[0]
		f.appends = f.appends[1:]
	default:
		return 0
	}
	f.failed++
	return when
}

// appendWith runs do, an append, as the faults say.
func (f *Faults) appendWith(do func() (int, error)) (int, error) {
	switch f.append() {
	case BeforeCommit:
		return 0, store.Unavailable(ErrInjected)
	case AfterCommit:
		if _, err := do(); err != nil {
			return 0, err
		}
		return 0, store.Unavailable(ErrInjected)
	}
	return do()
}

// Inject wraps s in a store whose calls fail as the returned Faults say,
// and otherwise are s's: for tests of what a store's users do when it
// fails. Every failure is store.ErrUnavailable, wrapping ErrInjected. The
// store is a store.Holder and a store.Paced when s is (a store.Watcher
// is s itself: its notices are not injected).
func Inject(s store.Store) (store.Store, *Faults) {
	f := &Faults{}
	b := &faulty{Store: s, f: f}
	h, holds := s.(store.Holder)
	p, paces := s.(store.Paced)
	switch {
	case holds && paces:
		return struct {
			*holding
			store.Paced
		}{&holding{b, h}, p}, f
	case holds:
		return &holding{b, h}, f
	case paces:
		return struct {
			*faulty
			store.Paced
		}{b, p}, f
	}
	return b, f
}

// faulty is the store Inject makes.
type faulty struct {
	store.Store
	f *Faults
}

func (s *faulty) Create(ctx context.Context, g store.Game, seats []store.Seat, seeds []store.Seed, events []json.RawMessage) error {
	if err := s.f.write(); err != nil {
		return err
	}
	return s.Store.Create(ctx, g, seats, seeds, events)
}

func (s *faulty) Append(ctx context.Context, game string, version int, events []json.RawMessage) (int, error) {
	return s.f.appendWith(func() (int, error) { return s.Store.Append(ctx, game, version, events) })
}

func (s *faulty) Reveal(ctx context.Context, game string, version int, next store.Seed) error {
	if err := s.f.write(); err != nil {
		return err
	}
	return s.Store.Reveal(ctx, game, version, next)
}

func (s *faulty) Reissue(ctx context.Context, game string, old, new []byte) error {
	if err := s.f.write(); err != nil {
		return err
	}
	return s.Store.Reissue(ctx, game, old, new)
}

func (s *faulty) Delete(ctx context.Context, game string) error {
	if err := s.f.write(); err != nil {
		return err
	}
	return s.Store.Delete(ctx, game)
}

func (s *faulty) Events(ctx context.Context, game string, since, limit int) ([]json.RawMessage, error) {
	if err := s.f.read(); err != nil {
		return nil, err
	}
	return s.Store.Events(ctx, game, since, limit)
}

func (s *faulty) Game(ctx context.Context, id string) (store.Game, error) {
	if err := s.f.read(); err != nil {
		return store.Game{}, err
	}
	return s.Store.Game(ctx, id)
}

func (s *faulty) Games(ctx context.Context) ([]store.Game, error) {
	if err := s.f.read(); err != nil {
		return nil, err
	}
	return s.Store.Games(ctx)
}

func (s *faulty) Count(ctx context.Context) (int, error) {
	if err := s.f.read(); err != nil {
		return 0, err
	}
	return s.Store.Count(ctx)
}

func (s *faulty) Seat(ctx context.Context, hash []byte) (store.Seat, error) {
	if err := s.f.read(); err != nil {
		return store.Seat{}, err
	}
	return s.Store.Seat(ctx, hash)
}

func (s *faulty) Seats(ctx context.Context, game string) ([]store.Seat, error) {
	if err := s.f.read(); err != nil {
		return nil, err
	}
	return s.Store.Seats(ctx, game)
}

func (s *faulty) Seeds(ctx context.Context, game string) ([]store.Seed, error) {
	if err := s.f.read(); err != nil {
		return nil, err
	}
	return s.Store.Seeds(ctx, game)
}

// holding is faulty over a store.Holder.
type holding struct {
	*faulty
	h store.Holder
}

func (s *holding) Hold(ctx context.Context, game string) (store.Held, error) {
	if err := s.f.write(); err != nil {
		return nil, err
	}
	hd, err := s.h.Hold(ctx, game)
	if err != nil {
		return nil, err
	}
	return &faultyHeld{Held: hd, f: s.f}, nil
}

// faultyHeld is a hold of a holding store.
type faultyHeld struct {
	store.Held
	f *Faults
}

func (h *faultyHeld) Events(ctx context.Context, since, limit int) ([]json.RawMessage, error) {
	if err := h.f.read(); err != nil {
		return nil, err
	}
	return h.Held.Events(ctx, since, limit)
}

func (h *faultyHeld) Append(ctx context.Context, events []json.RawMessage) (int, error) {
	n, err := h.f.appendWith(func() (int, error) { return h.Held.Append(ctx, events) })
	h.Held.Release() // a failed append lets the game go too
	return n, err
}

// testFaults: a store made by Inject fails as told, each failure
// store.ErrUnavailable, and otherwise is the store it wraps: an append
// failed before commit keeps nothing, one failed after commit is kept,
// failed reads and writes change nothing, and once the faults are lifted
// the store goes on; on a store.Holder a held append fails the same ways
// and lets the game go.
func testFaults(t *testing.T, c contract) {
	ctx := context.Background()
	inner := c.open(t)
	s, f := Inject(inner)
	if _, ok := inner.(store.Holder); ok != isHolder(s) {
		t.Errorf("the injected store is a store.Holder: %v; the store it wraps: %v", isHolder(s), ok)
	}
	Create(t, s, "g")
	v := MustAppend(t, s, "g", 0, Event("1"))
	unavailable := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, store.ErrUnavailable) || !errors.Is(err, ErrInjected) {
			t.Errorf("%s = %v, want an injected store.ErrUnavailable", what, err)
		}
	}

	f.FailAppend(BeforeCommit)
	_, err := s.Append(ctx, "g", v, []json.RawMessage{Event("before")})
	unavailable("an append failed before commit", err)
	SameEvents(t, "after an append failed before commit", MustEvents(t, inner, "g", 0), []json.RawMessage{Event("1")})

	f.FailAppend(AfterCommit)
	_, err = s.Append(ctx, "g", v, []json.RawMessage{Event("after")})
	unavailable("an append failed after commit", err)
	SameEvents(t, "after an append failed after commit", MustEvents(t, inner, "g", 0), []json.RawMessage{Event("1"), Event("after")})
	v++

	before := takeSnapshot(t, inner)
	f.Down(true)
	errs := map[string]error{}
	h, hSeats, hSeeds := NewGame("h")
	_, errs["Append"] = s.Append(ctx, "g", v, []json.RawMessage{Event("down")})
	errs["Create"] = s.Create(ctx, h, hSeats, hSeeds, nil)
	errs["Reveal"] = s.Reveal(ctx, "g", v, Seed(v+1))
	errs["Reissue"] = s.Reissue(ctx, "g", Hash("g/red"), Hash("new"))
	errs["Delete"] = s.Delete(ctx, "g")
	_, errs["Events"] = s.Events(ctx, "g", 0, 0)
	_, errs["Game"] = s.Game(ctx, "g")
	_, errs["Games"] = s.Games(ctx)
	_, errs["Count"] = s.Count(ctx)
	_, errs["Seat"] = s.Seat(ctx, Hash("g/red"))
	_, errs["Seats"] = s.Seats(ctx, "g")
	_, errs["Seeds"] = s.Seeds(ctx, "g")
	for name, err := range errs {
		unavailable(name+" while the store is down", err)
	}
	if f.Failed() != 2+len(errs) {
		t.Errorf("Failed() = %d, want %d", f.Failed(), 2+len(errs))
	}
	f.Down(false)
	sameSnapshot(t, "after calls while the store was down", takeSnapshot(t, s), before)
	v = MustAppend(t, s, "g", v, Event("up"))

	hs, ok := s.(store.Holder)
	if !ok {
		return
	}
	for _, when := range []Fault{BeforeCommit, AfterCommit} {
		hd, err := hs.Hold(ctx, "g")
		if err != nil {
			t.Fatalf("Hold: %v", err)
		}
		f.FailAppend(when)
		_, err = hd.Append(ctx, []json.RawMessage{Event("held %d", when)})
		unavailable("a held append", err)
		if when == AfterCommit {
			v++
		}
		if got := MustVersion(t, inner, "g"); got != v {
			t.Errorf("version %d after a held append failed (%d), want %d", got, when, v)
		}
	}
	// The game was let go: it can be held, and appended to, at once.
	hd, err := hs.Hold(ctx, "g")
	if err != nil {
		t.Fatalf("Hold after failed held appends: %v", err)
	}
	if _, err := hd.Append(ctx, []json.RawMessage{Event("held")}); err != nil {
		t.Fatalf("a held append after failed ones: %v", err)
	}
}

func isHolder(s store.Store) bool {
	_, ok := s.(store.Holder)
	return ok
}
