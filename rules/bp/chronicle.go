package bp

import (
	"fmt"

	"orderly/game"
)

// Chronicle tells the after-action report the stages of an order's life
// a BP event records (game.Chronicler): a commander's order to a brigade
// is read on the command roll against his staff rating (BP-1) and acted
// on at once with the moves it gives, or fails, or is a blunder whose
// forced move is not the order (BP-2). A unit takes one order a turn, so
// an order is named by the first unit it is for and its turn.
func (r *Rules) Chronicle(e *game.Event, name func(string) string) []game.Life {
	d, ok := e.Data.(*Ordered)
	if !ok {
		return nil
	}
	what := d.Brigade
	if len(d.Units) > 0 {
		what = d.Units[0]
	}
	key := fmt.Sprintf("%s, turn %d", name(what), e.Turn)
	life := []game.Life{{Stage: game.OrderRead, Order: key, For: what, Acts: e.Turn}}
	switch d.Result {
	case "fail", "blunder":
		return append(life, game.Life{Stage: game.OrderFailed, Order: key, For: what, Text: fmt.Sprintf("%s's %s order to %s: %s", name(d.General), d.Kind, name(what), d.Result)})
	}
	return append(life, game.Life{Stage: game.OrderActed, Order: key, For: what, Text: fmt.Sprintf("%s acts on %s's %s order: %s", name(what), name(d.General), d.Kind, game.Count(d.Moves, "move", "moves"))})
}
