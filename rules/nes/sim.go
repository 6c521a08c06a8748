package nes

import (
	"orderly/battle"
	"orderly/game"
)

// Measures says what a Monte Carlo run of NES measures (orderly sim): the
// first turn each command unit's order is received, ignored, or its
// command state lapses to standing (NES-1..NES-3).
func (r *Rules) Measures() game.Measure {
	return game.Measure{What: "first turn each command unit receives an order, has one ignored, or falls to standing",
		Subject: "command unit", Subjects: "leaders", First: "first-turn",
		Label: "outcome", Labels: "outcomes", Plot: "first turn of an outcome"}
}

// Planned lists what a plan's command will be measured for: an order's
// receiver.
func (r *Rules) Planned(sc *battle.Scenario, c *game.Command) []string {
	a, ok := c.Args.(*Args)
	if !ok || a == nil || c.Verb != "send" {
		return nil
	}
	if f := sc.Formation(a.To); f != nil {
		return []string{f.General}
	}
	return []string{a.To}
}

// Measure notes what e shows happening, with the turn.
func (r *Rules) Measure(e *game.Event, note func(subject, label string, turn int)) {
	switch d := e.Data.(type) {
	case *Sent:
		if d.Result == Received || d.Result == "ignored" {
			note(d.Receiver, d.Result, e.Turn)
		}
	case *Begun:
		for _, m := range d.Markers {
			if m.Result == Received || m.Result == "ignored" {
				note(m.Leader, m.Result, e.Turn)
			}
		}
	case *Checked:
		for _, c := range d.Checks {
			if c.Result == Standing {
				note(c.Leader, Standing, e.Turn)
				for _, f := range c.Fall {
					note(f, Standing, e.Turn)
				}
			}
		}
	}
}
