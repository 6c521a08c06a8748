package bp

import (
	"fmt"
	"strconv"

	"orderly/game"
)

// Initiative is the payload of an initiative event.
type Initiative struct {
	Unit  string  `json:"unit"`
	Allow float64 `json:"allow"` // inches: one move
	Away  bool    `json:"away,omitempty"`
}

// Fold gives the unit one move on its own initiative; a disordered unit's
// is a retreat away from the enemy (BP-3).
func (d *Initiative) Fold(r *Rules, s *game.State, e *game.Event) error {
	u, err := ext(s).unitOf(d.Unit)
	if err != nil {
		return err
	}
	u.Initiative, u.Order, u.Allow, u.Used = true, "initiative", d.Allow, 0
	if d.Away {
		u.Forced = "away"
	}
	return nil
}

// Describe words an initiative move (BP-3).
func (d *Initiative) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if d.Away {
		return fmt.Sprintf("%s, disordered, retreats on its own initiative: one move of %s\" away from every enemy", name(d.Unit), inch(d.Allow))
	}
	return fmt.Sprintf("%s moves on its own initiative: one move of %s\"", name(d.Unit), inch(d.Allow))
}

// Field gives the unit.
func (d *Initiative) Field(r *Rules, e *game.Event, name string) []string {
	if name == "unit" {
		return []string{d.Unit}
	}
	return nil
}

// Ordered is the payload of an ordered event: the order, the command
// roll's result, and what it gives each unit.
type Ordered struct {
	Brigade string   `json:"brigade"`
	General string   `json:"general"`
	Units   []string `json:"units"`
	Kind    string   `json:"kind"`
	Result  string   `json:"result"`            // a result of bp/command
	Moves   int      `json:"moves"`             // moves given (of a blunder: its forced move)
	Blunder string   `json:"blunder,omitempty"` // the blunder's result, the forced move
	// Forced is how far each unit went on the blunder's forced move.
	Forced []float64 `json:"forced,omitempty"`
	Allow  []float64 `json:"allow,omitempty"` // inches each unit may move
	// Rallied is each unit's casualties after a rally.
	Rallied []int `json:"rallied,omitempty"`
	// Last says the commander gives no more orders this turn.
	Last bool `json:"last,omitempty"`
	// Joined is the unit the commander joins (follow me, rally).
	Joined string `json:"joined,omitempty"`
}

// Fold counts the brigade's order, ends the orders of the side's other
// brigades that gave one, and gives each unit its order and allowance, a
// blunder's forced move, or a rally's casualties (BP-1, BP-2).
func (d *Ordered) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	b := st.Brigade(d.Brigade)
	if b == nil {
		return fmt.Errorf("no brigade %s", d.Brigade)
	}
	for i := range st.Brigades {
		if o := &st.Brigades[i]; o.Side == b.Side && o.ID != b.ID && o.Orders > 0 {
			o.Done = true
		}
	}
	b.Orders++
	b.Done = b.Done || d.Last
	for i, id := range d.Units {
		u, err := st.unitOf(id)
		if err != nil {
			return err
		}
		u.Ordered, u.Order, u.Used = true, d.Kind, 0
		if i < len(d.Allow) {
			u.Allow = d.Allow[i]
		}
		if d.Blunder != "" {
			u.Order, u.Forced = "blunder", d.Blunder
		}
		if i < len(d.Rallied) {
			u.wound(d.Rallied[i])
		}
	}
	if d.Joined != "" {
		if g := st.General(d.General); g != nil {
			g.Joined = d.Joined
		}
	}
	return nil
}

// Describe words an order with its command roll: a blunder, a failure, a
// rally, follow me, or the moves given.
func (d *Ordered) Describe(r *Rules, e *game.Event, name func(string) string) string {
	units, roll := names(d.Units, name), rollNote(e)
	switch {
	case d.Blunder != "":
		return fmt.Sprintf("%s orders %s to %s%s: a blunder, %s, carried out as a forced move (%s inches); no more orders from him this turn", name(d.General), units, orderWords(d.Kind), roll, d.Blunder, floats(d.Forced))
	case d.Result == "fail":
		return fmt.Sprintf("%s orders %s to %s%s: the order fails and he gives no more orders this turn", name(d.General), units, orderWords(d.Kind), roll)
	case d.Kind == "rally":
		return fmt.Sprintf("%s rallies %s%s: %s, casualties now %s; he joins the unit", name(d.General), units, roll, game.Count(d.Moves, "move", "moves"), ints2(d.Rallied))
	case d.Joined != "":
		return fmt.Sprintf("%s orders %s to follow him%s: %s; he joins the unit", name(d.General), units, roll, game.Count(d.Moves, "move", "moves"))
	}
	return fmt.Sprintf("%s orders %s to %s%s: %s", name(d.General), units, orderWords(d.Kind), roll, game.Count(d.Moves, "move", "moves"))
}

// Field gives the brigade, general, units, kind of order, moves given,
// blunder and the blunder's forced distances.
func (d *Ordered) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "brigade":
		return []string{d.Brigade}
	case "general":
		return []string{d.General}
	case "unit":
		return d.Units
	case "kind":
		return []string{d.Kind}
	case "moves":
		return []string{strconv.Itoa(d.Moves)}
	case "blunder":
		return []string{d.Blunder}
	case "forced":
		out := make([]string, len(d.Forced))
		for i, f := range d.Forced {
			out[i] = inch(f)
		}
		return out
	}
	return nil
}

