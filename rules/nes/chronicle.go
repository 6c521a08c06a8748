package nes

import (
	"strings"

	"orderly/game"
)

// Chronicle tells the after-action report the stages of an order's life
// an NES event records (game.Chronicler): an order sent by a leader is
// received at once, put on its way at a delay marker, or ignored (NES-1);
// a marker on its way steps down at the start of its side's turn and, at
// delay 1, is rolled for again: received or ignored (NES-2). A command
// unit has one order on its way at a time, so an order is named by its
// receiver.
func (r *Rules) Chronicle(e *game.Event, name func(string) string) []game.Life {
	switch d := e.Data.(type) {
	case *Sent:
		who := name(d.Receiver)
		key := "order to " + who
		life := []game.Life{{Stage: game.OrderWritten, Order: key, For: d.Receiver}}
		switch {
		case d.Result == Received:
			life = append(life, game.Life{Stage: game.OrderRead, Order: key, For: d.Receiver, Acts: e.Turn, Text: who + " receives the " + d.Order.Kind + " order at once"},
				game.Life{Stage: game.OrderActed, Order: key, For: d.Receiver, Text: who + " acts on the " + d.Order.Kind + " order"})
		case strings.HasPrefix(d.Result, "delay-"):
			life = append(life, game.Life{Stage: game.OrderSent, Order: key, For: d.Receiver, Text: "the order to " + who + " is on its way at " + d.Result})
		default:
			life = append(life, game.Life{Stage: game.OrderFailed, Order: key, For: d.Receiver, Text: who + " ignores the order"})
		}
		return life
	case *Begun:
		var life []game.Life
		for _, m := range d.Markers {
			who := name(m.Leader)
			key := "order to " + who
			switch m.Result {
			case Received:
				life = append(life, game.Life{Stage: game.OrderArrived, Order: key, For: m.Leader, Acts: e.Turn, Text: "the order on its way reaches " + who},
					game.Life{Stage: game.OrderActed, Order: key, For: m.Leader, Text: who + " acts on the order that reached him"})
			case "ignored":
				life = append(life, game.Life{Stage: game.OrderFailed, Order: key, For: m.Leader, Text: who + " ignores the order on its way"})
			}
		}
		return life
	}
	return nil
}
