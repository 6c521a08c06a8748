package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"orderly/battle"
	"orderly/game"
	"orderly/store"
)

// live is a game in memory: the engine's game, rebuilt from the stored
// log, and the seats watching it. mu is held while a command is checked
// and its events committed, so that nobody (a view, a stream) ever sees
// events that are not yet durable.
type live struct {
	id    string
	rec   store.Game // Scenario is dropped once loaded; Version is stale
	src   *cached
	sc    *battle.Scenario
	rules game.Rules
	last  atomic.Int64 // when a seat last used it, in Unix nanoseconds
	// queued counts, by who sent them (a side, or the umpire), the
	// commands for the game that this server has taken in and not yet
	// answered: at most seatQueue each, since those waiting for their
	// turn wait without a time limit. It is counted by sender so that
	// whether a seat is refused depends on its own side's commands alone.
	qmu    sync.Mutex
	queued map[string]int
	// turn is held by the one command of the game that may take a slot
	// of the server's gate and then mu (do).
	turn sync.Mutex

	mu    sync.Mutex
	g     *game.Game
	seeds []game.Seed // every key, secret or not
	shown int         // seeds[:shown] are revealed
	// seen lists, for each side, the numbers of the events it may see, in
	// order: a side's own numbering of its events (1, 2, 3, ...) maps
	// through it to the game's, which never leaves the server for a side.
	seen  map[string][]int32
	heads map[string]string // the hash of the last event each side (and the umpire) may see
	// stale says the game in memory may not be the stored one: a command
	// carried out in memory was not to be kept, or its commit failed, and
	// the store could not be read to rebuild it. Nothing is served from
	// it until it is rebuilt (ready).
	stale bool
	// chain hashes each new event (Event.Hash); source and tables are the
	// stored scenario text and own tables file its genesis binds, kept
	// only until it is made.
	chain          *game.Chain
	source, tables []byte

	subs subscribers
	// mine are the versions of this server's own appends whose notices
	// have not come back (Follow); pending and running drive the one
	// catch-up that runs at a time (kick).
	mine             echoes
	pending, running atomic.Bool
	// rival is when another process last wrote to the game, in Unix
	// nanoseconds (0: never seen): do holds the game for a while after.
	rival atomic.Int64
	// heard is the highest version another process's notices announced:
	// a catch-up with the game at least as far along reads nothing.
	heard  atomic.Int64
	reseed atomic.Bool // the seeds may have changed: read them at the next catch-up
	// space is the map as a page draws it, worked out on the first board
	// (it never changes); nil until then.
	space *Space
	// played is when the game last changed, as far as this server knows
	// (the store's Game.Played when loaded, then its own commits); mu.
	played time.Time
	// gone is closed when the game is deleted (end): its streams end.
	gone    chan struct{}
	endOnce sync.Once
	// replay is what the game's replays keep (server/replay.go).
	replay replays
}

// end marks the game deleted: its open streams end and no stream may
// join it.
func (l *live) end() {
	l.endOnce.Do(func() {
		l.subs.mu.Lock()
		l.subs.retired = true
		l.subs.mu.Unlock()
		close(l.gone)
	})
}

func (l *live) touch(now time.Time) { l.last.Store(now.UnixNano()) }

func (l *live) used() time.Time { return time.Unix(0, l.last.Load()) }

// seatQueue is the most commands from one side (or the umpire) of a game
// that a server holds at once (live.queued); more are refused as busy.
const seatQueue = 8

// queue counts a command from who in, or reports false if who has
// seatQueue waiting already.
func (l *live) queue(who string) bool {
	l.qmu.Lock()
	defer l.qmu.Unlock()
	if l.queued[who] >= seatQueue {
		return false
	}
	if l.queued == nil {
		l.queued = map[string]int{}
	}
	l.queued[who]++
	return true
}

// dequeue counts a command from who out, once it is answered.
func (l *live) dequeue(who string) {
	l.qmu.Lock()
	defer l.qmu.Unlock()
	if l.queued[who]--; l.queued[who] <= 0 {
		delete(l.queued, who)
	}
}

