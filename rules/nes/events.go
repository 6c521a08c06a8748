package nes

import (
	"fmt"
	"strings"

	"orderly/game"
)

// NES's event types.
const (
	EvBegun   = "turn-begun" // a side's turn begins: points renewed, markers step down and roll (NES-2)
	EvSent    = "sent"       // an order is sent and delivered, delayed or ignored (NES-1, NES-2)
	EvCP      = "cp-placed"  // a command point is stacked with a commander (NES-3)
	EvChecked = "checked"    // continuation checks (NES-3)
	EvMoved   = "moved"      // a piece moves over the map (NES-7)
	EvFormed  = "formed"     // a combat unit changes formation
	EvLost    = "lost"       // a combat unit loses strength; command unit loss (NES-4)
	EvFired   = "bombarded"  // extended-range artillery fire (NES-5)
	EvCharged = "charged"    // a cavalry charge and the morale checks (NES-6)
	EvRetired = "retired"    // a brigade leader retires, or comes back (NES-3)
)

// events is the registry of NES's event types, each with its payload:
// every event type is defined here once, its methods next to its type
// (events_command.go, events_move.go, events_combat.go).
var events = game.Events[*Rules]{
	game.Type[*Rules, Begun](EvBegun),
	game.Type[*Rules, Sent](EvSent),
	game.Type[*Rules, Placed](EvCP),
	game.Type[*Rules, Checked](EvChecked),
	game.Type[*Rules, Moved](EvMoved),
	game.Type[*Rules, Formed](EvFormed),
	game.Type[*Rules, Lost](EvLost),
	game.Type[*Rules, Fired](EvFired),
	game.Type[*Rules, Charged](EvCharged),
	game.Type[*Rules, Retired](EvRetired),
}

// EventTypes lists NES's event types.
func (r *Rules) EventTypes() []string { return events.Types() }

// Payload makes an empty payload for an event type.
func (r *Rules) Payload(typ string) (any, bool) { return events.Payload(typ) }

// Apply folds one of NES's events into the state, with its payload's Fold.
// Every NES event carries a payload.
func (r *Rules) Apply(s *game.State, e *game.Event) error {
	if e.Data == nil {
		return fmt.Errorf("event %d (%s) has no payload, and every NES event has one", e.Seq, e.Type)
	}
	return events.Apply(r, s, e)
}

// Describe says in one sentence what an NES event records, with its
// payload's Describe; an event it cannot read is shown by its type.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	if d := events.Describe(r, e, name); d != "" {
		return d
	}
	return e.Type
}

// commandUnit is the command unit id, or an error if the state has none:
// an event that names one folds only into a state that holds it.
func (st *State) commandUnit(id string) (*Leader, error) {
	if l := st.Leader(id); l != nil {
		return l, nil
	}
	return nil, fmt.Errorf("no command unit %s", id)
}

// combatUnit is the combat unit id, or an error if the state has none.
func (st *State) combatUnit(id string) (*Unit, error) {
	if u := st.Unit(id); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("no combat unit %s", id)
}

// rollText is the i-th roll of e as a describing sentence shows it, " (table
// natural, total n)", or "" if e has no such roll.
func rollText(e *game.Event, i int) string {
	if i < len(e.Rolls) {
		ro := e.Rolls[i]
		return fmt.Sprintf(" (%s %d, total %d)", ro.Table, ro.Natural, ro.Total)
	}
	return ""
}

func delayMarker(n int) string { return "delay-" + itoa(n) }

func words(s string) string { return strings.ReplaceAll(s, "-", " ") }

func orNothing(s string) string {
	if s == "" {
		return "no effect"
	}
	return words(s)
}

func mapNames(ids []string, name func(string) string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = name(id)
	}
	return out
}

// MP writes sixths of a movement point as points: 3, 2 1/2, 2/3.
func MP(sixths int) string {
	whole, rest := sixths/Sixths, sixths%Sixths
	if rest == 0 {
		return itoa(whole)
	}
	num, den := rest, Sixths
	for _, g := range []int{3, 2} {
		if num%g == 0 && den%g == 0 {
			num, den = num/g, den/g
		}
	}
	frac := fmt.Sprintf("%d/%d", num, den)
	if whole == 0 {
		return frac
	}
	return fmt.Sprintf("%d %s", whole, frac)
}
