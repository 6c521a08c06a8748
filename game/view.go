package game

// View is what one seat may know of a game: the state with the other side's
// secrets taken out, and the events the seat may see.
type View struct {
	Seat   string  `json:"seat"` // a side id, or umpire
	State  *State  `json:"state"`
	Events []Event `json:"events"`
}

// Sees returns the state as seat (a side id, or Umpire) may see it, as in
// View, without the events (Rules.View).
func (g *Game) Sees(seat string) *State {
	v := g.rules.View(g.st, seat)
	if f := g.st.fog; f != nil {
		v.Fog, v.Lost = f.mode, f.ghosts(seat)
	}
	return v
}

// View returns what seat (a side id, or Umpire) may see: the rule set's
// view of the state, and the events whose audience includes the seat, as
// the seat is shown them (Event.Shown).
func (g *Game) View(seat string) View {
	v := View{Seat: seat}
	for _, e := range g.log {
		if e.Visible(seat) {
			v.Events = append(v.Events, e.Shown(seat, g.st.fog != nil))
		}
	}
	v.State = g.Sees(seat)
	return v
}
