package bp

import (
	"slices"

	"orderly/battle"
	"orderly/game"
)

// The steps of a side's turn (BP-4): its command phase, where it gives
// orders and moves, and the charged side replies to a charge; its shooting
// phase; its combat phase; and the end of its turn, when disorder
// recovers.
const (
	StepOrders  = "orders"
	StepRespond = "respond"
	StepShoot   = "shoot"
	StepFight   = "fight"
	StepEnd     = "end"
)

// Phase names: a side's three phases carry its id, so that a script gives
// each side's commands under its own phase (french-command).
func phaseOf(side, what string) string { return side + "-" + what }

// sequence is the steps of a turn with sides playing in the given order.
func sequence(sides []string) []game.Step {
	var out []game.Step
	for _, s := range sides {
		out = append(out,
			game.Step{Phase: phaseOf(s, "command"), Name: StepOrders, Actors: []string{s}, Verbs: []string{"initiative", "order", "move", "charge"}},
			game.Step{Phase: phaseOf(s, "shooting"), Name: StepShoot, Actors: []string{s}, Verbs: []string{"shoot"}},
			game.Step{Phase: phaseOf(s, "combat"), Name: StepFight, Actors: []string{s}, Verbs: []string{"fight"}},
			game.Step{Phase: phaseOf(s, "combat"), Name: StepEnd},
		)
	}
	return out
}

// Sequence is the steps of a turn of sc: each side in scenario order plays
// its command, shooting and combat phases (BP-4). A charge adds the
// charged side's reply (step respond) to the command phase as play needs
// it.
func (r *Rules) Sequence(sc *battle.Scenario) []game.Step {
	var sides []string
	for _, s := range sc.Sides {
		sides = append(sides, s.ID)
	}
	return sequence(sides)
}

// Next is BP's turn machine: the sequence, with the charged side's reply
// after a charge and the command phase again after the reply.
func (r *Rules) Next(s *game.State) (game.Step, int) {
	st := ext(s)
	seq := st.seq
	if s.Turn == 0 {
		return seq[0], 1
	}
	i := slices.IndexFunc(seq, func(x game.Step) bool {
		return x.Phase == s.Phase && (x.Name == s.Step || s.Step == StepRespond && x.Name == StepOrders)
	})
	if i < 0 {
		return seq[0], s.Turn + 1
	}
	switch {
	case s.Step == StepOrders && st.Charge != nil:
		return game.Step{Phase: s.Phase, Name: StepRespond, Actors: []string{st.enemy(st.Unit(st.Charge.Unit).Side)}, Verbs: []string{"respond"}}, s.Turn
	case s.Step == StepOrders && st.Traverse != nil:
		return game.Step{Phase: s.Phase, Name: StepRespond, Actors: []string{st.enemy(st.Unit(st.Traverse.Unit).Side)}, Verbs: []string{"traverse"}}, s.Turn
	case s.Step == StepRespond:
		return seq[i], s.Turn
	case i+1 < len(seq):
		return seq[i+1], s.Turn
	}
	return seq[0], s.Turn + 1
}

// enemy is the other side.
func (st *State) enemy(side string) string {
	for _, s := range st.sides {
		if s != side {
			return s
		}
	}
	return ""
}

// phasing is the side whose turn a phase is.
func (st *State) phasing(phase string) string {
	for _, s := range st.sides {
		if len(phase) > len(s) && phase[:len(s)+1] == s+"-" {
			return s
		}
	}
	return ""
}

// Setup does nothing: BP starts with no secret rolls.
func (r *Rules) Setup(*game.Tx) error { return nil }

// Run carries out the automatic steps: the end of a side's turn, and a
// charge left without a reply when the command phase goes on.
func (r *Rules) Run(step game.Step, x *game.Tx) error {
	st := ext(x.S)
	switch step.Name {
	case StepOrders:
		if st.Charge != nil {
			return r.respond(x, st.Charge, "stand", true)
		}
		if tr := st.Traverse; tr != nil {
			return x.Emit(game.Event{Type: EvPassed, Side: st.Unit(tr.Firers[0]).Side, See: game.All, Rule: "BP-5", Data: &Passed{Unit: tr.Unit, Units: tr.Firers, Auto: true}})
		}
	case StepEnd:
		// Every engagement is fought in the combat phase: those the
		// player did not pick are fought now, in scenario order (BP-6).
		for i := range st.Units {
			if u := &st.Units[i]; len(u.Engaged) > 0 && !u.Fought && !u.Gone {
				if err := r.fight(x, u.ID); err != nil {
					return err
				}
			}
		}
		side := st.phasing(step.Phase)
		var rec []string
		for _, u := range st.Units {
			if u.Side == side && u.Disordered && !u.KeepDisorder && !u.Gone && !u.Hidden {
				rec = append(rec, u.ID)
			}
		}
		// Played with fog of war the units that recover are the side's own
		// business: some may be units the enemy does not spot.
		see := game.All
		if x.S.Fogged() {
			see = side
		}
		return x.Emit(game.Event{Type: EvTurnEnded, Side: side, See: see, Rule: "BP-4", Data: &TurnEnded{Side: side, Recovered: rec}})
	}
	return nil
}

// Settle reveals hidden units that an enemy unit has come within 12" of.
// Played with fog of war any enemy unit counts, whether the hidden unit's
// side spots it or not, and the reveal is a contact between the hidden
// unit and the nearest such enemy unit, from which each side spots the
// other's while both stand: neither side learns anything the other does
// not (issue 32).
func (r *Rules) Settle(x *game.Tx) error {
	st := ext(x.S)
	var seen []string
	var met []meeting // the enemy unit that came near, and the hidden unit
	for i := range st.Units {
		u := &st.Units[i]
		if !u.Hidden || u.Gone {
			continue
		}
		near := r.near(x.S, u.ID, Proximity, func(*Unit) bool { return true })
		if len(near) == 0 {
			continue
		}
		seen = append(seen, u.ID)
		if x.S.Fogged() {
			met = append(met, meeting{unit: r.nearest(x.S, u.ID, near), met: u.ID})
		}
	}
	if len(seen) == 0 {
		return nil
	}
	for _, m := range met {
		if err := x.Contact(st.Unit(m.unit).Side, m.unit, m.met, x.S.Piece(m.met).At, "BP-7"); err != nil {
			return err
		}
	}
	return x.Emit(game.Event{Type: EvRevealed, See: game.All, Data: &Revealed{Units: seen}})
}

// nearest is the unit of ids (enemy units on the table) whose footprint
// is nearest unit id's, the first in scenario order among equals.
func (r *Rules) nearest(s *game.State, id string, ids []string) string {
	f := r.footOf(s, s.Piece(id))
	best, bd := "", 0.0
	for _, e := range ids {
		if d := f.Dist(r.footOf(s, s.Piece(e))); best == "" || d < bd-1e-9 {
			best, bd = e, d
		}
	}
	return best
}
