package server

import (
	"context"
	"fmt"

	"orderly/store"
)

// Demo makes the demo game, or if the store has one already, reissues
// every seat's link of it (the old links stop working) so that orderly
// serve --demo can print them again instead of adding a game per start.
// reused says which.
func (s *Server) Demo(ctx context.Context, commanders bool) (made *Created, reused bool, err error) {
	games, err := s.st.Games(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("look for the demo game: %w", err)
	}
	for i := len(games) - 1; i >= 0; i-- {
		if games[i].Origin != store.OriginDemo {
			continue
		}
		l, e := s.game(ctx, games[i].ID)
		if e != nil {
			break // make a new one
		}
		seats, err := s.st.Seats(ctx, l.id)
		if err != nil {
			return nil, false, err
		}
		out := &Created{}
		for _, st := range seats {
			ns, err := s.Reissue(ctx, l.id, seatName(st))
			if err != nil {
				return nil, false, err
			}
			out.Seats = append(out.Seats, *ns)
		}
		l.mu.Lock()
		out.Game = l.info(store.Seat{Role: store.Umpire})
		l.mu.Unlock()
		return out, true, nil
	}
	made, err = s.Create(ctx, Setup{Scenario: "demo", Commanders: commanders, origin: store.OriginDemo})
	return made, false, err
}