// waiting is how many commands from who the server holds.
func (l *live) waiting(who string) int {
	l.qmu.Lock()
	defer l.qmu.Unlock()
	return l.queued[who]
}

// maxTries bounds how often a command is tried again after another
// process (another instance on the same store) moved the game on first.
const maxTries = 8

// rivalry is how long after another process last wrote to a game this
// one holds the game in the store (store.Holder) before it works out a
// command, rather than risk being refused as stale.
const rivalry = time.Minute

// accepted is a command's events once committed, and what its seat is
// told of them: the seat's version, and its number of the last event it
// may see before them.
type accepted struct {
	evs             []game.Event
	version, before int
}

// do checks cmd, as check lets it through, against the rules and, if
// accepted, commits its events, and returns them as who is told of them,
// with a slot of gt (if not nil) held while it works. On a store shared
// with other processes, a game another one wrote to in the last rivalry
// is held first (held); otherwise the command is worked out on the game
// in memory and a stale version (another process wrote to the game)
// reloads the game and tries again. A commit that fails otherwise leaves
// the game in memory as the store has it (settle): nobody is shown the
// command unless its events are stored.
func (l *live) do(ctx context.Context, st store.Store, gt *gate, now time.Time, lim Limits, who string, cmd game.Command, check func(*game.State, *game.Command) *Error) (accepted, error) {
	// The game's commands take turns before they take a slot, so that
	// those of one busy game, waiting for each other, hold none; mu is
	// taken last, so that catch-ups and views do not wait for a slot.
	l.turn.Lock()
	defer l.turn.Unlock()
	if gt != nil {
		leave, err := gt.enter(ctx)
		if err != nil {
			return accepted{}, err
		}
		defer leave()
	}
	if err := l.lock(ctx, st); err != nil {
		return accepted{}, err
	}
	defer l.mu.Unlock()
	if l.pending.Swap(false) || l.reseed.Load() {
		// Another instance's change was heard and is yet to be read: read
		// it first rather than be refused by the store.
		if err := l.caughtUp(ctx, st); err != nil {
			return accepted{}, err
		}
	}
	evs, err := l.try(ctx, st, now, lim, cmd, check)
	if err != nil {
		return accepted{}, err
	}
	return l.told(who, evs), nil
}

// try is do with mu held, the game as the store has it.
func (l *live) try(ctx context.Context, st store.Store, now time.Time, lim Limits, cmd game.Command, check func(*game.State, *game.Command) *Error) ([]game.Event, error) {
	h, _ := st.(store.Holder)
	for try := 0; ; try++ {
		if h != nil && now.Sub(time.Unix(0, l.rival.Load())) < rivalry {
			if evs, err, ok := l.held(ctx, h, st, now, lim, cmd, check); ok {
				return evs, err
			}
		}
		version := l.g.Len()
		evs, raw, err := l.work(ctx, st, lim, cmd, check)
		var refused *game.Error
		var short *game.NeedDice
		if (errors.As(err, &refused) || errors.As(err, &short)) && try < maxTries && !l.stale {
			// Refused: but perhaps only because another process has
			// moved the game on since it was loaded. Look, reload, retry.
			if rec, gerr := st.Game(ctx, l.id); gerr == nil && rec.Version != version {
				l.rival.Store(now.UnixNano())
				if rerr := l.reload(ctx, st); rerr != nil {
					return nil, rerr
				}
				continue
			}
		}
		if err != nil {
			return nil, err
		}
		// The notice of this append will be this server's own echo: known
		// before the append commits, so that it cannot come back first.
		l.mine.add(l.g.Len())
		_, err = st.Append(ctx, l.id, version, raw)
		if err == nil {
			l.played = now
			l.done(evs)
			return evs, nil
		}
		if !errors.Is(err, store.ErrConflict) {
			return l.settle(ctx, st, version, evs, raw, err)
		}
		l.mine.drop(l.g.Len())
		// Another process wrote first: rebuild the game from the store
		// and try again.
		if rerr := l.undo(ctx, st); rerr != nil {
			return nil, rerr
		}
		l.rival.Store(now.UnixNano())
		if try == maxTries {
			return nil, err
		}
	}
}

