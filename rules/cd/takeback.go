package cd

import "orderly/game"

// TakesBack says which of CD's events a side may take back before it is
// ready (issue 36, game.Taker): a move (CD-2, CD-3), a relief in the
// front line (CD-7), a unit sent to or recalled from its division's
// skirmish screen (CD-8), and a mark of what befell a unit at the table.
// An activation roll, a forced retirement and a commander lost stay.
func (r *Rules) TakesBack(e *game.Event) bool {
	switch e.Type {
	case EvMoved, EvRelieved, EvScreened, EvRecalled, EvMarked:
		return true
	}
	return false
}
