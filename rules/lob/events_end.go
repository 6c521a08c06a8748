package lob

import (
	"fmt"
	"strings"

	"orderly/game"
)

// The events that end orders or stop attacks: conditions met, fluke
// stoppage and recovery checks, attacks ended as futile, orders declared
// fulfilled, and the end of the player turn.

// Check is one Command's fluke stoppage check or attack recovery roll.
type Check struct {
	Command string `json:"command"`
	Step    string `json:"step,omitempty"` // recovery: first or second
	Result  string `json:"result"`
	// Lost lists the formations that lose reserve status when it flukes.
	Lost []string `json:"lost,omitempty"`
}

// Checks is the payload of a checks event.
type Checks struct {
	Side     string  `json:"side"`
	Fluke    []Check `json:"fluke,omitempty"`
	Recovery []Check `json:"recovery,omitempty"`
}

// Fold records fluke stoppage checks and attack recovery rolls (LOB-7).
func (d *Checks) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	for _, c := range d.Fluke {
		if c.Result != "fluke" {
			continue
		}
		if err := st.flukes(c, e.Turn); err != nil {
			return err
		}
	}
	for _, c := range d.Recovery {
		if err := st.recovers(c, e.Turn); err != nil {
			return err
		}
	}
	return nil
}

// flukes stops c.Command's attack by a fluke (LOB-7): its attack order
// fluked, it has no orders and begins attack recovery next turn, and the
// formations c lists lose reserve status.
func (st *State) flukes(c Check, turn int) error {
	f, err := st.needFormation(c.Command)
	if err != nil {
		return err
	}
	if o := st.liveAttack(f); o != nil {
		o.Stage = Fluked
		f.Last = o.ID
	}
	f.Order, f.Fluked, f.Futile, f.FlukeFrom, f.Declared = "", true, false, 0, false
	f.Recovery, f.RecoverFrom = First, turn+1
	for _, id := range c.Lost {
		if g := st.Formation(id); g != nil {
			g.Reserve = false
		}
	}
	return nil
}

// recovers folds one attack recovery roll (LOB-7): a first step passed
// leads to the second next turn, a second passed ends recovery and its
// last order, a second failed goes back to the first.
func (st *State) recovers(c Check, turn int) error {
	f, err := st.needFormation(c.Command)
	if err != nil {
		return err
	}
	last := st.Order(f.Last)
	if last != nil {
		last.Stage = Recovering
	}
	switch {
	case c.Result == "pass" && c.Step == First:
		f.Recovery, f.RecoverFrom = Second, turn+1
	case c.Result == "pass":
		f.Recovery, f.RecoverFrom, f.Fluked, f.Futile, f.Attacked = "", 0, false, false, false
		if last != nil {
			last.Stage = Done
		}
		f.Last = ""
	case c.Step == Second:
		f.Recovery, f.RecoverFrom = First, turn+1
	}
	return nil
}

// Describe words the checks and their results.
func (d *Checks) Describe(r *Rules, e *game.Event, name func(string) string) string {
	var parts []string
	n := 0
	for _, c := range d.Fluke {
		s := fmt.Sprintf("%s fluke stoppage check: %s%s", name(c.Command), words(c.Result), rollText(e, n))
		if len(c.Lost) > 0 {
			s += "; " + list(c.Lost, name) + " lose reserve status"
		}
		parts = append(parts, s)
		n++
	}
	for _, c := range d.Recovery {
		parts = append(parts, fmt.Sprintf("%s attack recovery, %s step: %s%s", name(c.Command), c.Step, c.Result, rollText(e, n)))
		n++
	}
	return fmt.Sprintf("Checks (%s): %s.", d.Side, strings.Join(parts, "; "))
}

// Field gives a checks event's results (check "COMMAND RESULT" for fluke,
// "COMMAND STEP RESULT" for recovery), Commands checked and formations
// that lose reserve status (released).
func (d *Checks) Field(r *Rules, e *game.Event, name string) []string {
	var got []string
	for _, c := range d.Fluke {
		switch name {
		case "check":
			got = append(got, c.Command+" "+c.Result)
		case "command":
			got = append(got, c.Command)
		case "released":
			got = append(got, c.Lost...)
		}
	}
	for _, c := range d.Recovery {
		switch name {
		case "check":
			got = append(got, c.Command+" "+c.Step+" "+c.Result)
		case "command":
			got = append(got, c.Command)
		}
	}
	return got
}

