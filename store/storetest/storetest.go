// Package storetest is the contract every store.Store must keep, as tests:
// an implementation's own tests call Run with a Factory that makes its
// stores, and Run checks each promise of the interface in a subtest of its
// own. It also has the helpers those tests share (games, seats, seeds and
// events to store, and checks of what was stored).
//
// It is imported only by tests.
package storetest

import (
	"testing"
	"time"

	"orderly/store"
)

// Factory makes the stores the contract is checked on.
type Factory struct {
	// New opens a fresh, empty store for one test; the test closes it (and may close it twice: Close after Close must not panic).
	New func(t *testing.T) store.Store
	// Again opens a second handle on the same data as s (the same file, the same database), or nil if the store cannot; the test closes it.
	// s may have been closed already: a reopened store must hold what was
	// committed before.
	Again func(t *testing.T, s store.Store) store.Store
	// Clocked opens a fresh, empty store as New does, whose clock (of
	// Game.Created and Game.Played) is now; nil if the store cannot be
	// given one, and then the test of Played is skipped.
	Clocked func(t *testing.T, now func() time.Time) store.Store
}

// Run checks every promise of store.Store on stores f makes, each in its own subtest.
// Without f.Again, the tests that need a second handle on a store's data
// are skipped (Durable, TwoHandles) or skip that part (Closed).
func Run(t *testing.T, f Factory) {
	c := contract{f}
	for _, test := range []struct {
		name string
		run  func(t *testing.T, c contract)
	}{
		{"RoundTrip", testRoundTrip},
		{"Reveal", testReveal},
		{"Conflict", testConflict},
		{"NotFound", testNotFound},
		{"Exists", testExists},
		{"CreateAllOrNothing", testCreateAllOrNothing},
		{"EventsInPages", testEventsInPages},
		{"CountAndOrigin", testCountAndOrigin},
		{"Reissue", testReissue},
		{"Delete", testDelete},
		{"Played", testPlayed},
		{"Durable", testDurable},
		{"TwoHandles", testTwoHandles},
		{"ConcurrentSameGame", testConcurrentSameGame},
		{"ConcurrentManyGames", testConcurrentManyGames},
		{"Cancelled", testCancelled},
		{"Closed", testClosed},
		{"Faults", testFaults},
	} {
		t.Run(test.name, func(t *testing.T) { test.run(t, c) })
	}
}

// contract is the Factory as the tests use it.
type contract struct{ f Factory }

// open makes a fresh store for t and closes it when t ends.
func (c contract) open(t *testing.T) store.Store {
	t.Helper()
	s := c.f.New(t)
	if s == nil {
		t.Fatal("Factory.New made no store")
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// again opens a second handle on s's data and closes it when t ends, or
// skips t if the store cannot.
func (c contract) again(t *testing.T, s store.Store) store.Store {
	t.Helper()
	s2 := c.reopen(t, s)
	if s2 == nil {
		t.Skip("the store cannot open a second handle on its data (Factory.Again)")
	}
	return s2
}

// reopen is again, but nil if the store cannot.
func (c contract) reopen(t *testing.T, s store.Store) store.Store {
	t.Helper()
	if c.f.Again == nil {
		return nil
	}
	s2 := c.f.Again(t, s)
	if s2 != nil {
		t.Cleanup(func() { _ = s2.Close() })
	}
	return s2
}
