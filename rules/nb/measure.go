package nb

import (
	"strconv"

	"orderly/battle"
	"orderly/game"
)

// Measures is what orderly sim measures for NB (game.Measurer).
func (r *Rules) Measures() game.Measure {
	return game.Measure{What: "first turn each formation acts on an order written during the game",
		Subject: "formation", Subjects: "formations", First: "first-active-turn",
		Label: "order", Labels: "orders", Plot: "first turn acting on an order"}
}

// Planned lists the formations an order of the plan is for; a wing's
// corps act on its orders, so a wing is left out.
func (r *Rules) Planned(sc *battle.Scenario, c *game.Command) []string {
	a, ok := c.Args.(*Args)
	if !ok || a.Write == nil {
		return nil
	}
	var out []string
	for _, f := range a.Write.For {
		if fm := sc.Formation(f); fm != nil && fm.Kind != battle.Wing {
			out = append(out, f)
		}
	}
	return out
}

// Measure notes the turn a formation (and the divisions with it) acts on
// an order written in the game, labelled by the order (Label).
func (r *Rules) Measure(e *game.Event, note func(subject, label string, turn int)) {
	if e.Type != OrderActive {
		return
	}
	d := data(e)
	if d.Order == nil || d.How == "initial" || d.How == "for-entry" {
		return
	}
	label := Label(d.Order)
	note(d.Formation, label, e.Turn)
	for _, f := range d.Divisions {
		note(f, label, e.Turn)
	}
}

// Label names an order the same way in every run (ids can differ from run
// to run, as orders given at the table edge take their number when a
// reserve's general is placed): the turn it was written and its kind, or
// "on entry" for an off-board reserve's order given at the edge.
func Label(o *Order) string {
	if o.Direct && o.Written > 0 {
		return "on entry " + o.Kind
	}
	return "turn " + strconv.Itoa(o.Written) + " " + o.Kind
}
