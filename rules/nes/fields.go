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

// Match reports whether NES field name of e is want.
func (r *Rules) Match(e *game.Event, name, want string) bool {
	var got []string
	add := func(s ...string) { got = append(got, s...) }
	if name == "roll" {
		for _, ro := range e.Rolls {
			add(ro.Subject + " " + strconv.Itoa(ro.Natural) + " " + strconv.Itoa(ro.Total))
		}
		return slices.Contains(got, want)
	}
	switch d := e.Data.(type) {
	case *Begun:
		for _, m := range d.Markers {
			switch name {
			case "leader":
				add(m.Leader)
			case "delay":
				add(strconv.Itoa(m.Delay))
			case "check":
				if m.Result == "" {
					add(m.Leader + " " + delayMarker(m.Delay))
				} else {
					add(m.Leader + " " + m.Result)
				}
			}
		}
	case *Sent:
		switch name {
		case "sender":
			add(d.Sender)
		case "leader":
			add(d.Receiver)
		case "order":
			add(d.Order.Kind)
		case "dist":
			add(strconv.Itoa(d.Dist))
		case "check":
			add(d.Receiver + " " + d.Result)
		case "delay":
			if n, ok := delayOf(d.Result); ok {
				add(strconv.Itoa(n))
			}
		case "cost":
			add(strconv.Itoa(d.Cost))
		}
	case *Placed:
		if name == "leader" {
			add(d.Leader)
		}
	case *Retired:
		if name == "leader" {
			add(d.Leader)
		}
	case *Checked:
		for _, c := range d.Checks {
			switch name {
			case "leader":
				add(c.Leader)
				add(c.Fall...)
			case "check":
				add(c.Leader + " " + c.Result)
				for _, f := range c.Fall {
					add(f + " " + Standing)
				}
			}
		}
	case *Moved:
		switch name {
		case "unit":
			add(d.Unit)
		case "leader":
			add(d.Leader)
		case "cost":
			add(MP(d.Cost))
		case "hexes":
			add(strconv.Itoa(len(d.Path)))
		case "to":
			add(d.To)
		case "disorder":
			add(strconv.FormatBool(d.Disorder))
		case "general-order":
			add(strconv.FormatBool(d.General))
		case "disorder-at":
			add(d.DisorderAt)
		case "general-order-at":
			add(d.GeneralAt)
		}
	case *Formed:
		switch name {
		case "unit":
			add(d.Unit)
		case "formation":
			add(d.Formation)
		case "cost":
			add(MP(d.Cost))
		}
	case *Lost:
		switch name {
		case "unit":
			add(d.Unit)
		case "situation":
			add(d.Situation)
		}
		for _, c := range d.Checks {
			switch name {
			case "leader":
				add(c.Leader)
			case "check":
				add(c.Leader + " " + c.Result)
			case "effect":
				add(c.Effect)
			}
		}
	case *Fired:
		switch name {
		case "unit":
			add(d.Unit)
			add(d.Hit...)
		case "to":
			add(d.Target)
		case "impact":
			add(d.Impact)
		case "effect":
			add(d.Effect)
		}
	case *Charged:
		switch name {
		case "unit":
			add(d.Unit)
			for _, c := range d.Checks {
				add(c.Unit)
			}
		case "to":
			add(d.Target)
		case "effect":
			add(d.Effect)
		case "disorder":
			add(strconv.FormatBool(d.Disordered))
		case "check":
			for _, c := range d.Checks {
				add(c.Unit + " " + c.Zone + " " + strconv.Itoa(c.Modifier) + " " + c.Result)
			}
		}
	}
	return slices.Contains(got, want)
}

// delayOf reads the level of a delay-N result.
func delayOf(result string) (int, bool) {
	if len(result) == len("delay-1") && result[:6] == "delay-" {
		return int(result[6] - '0'), true
	}
	return 0, false
}
