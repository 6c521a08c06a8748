package nb

import (
	"slices"

	"orderly/game"
)

var _ game.Adviser = (*Rules)(nil)

// Advise tells seat, in the move step, what the end of movement will
// report as things stand (NB-12 command range, NB-7 an attack order's
// formations and least move), from the same findings the end-of-movement
// step records; and in the step that writes orders a side's orders left
// to write this turn (NB-2). The umpire is told every side's findings. Everything is worked
// out on the seat's view, from its own pieces and generals.
func (r *Rules) Advise(gs *game.State, step game.Step, seat string, name func(string) string) *game.Advice {
	s := of(gs)
	out := &game.Advice{}
	if step.Name == "move" && !gs.Over {
		_ = r.movementFindings(s, gs.Turn, func(typ, rule, side string, d Data) error {
			if seat != game.Umpire && side != seat {
				return nil
			}
			e := game.Event{Type: typ, Side: side, See: side, Rule: rule}
			w := game.Warning{Rule: rule, Piece: d.Unit}
			switch typ {
			case RangeViolation:
				e.Data = &rangeViolation{Data: d}
			case Restriction:
				e.Data = &restriction{Data: d}
				if len(d.Units) > 0 {
					w.Piece = d.Units[0]
				}
			}
			w.Text = game.Describe(r, &e, name)
			out.Warnings = append(out.Warnings, w)
			return nil
		})
	}
	if seat != game.Umpire && !gs.Over && slices.Contains(step.Verbs, "write") {
		if l, ok := r.ordersLeft(s, seat); ok {
			out.Left = append(out.Left, l)
		}
	}
	if len(out.Warnings) == 0 && len(out.Left) == 0 {
		return nil
	}
	return out
}

// ordersLeft is how many orders side may still write this turn, of the
// number its nation's army commander writes a turn (NB-2).
func (r *Rules) ordersLeft(s *State, side string) (game.Left, bool) {
	sd := s.Side(side)
	if sd == nil {
		return game.Left{}, false
	}
	limit, err := r.ordersPerTurn(sd.nation)
	if err != nil {
		return game.Left{}, false
	}
	return game.Left{Rule: "NB-2", What: "orders left to write this turn", Left: max(0, limit-sd.Written), Of: limit}, true
}
