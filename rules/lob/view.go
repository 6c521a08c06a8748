package lob

import (
	"fmt"
	"slices"

	"orderly/game"
	"orderly/geom"
	"orderly/sight"
)

// Marks adds the HQ counters on the map, each army's and each Command's,
// to what fog of war spots and may be spotted (game.Marker).
func (r *Rules) Marks(s *game.State, add func(sight.Mark)) {
	st := ext(s)
	for _, sd := range st.Sides {
		add(sight.Mark{ID: armyHQ(sd.ID), Side: sd.ID, Kind: "hq", At: sd.HQ})
	}
	for _, f := range st.Formations {
		if f.HQOn {
			add(sight.Mark{ID: commandHQ(f.ID), Side: f.Side, Kind: "hq", At: f.HQ})
		}
	}
}

// Names lists the HQ a moved event moves (game.Namer): its payload names
// the Command or the side, not the counter.
func (r *Rules) Names(e *game.Event) []string {
	d, ok := e.Data.(*Moved)
	switch {
	case !ok:
		return nil
	case d.HQ != "":
		return []string{commandHQ(d.HQ)}
	case d.Army != "":
		return []string{armyHQ(d.Army)}
	}
	return nil
}

// View is the state as seat may see it: every piece and HQ on the map is
// open, as counters on a map are; the enemy's orders, their stages,
// reserves, the command roll and awareness are not (an order is written
// in secret). Fluke stoppage, recovery and skedaddles show in how the
// enemy's troops act, and stay open. Played with fog of war, the enemy's
// units and leaders none of the seat's pieces spots are left out, with
// every mention of them (a formation's leader and units, the army
// commander), and so is an enemy formation none of whose pieces it spots,
// its HQ with it, and an enemy HQ (a Command's or the army's) it does not
// spot: the HQ counters are marks the fog spots (Marks), and their moves
// name them (Names); nor is it told how far the enemy's pieces have moved
// this turn, which would tell where they came from.
func (r *Rules) View(s *game.State, seat string) *game.State {
	fog := s.Fogged() && seat != game.Umpire
	hidden := func(id string) bool { return fog && id != "" && s.Hidden(seat, id) }
	out := s.Copy(func(p *game.Piece) bool { return !hidden(p.ID) })
	c := ext(s).clone()
	if fog {
		c.fog(seat, hidden)
	}
	for i := range c.Leaders {
		c.Leaders[i].pi = -1
		if seat != game.Umpire && c.Leaders[i].Side != seat {
			c.Leaders[i].Rolled = nil
		}
	}
	for i := range c.Units {
		c.Units[i].pi = -1
	}
	if fog {
		c.moves(seat)
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
				f.Road = nil // where the umpire has it enter if blocked
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

// moves leaves out of a view's state c how far the enemy's pieces and HQs
// have moved this turn, and where its units began to: with fog of war
// that would tell where they came from, which seat may not have seen.
func (c *State) moves(seat string) {
	for i := range c.Leaders {
		if l := &c.Leaders[i]; l.Side != seat {
			l.Used = 0
		}
	}
	for i := range c.Units {
		if u := &c.Units[i]; u.Side != seat {
			u.Used, u.Start = 0, geom.Point{}
		}
	}
	for i := range c.Formations {
		if f := &c.Formations[i]; f.Side != seat {
			f.HQUsed = 0
		}
	}
	for i := range c.Sides {
		if sd := &c.Sides[i]; sd.ID != seat {
			sd.HQUsed = 0
		}
	}
}

// fog leaves out of a view's state c what seat does not spot with fog of
// war.
func (c *State) fog(seat string, hidden func(string) bool) {
	c.Units = slices.DeleteFunc(c.Units, func(u Unit) bool { return hidden(u.ID) })
	c.Leaders = slices.DeleteFunc(c.Leaders, func(l Leader) bool { return hidden(l.ID) })
	seen := map[string]bool{}
	for _, f := range c.Formations {
		if f.Side != seat && f.HQOn && !hidden(commandHQ(f.ID)) {
			seen[f.ID] = true // its HQ counter is spotted
		}
	}
	for _, u := range c.Units {
		seen[u.Formation], seen[u.Command] = true, true
	}
	for _, l := range c.Leaders {
		seen[l.Formation] = true
	}
	c.Formations = slices.DeleteFunc(c.Formations, func(f Formation) bool { return f.Side != seat && !seen[f.ID] })
	for i := range c.Formations {
		f := &c.Formations[i]
		if hidden(f.Leader) {
			f.Leader = ""
		}
		if f.Side != seat {
			f.Units = slices.DeleteFunc(slices.Clone(f.Units), hidden)
			if f.HQOn && hidden(commandHQ(f.ID)) {
				f.HQ, f.HQOn, f.HQUsed, f.HQUnseen = geom.Point{}, false, 0, true
			}
		}
	}
	for i := range c.Sides {
		sd := &c.Sides[i]
		if hidden(sd.Army) {
			sd.Army = ""
		}
		if sd.ID != seat && hidden(armyHQ(sd.ID)) {
			sd.HQ, sd.HQUsed, sd.Unseen = geom.Point{}, 0, true
		}
	}
}

// Unseen refuses a command that names an enemy piece the seat does not
// spot (fog of war) exactly as one that names no piece: only loss names
// an enemy's unit, and it and a missing one are both refused here with
// Command's words. Every other command names the side's own pieces and
// formations, and Command answers an enemy's id as a missing one.
func (r *Rules) Unseen(s *game.State, seat string, c *game.Command) error {
	if seat == game.Umpire || !s.Fogged() {
		return nil
	}
	a, ok := c.Args.(*Args)
	if !ok || a == nil || c.Verb != "loss" {
		return nil
	}
	if u := ext(s).Unit(a.Unit); u == nil || !u.alive() || s.Hidden(seat, a.Unit) {
		return game.Reject("", "there is no combat unit %s on the map", a.Unit)
	}
	return nil
}

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
	case "designate":
		// The Command whose leader names its reserve, and the reserve.
		if o := st.Order(a.Order); o != nil && o.Side == c.Side {
			out = append(out, o.To)
		}
		out = append(out, a.Formation)
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
