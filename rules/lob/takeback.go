package lob

import "orderly/game"

// TakesBack says which of LOB's events a side may take back before it is
// ready (issue 36, game.Taker): a move (LOB-2) and a formation changed.
// Command rolls, acceptance, releases, designations and declarations
// stay: they roll, or they commit a Command's orders.
func (r *Rules) TakesBack(e *game.Event) bool {
	switch e.Type {
	case EvMoved, EvFormed:
		return true
	}
	return false
}
