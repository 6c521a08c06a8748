package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"orderly/game"
	"orderly/store"
)

// Follow keeps the games in memory in step with a store that other
// processes (other instances of the server) write to as well, until ctx
// ends. Each committed change is announced by the store (store.Watcher):
// a game's new version makes the server read the events it lacks and wake
// the game's streams; a revoked token stops working here at once. Nothing
// is polled. Each time listening starts (the first time and after a lost
// connection) every game in memory is read again, since notices sent
// while nobody listened are lost. It returns ctx's error.
func (s *Server) Follow(ctx context.Context, w store.Watcher) error {
	s.shared.Store(true)
	defer s.listening.Store(false)
	return w.Listen(ctx, 5*time.Second, store.Listener{
		Heard: func(n store.Notice) { s.heard(ctx, n) },
		Listening: func() {
			s.mu.Lock()
			games := make([]*live, 0, len(s.games))
			for _, l := range s.games {
				games = append(games, l)
			}
			clear(s.known) // a reissue may have gone unheard
			s.mu.Unlock()
			for _, l := range games {
				l.mine.clear()
				l.reseed.Store(true)
				s.kick(ctx, l)
			}
			s.listening.Store(true)
			s.log.Info("listening for other instances' changes", "games in memory", len(games))
		},
		Lost: func(err error) {
			s.listening.Store(false)
			s.log.Warn("lost the store's notices; listening again", "err", err)
		},
	})
}

// heard acts on one notice.
func (s *Server) heard(ctx context.Context, n store.Notice) {
	if n.Deleted {
		s.drop(n.Game, nil)
		return
	}
	if n.Revoked != "" {
		if len(n.Revoked) != 32 {
			return
		}
		h := [32]byte([]byte(n.Revoked))
		s.forget(h)
		s.cutStreams(h)
		return
	}
	s.mu.Lock()
	l := s.games[n.Game]
	s.mu.Unlock()
	if l == nil {
		return // not in memory: read afresh when asked for
	}
	if n.Seeds {
		l.reseed.Store(true)
	} else if l.mine.echo(n.Version) {
		return // this server's own append
	}
	l.rival.Store(s.now().UnixNano())
	for v := int64(n.Version); ; {
		if cur := l.heard.Load(); v <= cur || l.heard.CompareAndSwap(cur, v) {
			break
		}
	}
	s.kick(ctx, l)
}

