package bp

import "orderly/game"

// TakesBack says which of BP's events a side may take back before it is
// ready (issue 36, game.Taker): a move of a unit or commander (BP-4,
// BP-7). Its command roll stays (it rolled); a charge, its reply, fire,
// combat, units revealed and fronts crossed tell the other side, and
// stay.
func (r *Rules) TakesBack(e *game.Event) bool {
	return e.Type == EvMoved
}
