package cd

import (
	"strconv"

	"orderly/game"
)

// Fields lists the fields a script's expectations may name, the engine's
// among them, in the order they are shown (game.Fielder).
func (r *Rules) Fields() []string {
	return []string{"turn", "phase", "step", "type", "side", "kind", "formation", "general", "unit", "result", "natural", "total",
		"factor", "roll", "local", "distance", "cost", "mode", "disrupted", "passage", "displaced", "successor", "rating", "rule", "verb"}
}

// Match reports whether CD field name of e is want. unit matches any unit
// an event names, disrupted any disruptive terrain result of a move.
func (r *Rules) Match(e *game.Event, name, want string) bool {
	var got []string
	add := func(s ...string) { got = append(got, s...) }
	switch d := e.Data.(type) {
	case *Activated:
		switch name {
		case "kind":
			add(d.Kind)
		case "formation":
			add(d.Formation)
		case "general":
			add(d.General)
		case "unit":
			add(d.Units...)
		case "factor":
			add(strconv.FormatFloat(d.Factor, 'f', -1, 64))
		case "roll":
			add(strconv.Itoa(d.Roll))
		case "local":
			add(strconv.FormatBool(d.Local))
		}
	case *Moved:
		switch name {
		case "unit":
			add(d.Units...)
		case "distance":
			for _, l := range d.Legs {
				add(inch(l.Distance))
			}
		case "cost":
			for _, l := range d.Legs {
				add(inch(100 * (l.Cost + l.Change)))
			}
		case "mode":
			for _, l := range d.Legs {
				add(l.Mode)
			}
		case "disrupted":
			for _, x := range d.Disrupted {
				add(x.Result)
			}
		case "passage":
			add(d.Passage)
		}
	case *Relieved:
		switch name {
		case "unit":
			add(d.Unit, d.Relieved)
		case "passage":
			add(d.Result)
		}
	case *Retired:
		switch name {
		case "unit":
			add(d.Unit)
		case "distance":
			add(inch(d.Distance))
		case "displaced":
			add(d.Displaced...)
		}
	case *Screened:
		switch name {
		case "unit":
			add(d.Unit)
		case "formation":
			add(d.Division)
		}
	case *Recalled:
		switch name {
		case "unit":
			add(d.Unit)
		case "formation":
			add(d.Division)
		}
	case *Lost:
		switch name {
		case "general":
			add(d.General)
		case "successor":
			for _, s := range d.Successors {
				add(s.General)
			}
		case "rating":
			for _, s := range d.Successors {
				add(s.Rating)
			}
		case "formation":
			for _, s := range d.Successors {
				add(s.Formation)
			}
		}
	case *Marked:
		if name == "unit" {
			add(d.Unit)
		}
	}
	for _, g := range got {
		if g == want {
			return true
		}
	}
	return false
}