// kick has the game caught up with the store, in a goroutine of its own so
// that a game busy with a command holds up no other; notices that arrive
// meanwhile are folded into one more catch-up.
func (s *Server) kick(ctx context.Context, l *live) {
	l.pending.Store(true)
	if !l.running.CompareAndSwap(false, true) {
		return
	}
	go func() {
		for {
			for l.pending.Swap(false) {
				err := l.catchUp(ctx, s.st)
				switch {
				case errors.Is(err, store.ErrNotFound):
					// Deleted while its notice went unheard.
					s.drop(l.id, nil)
				case err != nil && ctx.Err() == nil:
					s.log.Error("catch up with the store", "game", l.id, "err", err)
				}
			}
			l.running.Store(false)
			if !l.pending.Load() || !l.running.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

// catchUp reads the events and seeds another process has added to the
// store since the game was read, and wakes the game's streams if there
// were any.
func (l *live) catchUp(ctx context.Context, st store.Store) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.caughtUp(ctx, st)
}

// caughtUp is catchUp with mu held. A game marked stale is rebuilt from
// the store instead (ready).
func (l *live) caughtUp(ctx context.Context, st store.Store) error {
	if l.stale {
		return l.ready(ctx, st)
	}
	if !l.reseed.Load() && int64(l.g.Len()) >= l.heard.Load() {
		return nil // read already, under a hold or by an earlier catch-up
	}
	return l.gather(ctx, st)
}

// gather reads the events (and, if reseed is set, the seeds) the store
// holds and the game in memory lacks, and wakes the game's streams if
// there were any. mu must be held.
func (l *live) gather(ctx context.Context, st store.Store) error {
	before, seeds, shown := l.g.Len(), len(l.seeds), l.shown
	if err := l.extend(ctx, func(ctx context.Context, since, limit int) ([]json.RawMessage, error) {
		return st.Events(ctx, l.id, since, limit)
	}); err != nil {
		var se *storeError
		if errors.As(err, &se) {
			return err
		}
		// Rebuild the game from the whole log instead.
		if rerr := l.undo(ctx, st); rerr != nil {
			return fmt.Errorf("%w; and reloading the game failed: %w", err, rerr)
		}
		l.subs.notify()
		return nil
	}
	if !l.reseed.Swap(false) {
		if l.g.Len() != before {
			l.subs.notify()
		}
		return nil
	}
	stored, err := st.Seeds(ctx, l.id)
	if err != nil {
		l.reseed.Store(true)
		return &storeError{err}
	}
	if len(stored) != seeds || revealed(stored) != shown {
		l.setSeeds(stored)
		l.g.SetDice(game.Committed(l.seeds))
		if err := l.chain.SetSeeds(l.seeds); err != nil {
			return fmt.Errorf("its hash chain: %w", err)
		}
	}
	if l.g.Len() != before || len(l.seeds) != seeds || l.shown != shown {
		l.subs.notify()
	}
	return nil
}

// extend applies to the game in memory the stored events it lacks, as
// read reads them in pages, without waking its streams. A failure to read
// is a *storeError; any other leaves the game to be rebuilt (reload).
func (l *live) extend(ctx context.Context, read func(ctx context.Context, since, limit int) ([]json.RawMessage, error)) error {
	for {
		raw, err := read(ctx, l.g.Len(), page)
		if err != nil {
			return &storeError{err}
		}
		evs, err := decodeEvents(l.rules, raw, l.g.Len())
		if err == nil {
			err = l.g.Extend(evs)
		}
		if err != nil {
			return err
		}
		l.index(evs)
		l.trim()
		if len(raw) < page {
			return nil
		}
	}
}

// revealed is how many of the seeds, oldest first, are revealed.
func revealed(seeds []store.Seed) int {
	n := 0
	for i, s := range seeds {
		if s.Revealed > 0 {
			n = i + 1
		}
	}
	return n
}

// echoes are the versions a server's own appends gave a game, whose
// notices are yet to come back to it: a notice of one of them needs no
// catch-up. Notices come in the order changes commit, so each echo is
// the oldest one waiting; a lost connection forgets them all.
type echoes struct {
	mu   sync.Mutex
	wait []int
}

// maxEchoes bounds the versions kept (a notice never heard).
const maxEchoes = 64

func (e *echoes) add(version int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.wait) == maxEchoes {
		e.wait = slices.Delete(e.wait, 0, 1)
	}
	e.wait = append(e.wait, version)
}

// echo reports whether a notice of version is the echo of the server's
// own append, dropping the echoes it has passed.
func (e *echoes) echo(version int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for len(e.wait) > 0 && e.wait[0] < version {
		e.wait = e.wait[1:]
	}
	if len(e.wait) > 0 && e.wait[0] == version {
		e.wait = e.wait[1:]
		return true
	}
	return false
}

// drop forgets version: the append that would have given it failed.
func (e *echoes) drop(version int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if i := slices.Index(e.wait, version); i >= 0 {
		e.wait = slices.Delete(e.wait, i, i+1)
	}
}

func (e *echoes) clear() {
	e.mu.Lock()
	e.wait = nil
	e.mu.Unlock()
}

// healthz answers while the process runs.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// readyz answers 200 when the server can serve: its store answers and, on
// a store shared with other instances, it is listening for their changes
// (a proxy sends nobody to an instance whose streams would go deaf); 503
// otherwise.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	out := struct {
		Ready     bool  `json:"ready"`
		Store     bool  `json:"store"`
		Listening *bool `json:"listening,omitempty"`
	}{}
	_, err := s.st.Count(ctx)
	out.Store = err == nil
	out.Ready = out.Store
	if s.shared.Load() {
		on := s.listening.Load()
		out.Listening = &on
		out.Ready = out.Ready && on
	}
	status := http.StatusOK
	if !out.Ready {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, out)
}