// Moved is the payload of a moved event.
type Moved struct {
	Unit     string  `json:"unit,omitempty"`
	General  string  `json:"general,omitempty"`
	Distance float64 `json:"distance"`
	Cost     float64 `json:"cost"` // inches of the allowance used, changes included
	// Left says the commander left the unit he had joined.
	Left bool `json:"left,omitempty"`
	// Army says the army commander moved, which ends the brigades' orders.
	Army bool `json:"army,omitempty"`
	// Stopped says why the move ended short of where it was sent.
	Stopped string `json:"stopped,omitempty"`
	// Across lists the enemy units whose front the unit crossed within
	// 12", across half their frontage or more: each may give traversing
	// fire (BP-5). With fog of war it is left out: a crossed event says
	// it, after the contacts that show the units to the mover's side.
	Across []string `json:"across,omitempty"`
}

// Fold spends a unit's allowance or marks a commander moved (BP-4, BP-7).
func (d *Moved) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	if d.Unit != "" {
		if err := d.foldUnit(st); err != nil {
			return err
		}
	}
	if d.General != "" {
		return d.foldGeneral(st)
	}
	return nil
}

// foldUnit spends the unit's allowance, waits for traversing fire from
// the units it crossed, keeps the disorder of a unit that retreated on its
// initiative (BP-3) and shows it.
func (d *Moved) foldUnit(st *State) error {
	u, err := st.unitOf(d.Unit)
	if err != nil {
		return err
	}
	u.Used += d.Cost
	if len(d.Across) > 0 {
		st.Traverse = &Traverse{Unit: d.Unit, Firers: d.Across}
	}
	if u.Forced == "away" && d.Distance > 0 {
		u.KeepDisorder = true // it retreated disordered (BP-3)
	}
	st.reveal(d.Unit)
	return nil
}

// foldGeneral marks the commander moved, which ends his brigade's orders
// (BP-4), or every brigade's for the army commander, and leaves the unit
// he had joined if he left it.
func (d *Moved) foldGeneral(st *State) error {
	g := st.General(d.General)
	if g == nil {
		return fmt.Errorf("no commander %s", d.General)
	}
	g.Moved = true
	if b := st.Brigade(g.Brigade); b != nil {
		b.Done = true // his move ends his orders (BP-4)
	}
	if d.Left {
		g.Joined = ""
	}
	if d.Army {
		for i := range st.Brigades {
			if st.Brigades[i].Side == g.Side {
				st.Brigades[i].Done = true
			}
		}
	}
	return nil
}

// Describe words the move: how far and where to, the allowance a change
// of formation or facing used, why it stopped, the fronts it crossed.
func (d *Moved) Describe(r *Rules, e *game.Event, name func(string) string) string {
	who := name(d.Unit) + d.General
	if d.General != "" {
		who = name(d.General)
	}
	to := ""
	if len(e.Moves) > 0 {
		to = " to " + e.Moves[0].To.String()
	}
	s := fmt.Sprintf("%s moves %s\"%s", who, inch(d.Distance), to)
	if d.Cost > d.Distance+1e-9 {
		s = fmt.Sprintf("%s moves %s\"%s, using %s\" of its allowance with the change of formation or facing", who, inch(d.Distance), to, inch(d.Cost))
	}
	if d.Stopped != "" {
		s += "; it stops: " + d.Stopped
	}
	if len(d.Across) > 0 {
		s += fmt.Sprintf("; it crosses the front of %s, who may give traversing fire", names(d.Across, name))
	}
	return s
}

// Field gives the unit or the general.
func (d *Moved) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "unit":
		return []string{d.Unit}
	case "general":
		return []string{d.General}
	}
	return nil
}

// Crossed is the payload of a crossed event, played with fog of war: Unit
// crossed the front of Units, which saw it and may give traversing fire
// at it (BP-5). The contact of each with Unit comes before it.
type Crossed struct {
	Unit  string   `json:"unit"`
	Units []string `json:"units"`
}

// Fold waits for the traversing fire of the units crossed (BP-5).
func (d *Crossed) Fold(r *Rules, s *game.State, e *game.Event) error {
	if len(d.Units) > 0 {
		ext(s).Traverse = &Traverse{Unit: d.Unit, Firers: d.Units}
	}
	return nil
}

// Describe words the crossing.
func (d *Crossed) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s crosses the front of %s, who may give traversing fire", name(d.Unit), names(d.Units, name))
}

// Field gives the unit that crossed and the units crossed, as unit.
func (d *Crossed) Field(r *Rules, e *game.Event, name string) []string {
	if name == "unit" {
		return append([]string{d.Unit}, d.Units...)
	}
	return nil
}

// Passed is the payload of a passed event: the units that could give
// traversing fire at Unit and did not.
type Passed struct {
	Unit  string   `json:"unit"`
	Units []string `json:"units"`
	Auto  bool     `json:"auto,omitempty"`
}

// Fold ends the wait for traversing fire (BP-5).
func (d *Passed) Fold(r *Rules, s *game.State, e *game.Event) error {
	ext(s).Traverse = nil
	return nil
}

// Describe words the fire held, or not given for want of a reply.
func (d *Passed) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if d.Auto {
		return fmt.Sprintf("%s give no traversing fire at %s (no reply was given)", names(d.Units, name), name(d.Unit))
	}
	return fmt.Sprintf("%s hold their traversing fire at %s", names(d.Units, name), name(d.Unit))
}

// Field gives none: a passed event is matched by its type and side.
func (d *Passed) Field(r *Rules, e *game.Event, name string) []string { return nil }
