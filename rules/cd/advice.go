package cd

import (
	"slices"

	"orderly/game"
)

var _ game.Adviser = (*Rules)(nil)

// Advise warns the side that activates, in its activate step, of each of
// its brigades whose units no longer stand coherent (CD-4), in the words
// an activation of the whole brigade would be refused with: as things
// stand, its next activation rolls for each coherent group apart. Only the
// side's own units are measured, so the advice holds nothing of the enemy.
func (r *Rules) Advise(s *game.State, step game.Step, seat string, _ func(string) string) *game.Advice {
	st := ext(s)
	side := seatSide(st, s, seat)
	if st.sc == nil || s.Over || step.Name != StepActivate || !slices.Contains(step.Actors, side) {
		return nil
	}
	out := &game.Advice{}
	for _, f := range st.Formations {
		if f.Side != side {
			continue
		}
		var us []*Unit
		for i := range st.Units {
			u := &st.Units[i]
			if u.Formation == f.ID && !u.Screened && st.alive(s, u.ID) {
				us = append(us, u)
			}
		}
		if u, err := r.straggler(us); err != nil {
			out.Warnings = append(out.Warnings, game.Warning{Rule: "CD-4", Piece: u.ID, Text: err.Error()})
		}
	}
	if len(out.Warnings) == 0 {
		return nil
	}
	return out
}
