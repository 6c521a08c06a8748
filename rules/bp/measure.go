package bp

import (
	"orderly/battle"
	"orderly/game"
)

// Measures is what a Monte Carlo run of a BP plan measures (orderly sim):
// for each brigade the first turn its commander's roll gives each result
// (moves-1, moves-2, moves-3, fail, blunder; BP-1, BP-2), and for each
// unit the first turn it is disordered, shaken, made to retreat, or
// broken (BP-5, BP-6). A subject's first turn is that of the first of
// these.
func (r *Rules) Measures() game.Measure {
	return game.Measure{What: "first turn each brigade's command roll gives each result, and each unit is disordered, shaken, retreats or breaks",
		Subject: "brigade or unit", Subjects: "subjects", First: "first-turn",
		Label: "outcome", Labels: "outcomes", Plot: "first turn of an outcome"}
}

// Planned lists what a plan's command will be measured for: an order's
// brigade, a volley's target.
func (r *Rules) Planned(sc *battle.Scenario, c *game.Command) []string {
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return nil
	}
	switch c.Verb {
	case "order":
		return []string{a.Brigade}
	case "shoot":
		return []string{a.Target}
	}
	return nil
}

// Measure notes what e shows happening, with the turn.
func (r *Rules) Measure(e *game.Event, note func(subject, label string, turn int)) {
	test := func(t *Test) {
		if t == nil {
			return
		}
		switch {
		case t.Gone:
			note(t.Unit, "broken", e.Turn)
		case t.Result == "retreat":
			note(t.Unit, "retreat", e.Turn)
		}
	}
	volley := func(v *Volley) {
		if v.Disorders {
			note(v.Target, "disordered", e.Turn)
		}
		if v.Shaken {
			note(v.Target, "shaken", e.Turn)
		}
		test(v.Test)
	}
	switch d := e.Data.(type) {
	case *Ordered:
		note(d.Brigade, d.Result, e.Turn)
	case *Volley:
		volley(d)
	case *Responded:
		if d.Volley != nil {
			volley(d.Volley)
		}
	case *Fought:
		for _, id := range d.Shaken {
			note(id, "shaken", e.Turn)
		}
		for i := range d.Tests {
			test(&d.Tests[i])
		}
	}
}