// held is do with the game held in the store from before the command is
// worked out until its events are committed: what other processes added
// meanwhile is read under the hold, so the append cannot be stale. ok is
// false, with the game in memory as the store has it, when the game could
// not be brought up to date under the hold: do then goes on without.
func (l *live) held(ctx context.Context, h store.Holder, st store.Store, now time.Time, lim Limits, cmd game.Command, check func(*game.State, *game.Command) *Error) (evs []game.Event, err error, ok bool) {
	hd, err := h.Hold(ctx, l.id)
	if errors.Is(err, store.ErrConflict) {
		return nil, nil, false // held elsewhere too long: try without
	}
	if err != nil {
		return nil, &storeError{err}, true
	}
	defer hd.Release()
	if hd.Version() != l.g.Len() {
		before := l.g.Len()
		err := l.extend(ctx, hd.Events)
		if err == nil && l.g.Len() != hd.Version() {
			err = fmt.Errorf("the store has %d events, memory %d", hd.Version(), l.g.Len())
		}
		if err != nil {
			hd.Release()
			if rerr := l.undo(ctx, st); rerr != nil {
				return nil, fmt.Errorf("%w; and reloading the game failed: %w", err, rerr), true
			}
			l.subs.notify()
			return nil, nil, false
		}
		if l.g.Len() != before {
			l.subs.notify()
		}
	}
	version := l.g.Len()
	evs, raw, err := l.work(ctx, st, lim, cmd, check)
	if err != nil {
		return nil, err, true
	}
	l.mine.add(l.g.Len())
	if _, err := hd.Append(ctx, raw); err != nil {
		if !errors.Is(err, store.ErrConflict) {
			evs, err := l.settle(ctx, st, version, evs, raw, err)
			return evs, err, true
		}
		l.mine.drop(l.g.Len())
		if rerr := l.undo(ctx, st); rerr != nil {
			return nil, rerr, true
		}
		return nil, err, true
	}
	l.played = now
	l.done(evs)
	return evs, nil, true
}

// settle learns, after the append of a command's events (raw, stored
// form) at version failed other than as stale, whether they were
// committed all the same (the connection lost as the commit was
// answered), by reading the game again from the store: the game in
// memory is then the stored one, and the command was done or nothing
// changed. If the store cannot be read, the game is marked stale and the
// client told that the command may or may not have been saved. mu must
// be held.
func (l *live) settle(ctx context.Context, st store.Store, version int, evs []game.Event, raw []json.RawMessage, err error) ([]game.Event, error) {
	echo := version + len(evs)
	maybe := outage("the game may or may not have been saved: the store failed as the command was saved, and cannot be read just now; read the board again once the server answers, before sending the command again")
	if rerr := l.undo(ctx, st); rerr != nil {
		l.mine.drop(echo)
		if errors.As(rerr, new(*storeError)) {
			return nil, maybe
		}
		return nil, fmt.Errorf("%w; and reloading the game failed: %w", err, rerr)
	}
	l.subs.notify()
	stored, rerr := st.Events(ctx, l.id, version, len(raw))
	switch {
	case rerr != nil:
		l.mine.drop(echo)
		return nil, maybe
	case same(stored, raw):
		return evs, nil // committed all the same; its notice is the echo
	}
	l.mine.drop(echo)
	return nil, outage("the game could not be saved: the store is unavailable just now; nothing was changed, send the command again in a moment")
}

// same reports whether two lists of stored events are the same, byte for
// byte (the store keeps the bytes it is given).
func same(a, b []json.RawMessage) bool {
	return slices.EqualFunc(a, b, func(x, y json.RawMessage) bool { return bytes.Equal(x, y) })
}

