package nes

import (
	"slices"
	"strconv"

	"orderly/game"
)

// Fields lists the fields a script's expectations may name, the engine's
// among them, in the order they are shown (game.Fielder). An event that
// records several command units or rolls (a turn's markers, continuation
// checks, command unit loss, a charge's morale checks) is matched on each:
// check is "ID RESULT" for any of them, roll "SUBJECT NATURAL TOTAL" for
// any of its rolls.
func (r *Rules) Fields() []string {
	return []string{"turn", "phase", "step", "type", "side", "sender", "leader", "unit", "order", "dist", "delay",
		"check", "roll", "cost", "to", "hexes", "disorder", "general-order", "disorder-at", "general-order-at", "formation", "situation", "effect", "impact",
		"result", "natural", "total", "rule", "verb"}
}

// Match reports whether NES field name of e is want: roll for any of e's
// rolls, every other field by e's payload (its Field).
func (r *Rules) Match(e *game.Event, name, want string) bool {
	if name == "roll" {
		return slices.ContainsFunc(e.Rolls, func(ro game.Roll) bool {
			return ro.Subject+" "+strconv.Itoa(ro.Natural)+" "+strconv.Itoa(ro.Total) == want
		})
	}
	return events.Match(r, e, name, want)
}
