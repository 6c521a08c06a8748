package cd

import (
	"fmt"
	"strconv"
	"strings"

	"orderly/game"
)

// CD's event types.
const (
	EvActivated = "activated"  // an activation roll and its factor (CD-1, CD-4, CD-5)
	EvMoved     = "moved"      // a unit, group or division moves (CD-2, CD-3, CD-6, CD-7, CD-8)
	EvRelieved  = "relieved"   // a front-line unit is relieved (CD-7)
	EvRetired   = "retired"    // a forced move after a morale loss, with the units it displaces (CD-9)
	EvScreened  = "screened"   // a unit reinforces its division's skirmish screen (CD-8)
	EvRecalled  = "recalled"   // a unit comes back from the screen (CD-8)
	EvLost      = "lost"       // a commander is lost and replaced (CD-8)
	EvMarked    = "marked"     // the players record what befell a unit at the table
	EvTurnEnded = "turn-ended" // a side's turn ends
)

// events is CD's event types, each with its payload type, whose methods
// fold, describe and match it: events_move.go (activations and moves),
// events_units.go (the screen, losses, marks and the turn's end).
var events = game.Events[*Rules]{
	game.Type[*Rules, Activated](EvActivated),
	game.Type[*Rules, Moved](EvMoved),
	game.Type[*Rules, Relieved](EvRelieved),
	game.Type[*Rules, Retired](EvRetired),
	game.Type[*Rules, Screened](EvScreened),
	game.Type[*Rules, Recalled](EvRecalled),
	game.Type[*Rules, Lost](EvLost),
	game.Type[*Rules, Marked](EvMarked),
	game.Type[*Rules, TurnEnded](EvTurnEnded),
}

// EventTypes lists CD's event types.
func (r *Rules) EventTypes() []string { return events.Types() }

// Payload makes an empty payload for an event type.
func (r *Rules) Payload(typ string) (any, bool) { return events.Payload(typ) }

// Apply folds one of CD's events into the state with its payload's Fold;
// the pieces' moves are the engine's.
func (r *Rules) Apply(s *game.State, e *game.Event) error { return events.Apply(r, s, e) }

// Describe words an event in one sentence, for the log, scripts and the
// page, with its payload's Describe.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	return events.Describe(r, e, name)
}

// Fields lists the fields a script's expectations may name, the engine's
// among them, in the order they are shown (game.Fielder).
func (r *Rules) Fields() []string {
	return []string{"turn", "phase", "step", "type", "side", "kind", "formation", "general", "unit", "result", "natural", "total",
		"factor", "roll", "local", "distance", "cost", "mode", "disrupted", "passage", "displaced", "successor", "rating", "rule", "verb"}
}

// Match reports whether CD field name of e is want, with its payload's
// Field. unit matches any unit an event names, disrupted any disruptive
// terrain result of a move.
func (r *Rules) Match(e *game.Event, name, want string) bool {
	return events.Match(r, e, name, want)
}

// unitOf is the unit called id, or an error naming it: an event names
// only units of the game.
func (st *State) unitOf(id string) (*Unit, error) {
	if u := st.Unit(id); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("no unit %s", id)
}

// hit applies a result of the disruptive terrain chart (CD-6); the event's
// moves put a disordered unit in general order.
func (u *Unit) hit(result string, steps int) {
	switch {
	case result == "shaken":
		u.Shaken = true
	case strings.HasPrefix(result, "disordered"):
		u.Disordered = true
	}
	u.Steps += steps
}

// factorWords writes an activation factor: x1.5, x0.75, none.
func factorWords(f float64) string {
	if f == 0 {
		return "no move"
	}
	return "x" + strconv.FormatFloat(f, 'f', -1, 64)
}

// modeWords is how a leg was moved (a row of cd/movement or
// cd/artillery-movement: a formation, a charge, or an artillery mode) as
// prose after a rate: "in column", "by road", "to limber and move".
func modeWords(mode string) string {
	switch mode {
	case "road":
		return "by road"
	case "field":
		return "across the field"
	case "prolonge":
		return "by prolonge"
	case "limber-move":
		return "to limber and move"
	case "move-unlimber-fire":
		return "to move, unlimber and fire"
	case "limber-move-unlimber-fire":
		return "to limber, move, unlimber and fire"
	}
	if shape, ok := strings.CutSuffix(mode, "-charge"); ok {
		return "charging " + game.Formed(shape)
	}
	return game.Formed(mode)
}

// rolled words an event's first roll and its result.
func rolled(e *game.Event) string {
	if len(e.Rolls) == 0 {
		return "no roll"
	}
	return rollWords(&e.Rolls[0])
}

// lastRoll words an event's last roll and its result.
func lastRoll(e *game.Event, result string) string {
	if len(e.Rolls) == 0 {
		return result
	}
	return rollWords(&e.Rolls[len(e.Rolls)-1])
}

// rollWords is a roll's dice and faces, its modifiers by name, its total
// and result: 2d6 rolled 4+4 -1 command-style = 7: x0.75.
func rollWords(ro *game.Roll) string {
	var b strings.Builder
	fs := make([]string, len(ro.Faces))
	for i, f := range ro.Faces {
		fs[i] = strconv.Itoa(f)
	}
	fmt.Fprintf(&b, "%s rolled %s", ro.Dice, strings.Join(fs, "+"))
	for _, m := range ro.Mods {
		if m.Amount != 0 {
			fmt.Fprintf(&b, " %+d %s", m.Amount, m.Name)
		}
	}
	fmt.Fprintf(&b, " = %d: %s", ro.Total, ro.Result)
	return b.String()
}

func names(ids []string, name func(string) string) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = name(id)
	}
	return strings.Join(s, ", ")
}
