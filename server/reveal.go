package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"orderly/dice"
	"orderly/game"
	"orderly/store"
)

// Revealed is a seed made public and the seed that follows it.
type Revealed struct {
	Revealed []game.Seed `json:"revealed"`
	Next     game.Seed   `json:"next"`
}

// RevealRequest confirms a reveal before the end of the game.
type RevealRequest struct {
	Confirm bool `json:"confirm,omitempty"`
}

// postReveal reveals the game's dice seed, so that everyone can check
// every roll so far. The server does it by itself when the game ends;
// before then the umpire must confirm, having been told which secret
// rolls with effects still to come it would expose.
func (s *Server) postReveal(r *http.Request, seat store.Seat, l *live) (int, any, error) {
	if seat.Role != store.Umpire {
		return 0, nil, errorf(Forbidden, "only the umpire reveals the dice seed")
	}
	var in RevealRequest
	if err := s.body(r, s.lim.Body, &in); err != nil {
		return 0, nil, err
	}
	if err := l.lock(r.Context(), s.st); err != nil {
		return 0, nil, err
	}
	defer l.mu.Unlock()
	if !l.g.State().Over && !in.Confirm {
		ahead, err := s.ahead(r.Context(), l)
		if err != nil {
			return 0, nil, err
		}
		e := errorf(Confirm, "the game is not over: revealing the dice seed now lets everyone work out every roll so far, "+
			"secret ones included (%d with effects still to come); confirm to reveal anyway, or wait for the end of the game, when the seed is revealed by itself", len(ahead))
		e.Details = ahead
		return 0, nil, e
	}
	return s.reveal(r.Context(), l)
}

// reveal marks the game's secret seeds revealed and starts a new one.
// l.mu must be held.
func (s *Server) reveal(ctx context.Context, l *live) (int, any, error) {
	key := make([]byte, 32)
	if _, err := io.ReadFull(s.rand, key); err != nil {
		return 0, nil, fmt.Errorf("make a dice seed: %w", err)
	}
	if err := l.fresh(ctx, s.st); err != nil {
		return 0, nil, err
	}
	v := l.g.Len()
	next := store.Seed{Game: l.id, Seed: dice.Seed{From: v + 1, Key: key, Commitment: dice.Commitment(key)}}
	if l.seeds[len(l.seeds)-1].From == v+1 {
		return 0, nil, errorf(Conflict, "the seed was revealed already and no roll has been made since")
	}
	if err := s.st.Reveal(ctx, l.id, v, next); err != nil {
		if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
			return 0, nil, err
		}
		// Perhaps revealed all the same (the connection lost as it
		// committed): the store says which seeds the game has.
		if rerr := l.undo(ctx, s.st); rerr != nil {
			return 0, nil, outage("the dice seed may or may not have been revealed: the store failed as it was saved, and cannot be read just now; read the game again once the server answers")
		}
		l.subs.notify()
		if last := l.seeds[len(l.seeds)-1]; !bytes.Equal(last.Key, key) {
			return 0, nil, outage("the dice seed could not be revealed: the store is unavailable just now; nothing was changed, try again in a moment")
		}
	} else if err := l.undo(ctx, s.st); err != nil {
		// Revealed, but the seeds in memory are the old ones: nothing is
		// served, and no die thrown, until they are read (stale).
		return 0, nil, outage("the dice seed was revealed, but the game cannot be read from the store just now; read it again in a moment")
	}
	pub := l.public(game.Umpire)
	l.subs.notify()
	return http.StatusOK, Revealed{Revealed: pub[:len(pub)-1], Next: pub[len(pub)-1]}, nil
}

// revealAtEnd reveals the seed of a game that has just ended, unless it
// is revealed already.
func (s *Server) revealAtEnd(ctx context.Context, l *live) {
	if err := l.lock(ctx, s.st); err != nil {
		s.log.Error("reveal the seed at the end of the game", "game", l.id, "err", err)
		return
	}
	defer l.mu.Unlock()
	if l.shown == len(l.seeds) {
		return
	}
	if _, _, err := s.reveal(ctx, l); err != nil {
		s.log.Error("reveal the seed at the end of the game", "game", l.id, "err", err)
	}
}

// over reports whether the game has ended with its seed still secret.
func (l *live) over() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return !l.stale && l.g.State().Over && l.shown < len(l.seeds)
}

// ahead lists the secret rolls under the seeds not yet revealed whose
// effects are still to come, as the rule set describes them. l.mu must be
// held; the log is read from the store.
func (s *Server) ahead(ctx context.Context, l *live) ([]string, error) {
	f, ok := l.rules.(game.Foresight)
	if !ok {
		return []string{"the rule set cannot tell which secret rolls still have effects to come"}, nil
	}
	if l.shown >= len(l.seeds) {
		return []string{}, nil
	}
	from := l.seeds[l.shown].From - 1 // the rolls before it are public already
	st := l.g.State()
	out := []string{}
	err := scanStored(ctx, s.st, l.rules, l.id, from, page, func(e game.Event) bool {
		if len(e.Rolls) > 0 && e.See != game.All {
			if what, ahead := f.Ahead(st, &e); ahead {
				out = append(out, what)
			}
		}
		return true
	})
	return out, err
}

// Reissue makes a new link for a seat of a game, named as in SeatInfo:
// the old token stops working at once.
func (s *Server) Reissue(ctx context.Context, gameID, name string) (*NewSeat, error) {
	done, err := s.seatsChange(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	seats, err := s.st.Seats(ctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(NotFound, "no game %s on this server", quote(gameID))
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, st := range seats {
		if seatName(st) != name {
			names = append(names, seatName(st))
			continue
		}
		return s.reissueSeat(ctx, gameID, st)
	}
	return nil, errorf(Invalid, "game %s has no seat %s; its seats: %s", gameID, quote(name), strings.Join(names, ", "))
}

// Seats lists a game's seats, without their tokens.
func (s *Server) Seats(ctx context.Context, gameID string) ([]SeatInfo, error) {
	seats, err := s.st.Seats(ctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(NotFound, "no game %s on this server", quote(gameID))
	}
	if err != nil {
		return nil, err
	}
	out := make([]SeatInfo, len(seats))
	for i, st := range seats {
		out[i] = seatInfo(st)
	}
	return out, nil
}
