package cd

import (
	"orderly/battle"
	"orderly/game"
)

// Measures is what a Monte Carlo run of a CD plan measures (orderly
// sim): for each formation named in the plan's activations, the first
// turn its roll gives each result (x1.5, x1, x0.75, x0.5, none), and for
// each unit the first turn it is shaken or disordered by terrain or a
// passage (CD-1, CD-6, CD-7). A move toward a place that the allowance
// does not reach is refused in the plan, so how far a division gets in N
// turns shows as the turn its units first move.
func (r *Rules) Measures() game.Measure {
	return game.Measure{What: "first turn each formation's activation gives each result, and each unit first moves or is shaken or disordered",
		Subject: "formation or unit", Subjects: "subjects", First: "first-turn",
		Label: "outcome", Labels: "outcomes", Plot: "first turn of an outcome"}
}

// Planned lists what a plan's command will be measured for: an
// activation's formation, a move's unit.
func (r *Rules) Planned(sc *battle.Scenario, c *game.Command) []string {
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return nil
	}
	switch c.Verb {
	case "activate":
		switch {
		case a.Division != "":
			return []string{a.Division}
		case a.Unit != "":
			return []string{a.Unit}
		case len(a.Units) > 0:
			if u := sc.Unit(a.Units[0]); u != nil {
				return []string{u.Division}
			}
		}
	case "move":
		return []string{a.Unit}
	}
	return nil
}

// Measure notes what e shows happening, with the turn.
func (r *Rules) Measure(e *game.Event, note func(subject, label string, turn int)) {
	switch d := e.Data.(type) {
	case *Activated:
		subj := d.Formation
		if d.Kind == "unit" {
			subj = d.Units[0]
		}
		note(subj, d.Result, e.Turn)
	case *Moved:
		for _, l := range d.Legs {
			if l.Distance > 0 {
				note(l.Unit, "moved", e.Turn)
			}
		}
		for _, x := range d.Disrupted {
			if x.Result != "ok" {
				note(x.Unit, x.Result, e.Turn)
			}
		}
	}
}
