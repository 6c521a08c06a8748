package bp

import (
	"slices"

	"orderly/battle"
	"orderly/game"
)

// View is the state as seat may see it: everything at a BP table but the
// enemy's units the scenario marks hidden, until they are seen. Played
// with fog of war, the enemy's units and commanders none of the seat's
// pieces spots are left out too, with every mention of them (the units a
// unit is in combat with, the unit a commander joined, a charge or a
// traverse, a formation's commander), and so is an enemy brigade none of
// whose pieces it spots.
func (r *Rules) View(s *game.State, seat string) *game.State {
	st := ext(s)
	fog := s.Fogged() && seat != game.Umpire
	hidden := func(id string) bool {
		if seat == game.Umpire || id == "" {
			return false
		}
		if u := st.Unit(id); u != nil && u.Side != seat && u.Hidden {
			return true
		}
		return fog && s.Hidden(seat, id)
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
	if fog {
		c.fog(seat, hidden)
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

// fog leaves out of a view's state c what seat does not spot with fog of
// war: the enemy's commanders, the enemy brigades none of whose pieces it
// spots, every mention of a hidden piece, the orders the enemy's units
// move under and whether his commanders have moved. Its units are already
// left out.
func (c *State) fog(seat string, hidden func(string) bool) {
	c.Generals = slices.DeleteFunc(c.Generals, func(g General) bool { return hidden(g.ID) })
	for i := range c.Units {
		u := &c.Units[i]
		u.Engaged = slices.DeleteFunc(u.Engaged, hidden)
		if u.Side != seat {
			// The orders an enemy unit moves under, and how far, are his
			// side's business: whether his commander's order reached it
			// may turn on pieces the seat does not spot. What it is seen
			// to do (shoot, fight, fire) stays.
			u.Order, u.Forced, u.Allow, u.Used = "", "", 0, 0
			u.Ordered, u.Initiative, u.KeepDisorder = false, false, false
		}
	}
	for i := range c.Generals {
		g := &c.Generals[i]
		if hidden(g.Joined) {
			g.Joined = ""
		}
		if g.Side != seat {
			// Whether an enemy commander has made his move of the turn is
			// his side's business: he may have made it unseen.
			g.Moved = false
		}
	}
	// A brigade of the enemy is seen while one of its units or its
	// commander is; the enemy's army stays, without a commander unseen.
	seen := map[string]bool{}
	for _, u := range c.Units {
		seen[u.Brigade] = true
	}
	for _, g := range c.Generals {
		if g.Brigade != "" {
			seen[g.Brigade] = true
		}
	}
	var fs []Formation // c.Formations is shared with the game's state
	for _, f := range c.Formations {
		if f.Side != seat && f.Kind != battle.Army && !seen[f.ID] {
			continue
		}
		if hidden(f.General) {
			f.General = ""
		}
		fs = append(fs, f)
	}
	c.Formations = fs
	c.Brigades = slices.DeleteFunc(c.Brigades, func(b Brigade) bool { return b.Side != seat && !seen[b.ID] })
	for i := range c.Brigades {
		if b := &c.Brigades[i]; hidden(b.General) {
			b.General = ""
		}
	}
	if ch := c.Charge; ch != nil && (hidden(ch.Unit) || hidden(ch.Target)) {
		c.Charge = nil
	}
	if tr := c.Traverse; tr != nil {
		if hidden(tr.Unit) {
			c.Traverse = nil
		} else {
			tr.Firers = slices.DeleteFunc(tr.Firers, hidden)
		}
	}
}

// seesBrigade reports whether seat's view holds brigade id: it is in the
// game and, played with fog of war, the seat's own or one of whose units
// or whose commander the seat sees (as View has it).
func (st *State) seesBrigade(s *game.State, seat, id string) bool {
	b := st.Brigade(id)
	if b == nil || st.sc.Formation(id) == nil {
		return false
	}
	if seat == game.Umpire || b.Side == seat || !s.Fogged() || !s.Hidden(seat, b.General) {
		return true
	}
	for _, u := range st.Units {
		if u.Brigade == id && !u.Hidden && !s.Hidden(seat, u.ID) {
			return true
		}
	}
	return false
}

// Unseen refuses a command that names a unit, commander or brigade the
// seat cannot see (an enemy's unit the scenario hides, or with fog of war
// an enemy's piece none of its pieces spots, or a brigade none of whose
// pieces it sees) exactly as Command refuses one that is not in the game,
// with the same words and rule. Such an id and a missing
// one are both refused here, before anything else is checked, so that
// the answer never tells them apart.
func (r *Rules) Unseen(s *game.State, seat string, c *game.Command) error {
	if seat == game.Umpire {
		return nil
	}
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return nil
	}
	st := ext(s)
	seesUnit := func(id string) bool {
		u := st.Unit(id)
		return u != nil && st.sc.Unit(id) != nil && s.Piece(id) != nil && (u.Side == seat || !u.Hidden && !s.Hidden(seat, id))
	}
	unit := func(rule string, ids ...string) error {
		for _, id := range ids {
			if id != "" && !seesUnit(id) {
				return game.Reject(rule, "there is no unit %s", id)
			}
		}
		return nil
	}
	switch c.Verb {
	case "initiative":
		return unit("BP-3", a.Unit)
	case "order":
		if !st.seesBrigade(s, seat, a.Brigade) {
			return game.Reject("BP-1", "there is no brigade %s", a.Brigade)
		}
		return unit("BP-1", a.Units...)
	case "move":
		if a.General != "" {
			if g := st.General(a.General); g == nil || s.Hidden(seat, g.ID) {
				return game.Reject("BP-4", "there is no commander %s", a.General)
			}
			return nil
		}
		return unit("BP-4", a.Unit)
	case "charge":
		return unit("BP-4", a.Unit, a.Target)
	case "shoot":
		return unit("BP-5", append([]string{a.Unit, a.Target}, a.Cover...)...)
	case "fight":
		return unit("BP-6", a.Unit)
	}
	return nil
}
