package bp

import (
	"fmt"
	"strings"

	"orderly/game"
)

// BP's event types.
const (
	EvInitiative = "initiative" // a unit moves on its own initiative (BP-3)
	EvOrdered    = "ordered"    // a command roll and its result (BP-1, BP-2)
	EvMoved      = "moved"      // a unit or commander moves (BP-4, BP-7)
	EvCharged    = "charged"    // a unit charges an enemy unit (BP-4)
	EvResponded  = "responded"  // the charged unit's reply (BP-4)
	EvShot       = "shot"       // a volley (BP-5)
	EvFought     = "fought"     // a combat (BP-6)
	EvRevealed   = "revealed"   // hidden units are seen
	EvTurnEnded  = "turn-ended" // a side's turn ends: disorder recovers
	EvPassed     = "passed"     // traversing fire not given (BP-5)
	EvCrossed    = "crossed"    // under fog of war: a move crossed the front of units that may give traversing fire (BP-5)
)

// events is BP's event types, each with its payload type, whose methods
// fold, describe and match it: events_move.go (orders and moves),
// events_fight.go (charges, fire and combat), events_turn.go (the rest).
var events = game.Events[*Rules]{
	game.Type[*Rules, Initiative](EvInitiative),
	game.Type[*Rules, Ordered](EvOrdered),
	game.Type[*Rules, Moved](EvMoved),
	game.Type[*Rules, Charged](EvCharged),
	game.Type[*Rules, Responded](EvResponded),
	game.Type[*Rules, Volley](EvShot),
	game.Type[*Rules, Fought](EvFought),
	game.Type[*Rules, Revealed](EvRevealed),
	game.Type[*Rules, TurnEnded](EvTurnEnded),
	game.Type[*Rules, Passed](EvPassed),
	game.Type[*Rules, Crossed](EvCrossed),
}

// EventTypes lists BP's event types.
func (r *Rules) EventTypes() []string { return events.Types() }

// Payload makes an empty payload for an event type.
func (r *Rules) Payload(typ string) (any, bool) { return events.Payload(typ) }

// Apply folds one of BP's events into the state with its payload's Fold.
func (r *Rules) Apply(s *game.State, e *game.Event) error {
	if e.Data == nil {
		return fmt.Errorf("event %d (%s) has no payload; every BP event carries one", e.Seq, e.Type)
	}
	return events.Apply(r, s, e)
}

// Describe says in one sentence what one of BP's events records, with its
// payload's Describe: the type alone for an event without one.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	if name == nil {
		name = func(id string) string { return id }
	}
	if s := events.Describe(r, e, name); s != "" {
		return s
	}
	return e.Type
}

// Fields lists the fields a script's expectations may name, the engine's
// among them, in the order they are shown (game.Fielder).
func (r *Rules) Fields() []string {
	return []string{"turn", "phase", "step", "type", "side", "brigade", "general", "unit", "kind", "target",
		"result", "natural", "total", "moves", "blunder", "forced", "response", "casualties", "disorders", "test", "gone",
		"loser", "margin", "engaged", "rule", "verb"}
}

// Match reports whether BP field name of e is want, with its payload's
// Field. unit matches the unit an event is about or any it lists; test
// matches the result of any break test it records, and gone any unit it
// takes off the table.
func (r *Rules) Match(e *game.Event, name, want string) bool {
	return events.Match(r, e, name, want)
}

// unitOf is the unit called id, or an error naming it: an event names
// only units of the game.
func (st *State) unitOf(id string) (*Unit, error) {
	if u := st.Unit(id); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("no unit %s", id)
}

// volley folds a volley's effect on its target.
func (st *State) volley(s *game.State, v *Volley) error {
	t := st.Unit(v.Target)
	if t == nil {
		return fmt.Errorf("no unit %s", v.Target)
	}
	t.wound(v.After)
	if v.Disorders {
		t.Disordered = true
	}
	if v.Test != nil {
		st.test(s, *v.Test)
	}
	st.reveal(v.Shooter)
	return nil
}

// test folds a break test's result; a retreat's new place is among the
// event's moves.
func (st *State) test(s *game.State, t Test) {
	u := st.Unit(t.Unit)
	if u == nil {
		return
	}
	if t.Gone {
		u.Gone = true
		st.disengage(t.Unit)
		if p := s.Piece(t.Unit); p != nil {
			p.OnTable = false
		}
		for i := range st.Generals {
			if st.Generals[i].Joined == t.Unit {
				st.Generals[i].Joined = ""
			}
		}
		return
	}
	if t.Result == "retreat" {
		u.Disordered = true
		st.disengage(t.Unit)
	}
}

// reveal makes a hidden unit seen.
func (st *State) reveal(id string) {
	if u := st.Unit(id); u != nil {
		u.Hidden = false
	}
}

// rollNote is e's first roll in words, in brackets after a space, or ""
// for an event without a roll.
func rollNote(e *game.Event) string {
	if ro := e.FirstRoll(); ro != nil {
		return " (" + rollWords(ro) + ")"
	}
	return ""
}

// rollWords shows a roll as a player reads it: a command roll against the
// staff rating, the dice of a pool stage by stage.
func rollWords(ro *game.Roll) string {
	faces := func(fs []int) string {
		out := make([]string, len(fs))
		for i, f := range fs {
			out[i] = fmt.Sprint(f)
		}
		return strings.Join(out, " ")
	}
	switch {
	case len(ro.Stages) > 0:
		var parts []string
		mod := 0
		for _, m := range ro.Mods {
			mod += m.Amount
		}
		for i, st := range ro.Stages {
			need := fmt.Sprintf("%d+", st.Need)
			if i == 0 && mod != 0 {
				need = fmt.Sprintf("%d+ with %+d", st.Need, mod)
			}
			switch {
			case len(st.Faces) == 0 && !st.Certain:
				parts = append(parts, fmt.Sprintf("%s: no dice", st.Name))
			case st.Certain:
				parts = append(parts, fmt.Sprintf("%s: none rolled, %d %s", st.Name, st.Kept, went(st.Name)))
			case len(st.Rerolls) > 0:
				parts = append(parts, fmt.Sprintf("%s on %s: %s, again %s, %d %s", st.Name, need, faces(st.Faces), faces(st.Rerolls), st.Kept, went(st.Name)))
			default:
				parts = append(parts, fmt.Sprintf("%s on %s: %s, %d %s", st.Name, need, faces(st.Faces), st.Kept, went(st.Name)))
			}
		}
		return strings.Join(parts, "; ")
	case ro.Table == "bp/command":
		target := 0
		for _, m := range ro.Mods {
			target += m.Amount
		}
		return fmt.Sprintf("2d6 rolled %d (%s) against %d: %s", ro.Natural, faces(ro.Faces), target, ro.Result)
	}
	return ro.String()
}

// went says what the dice kept by a stage of bp/shooting are: hits that
// go on to the save, saves failed.
func went(stage string) string {
	if stage == "save" {
		return "failed"
	}
	return "on"
}

// orderWords is a kind of order (bp/orders) as the end of "orders X
// to ...": the kinds that are nouns take a verb.
func orderWords(kind string) string {
	switch kind {
	case "formation", "facing":
		return "change " + kind
	case "terrain":
		return "make a terrain move"
	case "follow-me":
		return "follow him"
	}
	return kind
}

func names(ids []string, name func(string) string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = name(id)
	}
	return strings.Join(out, ", ")
}

func floats(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = inch(x)
	}
	return strings.Join(out, ", ")
}

func ints2(xs []int) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	return strings.Join(out, ", ")
}