// undo rebuilds the game from the store once a command worked out in
// memory is not to be kept there. If the store cannot be read, the game
// is marked stale: nothing is served from it until it is rebuilt (ready).
// mu must be held.
func (l *live) undo(ctx context.Context, st store.Store) error {
	if err := l.reload(ctx, st); err != nil {
		l.stale = true
		return err
	}
	l.stale = false
	return nil
}

// ready rebuilds a game marked stale from the store, or says why it
// cannot: a store that cannot be read just now is 503 with Retry-After.
// mu must be held.
func (l *live) ready(ctx context.Context, st store.Store) error {
	if !l.stale {
		return nil
	}
	if err := l.reload(ctx, st); err != nil {
		if errors.As(err, new(*storeError)) {
			return outage("the game cannot be read from the store just now; try again in a moment")
		}
		return err
	}
	l.stale = false
	l.reseed.Store(false) // reload read the seeds
	l.subs.notify()
	return nil
}

// lock takes mu with the game in memory as the store has it (ready); on
// an error mu is not held.
func (l *live) lock(ctx context.Context, st store.Store) error {
	l.mu.Lock()
	if err := l.ready(ctx, st); err != nil {
		l.mu.Unlock()
		return err
	}
	return nil
}

// work checks cmd and carries it out on the game in memory, returning its
// events and their stored form. A refused command leaves the game as it
// was (a game refused part way is rebuilt from the store). The limit on
// the events of one command counts those its side may see (what else it
// adds must not change the answer: issue 32), and bounds what a command
// asks for, not the turn it ends: ready and end, whose events are the
// rules' steps, are never refused by it (a large game would be stuck).
func (l *live) work(ctx context.Context, st store.Store, lim Limits, cmd game.Command, check func(*game.State, *game.Command) *Error) ([]game.Event, []json.RawMessage, error) {
	if l.g.Len() >= lim.GameEvents && !l.g.State().Over {
		// The count is not given: it holds events the seat may not see.
		return nil, nil, errorf(Full, "the game has reached this server's limit of %d events for one game; the umpire can export it and go on elsewhere", lim.GameEvents)
	}
	c := cmd
	if e := check(l.g.State(), &c); e != nil {
		return nil, nil, e
	}
	if c.Verb == game.TakeBack && l.g.Base() > 0 {
		// A take-back folds the whole log again without the events it
		// withdraws: have all of it in memory (issue 36).
		if err := l.rebuild(ctx, st, false); err != nil {
			l.stale = true
			return nil, nil, err
		}
	}
	evs, err := l.g.Do(c)
	if err != nil && l.g.Torn() {
		// Refused part way (dice thrown at the table were missing once
		// the step it ended had begun to advance): the store never saw
		// any of it, so rebuild the game from there.
		if rerr := l.undo(ctx, st); rerr != nil {
			return nil, nil, fmt.Errorf("%w; and reloading the game failed: %w", err, rerr)
		}
		return nil, nil, err
	}
	if err != nil {
		return nil, nil, err
	}
	if n := shownOf(evs, c.Side); n > lim.CommandEvents && c.Verb != game.Ready && c.Verb != game.End {
		// Undo it in memory: the store never saw it.
		if rerr := l.undo(ctx, st); rerr != nil {
			return nil, nil, rerr
		}
		return nil, nil, errorf(TooLarge, "the command would add %d events, over this server's limit of %d for one command; give it in parts", n, lim.CommandEvents)
	}
	raw, err := encodeEvents(evs)
	if err != nil {
		if rerr := l.undo(ctx, st); rerr != nil {
			return nil, nil, fmt.Errorf("%w; and reloading the game failed: %w", err, rerr)
		}
		return nil, nil, err
	}
	return evs, raw, nil
}

// shownOf is how many of evs side (a side, or game.Umpire) may see.
func shownOf(evs []game.Event, side string) int {
	n := 0
	for i := range evs {
		if evs[i].Visible(side) {
			n++
		}
	}
	return n
}

// done records committed events and wakes the game's streams.
func (l *live) done(evs []game.Event) {
	l.index(evs)
	l.trim()
	l.subs.notify()
}

