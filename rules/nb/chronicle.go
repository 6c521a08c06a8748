package nb

import "orderly/game"

// Chronicle tells the after-action report the stages of an order's life
// an NB event records (game.Chronicler): written by the army or a corps
// commander and carried by a messenger (NB-2, NB-3), given directly before
// the game or at the table edge (NB-1, NB-10), delivered (NB-3), read with
// the order-delay roll and the turn it acts (NB-5), acted on (NB-5,
// NB-9), and not read or superseded (NB-5, NB-11). An order is named by
// its id.
func (r *Rules) Chronicle(e *game.Event, name func(string) string) []game.Life {
	d := DataOf(e)
	if d == nil {
		return nil
	}
	switch e.Type {
	case OrderWritten:
		if d.Order == nil {
			return nil
		}
		life := []game.Life{{Stage: game.OrderWritten, Order: d.Order.ID, For: lifeFor(d.Order.For)}}
		if d.Messenger != "" {
			life = append(life, game.Life{Stage: game.OrderSent, Order: d.Order.ID, For: lifeFor(d.Order.For), Text: d.Messenger + " rides with " + d.Order.ID + " to " + name(d.To)})
		}
		return life
	case OrderDelivered:
		return []game.Life{{Stage: game.OrderArrived, Order: d.OrderID, For: lifeFor(d.Readers)}}
	case OrderRead:
		return []game.Life{{Stage: game.OrderRead, Order: d.OrderID, For: d.Formation, Acts: d.Acts}}
	case OrderActive:
		if d.Order == nil || d.How == "for-entry" {
			return nil
		}
		return []game.Life{{Stage: game.OrderActed, Order: d.Order.ID, For: d.Formation}}
	case OrderNotRead, OrderSuperseded:
		return []game.Life{{Stage: game.OrderFailed, Order: d.OrderID, For: d.Formation}}
	}
	return nil
}

// lifeFor is the first of ids, or "".
func lifeFor(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[0]
}
