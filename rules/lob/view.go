package lob

import (
	"fmt"

	"orderly/game"
)

// View is the state as seat may see it: every piece and HQ on the map is
// open, as counters on a map are; the enemy's orders, their stages,
// reserves, the command roll and awareness are not (an order is written
// in secret). Fluke stoppage, recovery and skedaddles show in how the
// enemy's troops act, and stay open.
func (r *Rules) View(s *game.State, seat string) *game.State {
	out := s.Copy(func(*game.Piece) bool { return true })
	c := ext(s).clone()
	for i := range c.Leaders {
		c.Leaders[i].pi = -1
		if seat != game.Umpire && c.Leaders[i].Side != seat {
			c.Leaders[i].Rolled = nil
		}
	}
	for i := range c.Units {
		c.Units[i].pi = -1
	}
	if seat != game.Umpire {
		var orders []Order
		for _, o := range c.Orders {
			if o.Side == seat {
				orders = append(orders, o)
			}
		}
		c.Orders = orders
		for i := range c.Formations {
			if f := &c.Formations[i]; f.Side != seat {
				f.Order, f.Reserve, f.Deployed, f.Declared, f.Last, f.Associated, f.Held = "", false, false, false, "", "", nil
				f.FlukeFrom, f.Losses, f.Attacked, f.RecoverFrom = 0, 0, false, 0
			}
		}
		for i := range c.Sides {
			if sd := &c.Sides[i]; sd.ID != seat {
				sd.Rolled, sd.Goal, sd.Issued, sd.Aware, sd.UnawareUntil = false, nil, 0, false, 0
			}
		}
	}
	c.hold(out)
	c.index()
	out.Ext = c
	return out
}

// Unseen refuses nothing: every piece on an LOB map is in view.
func (r *Rules) Unseen(*game.State, string, *game.Command) error { return nil }

// Subjects lists what a command touches (game.Subjecter), so that a
// commander's seat gives commands only for what is under him: the issuing
// leader and the Command an order goes to, the formation or leader named,
// the piece that moves. A loss may be recorded for any unit.
func (r *Rules) Subjects(s *game.State, c *game.Command) ([]string, error) {
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return nil, fmt.Errorf("the command has no arguments of lob")
	}
	st := ext(s)
	var out []string
	switch c.Verb {
	case "issue":
		from := a.From
		if from == "" {
			if sd := st.Side(c.Side); sd != nil {
				from = sd.Army
			}
		}
		out = append(out, from)
		if a.To != "hq" && a.To != "army-hq" {
			out = append(out, a.To)
		}
		out = append(out, a.With...)
	case "loss":
		if u := st.Unit(a.Unit); u != nil && u.Side != c.Side {
			return nil, nil
		}
		out = append(out, a.Unit)
	case "aware", "condition":
		return []string{c.Side}, nil
	default:
		for _, id := range []string{a.Formation, a.Leader, a.Unit, a.HQ, a.By} {
			if id != "" {
				out = append(out, id)
			}
		}
		if a.Army {
			return []string{c.Side}, nil
		}
	}
	return out, nil
}
