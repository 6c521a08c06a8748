package bp

import (
	"slices"

	"orderly/game"
)

var _ game.Adviser = (*Rules)(nil)

// Advise tells the phasing side, in its orders step, how many of its
// brigade commanders may still give orders this turn, of all of them: one
// commander at a time, and a failed order, a blunder or a last order ends
// his (BP-1, BP-4). The count is the brigades Offers offers order for.
// BP's sources set no coherence rule, so it gives no warnings.
func (r *Rules) Advise(s *game.State, step game.Step, seat string, _ func(string) string) *game.Advice {
	st := ext(s)
	if st.sc == nil || s.Over || step.Name != StepOrders {
		return nil
	}
	side := seatSide(st, s, step, seat)
	if !slices.Contains(step.Actors, side) {
		return nil
	}
	l := game.Left{Rule: "BP-4", What: "brigade commanders who may give orders this turn"}
	for i := range st.Brigades {
		b := &st.Brigades[i]
		if b.Side != side {
			continue
		}
		l.Of++
		if r.mayOrder(s, st.sc, side, b) {
			l.Left++
		}
	}
	if l.Of == 0 {
		return nil
	}
	return &game.Advice{Left: []game.Left{l}}
}
