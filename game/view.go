package game

import "slices"

// View is what one seat may know of a game: the state with the other side's
// secrets taken out, and the events the seat may see.
type View struct {
	Seat   string  `json:"seat"` // a side id, or umpire
	State  *State  `json:"state"`
	Events []Event `json:"events"`
}

// Sees returns the state as seat (a side id, or Umpire) may see it, as in
// View, without the events.
func (g *Game) Sees(seat string) *State { return g.st.redact(seat) }

// View returns what seat (a side id, or Umpire) may see. For a side it
// leaves out the opponent's orders, the order and recipient of the
// opponent's messengers (their models on the table stay in view), the
// opponent's secret rolls, his off-board reserves until their general is
// placed, and any piece of his that is not on the table.
func (g *Game) View(seat string) View {
	v := View{Seat: seat}
	for _, e := range g.log {
		if e.Visible(seat) {
			v.Events = append(v.Events, *e)
		}
	}
	v.State = g.st.redact(seat)
	return v
}

func (s *State) redact(seat string) *State {
	out := &State{Turn: s.Turn, Phase: s.Phase, Step: s.Step, Over: s.Over, Ready: slices.Clone(s.Ready)}
	mine := func(side string) bool { return seat == Umpire || side == seat }
	for _, sd := range s.Sides {
		if mine(sd.ID) {
			out.Sides = append(out.Sides, sd)
		} else {
			out.Sides = append(out.Sides, SideState{ID: sd.ID, Messengers: sd.Messengers})
		}
	}
	onTable := map[string]bool{}
	for _, u := range s.Units {
		if mine(u.Side) || u.OnTable {
			c := *u
			out.Units = append(out.Units, &c)
			if u.OnTable {
				onTable[u.Division] = true
			}
		}
	}
	for _, g := range s.Generals {
		if mine(g.Side) || g.OnTable {
			c := *g
			out.Generals = append(out.Generals, &c)
			if g.OnTable {
				onTable[g.Commands] = true
			}
		}
	}
	for _, f := range s.Formations {
		if mine(f.Side) {
			c := *f
			c.With = slices.Clone(f.With)
			out.Formations = append(out.Formations, &c)
			continue
		}
		if !onTable[f.ID] {
			continue
		}
		out.Formations = append(out.Formations, &Formation{
			ID: f.ID, Side: f.Side, Kind: f.Kind, Parent: f.Parent, General: f.General,
			Engaged: f.Engaged, With: slices.Clone(f.With), Placed: f.Placed,
			Arrival: f.Arrival, Entered: f.Entered, EnterAt: f.EnterAt,
		})
	}
	for _, m := range s.Messengers {
		c := *m
		if !mine(m.Side) {
			c.Order, c.To = "", ""
		}
		out.Messengers = append(out.Messengers, &c)
	}
	for _, o := range s.Orders {
		if mine(o.Side) {
			c := *o
			c.Readers = slices.Clone(o.Readers)
			out.Orders = append(out.Orders, &c)
		}
	}
	out.index()
	return out
}
