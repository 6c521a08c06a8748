package server

import (
	"context"
	"sync/atomic"
	"time"
)

// gate bounds the commands a server works on at once (Limits.Commands).
// A command that finds every slot taken waits for one, at most
// Limits.CommandWait, and is then refused as busy (503, nothing changed,
// send it again), so that an overloaded server sheds what it cannot do
// soon instead of queueing without end: the commands it takes are
// answered in good time, and the store keeps connections for the
// catch-ups that carry other instances' events to this one's streams.
//
// A burst waits the whole CommandWait, and so does a stall (the store
// slow for a moment: nothing is being taken). Under overload, the server
// taking commands all the while but none without waiting overloadTarget
// for overloadAfter, a command waits at most overloadWait: it is taken
// soon or not at all.
type gate struct {
	slots chan struct{}
	wait  time.Duration
	now   func() time.Time
	// quick is when a command was last taken having waited less than
	// overloadTarget, and taken when one was last taken at all, in Unix
	// nanoseconds.
	quick, taken atomic.Int64
}

// defaultCommands is Limits.Commands on a store that does not say
// (store.Paced).
const defaultCommands = 16

// overloadTarget, overloadAfter and overloadWait: see gate.
const (
	overloadTarget = 5 * time.Millisecond
	overloadAfter  = 100 * time.Millisecond
	overloadWait   = 20 * time.Millisecond
)

func newGate(n int, wait time.Duration, now func() time.Time) *gate {
	g := &gate{slots: make(chan struct{}, n), wait: wait, now: now}
	g.quick.Store(now().UnixNano())
	return g
}

// overloaded reports whether, at now, commands are being taken, and none
// quickly for a while.
func (g *gate) overloaded(now time.Time) bool {
	return now.Sub(time.Unix(0, g.quick.Load())) >= overloadAfter && now.Sub(time.Unix(0, g.taken.Load())) < overloadWait
}

// enter takes a slot, waiting as the gate allows, and returns the function
// that gives it back; a command refused as busy, or whose request ended
// while it waited, gets an error instead.
func (g *gate) enter(ctx context.Context) (func(), error) {
	start := g.now()
	select {
	case g.slots <- struct{}{}:
		g.quick.Store(start.UnixNano())
		g.taken.Store(start.UnixNano())
		return g.leave, nil
	default:
	}
	wait := g.wait
	if g.overloaded(start) {
		wait = min(wait, overloadWait)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		now := g.now()
		if now.Sub(start) < overloadTarget {
			g.quick.Store(now.UnixNano())
		}
		g.taken.Store(now.UnixNano())
		return g.leave, nil
	case <-t.C:
		return nil, busy("the server has more commands than it can work on now; nothing was changed, send the command again in a moment")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (g *gate) leave() { <-g.slots }

// busy is a 503 that asks for the command again in a second.
func busy(format string, args ...any) *Error {
	e := errorf(Busy, format, args...)
	e.retry = time.Second
	return e
}
