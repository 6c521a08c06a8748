package lob

import (
	"slices"

	"orderly/game"
)

var _ game.Adviser = (*Rules)(nil)

// Advise warns the moving side, in its movement step, of each of its
// combat units that stands outside its Command's radius as things stand
// (LOB-2), in the words a move of it would be refused with: next turn it
// may only move back toward the radius. A unit that began its move in
// radius may go on out of it this turn (10.2g), so the warning comes while
// it may still be brought back. Only the side's own units and HQs are
// measured, so the advice holds nothing of the enemy. In its orders step
// the side is told whether its army commander's command roll of the turn
// is still to make (LOB-4).
func (r *Rules) Advise(s *game.State, step game.Step, seat string, _ func(string) string) *game.Advice {
	st := ext(s)
	if st.sc == nil || s.Over || (step.Name != StepMove && step.Name != StepOrders) {
		return nil
	}
	side := game.SeatSide(seat, st.phasing(s.Phase))
	if !slices.Contains(step.Actors, side) {
		return nil
	}
	out := &game.Advice{}
	if step.Name == StepOrders {
		// The army commander's one command roll a turn (LOB-4), as the
		// issue command counts it.
		if sd := st.Side(side); sd != nil {
			l := game.Left{Rule: "LOB-4", What: "command roll of the army commander this turn", Of: 1}
			if !sd.Rolled {
				l.Left = 1
			}
			out.Left = append(out.Left, l)
		}
		return out
	}
	for i := range st.Units {
		u := &st.Units[i]
		if u.Side != side || !u.alive() {
			continue
		}
		if f, d, out0 := st.outOfRadius(u); out0 {
			out.Warnings = append(out.Warnings, game.Warning{Rule: "LOB-2", Piece: u.ID, Text: outWords(u, f, d) + " (LOB-2)"})
		}
	}
	if len(out.Warnings) == 0 {
		return nil
	}
	return out
}