// told is what who is told of committed events evs. mu must be held.
func (l *live) told(who string, evs []game.Event) accepted {
	out := accepted{evs: evs, version: l.version(who)}
	if len(evs) > 0 {
		out.before = l.number(who, evs[0].Seq-1)
	}
	return out
}

// fresh reloads the game if another process has added to its log. mu
// must be held.
func (l *live) fresh(ctx context.Context, st store.Store) error {
	rec, err := st.Game(ctx, l.id)
	if err != nil {
		return &storeError{err}
	}
	if rec.Version != l.g.Len() {
		l.played = rec.Played
		return l.reload(ctx, st)
	}
	return nil
}

// page is how many stored events are read at a time.
const page = 256

// reload rebuilds the game from the store's log, read in pages. mu must be
// held (or the game not yet shared).
func (l *live) reload(ctx context.Context, st store.Store) error { return l.rebuild(ctx, st, true) }

// rebuild is reload, keeping the whole log in memory unless trim.
func (l *live) rebuild(ctx context.Context, st store.Store, trim bool) error {
	var evs []game.Event
	for {
		raw, err := st.Events(ctx, l.id, len(evs), page)
		if err != nil {
			return &storeError{err}
		}
		more, err := decodeEvents(l.rules, raw, len(evs))
		if err != nil {
			return err
		}
		evs = append(evs, more...)
		if len(raw) < page {
			break
		}
	}
	g, err := game.Replay(l.sc, l.rules, evs, game.WithFog(l.rec.Fog), game.WithDice(l.rec.Dice))
	if err != nil {
		return fmt.Errorf("its log does not replay: %w", err)
	}
	seeds, err := st.Seeds(ctx, l.id)
	if err != nil {
		return &storeError{err}
	}
	l.setSeeds(seeds)
	g.SetDice(game.Committed(l.seeds))
	if l.chain == nil {
		b := game.Basis{Genesis: l.rec.Genesis, Scenario: l.source, Tables: l.tables, Dice: l.rec.Dice, Fog: l.rec.Fog}
		if l.chain, err = game.NewChain(b, l.seeds); err != nil {
			return fmt.Errorf("its hash chain: %w", err)
		}
		l.source, l.tables = nil, nil
	} else if err := l.chain.SetSeeds(l.seeds); err != nil {
		return fmt.Errorf("its hash chain: %w", err)
	}
	if err := g.SetChain(l.chain); err != nil {
		return fmt.Errorf("its hash chain: %w", err)
	}
	l.g = g
	l.seen, l.heads = map[string][]int32{}, map[string]string{}
	for _, sd := range l.sc.Sides {
		l.seen[sd.ID] = []int32{}
	}
	l.index(evs)
	if trim {
		l.trim()
	}
	return nil
}

// keep is how many of a game's latest events stay in memory; older ones
// are read from the store when a seat asks for them (a stream far behind,
// an export). A thousand games then fit in little memory.
const keep = 64

// trim forgets the older events once twice keep are in memory.
func (l *live) trim() {
	if l.g.Len()-l.g.Base() > 2*keep {
		l.g.Forget(keep)
	}
}

// index adds events to each side's numbering and heads.
func (l *live) index(evs []game.Event) {
	for i := range evs {
		e := &evs[i]
		for side, seen := range l.seen {
			if e.Visible(side) {
				l.seen[side] = append(seen, int32(e.Seq))
				l.heads[side] = e.Hash
			}
		}
		l.heads[game.Umpire] = e.Hash
	}
}

// version is how many events who (a side, or game.Umpire) may see.
func (l *live) version(who string) int {
	if who == game.Umpire {
		return l.g.Len()
	}
	return len(l.seen[who])
}

// at is the game's number of who's nth event (0 for n = 0), and whether
// who has seen that many.
func (l *live) at(who string, n int) (int, bool) {
	if n < 0 || n > l.version(who) {
		return 0, false
	}
	if who == game.Umpire || n == 0 {
		return n, true
	}
	return int(l.seen[who][n-1]), true
}

