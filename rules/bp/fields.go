package bp

import (
	"slices"
	"strconv"

	"orderly/game"
)

// Fields lists the fields a script's expectations may name, the engine's
// among them, in the order they are shown (game.Fielder).
func (r *Rules) Fields() []string {
	return []string{"turn", "phase", "step", "type", "side", "brigade", "general", "unit", "kind", "target",
		"result", "natural", "total", "moves", "blunder", "forced", "response", "casualties", "disorders", "test", "gone",
		"loser", "margin", "engaged", "rule", "verb"}
}

// Match reports whether BP field name of e is want. unit matches the unit
// an event is about or any it lists; test matches the result of any break
// test it records, and gone any unit it takes off the table.
func (r *Rules) Match(e *game.Event, name, want string) bool {
	var got []string
	add := func(s ...string) { got = append(got, s...) }
	switch d := e.Data.(type) {
	case *Initiative:
		if name == "unit" {
			add(d.Unit)
		}
	case *Ordered:
		switch name {
		case "brigade":
			add(d.Brigade)
		case "general":
			add(d.General)
		case "unit":
			add(d.Units...)
		case "kind":
			add(d.Kind)
		case "moves":
			add(strconv.Itoa(d.Moves))
		case "blunder":
			add(d.Blunder)
		case "forced":
			for _, f := range d.Forced {
				add(inch(f))
			}
		}
	case *Moved:
		switch name {
		case "unit":
			add(d.Unit)
		case "general":
			add(d.General)
		}
	case *Charged:
		switch name {
		case "unit":
			add(d.Unit)
		case "target":
			add(d.Target)
		}
	case *Responded:
		switch name {
		case "unit":
			add(d.Unit)
		case "target":
			add(d.Charger)
		case "response":
			add(d.Response)
		case "engaged":
			add(strconv.FormatBool(d.Engaged))
		}
		if d.Volley != nil {
			add(volleyField(d.Volley, name)...)
		}
	case *Volley:
		switch name {
		case "unit":
			add(d.Shooter)
		case "target":
			add(d.Target)
		}
		add(volleyField(d, name)...)
	case *Fought:
		switch name {
		case "unit":
			add(d.Units...)
		case "loser":
			add(d.Loser)
		case "margin":
			add(strconv.Itoa(d.Margin))
		case "test":
			for _, t := range d.Tests {
				add(t.Result)
			}
		case "gone":
			for _, t := range d.Tests {
				if t.Gone {
					add(t.Unit)
				}
			}
		}
	case *Revealed:
		if name == "unit" {
			add(d.Units...)
		}
	case *Crossed:
		if name == "unit" {
			add(d.Unit)
			add(d.Units...)
		}
	case *TurnEnded:
		if name == "unit" {
			add(d.Recovered...)
		}
	}
	return slices.Contains(got, want)
}

func volleyField(v *Volley, name string) []string {
	switch name {
	case "casualties":
		return []string{strconv.Itoa(v.Casualties)}
	case "disorders":
		return []string{strconv.FormatBool(v.Disorders)}
	case "test":
		if v.Test != nil {
			return []string{v.Test.Result}
		}
		return []string{""}
	case "gone":
		if v.Test != nil && v.Test.Gone {
			return []string{v.Target}
		}
	}
	return nil
}
