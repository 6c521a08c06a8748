package nb

import (
	"fmt"

	"orderly/game"
)

// Subjects names the formations an NB command touches, for a commander's
// seat (game.Subjecter): the formations an order is for and the one whose
// general carries it; the division of each unit and the formation of each
// general moved, attached, detached, removed or replaced; the formations
// of a messenger's old and new recipients; the formation completing its
// order. Only the command's own side's pieces and messengers are followed
// to their formations: an enemy's unit, general or messenger is named as
// it is, never by his formation or the general a messenger rides to,
// which the seat may not know (it is refused as any id not under the
// seat's formation). An id not in the game is named as it is. A verb not
// listed here names nothing and is refused to a commander.
func (r *Rules) Subjects(gs *game.State, gc *game.Command) ([]string, error) {
	st := of(gs)
	c, err := argsOf(gc)
	if err != nil {
		return nil, err
	}
	var out []string
	unit := func(id string) {
		if u := st.Unit(id); u != nil && u.Side == gc.Side {
			out = append(out, u.Division)
		} else {
			out = append(out, id)
		}
	}
	general := func(id string) {
		if id == "" {
			return
		}
		if g := st.General(id); g != nil && g.Side == gc.Side {
			out = append(out, g.Commands)
		} else {
			out = append(out, id)
		}
	}
	switch c.Verb {
	case "write":
		if c.Write == nil {
			return nil, fmt.Errorf("write names no order")
		}
		out = append(out, c.Write.For...)
		general(c.Write.To)
	case "move":
		for _, m := range c.Moves {
			if m.Unit != "" {
				unit(m.Unit)
			} else {
				general(m.General)
			}
		}
	case "attach":
		general(c.General)
		if st.Unit(c.To) != nil {
			unit(c.To)
		} else {
			general(c.To)
		}
	case "detach", "remove", "replace":
		general(c.General)
	case "redirect":
		if m := st.Messenger(c.Messenger); m != nil && m.Side == gc.Side && m.To != "" {
			general(m.To)
		} else {
			out = append(out, c.Messenger)
		}
		general(c.To)
	case "complete":
		out = append(out, c.Formation)
	case "react", "combat", "rout", "rally":
		for _, u := range c.Units {
			unit(u)
		}
	default:
		return nil, fmt.Errorf("%s is given by the side's own seat, not by a commander's", c.Verb)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the %s command names no piece", c.Verb)
	}
	return out, nil
}

// Ahead tells whether a secret NB roll still has effects to come
// (game.Foresight): an order-delay roll (NB-5) whose reader has not yet
// acted on the order, or an off-board reserve's entry roll (NB-10) for a
// reserve not yet on the table.
func (r *Rules) Ahead(gs *game.State, ev *game.Event) (string, bool) {
	st, e := of(gs), data(ev)
	switch ev.Type {
	case OrderRead:
		o := st.OrderByID(e.OrderID)
		if o == nil || o.Status == Superseded {
			return "", false
		}
		for _, rd := range o.Readers {
			if rd.Formation == e.Formation && !rd.Finished() {
				return fmt.Sprintf("the delay %s rolled reading %s for %s (acts on turn %d, NB-5)", e.General, e.OrderID, e.Formation, e.Acts), true
			}
		}
	case ReserveScheduled:
		if f := st.Formation(e.Formation); f != nil && f.Entered == 0 {
			return fmt.Sprintf("the earliest entry turn of the off-board reserve %s (NB-10)", e.Formation), true
		}
	}
	return "", false
}