// Condition is the payload of a condition-met event.
type Condition struct {
	Order string `json:"order"`
}

// Fold marks the conditional order, and its relays, met (LOB-6).
func (d *Condition) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	o, err := st.needOrder(d.Order)
	if err != nil {
		return err
	}
	o.Met = true
	for i := range st.Orders {
		if c := &st.Orders[i]; c.Parent == o.ID {
			c.Met = true
		}
	}
	return nil
}

// Describe words a condition met.
func (d *Condition) Describe(r *Rules, e *game.Event, name func(string) string) string {
	return fmt.Sprintf("The condition of order %s is fulfilled.", d.Order)
}

// Field gives the order whose condition is met.
func (d *Condition) Field(r *Rules, e *game.Event, name string) []string {
	if name == "order" {
		return []string{d.Order}
	}
	return nil
}

// Ending is the payload of futile and declared events.
type Ending struct {
	Command string `json:"command"`
	Order   string `json:"order"`
	// Orders lists every order the ending reaches (a corps order's
	// relays), Commands the Commands it leaves with no orders.
	Orders   []string `json:"orders,omitempty"`
	Commands []string `json:"commands,omitempty"`
	Recover  []string `json:"recover,omitempty"` // Commands that begin attack recovery
}

// Fold marks an order declared fulfilled, to end with the player turn, or
// ends an attack order as futile (LOB-7).
func (d *Ending) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	f, err := st.needFormation(d.Command)
	if err != nil {
		return err
	}
	if e.Type == EvDeclared {
		f.Declared = true
		return nil
	}
	return st.end(d.Orders, d.Commands, d.Recover, Futile, e.Turn)
}

// Describe words an order declared fulfilled or ended as futile.
func (d *Ending) Describe(r *Rules, e *game.Event, name func(string) string) string {
	if e.Type == EvDeclared {
		return fmt.Sprintf("%s's order %s is declared fulfilled; it ends with the player turn.", name(d.Command), d.Order)
	}
	s := fmt.Sprintf("%s ends attack order %s as futile; %s go to no-orders status", name(d.Command), d.Order, list(d.Commands, name))
	if len(d.Recover) > 0 {
		s += " and " + list(d.Recover, name) + " begin attack recovery"
	}
	return s + "."
}

// Field gives the Commands and orders an ending reaches.
func (d *Ending) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "command":
		return append([]string{d.Command}, d.Commands...)
	case "order":
		return append([]string{d.Order}, d.Orders...)
	}
	return nil
}

// Ended is the payload of a turn-ended event.
type Ended struct {
	Side      string   `json:"side"`
	Fulfilled []string `json:"fulfilled,omitempty"`
	Commands  []string `json:"commands,omitempty"`
	Recover   []string `json:"recover,omitempty"`
	Goal      bool     `json:"goal,omitempty"` // the army HQ reached its destination
}

// Fold ends the player turn (LOB-7): the orders fulfilled end, their
// Commands have no orders, and the army HQ's move is over if it arrived.
func (d *Ended) Fold(r *Rules, s *game.State, e *game.Event) error {
	st := ext(s)
	if d.Goal {
		if sd := st.Side(d.Side); sd != nil {
			sd.Goal = nil
		}
	}
	return st.end(d.Fulfilled, d.Commands, d.Recover, Fulfilled, e.Turn)
}

// Describe words the end of a player turn.
func (d *Ended) Describe(r *Rules, e *game.Event, name func(string) string) string {
	var parts []string
	if len(d.Fulfilled) > 0 {
		parts = append(parts, "orders "+strings.Join(d.Fulfilled, ", ")+" fulfilled; "+list(d.Commands, name)+" to no-orders status")
	}
	if len(d.Recover) > 0 {
		parts = append(parts, list(d.Recover, name)+" begin attack recovery")
	}
	if d.Goal {
		parts = append(parts, "the army HQ has reached its destination")
	}
	return fmt.Sprintf("%s's player turn ends: %s.", d.Side, strings.Join(parts, "; "))
}

// Field gives the orders fulfilled and the Commands left with no orders.
func (d *Ended) Field(r *Rules, e *game.Event, name string) []string {
	switch name {
	case "order":
		return d.Fulfilled
	case "command":
		return d.Commands
	}
	return nil
}
