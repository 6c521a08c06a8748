package lob

import (
	"orderly/battle"
	"orderly/game"
)

// Measures says what a Monte Carlo run of LOB measures (orderly sim): the
// first turn each Command accepts an order, starts executing one (a
// reserve: follows its existing orders once released), flukes out of an
// attack, completes attack recovery or skedaddles (LOB-4..LOB-8).
func (r *Rules) Measures() game.Measure {
	return game.Measure{What: "first turn each Command accepts an order, executes one, flukes, recovers or skedaddles",
		Subject: "Command", Subjects: "commands", First: "first-turn",
		Label: "outcome", Labels: "outcomes", Plot: "first turn of an outcome"}
}

// Planned lists what a plan's command will be measured for: the Command
// an order goes to.
func (r *Rules) Planned(sc *battle.Scenario, c *game.Command) []string {
	a, ok := c.Args.(*Args)
	if !ok || a == nil || c.Verb != "issue" || a.To == "hq" || a.To == "army-hq" {
		return nil
	}
	return []string{a.To}
}

// Measure notes what e shows happening, with the turn.
func (r *Rules) Measure(e *game.Event, note func(subject, label string, turn int)) {
	switch d := e.Data.(type) {
	case *Acceptance:
		for _, t := range d.Rolls {
			if t.Result == "accepted" {
				note(t.Command, "accepted", e.Turn)
			}
		}
		for _, c := range d.Acting {
			note(c, "executing", e.Turn)
		}
	case *Begun:
		// A reserve released follows its existing orders at once (LOB-5).
		for _, ef := range d.Effects {
			if ef.Follows != "" {
				note(ef.Formation, "executing", e.Turn)
			}
		}
	case *Initiative:
		if d.Follows != "" {
			note(d.Formation, "executing", e.Turn)
		}
	case *Checks:
		for _, c := range d.Fluke {
			if c.Result == "fluke" {
				note(c.Command, "fluke", e.Turn)
			}
		}
		for _, c := range d.Recovery {
			if c.Result == "pass" && c.Step == Second {
				note(c.Command, "recovered", e.Turn)
			}
		}
	case *Skedaddle:
		for _, c := range d.Commands {
			note(c, "skedaddle", e.Turn)
		}
	}
}
