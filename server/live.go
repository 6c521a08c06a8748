package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"orderly/battle"
	"orderly/game"
	"orderly/store"
)

// live is a game in memory: the engine's game, rebuilt from the stored log
// at start, and the seats watching it. mu is held while a command is
// checked and its events committed, so that nobody (a view, a stream)
// ever sees events that are not yet durable.
type live struct {
	id    string
	rec   store.Game // Scenario is dropped once loaded; Version is stale
	sc    *battle.Scenario
	rules game.Rules

	mu    sync.Mutex
	g     *game.Game
	seeds []game.Seed // every key, secret or not
	shown int         // seeds[:shown] are revealed

	subs subscribers
}

// do checks cmd, as check lets it through, against the rules and, if accepted, commits its events.
// A stale version (another process wrote to the game) reloads the game
// and tries again; a failed commit reloads it so that memory matches the
// store. It returns the events added.
func (l *live) do(ctx context.Context, st store.Store, cmd game.Command, check func(*game.State, *game.Command) *Error) ([]game.Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for try := 0; ; try++ {
		c := cmd
		if e := check(l.g.State(), &c); e != nil {
			return nil, e
		}
		version := l.g.Len()
		evs, err := l.g.Do(c)
		if err != nil {
			// Refused: but perhaps only because another process has
			// moved the game on since it was loaded. Look, reload, retry.
			if rec, gerr := st.Game(ctx, l.id); gerr == nil && rec.Version != version && try < 3 {
				if rerr := l.reload(ctx, st); rerr != nil {
					return nil, rerr
				}
				continue
			}
			return nil, err
		}
		raw, err := encodeEvents(evs)
		if err != nil {
			return nil, err
		}
		_, err = st.Append(ctx, l.id, version, raw)
		if err == nil {
			l.trim()
			l.subs.notify()
			return evs, nil
		}
		// The game in memory ran ahead of the store: rebuild it from there.
		if rerr := l.reload(ctx, st); rerr != nil {
			return nil, fmt.Errorf("%w; and reloading the game failed: %v", err, rerr)
		}
		if !errors.Is(err, store.ErrConflict) || try == 3 {
			if errors.Is(err, store.ErrConflict) {
				return nil, err
			}
			return nil, &Error{Code: Unavailable, Msg: "the game could not be saved; nothing was changed, send the command again"}
		}
	}
}

// fresh reloads the game if another process has added to its log. mu
// must be held.
func (l *live) fresh(ctx context.Context, st store.Store) error {
	rec, err := st.Game(ctx, l.id)
	if err != nil {
		return err
	}
	if rec.Version != l.g.Len() {
		return l.reload(ctx, st)
	}
	return nil
}

// reload rebuilds the game from the store's log. mu must be held.
func (l *live) reload(ctx context.Context, st store.Store) error {
	raw, err := st.Events(ctx, l.id, 0)
	if err != nil {
		return err
	}
	evs, err := decodeEvents(raw)
	if err != nil {
		return err
	}
	g, err := game.Replay(l.sc, l.rules, evs)
	if err != nil {
		return fmt.Errorf("replay game %s: %w", l.id, err)
	}
	seeds, err := st.Seeds(ctx, l.id)
	if err != nil {
		return err
	}
	l.setSeeds(seeds)
	g.SetDice(game.Committed(l.seeds))
	l.g = g
	l.trim()
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

func (l *live) setSeeds(seeds []store.Seed) {
	l.seeds, l.shown = l.seeds[:0], 0
	for _, s := range seeds {
		l.seeds = append(l.seeds, game.Seed{From: s.From, Commitment: s.Commitment, Key: s.Secret})
		if s.Revealed > 0 {
			l.shown = len(l.seeds)
		}
	}
}

// public is the seeds as anyone may see them: the keys of revealed seeds
// only.
func (l *live) public() []game.Seed {
	out := make([]game.Seed, len(l.seeds))
	for i, s := range l.seeds {
		out[i] = game.Seed{From: s.From, Commitment: s.Commitment}
		if i < l.shown {
			out[i].Key = s.Key
		}
	}
	return out
}

func decodeEvents(raw []json.RawMessage) ([]game.Event, error) {
	evs := make([]game.Event, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &evs[i]); err != nil {
			return nil, fmt.Errorf("decode stored event %d: %w", i+1, err)
		}
	}
	return evs, nil
}

// subscribers are the open event streams of a game. Each has a wake-up
// channel of one slot: a notification is never lost (a full slot already
// means "look again") and a slow reader never holds up a command.
type subscribers struct {
	mu  sync.Mutex
	set map[chan struct{}]struct{}
}

func (s *subscribers) add() chan struct{} {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	if s.set == nil {
		s.set = map[chan struct{}]struct{}{}
	}
	s.set[ch] = struct{}{}
	s.mu.Unlock()
	return ch
}

func (s *subscribers) remove(ch chan struct{}) {
	s.mu.Lock()
	delete(s.set, ch)
	s.mu.Unlock()
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
