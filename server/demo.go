package server

import (
	"context"
	"fmt"

	"orderly/game"
	"orderly/store"
)

// Demo makes the demo game, or if the store has one already, reissues
// every seat's link of it (the old links stop working) so that orderly
// serve --demo can print them again instead of adding a game per start.
// reused says which. fog is the demo's fog of war mode (game.FogOn,
// game.FogStrict, or off): a demo kept under another mode is left as it
// is, and a new one made.
func (s *Server) Demo(ctx context.Context, commanders bool, fog string) (made *Created, reused bool, err error) {
	if err := game.CheckFog(fog); err != nil {
		return nil, false, err
	}
	if fog == game.FogOff {
		fog = ""
	}
	games, err := s.st.Games(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("look for the demo game: %w", err)
	}
	for i := len(games) - 1; i >= 0; i-- {
		if games[i].Origin != store.OriginDemo || games[i].Fog != fog {
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
	made, err = s.Create(ctx, Setup{Scenario: "demo", Commanders: commanders, Fog: fog, origin: store.OriginDemo})
	return made, false, err
}
