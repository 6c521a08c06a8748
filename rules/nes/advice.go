package nes

import (
	"fmt"
	"slices"

	"orderly/game"
)

var _ game.Adviser = (*Rules)(nil)

// Advise tells the side that acts, in its orders and movement steps, of
// each subordinate leader its command continuation check will count
// outside his commander's radius as things stand (NES-3: +1 on the check,
// +2 more for a brigade leader beyond twice it), from the same count the
// check's parameters are made of; in the orders step it is the check that
// follows, in the movement step the next turn's. And its command points
// left this turn, which orders and stacked command points spend (NES-1,
// NES-3). Only the side's own leaders are measured.
func (r *Rules) Advise(s *game.State, step game.Step, seat string, name func(string) string) *game.Advice {
	st := ext(s)
	if st.sc == nil || s.Over || (step.Name != StepOrders && step.Name != StepMove) {
		return nil
	}
	side := seatSide(st, s, seat)
	if !slices.Contains(step.Actors, side) {
		return nil
	}
	if name == nil {
		name = func(id string) string { return id }
	}
	out := &game.Advice{}
	later := step.Name == StepMove
	for i := range st.Leaders {
		l := &st.Leaders[i]
		if l.Side != side || !checks(l, later) {
			continue
		}
		for _, sy := range st.strays(l) {
			m, by := sy.leader, 1
			where := fmt.Sprintf("%d hexes from %s, outside his radius of %d", sy.dist, name(l.ID), l.Radius)
			switch {
			case m.Retired:
				where = "retired, which counts as outside " + name(l.ID) + "'s radius"
			case sy.far:
				where, by = fmt.Sprintf("%d hexes from %s, beyond twice his radius of %d", sy.dist, name(l.ID), l.Radius), 3
			}
			out.Warnings = append(out.Warnings, game.Warning{Rule: "NES-3", Piece: m.ID,
				Text: fmt.Sprintf("%s is %s: +%d on %s's command continuation check (NES-3)", name(m.ID), where, by, name(l.ID))})
		}
	}
	if sd := st.Side(side); sd != nil && step.Name == StepOrders {
		out.Left = append(out.Left, game.Left{Rule: "NES-1", What: "command points this turn", Left: sd.Points, Of: sd.Each})
	}
	if len(out.Warnings) == 0 && len(out.Left) == 0 {
		return nil
	}
	return out
}
