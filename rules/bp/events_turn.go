package bp

import (
	"fmt"

	"orderly/game"
)

// Revealed is the payload of a revealed event.
type Revealed struct {
	Units []string `json:"units"`
}

// Fold shows the units.
func (d *Revealed) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	for _, id := range d.Units {
		st.reveal(id)
	}
	return nil
}

// Describe words the units now seen.
func (d *Revealed) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("%s can now be seen", names(d.Units, name))
}

// Field gives the units seen.
func (d *Revealed) Field(r *Rules, e *game.Event, name string) []string {
	if name == "unit" {
		return d.Units
	}
	return nil
}

// TurnEnded is the payload of a turn-ended event.
type TurnEnded struct {
	Side      string   `json:"side"`
	Recovered []string `json:"recovered,omitempty"`
}

// Fold recovers the side's disordered units from the state alone (the
// event names only the units every seat sees; BP-3), ends every combat
// phase, and clears what the side's units, commanders and brigades did
// this turn.
func (d *TurnEnded) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	for i := range st.Units {
		if u := &st.Units[i]; u.Side == d.Side && u.Disordered && !u.KeepDisorder && !u.Gone {
			u.Disordered = false
		}
	}
	for i := range st.Units {
		u := &st.Units[i]
		u.Fought = false // a combat phase has ended
		if u.Side == d.Side {
			u.Order, u.Forced, u.Allow, u.Used = "", "", 0, 0
			u.Ordered, u.Initiative, u.Shot, u.KeepDisorder = false, false, false, false
		}
	}
	for i := range st.Generals {
		if g := &st.Generals[i]; g.Side == d.Side {
			g.Moved = false
		}
	}
	for i := range st.Brigades {
		if b := &st.Brigades[i]; b.Side == d.Side {
			b.Orders, b.Done = 0, false
		}
	}
	return nil
}

// Describe words the turn's end and the units that recovered.
func (d *TurnEnded) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if len(d.Recovered) == 0 {
		return fmt.Sprintf("The %s turn ends", name(d.Side))
	}
	return fmt.Sprintf("The %s turn ends; %s recover from disorder", name(d.Side), names(d.Recovered, name))
}

// Field gives the units recovered from disorder.
func (d *TurnEnded) Field(r *Rules, e *game.Event, name string) []string {
	if name == "unit" {
		return d.Recovered
	}
	return nil
}
