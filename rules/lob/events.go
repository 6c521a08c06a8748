package lob

import (
	"fmt"

	"orderly/game"
)

// LOB's event types.
const (
	EvBegun      = "turn-begun"    // a side's turn: awareness, arrivals, deliveries, relays (LOB-1, LOB-4, LOB-6)
	EvAccepted   = "acceptance"    // acceptance rolls; orders accepted, executing, relayed (LOB-4..LOB-6)
	EvChecked    = "checks"        // fluke stoppage checks and attack recovery (LOB-7)
	EvIssued     = "issued"        // a command roll and the order it issues (LOB-3, LOB-4)
	EvRelease    = "release"       // a command roll to release a reserve (LOB-5)
	EvInitiative = "initiative"    // an initiative roll and what it does (LOB-5, LOB-8)
	EvSkedaddle  = "skedaddled"    // a Command or the army HQ skedaddles (LOB-8)
	EvCondition  = "condition-met" // a conditional order's condition is fulfilled (LOB-6)
	EvFutile     = "futile"        // an attack order ended as futile (LOB-7)
	EvDeclared   = "declared"      // an order declared fulfilled, to end with the player turn (LOB-7)
	EvEnded      = "turn-ended"    // the player turn ends: orders fulfilled (LOB-7)
	EvMoved      = "moved"         // a piece moves (LOB-2)
	EvFormed     = "formed"        // a combat unit changes formation
	EvLost       = "lost"          // a combat unit loses strength
	EvAware      = "aware"         // the army commander becomes aware (LOB-4)
	EvDesignated = "designated"    // a Command's leader names the reserve an order left to him (LOB-5)
)

// events are LOB's event types, each with the payload type whose methods
// fold it into the state, describe it and give its fields to scripts.
// Futile and declared endings share one payload; its methods tell them
// apart by the event's type.
var events = game.Events[*Rules]{
	game.Type[*Rules, Begun](EvBegun),
	game.Type[*Rules, Acceptance](EvAccepted),
	game.Type[*Rules, Checks](EvChecked),
	game.Type[*Rules, Issue](EvIssued),
	game.Type[*Rules, Release](EvRelease),
	game.Type[*Rules, Initiative](EvInitiative),
	game.Type[*Rules, Skedaddle](EvSkedaddle),
	game.Type[*Rules, Condition](EvCondition),
	game.Type[*Rules, Ending](EvFutile),
	game.Type[*Rules, Ending](EvDeclared),
	game.Type[*Rules, Ended](EvEnded),
	game.Type[*Rules, Moved](EvMoved),
	game.Type[*Rules, Formed](EvFormed),
	game.Type[*Rules, Lost](EvLost),
	game.Type[*Rules, Aware](EvAware),
	game.Type[*Rules, Designation](EvDesignated),
	game.Type[*Rules, EntryNamed](EvEntry),
}

// EventTypes lists LOB's event types.
func (r *Rules) EventTypes() []string { return events.Types() }

// Payload makes an empty payload for an event type.
func (r *Rules) Payload(typ string) (any, bool) { return events.Payload(typ) }

// Apply folds one of LOB's events into the state with its payload's Fold.
func (r *Rules) Apply(s *game.State, e *game.Event) error { return events.Apply(r, s, e) }

// needFormation is the formation id, or an error naming it when the state
// has none (a fold trusts its event, so this means a broken log).
func (st *State) needFormation(id string) (*Formation, error) {
	if f := st.Formation(id); f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("no formation %s", id)
}

// needOrder is the order id, or an error naming it.
func (st *State) needOrder(id string) (*Order, error) {
	if o := st.Order(id); o != nil {
		return o, nil
	}
	return nil, fmt.Errorf("no order %s", id)
}

// needSide is the side id, or an error naming it.
func (st *State) needSide(id string) (*Side, error) {
	if sd := st.Side(id); sd != nil {
		return sd, nil
	}
	return nil, fmt.Errorf("no side %s", id)
}

// needLeader is the leader id, or an error naming it.
func (st *State) needLeader(id string) (*Leader, error) {
	if l := st.Leader(id); l != nil {
		return l, nil
	}
	return nil, fmt.Errorf("no leader %s", id)
}

// needUnit is the combat unit id, or an error naming it.
func (st *State) needUnit(id string) (*Unit, error) {
	if u := st.Unit(id); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("no unit %s", id)
}

