package bp

import (
	"slices"

	"orderly/game"
)

// View is the state as seat may see it: everything at a BP table but the
// enemy's units the scenario marks hidden, until they are seen.
func (r *Rules) View(s *game.State, seat string) *game.State {
	st := ext(s)
	hidden := func(id string) bool {
		u := st.Unit(id)
		return u != nil && seat != game.Umpire && u.Side != seat && u.Hidden
	}
	out := s.Copy(func(p *game.Piece) bool { return !hidden(p.ID) })
	c := st.clone()
	c.Units = slices.DeleteFunc(c.Units, func(u Unit) bool { return hidden(u.ID) })
	for i := range c.Units {
		c.Units[i].pi = -1
	}
	for i := range c.Generals {
		c.Generals[i].pi = -1
	}
	if seat != game.Umpire {
		// How many orders the enemy's brigades have given is not seen:
		// an order to hidden units is his own side's (BP views).
		for i := range c.Brigades {
			if b := &c.Brigades[i]; b.Side != seat {
				b.Orders, b.Done = 0, false
			}
		}
	}
	c.hold(out)
	c.index()
	out.Ext = c
	return out
}

// Unseen refuses a command that names a unit the seat cannot see, exactly
// as one that names no unit.
func (r *Rules) Unseen(s *game.State, seat string, c *game.Command) error {
	if seat == game.Umpire {
		return nil
	}
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return nil
	}
	st := ext(s)
	for _, id := range append([]string{a.Unit, a.Target}, append(a.Units, a.Cover...)...) {
		if u := st.Unit(id); u != nil && u.Side != seat && u.Hidden {
			return game.Reject("", "there is no unit %s", id)
		}
	}
	return nil
}
