package nes

import (
	"fmt"

	"orderly/game"
)

// Subjects lists what a command touches (game.Subjecter), so that a
// commander's seat gives commands only for what is under him: an order's
// sender and receiver, a stacked command point's commander, a moving,
// forming, firing or charging piece. A loss may be recorded for any unit
// the seat's side fought (the players read it off their charts), so it
// names the seat's own commander's formation only when the unit is his.
func (r *Rules) Subjects(s *game.State, c *game.Command) ([]string, error) {
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return nil, fmt.Errorf("the command has no arguments of nes")
	}
	var out []string
	for _, id := range []string{a.From, a.To, a.General, a.Unit} {
		if id != "" && !a.Sight {
			out = append(out, id)
		}
	}
	if a.HQ {
		// The headquarters is the army's: a commander's seat does not
		// move it.
		return []string{c.Side}, nil
	}
	if c.Verb == "loss" {
		st := ext(s)
		if u := st.Unit(a.Unit); u != nil && u.Side != c.Side {
			return nil, nil
		}
	}
	return out, nil
}