// stage moves the orders ids to stage to.
func (st *State) stage(ids []string, to string) error {
	for _, id := range ids {
		o, err := st.needOrder(id)
		if err != nil {
			return err
		}
		o.Stage = to
	}
	return nil
}

// effects sets or frees the reserves of es on turn (LOB-5, 10.4c): a
// relay that carries one is done, and a relay that places a reserve
// completes its accepted parent order.
func (st *State) effects(es []Effect, turn int, play map[string]int) error {
	for _, ef := range es {
		f, err := st.needFormation(ef.Formation)
		if err != nil {
			return err
		}
		if ef.Reserve {
			f.Reserve = true
		} else {
			st.free(f, turn, play)
		}
		if ef.Order == "" {
			continue
		}
		o, err := st.needOrder(ef.Order)
		if err != nil {
			return err
		}
		o.Stage = Done
		if p := st.Order(o.Parent); p != nil && o.Kind == Reserve && p.Stage == Accepted {
			p.Stage = Done
		}
	}
	return nil
}

// putAll adds each of os to the state (relays that leave).
func (st *State) putAll(os []Order) {
	for _, o := range os {
		st.put(o)
	}
}

// put adds an order to the state, or puts it in place of the one of the
// same id (an order of the scenario taken up on entry).
func (st *State) put(o Order) {
	for i := range st.Orders {
		if st.Orders[i].ID == o.ID {
			st.Orders[i] = o
			return
		}
	}
	st.Orders = append(st.Orders, o)
}

// attack marks a division that takes up an attack order: it will need
// attack recovery when the order ends (our reading of 10.8c: recovery is
// rolled with the division leader's value, so by divisions; a corps'
// divisions recover when its attack order ends); a reinforcement's fluke
// checks start in the command phase after it enters (entry, when not 0).
// A division in reserve takes the order as its existing orders only
// (LOB-5): it is marked when released.
func (st *State) attack(f *Formation, o Order, entry int) {
	if o.Kind != Attack || f.Kind != KindDivision || f.Reserve {
		return
	}
	f.Attacked = true
	if entry > 0 && f.Kind == KindDivision {
		f.FlukeFrom, f.Losses = entry+1, 0
	}
}

// free takes formation f out of reserve by a release (LOB-5, 10.4c): it
// follows its existing orders at once. A division whose orders are an
// attack checks fluke stoppage from the command phase fluke-delay turns on
// (not before the grace period of the orders at the start), counting its
// losses from now, and will need attack recovery (10.7b: reserves
// established under attack orders that release to attack check).
func (st *State) free(f *Formation, turn int, play map[string]int) {
	f.Reserve = false
	if f.Kind != KindDivision {
		return
	}
	o := st.liveAttack(f)
	if o == nil {
		return
	}
	from := turn + play["fluke-delay"]
	if o.Start {
		from = max(from, play["grace-turns"]+1)
	}
	f.FlukeFrom, f.Losses = from, 0
	if f.Order == o.ID {
		f.Attacked = true
	}
}

// liveAttack is a Command's accepted or executing attack order, or nil.
func (st *State) liveAttack(f *Formation) *Order {
	if o := st.Executing(f); o != nil && o.Kind == Attack {
		return o
	}
	for i := range st.Orders {
		if o := &st.Orders[i]; o.To == f.ID && o.Kind == Attack && o.Stage == Accepted {
			return o
		}
	}
	return nil
}

// end ends orders at stage to (fulfilled or futile): their Commands go to
// no-orders status, and those in recover begin attack recovery next turn.
func (st *State) end(orders, commands, recover []string, to string, turn int) error {
	for _, id := range orders {
		o := st.Order(id)
		if o == nil {
			return fmt.Errorf("no order %s", id)
		}
		o.Stage = to
	}
	for _, id := range commands {
		f := st.Formation(id)
		if f == nil {
			return fmt.Errorf("no formation %s", id)
		}
		if o := st.Executing(f); o != nil && o.Kind == Attack {
			f.Last = o.ID
		}
		f.Order, f.Declared, f.FlukeFrom = "", false, 0
	}
	for _, id := range recover {
		if to == Futile {
			// Ended as futile: the withdrawal of fluke stoppage (10.7a):
			// it does not advance until it has recovered.
			if f := st.Formation(id); f != nil {
				f.Fluked, f.Futile = true, true
			}
		}
		f := st.Formation(id)
		if f == nil {
			return fmt.Errorf("no formation %s", id)
		}
		f.Recovery, f.RecoverFrom = First, turn+1
	}
	return nil
}