// number is who's number of the last event at or before the game's event
// seq that who may see (0 if none).
func (l *live) number(who string, seq int) int {
	if who == game.Umpire {
		return seq
	}
	s := l.seen[who]
	return sort.Search(len(s), func(i int) bool { return int(s[i]) > seq })
}

func (l *live) setSeeds(seeds []store.Seed) {
	l.seeds, l.shown = l.seeds[:0], 0
	for _, s := range seeds {
		l.seeds = append(l.seeds, s.Seed)
		if s.Revealed > 0 {
			l.shown = len(l.seeds)
		}
	}
}

// public is the seeds as who may see them: the keys of revealed seeds
// only, and for a side each seed's first event in its own numbering.
func (l *live) public(who string) []game.Seed {
	out := make([]game.Seed, len(l.seeds))
	for i, s := range l.seeds {
		out[i] = game.Seed{From: l.number(who, s.From-1) + 1, Commitment: s.Commitment}
		if i < l.shown {
			out[i].Key = s.Key
		}
	}
	return out
}

// decodeEvents decodes stored events, the first of which is number
// after+1.
func decodeEvents(rules game.Rules, raw []json.RawMessage, after int) ([]game.Event, error) {
	evs := make([]game.Event, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &evs[i]); err != nil {
			return nil, fmt.Errorf("stored event %d does not decode: %w", after+i+1, err)
		}
	}
	if err := game.Decode(rules, evs); err != nil {
		return nil, fmt.Errorf("stored events: %w", err)
	}
	return evs, nil
}

// subscribers are the open event streams of a game. Each has a wake-up
// channel of one slot: a notification is never lost (a full slot already
// means "look again") and a slow reader never holds up a command. Once
// retired (the game left memory), no stream may join: it must find the
// game again.
type subscribers struct {
	mu      sync.Mutex
	set     map[chan struct{}]struct{}
	retired bool
}

func (s *subscribers) add() (chan struct{}, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.retired {
		return nil, false
	}
	ch := make(chan struct{}, 1)
	if s.set == nil {
		s.set = map[chan struct{}]struct{}{}
	}
	s.set[ch] = struct{}{}
	return ch, true
}

func (s *subscribers) remove(ch chan struct{}) {
	s.mu.Lock()
	delete(s.set, ch)
	s.mu.Unlock()
}

// retire stops new streams joining if none is open, and reports whether
// it did.
func (s *subscribers) retire() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.set) > 0 {
		return false
	}
	s.retired = true
	return true
}

func (s *subscribers) notify() {
	s.mu.Lock()
	for ch := range s.set {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
	s.mu.Unlock()
}

// diceMode is where the game's dice are thrown, as Info says it.
func (l *live) diceMode() string {
	if l.rec.Dice == "" {
		return game.DiceServer
	}
	return l.rec.Dice
}

// needs is the API's error for a command that needs dice thrown at the
// table: the roll, with its table's title and its subject's name. Table
// dice are played with fog off, so every seat may read both.
func (l *live) needs(nd *game.NeedDice) *Error {
	n := &Need{NeedDice: *nd, Title: nd.Table, Name: nd.Subject}
	if t, err := l.rules.Table(nd.Table); err == nil && t.Title != "" {
		n.Title = t.Title
	}
	var names []string
	for _, id := range strings.Split(nd.Subject, "/") {
		if nm := l.sc.NameOf(id); nm != "" {
			names = append(names, nm)
		} else {
			names = append(names, id)
		}
	}
	n.Name = strings.Join(names, " / ")
	msg := fmt.Sprintf("throw %s for %s (%s) and give the faces", nd.Dice, n.Name, n.Title)
	if nd.Given > 0 {
		msg = fmt.Sprintf("throw %s more for %s (%s): %d dice given so far", nd.Dice, n.Name, n.Title, nd.Given)
	}
	return &Error{Code: Dice, Msg: msg, Need: n}
}
