package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"orderly/store"
)

// hostRoutes are the host's routes over every game of the server (issue
// 35, "Your games"). They need the host token itself: an open server lets
// anyone make a game, not list, reissue, export or delete everyone's.
func (s *Server) hostRoutes() []route {
	return []route{
		{"GET", "/api/host/games", s.handle(s.hostGames)},
		{"POST", "/api/host/games/{id}/reissue", s.handle(s.hostReissue)},
		{"GET", "/api/host/games/{id}/export", s.handle(s.hostExport)},
		{"DELETE", "/api/host/games/{id}", s.handle(s.hostDelete)},
	}
}

// HostGame is a game as the host's list shows it.
type HostGame struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Rules string `json:"rules"`
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
	// Version is the number of events in the game's log.
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// Played is when the game last changed: made, a command, a reveal.
	Played time.Time  `json:"played"`
	Seats  []HostSeat `json:"seats"`
	// Demo marks the game orderly serve --demo keeps.
	Demo bool `json:"demo"`
}

// HostSeat is a seat of a game in the host's list: whether a page holds
// it open now (an event stream on this server).
type HostSeat struct {
	SeatInfo
	Connected bool `json:"connected"`
}

// HostReissue names the seats whose links are made anew: each by its name
// (SeatInfo.Name), its label or its role (every seat of the role); none
// for every seat.
type HostReissue struct {
	Seats []string `json:"seats"`
}

// DeleteRequest confirms a delete: the game's id, given again.
type DeleteRequest struct {
	Confirm string `json:"confirm"`
}

// Deleted is the answer to a delete.
type Deleted struct {
	Deleted string `json:"deleted"` // the game's id
}

// hostGames lists the games of the store, the last played first: at most
// Limits.Games of them.
func (s *Server) hostGames(r *http.Request) (int, any, error) {
	if e := s.hostOnly(r, "the list of games"); e != nil {
		return 0, nil, e
	}
	out, err := s.List(r.Context())
	if err != nil {
		return 0, nil, s.storeFailed("list the games", err)
	}
	return http.StatusOK, out, nil
}

