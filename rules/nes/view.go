package nes

import (
	"orderly/game"
)

// View is the state as seat may see it: every piece on the map and every
// command unit's command state are open, as counters on a map are; the
// enemy's orders, markers, stacked command points and command points left
// are not (the rules keep them secret).
func (r *Rules) View(s *game.State, seat string) *game.State {
	out := s.Copy(func(*game.Piece) bool { return true })
	c := ext(s).clone()
	for i := range c.Leaders {
		l := &c.Leaders[i]
		l.pi = -1
		if seat != game.Umpire && l.Side != seat {
			l.Order, l.Pending, l.Marker, l.CP, l.Fresh = nil, nil, "", false, false
		}
	}
	for i := range c.Units {
		c.Units[i].pi = -1
	}
	if seat != game.Umpire {
		for i := range c.Sides {
			if sd := &c.Sides[i]; sd.ID != seat {
				sd.Points, sd.Each = 0, 0
			}
		}
	}
	c.hold(out)
	c.index()
	out.Ext = c
	return out
}

// Unseen refuses nothing: every piece on an NES map is in view.
func (r *Rules) Unseen(*game.State, string, *game.Command) error { return nil }
