package nes

import (
	"slices"

	"orderly/game"
	"orderly/geom"
	"orderly/sight"
)

// Marks adds each side's headquarters counter to what fog of war spots
// and may be spotted (game.Marker).
func (r *Rules) Marks(s *game.State, add func(sight.Mark)) {
	for _, sd := range ext(s).Sides {
		add(sight.Mark{ID: hqMark(sd.ID), Side: sd.ID, Kind: "hq", At: sd.HQ})
	}
}

// Names lists the headquarters a moved event moves (game.Namer): its
// payload names the side, not the counter.
func (r *Rules) Names(e *game.Event) []string {
	if d, ok := e.Data.(*Moved); ok && d.HQ != "" {
		return []string{hqMark(d.HQ)}
	}
	return nil
}

// View is the state as seat may see it: every piece on the map and every
// command unit's command state are open, as counters on a map are; the
// enemy's orders, markers, stacked command points and command points left
// are not (the rules keep them secret). Played with fog of war, the
// enemy's pieces the seat does not spot are left out, and so is every
// mention of them in what it sees (a unit's command unit, a command
// unit's superior and units), and so is an enemy headquarters it does not
// spot (its counter is a mark the fog spots, Marks; its moves name it,
// Names); nor is it told how far an enemy piece has moved this turn,
// which would tell where it came from.
func (r *Rules) View(s *game.State, seat string) *game.State {
	fog := s.Fogged() && seat != game.Umpire
	hidden := func(id string) bool { return fog && s.Hidden(seat, id) }
	out := s.Copy(func(p *game.Piece) bool { return !hidden(p.ID) })
	c := ext(s).clone()
	if fog {
		c.Leaders = slices.DeleteFunc(c.Leaders, func(l Leader) bool { return hidden(l.ID) })
		c.Units = slices.DeleteFunc(c.Units, func(u Unit) bool { return hidden(u.ID) })
	}
	for i := range c.Leaders {
		l := &c.Leaders[i]
		l.pi = -1
		if seat != game.Umpire && l.Side != seat {
			l.Order, l.Pending, l.Marker, l.CP, l.Fresh = nil, nil, "", false, false
		}
		if fog && l.Side != seat {
			// How far an enemy piece has moved this turn tells where it
			// came from, which the seat may not have seen.
			l.Used, l.GT = 0, false
			if hidden(l.Superior) {
				l.Superior = ""
			}
			l.Units = slices.DeleteFunc(slices.Clone(l.Units), hidden)
		}
	}
	for i := range c.Units {
		u := &c.Units[i]
		u.pi = -1
		if fog && u.Side != seat {
			u.Used, u.GT = 0, false
			if hidden(u.Leader) {
				u.Leader = ""
			}
		}
	}
	if seat != game.Umpire {
		for i := range c.Sides {
			if sd := &c.Sides[i]; sd.ID != seat {
				sd.Points, sd.Each = 0, 0
				if fog {
					sd.Used = 0
				}
				if hidden(hqMark(sd.ID)) {
					sd.HQ, sd.Used, sd.Unseen = geom.Point{}, 0, true
				}
			}
		}
	}
	c.hold(out)
	c.index()
	out.Ext = c
	return out
}

// Unseen refuses a command that names an enemy piece the seat does not
// spot (fog of war) exactly as one that names no piece: only loss names
// an enemy's unit, and it and a missing one are both refused here with
// Command's words, before anything else is checked, so that the answer
// never tells them apart. Every other command names the side's own
// pieces, and Command answers an enemy's id as a missing one. Without
// fog it refuses nothing: every piece on an NES map is in view.
func (r *Rules) Unseen(s *game.State, seat string, c *game.Command) error {
	if seat == game.Umpire || !s.Fogged() {
		return nil
	}
	a, ok := c.Args.(*Args)
	if !ok || a == nil || c.Verb != "loss" {
		return nil
	}
	if u := ext(s).Unit(a.Unit); u == nil || !u.alive() || s.Hidden(seat, a.Unit) {
		return game.Reject("", "there is no combat unit %s on the map", a.Unit)
	}
	return nil
}
