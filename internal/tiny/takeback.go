package tiny

import "orderly/game"

// TakesBack lets a side take back its move before it is ready (issue 36,
// game.Taker).
func (r *Rules) TakesBack(e *game.Event) bool { return e.Type == EvMoved }
