package cd

import (
	"fmt"
	"slices"

	"orderly/battle"
	"orderly/game"
)

// View is the state as seat may see it: everything at a CD table is
// open to both sides. Played with fog of war, the enemy's units and
// commanders none of the seat's pieces spots are left out, with every
// mention of them (a formation's commander), and so are the enemy's
// formations none of whose pieces it spots; and the enemy's activations
// are his own business: how many he rolled this turn, what each roll
// gave, which of his units have activated, moved or relieved (this turn
// or last) and the strength of his divisions' skirmish screens are left
// out, since they count what his hidden units did too (issue 32).
func (r *Rules) View(s *game.State, seat string) *game.State {
	fog := s.Fogged() && seat != game.Umpire
	hidden := func(id string) bool { return fog && id != "" && s.Hidden(seat, id) }
	out := s.Copy(func(p *game.Piece) bool { return !hidden(p.ID) })
	c := ext(s).clone()
	if fog {
		c.fog(seat, hidden)
	}
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

// fog leaves out of a view's state c what seat does not spot with fog of
// war, and the enemy's activations.
func (c *State) fog(seat string, hidden func(string) bool) {
	// The activations of the side whose turn it is, if it is the enemy's.
	if len(c.Acts) > 0 {
		if f := c.Formation(c.Acts[0].Formation); f == nil || f.Side != seat {
			c.Acts = nil
		}
	}
	for i := range c.Sides {
		if sd := &c.Sides[i]; sd.ID != seat {
			sd.Rolls = 0
		}
	}
	for i := range c.Units {
		if u := &c.Units[i]; u.Side != seat {
			// What an enemy unit has done this turn and last (moved,
			// relieved) may have been done unseen.
			u.Act, u.Factor, u.Used, u.From = 0, 0, 0, ""
			u.Moved, u.MovedLast, u.Relieving = false, false, false
		}
	}
	for i := range c.Formations {
		if f := &c.Formations[i]; f.Side != seat {
			// A division's skirmish screen counts the units that joined it,
			// seen or not.
			f.Screen = 0
		}
	}
	c.Units = slices.DeleteFunc(c.Units, func(u Unit) bool { return hidden(u.ID) })
	c.Generals = slices.DeleteFunc(c.Generals, func(g General) bool { return hidden(g.ID) })
	// An enemy formation is seen while one of its units or commanders is
	// (and so are the formations above it); his army always is.
	parent := map[string]string{}
	for _, f := range c.Formations {
		parent[f.ID] = f.Parent
	}
	seen := map[string]bool{}
	mark := func(id string) {
		for n := 0; id != "" && !seen[id] && n < len(c.Formations); n++ {
			seen[id] = true
			id = parent[id]
		}
	}
	for _, u := range c.Units {
		mark(u.Formation)
		mark(u.Division)
	}
	for _, g := range c.Generals {
		mark(g.Commands)
	}
	c.Formations = slices.DeleteFunc(c.Formations, func(f Formation) bool {
		return f.Side != seat && f.Kind != battle.Army && !seen[f.ID]
	})
	for i := range c.Formations {
		if f := &c.Formations[i]; hidden(f.General) {
			f.General = ""
		}
	}
}

// Unseen refuses a command that names a unit or division the seat cannot
// see (with fog of war, an enemy's none of whose pieces it spots) exactly
// as Command refuses one that is not in the game, with the same words and
// rule. Such an id and a missing one are both refused here, before
// anything else is checked, so that the answer never tells them apart. A commander named
// by lose, a unit by recall and a passage of lines through a unit get the
// same answer for an enemy's piece as for a missing one from Command
// itself. Without fog it refuses nothing: every piece is seen.
func (r *Rules) Unseen(s *game.State, seat string, c *game.Command) error {
	if seat == game.Umpire || !s.Fogged() {
		return nil
	}
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return nil
	}
	st := ext(s)
	unit := func(rule string, ids ...string) error {
		for _, id := range ids {
			if u := st.Unit(id); id != "" && (u == nil || u.Piece == nil || s.Hidden(seat, id)) {
				return game.Reject(rule, "there is no unit %s", id)
			}
		}
		return nil
	}
	switch c.Verb {
	case "activate":
		if d := a.Division; d != "" && (st.Formation(d) == nil || s.Hidden(seat, d)) {
			// An enemy division none of whose pieces the seat spots is
			// not in its view.
			return game.Reject("CD-4", "there is no division %s", d)
		}
		if a.Unit != "" && a.Division == "" {
			return unit("CD-1", a.Unit)
		}
		return unit("CD-1", a.Units...)
	case "move":
		return unit("CD-2", a.Unit)
	case "relieve":
		return unit("CD-7", a.Unit, a.Relieved)
	case "retire":
		return unit("CD-9", a.Unit)
	case "screen":
		return unit("CD-8", a.Unit)
	case "mark":
		return unit("", a.Unit)
	}
	return nil
}

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
