package cd

import (
	"slices"

	"orderly/battle"
	"orderly/game"
)

// The steps of a side's turn: its activations and moves, then its end,
// when the units that moved are marked for the next turn's +1 (CD-1).
const (
	StepActivate = "activate"
	StepEnd      = "end"
)

// verbs are CD's commands, besides the engine's ready and end.
var verbs = []string{"activate", "move", "relieve", "retire", "screen", "recall", "lose", "mark"}

// phaseOf is the phase of a side's turn (french-turn), so that a script
// gives each side's commands under its own phase.
func phaseOf(side string) string { return side + "-turn" }

// sequence is the steps of a turn with sides playing in the given order.
func sequence(sides []string) []game.Step {
	var out []game.Step
	for _, s := range sides {
		out = append(out,
			game.Step{Phase: phaseOf(s), Name: StepActivate, Actors: []string{s}, Verbs: slices.Clone(verbs)},
			game.Step{Phase: phaseOf(s), Name: StepEnd})
	}
	return out
}

// Sequence is the steps of a turn of sc: each side in scenario order
// activates and moves, then ends its turn.
func (r *Rules) Sequence(sc *battle.Scenario) []game.Step {
	var sides []string
	for _, s := range sc.Sides {
		sides = append(sides, s.ID)
	}
	return sequence(sides)
}

// Next is CD's turn machine: the sequence, turn after turn.
func (r *Rules) Next(s *game.State) (game.Step, int) {
	seq := ext(s).seq
	if s.Turn == 0 {
		return seq[0], 1
	}
	i := slices.IndexFunc(seq, func(x game.Step) bool { return x.Phase == s.Phase && x.Name == s.Step })
	switch {
	case i < 0:
		return seq[0], s.Turn + 1
	case i+1 < len(seq):
		return seq[i+1], s.Turn
	}
	return seq[0], s.Turn + 1
}

// phasing is the side whose turn a phase is.
func (s *State) phasing(phase string) string {
	for _, sd := range s.Sides {
		if phase == phaseOf(sd.ID) {
			return sd.ID
		}
	}
	return ""
}

// Setup does nothing: CD starts with no secret rolls.
func (r *Rules) Setup(*game.Tx) error { return nil }

// Run ends a side's turn: the units that moved carry +1 into its next
// activation, smoke clears, and the turn's activations are done (CD-1,
// CD-5).
func (r *Rules) Run(step game.Step, x *game.Tx) error {
	if step.Name != StepEnd {
		return nil
	}
	st := ext(x.S)
	side := st.phasing(step.Phase)
	var moved []string
	for _, u := range st.Units {
		if u.Side == side && u.Moved {
			moved = append(moved, u.ID)
		}
	}
	return x.Emit(game.Event{Type: EvTurnEnded, Side: side, See: ownWithFog(x.S, side), Rule: "CD-1", Data: &TurnEnded{Side: side, Moved: moved}})
}

// Settle does nothing: nothing in CD happens between commands by itself.
func (r *Rules) Settle(*game.Tx) error { return nil }
