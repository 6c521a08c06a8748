package cd

import (
	"fmt"
	"strings"

	"orderly/game"
)

// Chronicle tells the after-action report the stages of an order's life
// a CD event records (game.Chronicler): a unit, brigade or division is
// activated on its class dice (CD-1), with its commander's style and
// radius (CD-4, CD-5), and moves by the factor it rolled, or not at all.
// Each activation is named by what it activates and its roll of the turn.
func (r *Rules) Chronicle(e *game.Event, name func(string) string) []game.Life {
	d, ok := e.Data.(*Activated)
	if !ok {
		return nil
	}
	what := d.Formation
	if (what == "" || d.Kind == "unit") && len(d.Units) > 0 {
		what = d.Units[0]
	}
	key := fmt.Sprintf("%s, turn %d roll %d", name(what), e.Turn, d.Roll)
	life := []game.Life{{Stage: game.OrderRead, Order: key, For: what, Acts: e.Turn}}
	if d.Result == "none" || d.Factor == 0 {
		return append(life, game.Life{Stage: game.OrderFailed, Order: key, For: what, Text: fmt.Sprintf("%s is not activated: no movement", name(what))})
	}
	units := make([]string, len(d.Units))
	for i, u := range d.Units {
		units[i] = name(u)
	}
	return append(life, game.Life{Stage: game.OrderActed, Order: key, For: what, Text: fmt.Sprintf("%s activated at %s: %s", name(what), d.Result, strings.Join(units, ", "))})
}
