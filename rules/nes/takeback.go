package nes

import "orderly/game"

// TakesBack says which of NES's events a side may take back before it is
// ready (issue 36, game.Taker): a move over the map (NES-7), a formation
// changed, a command point stacked with a commander (NES-3). An order
// sent, a loss, fire and charges roll or tell the other side, and stay.
func (r *Rules) TakesBack(e *game.Event) bool {
	switch e.Type {
	case EvMoved, EvFormed, EvCP:
		return true
	}
	return false
}
