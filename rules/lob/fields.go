package lob

import (
	"strconv"

	"orderly/game"
)

// Fields lists the fields a script's expectations may name, the engine's
// among them (game.Fielder). An event that records several orders or
// rolls is matched on each: check is "ID RESULT" for any acceptance,
// fluke, recovery, initiative or command roll in it ("union-3 accepted",
// "II-1 fluke", "II-1 second pass", "pope issued"), relayed "ID TURN" for
// a relay and the turn it arrives, roll "SUBJECT NATURAL TOTAL", kept for
// a relay that arrives with no acceptance roll (at a reserve, LOB-5),
// follows for the existing orders a released reserve follows, entry
// "PIECE HEX" for a piece of a reinforcement that enters elsewhere than
// its scenario's hex (3.7a; an HQ is hq:COMMAND).
func (r *Rules) Fields() []string {
	return []string{"turn", "phase", "step", "type", "side", "order", "command", "leader", "unit", "kind", "purpose",
		"dist", "turns", "arrives", "check", "executing", "superseded", "relayed", "arrived", "kept", "entered", "reserve", "released",
		"follows", "held", "to", "cost", "roll", "result", "natural", "total", "rule", "verb", "entry"}
}

// Match reports whether LOB field name of e is want: roll of any event,
// every other field by e's payload's Field.
func (r *Rules) Match(e *game.Event, name, want string) bool {
	if name == "roll" {
		for _, ro := range e.Rolls {
			if ro.Subject+" "+strconv.Itoa(ro.Natural)+" "+strconv.Itoa(ro.Total) == want {
				return true
			}
		}
		return false
	}
	return events.Match(r, e, name, want)
}
