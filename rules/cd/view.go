package cd

import (
	"fmt"

	"orderly/game"
)

// View is the state as seat may see it: everything at a CD table is
// open to both sides (double-blind play is another issue's).
func (r *Rules) View(s *game.State, seat string) *game.State {
	out := s.Copy(func(*game.Piece) bool { return true })
	c := ext(s).clone()
	for i := range c.Units {
		c.Units[i].pi = -1
	}
	for i := range c.Generals {
		c.Generals[i].pi = -1
	}
	c.hold(out)
	c.index()
	out.Ext = c
	return out
}

// Unseen refuses nothing: every piece is seen.
func (r *Rules) Unseen(*game.State, string, *game.Command) error { return nil }

// Subjects lists what a command touches (game.Subjecter), so that a
// commander's seat gives commands only for what is under him: the units
// activated or moved, the division, the commander lost.
func (r *Rules) Subjects(s *game.State, c *game.Command) ([]string, error) {
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return nil, fmt.Errorf("the command has no arguments of cd")
	}
	var out []string
	for _, id := range []string{a.Unit, a.Division, a.General, a.Relieved, a.Through} {
		if id != "" {
			out = append(out, id)
		}
	}
	out = append(out, a.Units...)
	return out, nil
}
