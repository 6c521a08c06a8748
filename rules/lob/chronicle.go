package lob

import (
	"strconv"

	"orderly/game"
)

// Chronicle tells the after-action report the stages of an order's life
// a LOB event records (game.Chronicler): issued on a passed command roll
// and sent along the delivery chart, or no order on a failed one (LOB-3,
// LOB-4); relayed by a corps to its divisions (LOB-4); arrived at the
// start of its side's turn (LOB-4); accepted on the acceptance roll
// (LOB-4), executing (LOB-4..LOB-6), and superseded by a later order. An
// order is named by its id.
func (r *Rules) Chronicle(e *game.Event, name func(string) string) []game.Life {
	switch d := e.Data.(type) {
	case *Issue:
		if d.HQ {
			return nil
		}
		if d.Result != "issued" {
			return []game.Life{{Stage: game.OrderFailed, Order: "command roll of " + name(d.By) + ", turn " + strconv.Itoa(e.Turn), For: d.Order.To}}
		}
		life := []game.Life{{Stage: game.OrderWritten, Order: d.Order.ID, For: d.Order.To},
			{Stage: game.OrderSent, Order: d.Order.ID, For: d.Order.To, Text: d.Order.ID + " is on its way to " + name(d.Order.To) + ", to arrive on turn " + strconv.Itoa(d.Order.Arrives)}}
		for _, w := range d.With {
			life = append(life, game.Life{Stage: game.OrderWritten, Order: w.ID, For: w.To, Text: w.ID + " goes with " + d.Order.ID + " for " + name(w.To)})
		}
		return life
	case *Begun:
		var life []game.Life
		for _, id := range d.Arrived {
			life = append(life, game.Life{Stage: game.OrderArrived, Order: id, Text: id + " arrives and awaits acceptance"})
		}
		for _, o := range d.Relays {
			life = append(life, game.Life{Stage: game.OrderWritten, Order: o.ID, For: o.To, Text: o.ID + " is relayed to " + name(o.To)})
		}
		return life
	case *Acceptance:
		var life []game.Life
		for _, t := range d.Rolls {
			if t.Result == Accepted {
				life = append(life, game.Life{Stage: game.OrderRead, Order: t.Order, For: t.Command, Text: name(t.Command) + " accepts " + t.Order})
			}
		}
		for i, id := range d.Executing {
			l := game.Life{Stage: game.OrderActed, Order: id, Text: id + " is executing"}
			if i < len(d.Acting) {
				l.For = d.Acting[i]
				l.Text = name(d.Acting[i]) + " executes " + id
			}
			life = append(life, l)
		}
		for _, o := range d.Relays {
			life = append(life, game.Life{Stage: game.OrderWritten, Order: o.ID, For: o.To, Text: o.ID + " is relayed to " + name(o.To)})
		}
		for _, id := range d.Superseded {
			life = append(life, game.Life{Stage: game.OrderFailed, Order: id, Text: id + " is superseded"})
		}
		return life
	}
	return nil
}
