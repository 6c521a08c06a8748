package lob

import (
	"slices"
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

// Match reports whether LOB field name of e is want.
func (r *Rules) Match(e *game.Event, name, want string) bool {
	var got []string
	add := func(s ...string) { got = append(got, s...) }
	if name == "roll" {
		for _, ro := range e.Rolls {
			add(ro.Subject + " " + strconv.Itoa(ro.Natural) + " " + strconv.Itoa(ro.Total))
		}
		return slices.Contains(got, want)
	}
	effects := func(es []Effect) {
		for _, ef := range es {
			if name == "reserve" && ef.Reserve || name == "released" && !ef.Reserve {
				add(ef.Formation)
			}
			if name == "follows" && ef.Follows != "" {
				add(ef.Follows)
			}
		}
	}
	relays := func(os []Order) {
		for _, o := range os {
			switch name {
			case "relayed":
				add(o.ID + " " + strconv.Itoa(o.Arrives))
			case "order":
				add(o.ID)
			}
		}
	}
	switch d := e.Data.(type) {
	case *Begun:
		switch name {
		case "arrived", "order":
			add(d.Arrived...)
		case "kept":
			add(d.Kept...)
			add(d.Pending...)
		case "entered":
			add(d.Entered...)
			add(d.Rejoined...)
		case "entry":
			for _, en := range d.Diverted {
				add(en.Piece + " " + en.At)
			}
		case "executing":
			for _, o := range d.Adopted {
				add(o.ID)
			}
		}
		effects(d.Effects)
		relays(d.Relays)
	case *Acceptance:
		for _, t := range d.Rolls {
			switch name {
			case "check":
				add(t.Order + " " + t.Result)
			case "order":
				add(t.Order)
			}
		}
		switch name {
		case "executing":
			add(d.Executing...)
		case "kept":
			add(d.Existing...)
		case "superseded":
			add(d.Superseded...)
		case "order":
			add(d.Embedded...)
		}
		effects(d.Effects)
		relays(d.Relays)
	case *Checks:
		for _, c := range d.Fluke {
			switch name {
			case "check":
				add(c.Command + " " + c.Result)
			case "command":
				add(c.Command)
			case "released":
				add(c.Lost...)
			}
		}
		for _, c := range d.Recovery {
			switch name {
			case "check":
				add(c.Command + " " + c.Step + " " + c.Result)
			case "command":
				add(c.Command)
			}
		}
	case *Issue:
		switch name {
		case "leader":
			add(d.By)
		case "order":
			add(d.Order.ID)
			for _, o := range d.With {
				add(o.ID)
			}
		case "command":
			add(d.Order.To)
		case "kind":
			add(d.Order.Kind)
		case "dist":
			add(strconv.Itoa(d.Dist))
		case "turns":
			add(strconv.Itoa(d.Turns))
		case "arrives":
			add(strconv.Itoa(d.Order.Arrives))
		case "check":
			add(d.By + " " + d.Result)
		case "reserve":
			add(d.Order.Reserve)
		}
	case *Release:
		switch name {
		case "leader":
			add(d.By)
		case "command", "reserve":
			add(d.Formation)
		case "check":
			add(d.By + " " + d.Result)
		case "dist":
			add(strconv.Itoa(d.Dist))
		case "turns":
			add(strconv.Itoa(d.Turns))
		case "order", "arrives":
			if d.Order != nil {
				if name == "order" {
					add(d.Order.ID)
				} else {
					add(strconv.Itoa(d.Order.Arrives))
				}
			}
		}
	case *Initiative:
		switch name {
		case "leader":
			add(d.Leader)
		case "command":
			add(d.Formation)
		case "purpose":
			add(d.Purpose)
		case "check":
			add(d.Leader + " " + d.Result)
		case "follows":
			add(d.Follows)
		}
	case *Designation:
		switch name {
		case "order":
			add(d.Order)
		case "command":
			add(d.Command)
		case "leader":
			add(d.By)
		case "reserve":
			if d.Placed {
				add(d.Formation) // placed in reserve now
			}
		case "relayed":
			if d.Relay != nil {
				add(d.Relay.ID + " " + strconv.Itoa(d.Relay.Arrives))
			}
		}
	case *Skedaddle:
		switch name {
		case "command":
			add(d.Commands...)
			if len(d.Commands) == 0 && d.Command != "" {
				add(d.Command) // the side's own part of a skedaddle
			}
		case "unit":
			add(d.Cause)
			add(d.Limbered...)
		case "held":
			add(d.Held...)
		case "released":
			add(d.Lost...)
		}
	case *Condition:
		if name == "order" {
			add(d.Order)
		}
	case *Ending:
		switch name {
		case "command":
			add(d.Command)
			add(d.Commands...)
		case "order":
			add(d.Order)
			add(d.Orders...)
		}
	case *Ended:
		switch name {
		case "order":
			add(d.Fulfilled...)
		case "command":
			add(d.Commands...)
		}
	case *Moved:
		switch name {
		case "unit":
			add(d.Unit)
		case "leader":
			add(d.Leader)
		case "command":
			add(d.HQ)
		case "to":
			add(d.To)
		case "cost":
			add(MP(d.Cost))
		}
	case *Formed:
		if name == "unit" {
			add(d.Unit)
		}
	case *EntryNamed:
		switch name {
		case "command":
			add(d.Formation)
		case "to":
			add(d.At)
		}
	case *Lost:
		switch name {
		case "unit":
			add(d.Unit)
		case "command":
			add(d.Command)
		}
	}
	return slices.Contains(got, want)
}
