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
// reused says which. in gives its commander seats and its fog of war and
// dice modes (its scenario is the demo's): a demo kept under other modes
// is left as it is, and a new one made.
func (s *Server) Demo(ctx context.Context, in Setup) (made *Created, reused bool, err error) {
	if e := checkModes(in); e != nil {
		return nil, false, e
	}
	if in.Fog == game.FogOff {
		in.Fog = ""
	}
	if in.Dice == game.DiceServer {
		in.Dice = ""
	}
	games, err := s.st.Games(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("look for the demo game: %w", err)
	}
	for i := len(games) - 1; i >= 0; i-- {
		if games[i].Origin != store.OriginDemo || games[i].Fog != in.Fog || games[i].Dice != in.Dice {
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
		if err := l.lock(ctx, s.st); err != nil {
			return nil, false, err
		}
		out.Game = l.info(store.Seat{Role: store.Umpire})
		l.mu.Unlock()
		return out, true, nil
	}
	in.Scenario, in.origin = "demo", store.OriginDemo
	made, err = s.Create(ctx, in)
	return made, false, err
}