// List is the games of the store, the last played first: at most
// Limits.Games of them.
func (s *Server) List(ctx context.Context) ([]HostGame, error) {
	recs, err := s.st.Games(ctx)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(recs, func(a, b store.Game) int { return b.Played.Compare(a.Played) })
	recs = recs[:min(len(recs), s.lim.Games)]
	out := make([]HostGame, 0, len(recs))
	for _, rec := range recs {
		g, err := s.hostGame(ctx, rec)
		if errors.Is(err, store.ErrNotFound) {
			continue // deleted since the list was read
		}
		if err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

// hostGame is one game of the host's list: its turn and phase from the
// game in memory, or else from the last event of its log.
func (s *Server) hostGame(ctx context.Context, rec store.Game) (HostGame, error) {
	g := HostGame{ID: rec.ID, Title: rec.Title, Rules: rec.Rules, Version: rec.Version,
		Created: rec.Created.UTC(), Played: rec.Played.UTC(), Seats: []HostSeat{}, Demo: rec.Origin == store.OriginDemo}
	seats, err := s.st.Seats(ctx, rec.ID)
	if err != nil {
		return g, err
	}
	s.mu.Lock()
	l := s.games[rec.ID]
	for _, st := range seats {
		g.Seats = append(g.Seats, HostSeat{SeatInfo: seatInfo(st), Connected: len(s.streams[[32]byte(st.Hash)]) > 0})
	}
	s.mu.Unlock()
	if l != nil {
		// The game in memory, unless it is behind the store (another
		// instance moved it on) or stale.
		l.mu.Lock()
		fresh := !l.stale && l.g.Len() >= rec.Version
		if fresh {
			st := l.g.State()
			g.Turn, g.Phase, g.Version = st.Turn, st.Phase, l.g.Len()
		}
		l.mu.Unlock()
		if fresh {
			return g, nil
		}
	}
	if rec.Version == 0 {
		return g, nil
	}
	last, err := s.st.Events(ctx, rec.ID, rec.Version-1, 1)
	if err != nil || len(last) == 0 {
		return g, err
	}
	var head struct {
		Turn  int    `json:"turn"`
		Phase string `json:"phase"`
	}
	if err := json.Unmarshal(last[0], &head); err != nil {
		// A log that does not read is the game's loader's to report;
		// the list shows what it can.
		s.log.Warn("the last event of a game does not read", "game", rec.ID, "err", err)
		return g, nil
	}
	g.Turn, g.Phase = head.Turn, head.Phase
	return g, nil
}

// storeFailed is the answer when the store fails the host's request.
func (s *Server) storeFailed(what string, err error) error {
	if errors.Is(err, store.ErrUnavailable) {
		return outage("the server could not %s just now: its store is unavailable; nothing was changed, try again in a moment", what)
	}
	s.log.Error("host's request failed", "what", what, "err", err)
	return asError(err)
}

// hostReissue makes new links for the seats named, or for every seat of
// the game: the old ones stop working at once. Every name must be of a
// seat before any link is changed.
func (s *Server) hostReissue(r *http.Request) (int, any, error) {
	if e := s.hostOnly(r, "making new links"); e != nil {
		return 0, nil, e
	}
	var in HostReissue
	if err := s.body(r, s.lim.Body, &in); err != nil {
		return 0, nil, err
	}
	if len(in.Seats) > s.lim.IDs {
		return 0, nil, errorf(Invalid, "seats names %d seats, over this server's limit of %d; name fewer, or none for every seat", len(in.Seats), s.lim.IDs)
	}
	id := r.PathValue("id")
	done, err := s.seatsChange(r.Context())
	if err != nil {
		return 0, nil, err
	}
	defer done()
	seats, err := s.st.Seats(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return 0, nil, errorf(NotFound, "no game %s on this server", quote(id))
	}
	if err != nil {
		return 0, nil, s.storeFailed("read the game's seats", err)
	}
	chosen, e := pickSeats(id, seats, in.Seats)
	if e != nil {
		return 0, nil, e
	}
	out := make([]NewSeat, 0, len(chosen))
	for i, st := range chosen {
		made, err := s.reissueSeat(r.Context(), id, st)
		if err != nil {
			if i == 0 {
				return 0, nil, s.storeFailed("make the new link", err)
			}
			var done []string
			for _, m := range out {
				done = append(done, m.Label)
			}
			s.log.Error("reissue failed part way", "game", id, "err", err)
			return 0, nil, outage("the store failed after %d of %d new links were made: the old links of %s no longer work and their new ones are lost; ask for them again", i, len(chosen), strings.Join(done, ", "))
		}
		out = append(out, *made)
	}
	return http.StatusOK, out, nil
}

// pickSeats is the seats of a game that names name, in the game's order,
// each once: by its name, its label or its role; every seat when names is
// empty.
func pickSeats(game string, seats []store.Seat, names []string) ([]store.Seat, *Error) {
	if len(names) == 0 {
		return seats, nil
	}
	pick := make([]bool, len(seats))
	for _, n := range names {
		found := false
		for i, st := range seats {
			if n != "" && (n == seatName(st) || n == st.Label || n == st.Role) {
				pick[i], found = true, true
			}
		}
		if !found {
			var known []string
			for _, st := range seats {
				known = append(known, seatName(st))
			}
			return nil, errorf(Invalid, "game %s has no seat %s; name a seat (%s), a label or a role (umpire, side, commander)", game, quote(n), strings.Join(known, ", "))
		}
	}
	var out []store.Seat
	for i, st := range seats {
		if pick[i] {
			out = append(out, st)
		}
	}
	return out, nil
}

// hostExport is the game's export, as its umpire's (?secrets=true keeps
// the keys of the seeds not yet revealed, to move the game elsewhere).
func (s *Server) hostExport(r *http.Request) (int, any, error) {
	if e := s.hostOnly(r, "exporting a game"); e != nil {
		return 0, nil, e
	}
	secrets, err := flag(r, "secrets")
	if err != nil {
		return 0, nil, err
	}
	doc, err := s.Export(r.Context(), r.PathValue("id"), secrets)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, doc, nil
}

// hostDelete deletes a game once confirmed by its id.
func (s *Server) hostDelete(r *http.Request) (int, any, error) {
	if e := s.hostOnly(r, "deleting a game"); e != nil {
		return 0, nil, e
	}
	id := r.PathValue("id")
	var in DeleteRequest
	if err := s.body(r, s.lim.Body, &in); err != nil {
		return 0, nil, err
	}
	if in.Confirm != id {
		return 0, nil, errorf(Invalid, "confirm is %s; give the game's id, %s, to delete it", quote(in.Confirm), quote(id))
	}
	if err := s.Delete(r.Context(), id); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, Deleted{Deleted: id}, nil
}

// Delete deletes a game from the store, with its log, seats and seeds,
// and then from memory: its streams end and its tokens get the answer an
// unknown token gets. The store is the truth: if it fails, nothing
// changes here either.
func (s *Server) Delete(ctx context.Context, id string) error {
	done, err := s.seatsChange(ctx)
	if err != nil {
		return err
	}
	defer done()
	seats, err := s.st.Seats(ctx, id)
	if err == nil {
		err = s.st.Delete(ctx, id)
	}
	if errors.Is(err, store.ErrNotFound) {
		return errorf(NotFound, "no game %s on this server", quote(id))
	}
	if err != nil {
		return s.storeFailed("delete the game", err)
	}
	hashes := make([][32]byte, len(seats))
	for i, st := range seats {
		hashes[i] = [32]byte(st.Hash)
	}
	s.drop(id, hashes)
	s.log.Info("game deleted", "game", id)
	return nil
}

// drop takes a deleted game out of memory: the game, its seats found
// lately (besides hashes, those of its seats known here) and its streams,
// which end.
func (s *Server) drop(id string, hashes [][32]byte) {
	s.mu.Lock()
	l := s.games[id]
	delete(s.games, id)
	delete(s.broken, id)
	for h, k := range s.known {
		if k.seat.Game == id {
			hashes = append(hashes, h)
		}
	}
	for _, h := range hashes {
		delete(s.known, h)
		for _, cut := range s.streams[h] {
			(*cut)()
		}
	}
	s.mu.Unlock()
	if l != nil {
		l.end()
	}
}

// gameOf is the game of a seat found by its token. A game deleted since
// the seat was found is answered as an unknown token is.
func (s *Server) gameOf(r *http.Request, seat store.Seat) (*live, *Error) {
	l, e := s.game(r.Context(), seat.Game)
	if e != nil && e.Code == NotFound {
		s.forget([32]byte(seat.Hash))
		s.failed.allow(s.client(r))
		return nil, errorf(Unauthorized, unknownToken)
	}
	return l, e
}

// reissueSeat gives one seat of a game a new token: the old one stops
// working at once, here and (through the store) on other instances.
func (s *Server) reissueSeat(ctx context.Context, gameID string, st store.Seat) (*NewSeat, error) {
	token, hash, err := newToken(s.rand)
	if err != nil {
		return nil, err
	}
	if err := s.st.Reissue(ctx, gameID, st.Hash, hash); err != nil {
		return nil, fmt.Errorf("reissue the seat %s: %w", seatName(st), err)
	}
	s.forget([32]byte(st.Hash))
	s.cutStreams([32]byte(st.Hash))
	st.Hash = hash
	s.log.Info("seat reissued", "game", gameID, "seat", seatName(st))
	return &NewSeat{SeatInfo: seatInfo(st), Token: token}, nil
}

// seatsChange waits for the server's other changes of seats and games
// (reissues, deletes) to end, and returns the function that ends this
// one. Done one at a time, two reissues of a game at once do not each
// make part of its links and lose the others', nor does a reissue make
// links of a game being deleted.
func (s *Server) seatsChange(ctx context.Context) (func(), error) {
	select {
	case s.changing <- struct{}{}:
		return func() { <-s.changing }, nil
	case <-ctx.Done():
		return nil, busy("the server is changing other seats or games just now; nothing was changed, try again in a moment")
	}
}
