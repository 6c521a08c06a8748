package nes

import (
	"slices"
	"strconv"

	"orderly/battle"
	"orderly/game"
)

// The steps of a side's turn: its command segment (the markers step down
// and roll, orders are sent, mobilized command units check continuation),
// its movement and its combat.
const (
	StepMarkers      = "markers"
	StepOrders       = "orders"
	StepContinuation = "continuation"
	StepMove         = "move"
	StepCombat       = "combat"
)

// Phase names carry the side's id (french-command), so that a script
// gives each side's commands under its own phase.
func phaseOf(side, what string) string { return side + "-" + what }

// sequence is the steps of a turn with sides playing in the given order.
func sequence(sides []string) []game.Step {
	var out []game.Step
	for _, s := range sides {
		out = append(out,
			game.Step{Phase: phaseOf(s, "command"), Name: StepMarkers},
			game.Step{Phase: phaseOf(s, "command"), Name: StepOrders, Actors: []string{s}, Verbs: []string{"send", "cp"}},
			game.Step{Phase: phaseOf(s, "command"), Name: StepContinuation},
			game.Step{Phase: phaseOf(s, "movement"), Name: StepMove, Actors: []string{s}, Verbs: []string{"move", "form", "retire"}},
			game.Step{Phase: phaseOf(s, "combat"), Name: StepCombat, Actors: []string{s}, Verbs: []string{"loss", "bombard", "charge"}},
		)
	}
	return out
}

// Sequence is the steps of a turn of sc: each side in scenario order plays
// its command segment, movement and combat.
func (r *Rules) Sequence(sc *battle.Scenario) []game.Step {
	var sides []string
	for _, s := range sc.Sides {
		sides = append(sides, s.ID)
	}
	return sequence(sides)
}

// Next is the step after the one s stands in.
func (r *Rules) Next(s *game.State) (game.Step, int) { return game.Cycle(ext(s).seq).Next(s) }

// Setup does nothing: the orders at the start are in the state.
func (r *Rules) Setup(*game.Tx) error { return nil }

// Settle does nothing: nothing follows from positions alone.
func (r *Rules) Settle(*game.Tx) error { return nil }

// Run carries out the automatic steps of the command segment.
func (r *Rules) Run(step game.Step, x *game.Tx) error {
	st := ext(x.S)
	side := st.phasing(step.Phase)
	switch step.Name {
	case StepMarkers:
		return r.markers(x, st, side)
	case StepContinuation:
		return r.continuation(x, st, side)
	}
	return nil
}

// markers begins a side's turn: its command points are renewed, command
// points stacked last turn and movement spent are cleared, and every
// order on its way moves on (NES-2, our reading of the markers): a delay-3
// or delay-2 marker steps down one level; an order at delay 1 rolls NES-1
// with -1 for every turn it has stayed there, and is received, stays at
// delay 1, or is ignored (a brigade activation stays at delay 1).
func (r *Rules) markers(x *game.Tx, st *State, side string) error {
	b := &Begun{Side: side}
	var rolls []game.Roll
	for i := range st.Leaders {
		l := &st.Leaders[i]
		if l.Side != side || l.Pending == nil {
			continue
		}
		o := l.Pending
		if o.Delay > 1 {
			b.Markers = append(b.Markers, Stepped{Leader: l.ID, Delay: o.Delay - 1})
			continue
		}
		d := r.delivery(st, st.Leader(o.Sender), l, o.Urgent, o.FromHQ, o.AtDelay1+1)
		ro, _, err := x.Roll(r.deliver.ID, l.ID, d.params)
		if err != nil {
			return err
		}
		rolls = append(rolls, *ro)
		b.Markers = append(b.Markers, Stepped{Leader: l.ID, Delay: 1, Result: ro.Result})
	}
	if err := x.Emit(game.Event{Type: EvBegun, Side: side, See: side, Rule: "NES-2", Rolls: rolls, Data: b}); err != nil {
		return err
	}
	return nil
}

// continuation checks every mobilized corps or wing commander and
// division leader of side (NES-3) but those mobilized in this command
// segment; a total above the rating drops it, and its brigade leaders,
// to standing.
func (r *Rules) continuation(x *game.Tx, st *State, side string) error {
	c := &Checked{Side: side}
	var rolls []game.Roll
	evening := slices.Contains(st.sc.Evening, x.S.Turn)
	// A commander drops to standing at once (NES-3): the checks after his,
	// in chain-of-command order, see him standing.
	fell := map[string]bool{}
	for i := range st.Leaders {
		l := &st.Leaders[i]
		if l.Side != side || !checks(l, false) {
			continue
		}
		ro, _, err := x.Roll(r.cont.ID, l.ID, r.checkParams(st, l, evening, false, fell))
		if err != nil {
			return err
		}
		rolls = append(rolls, *ro)
		ck := Check{Leader: l.ID, Result: ro.Result}
		if ro.Result == Standing {
			fell[l.ID] = true
		}
		if ro.Result == Standing && l.Role == RoleDivision {
			// His mobilized brigade leaders fall with him (our reading:
			// a brigade acts within its division's command state).
			for _, j := range st.subs[i] {
				if b := &st.Leaders[j]; b.Role == RoleBrigade && b.State == Mobilized {
					ck.Fall = append(ck.Fall, b.ID)
				}
			}
		}
		c.Checks = append(c.Checks, ck)
	}
	if len(c.Checks) == 0 {
		return nil
	}
	return x.Emit(game.Event{Type: EvChecked, Side: side, See: side, Rule: "NES-3", Rolls: rolls, Data: c})
}

func itoa(n int) string { return strconv.Itoa(n) }
