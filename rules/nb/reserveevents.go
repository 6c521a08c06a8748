package nb

import (
	"fmt"

	"orderly/game"
)

// The events of an off-board reserve's coming on (SPEC NB-10).

// reserveScheduled records the earliest turn an off-board reserve may
// enter, rolled before the game.
type reserveScheduled struct{ Data }

// Fold notes the reserve's earliest entry turn.
func (p *reserveScheduled) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	if f := of(gs).Formation(p.Formation); f != nil {
		f.Entry = p.Entry
	}
	return nil
}

// Describe gives where and from when it enters, and the roll.
func (p *reserveScheduled) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s will enter at %s (%s edge) from turn %d: %s", name(p.Formation), p.Square, p.Edge, p.Entry, firstRoll(e))
}

// generalPlaced records an off-board reserve's general placed on its edge.
type generalPlaced struct{ Data }

// Fold puts the general on the table and marks his formation placed.
func (p *generalPlaced) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	s := of(gs)
	if g := s.General(p.General); g != nil {
		g.At, g.OnTable = *p.At, true
	}
	if f := s.Formation(p.Formation); f != nil {
		f.Placed = true
	}
	return nil
}

// Describe says who is placed where.
func (p *generalPlaced) Describe(_ *Rules, _ *game.Event, name func(string) string) string {
	d := p.filled()
	return fmt.Sprintf("%s of %s placed at %v on the %s edge", name(d.General), name(d.Formation), *d.At, d.Edge)
}

// reserveArrivalRoll records the roll for the turn an off-board reserve
// comes on.
type reserveArrivalRoll struct{ Data }

// Fold notes the turn it comes on.
func (p *reserveArrivalRoll) Fold(_ *Rules, gs *game.State, _ *game.Event) error {
	if f := of(gs).Formation(p.Formation); f != nil {
		f.Arrival = p.Arrival
	}
	return nil
}

// Describe gives the roll and the turn.
func (p *reserveArrivalRoll) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s arrival: %s; enters on turn %d", name(p.Formation), firstRoll(e), p.Arrival)
}

// reserveEntered records an off-board reserve, and the divisions with it,
// coming on at a place; its moves put the pieces on the table.
type reserveEntered struct{ Data }

// Fold marks the formations entered and takes attached generals along
// (the inches of an entry are not counted: NB-7).
func (p *reserveEntered) Fold(_ *Rules, gs *game.State, e *game.Event) error {
	s := of(gs)
	for _, id := range p.Divisions {
		if f := s.Formation(id); f != nil {
			f.Reserve, f.Entered = "", e.Turn
		}
	}
	if f := s.Formation(p.Formation); f != nil {
		f.Reserve, f.Entered, f.EnterAt = "", e.Turn, p.At
	}
	return s.move(e.Moves, false)
}

// Describe says where it enters with how many pieces.
func (p *reserveEntered) Describe(_ *Rules, e *game.Event, name func(string) string) string {
	d := p.filled()
	out := fmt.Sprintf("%s enters at %v with %s", name(d.Formation), *d.At, game.Count(len(e.Moves), "piece", "pieces"))
	if d.Text != "" {
		out += "; " + d.Text
	}
	return out
}

// entryBlocked records a reserve that cannot enter yet; it changes
// nothing.
type entryBlocked struct{ Data }

// Fold changes nothing: the event only tells.
func (p *entryBlocked) Fold(*Rules, *game.State, *game.Event) error { return nil }

// Describe gives the reason it waits.
func (p *entryBlocked) Describe(*Rules, *game.Event, func(string) string) string { return p.Text }
