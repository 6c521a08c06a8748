package tiny

import (
	"math"
	"math/rand/v2"
	"slices"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/sight"
	"orderly/strict"
)

// StepMove is the one step of a side in a turn: its unit moves, then the
// side says it is ready (TINY-1).
const StepMove = "move"

// VerbMove is the rule set's one verb.
const VerbMove = "move"

// Sequence is the steps of a turn of sc: each side in scenario order
// moves (TINY-1), in a phase named by the side.
func (r *Rules) Sequence(sc *battle.Scenario) []game.Step {
	var out []game.Step
	for _, sd := range sc.Sides {
		out = append(out, game.Step{Phase: sd.ID, Name: StepMove, Actors: []string{sd.ID}, Verbs: []string{VerbMove}})
	}
	return out
}

// Next is the turn machine: the sequence, turn after turn (game.Cycle).
func (r *Rules) Next(s *game.State) (game.Step, int) { return game.Cycle(ext(s).seq).Next(s) }

// Verbs lists the rule set's one verb.
func (r *Rules) Verbs() []string { return []string{VerbMove} }

// Setup does nothing: a tiny game has no secret rolls.
func (r *Rules) Setup(*game.Tx) error { return nil }

// Run does nothing: a tiny game has no automatic steps.
func (r *Rules) Run(game.Step, *game.Tx) error { return nil }

// Settle does nothing: nothing happens between commands by itself.
func (r *Rules) Settle(*game.Tx) error { return nil }

// Sight is nil: a tiny game has no fog of war.
func (r *Rules) Sight() *sight.Rules { return nil }

// Forecast gives none: a move rolls nothing.
func (r *Rules) Forecast(*battle.Scenario, *game.State, string, any) ([]game.Forecast, error) {
	return nil, nil
}

// Kinds is none: a tiny side writes no orders.
func (r *Rules) Kinds() []string { return nil }

// Writes is none: a tiny side writes no orders.
func (r *Rules) Writes() string { return "" }

// Forecasts is none: no verb has odds to show.
func (r *Rules) Forecasts() []string { return nil }

// Measures is nothing: a tiny game has no Monte Carlo runs.
func (r *Rules) Measures() game.Measure { return game.Measure{} }

// Planned is none (Measures).
func (r *Rules) Planned(*battle.Scenario, *game.Command) []string { return nil }

// Measure notes nothing (Measures).
func (r *Rules) Measure(*game.Event, func(string, string, int)) {}

// Offers offers move for the unit of the side whose step it is, to that
// side or the umpire, until it has moved this turn (TINY-1).
func (r *Rules) Offers(s *game.State, step game.Step, seat string) map[string][]string {
	if !slices.Contains(step.Verbs, VerbMove) || len(step.Actors) == 0 {
		return nil
	}
	side := step.Actors[0]
	if seat != side && seat != game.Umpire {
		return nil
	}
	u := ext(s).sideUnit(side)
	if u == nil || u.Moved || !u.OnTable {
		return nil
	}
	return map[string][]string{u.ID: {VerbMove}}
}

// Move is the arguments of move: the unit and where it goes.
type Move struct {
	Unit string     `json:"unit"`
	To   geom.Point `json:"to"`
}

// Size is the one id a move names (game.Sizer).
func (m *Move) Size() int { return 1 }

// Decode reads move {unit: blue-1, to: [18, 14]}.
func (r *Rules) Decode(verb string, rd strict.Reader, n *yaml.Node, where string) (any, error) {
	if verb != VerbMove {
		return nil, rd.Errf(n, "%s: %s is not a tiny command; allowed: move", where, strict.Quote(verb, 40))
	}
	f, err := rd.Fields(n, where, "unit", "to")
	if err != nil {
		return nil, err
	}
	if f["unit"] == nil || f["to"] == nil {
		return nil, rd.Errf(n, "%s: give unit and to, as {unit: blue-1, to: [18, 14]}", where)
	}
	var m Move
	if m.Unit, err = rd.ID(f["unit"], where+".unit"); err != nil {
		return nil, err
	}
	if m.To, err = battle.Position(rd, f["to"], where+".to"); err != nil {
		return nil, err
	}
	return &m, nil
}

// Command carries out a move: the unit of the side whose step it is
// moves in a straight line at most the rule set's move (tiny.yaml), once
// a turn, and stays on the table (TINY-1). The umpire may move it too.
func (r *Rules) Command(c *game.Command, x *game.Tx) error {
	m, ok := c.Args.(*Move)
	if c.Verb != VerbMove || !ok {
		return game.Reject("", "%s is not a command of the tiny rule set; allowed: move", c.Verb)
	}
	step := x.Step()
	if !slices.Contains(step.Verbs, VerbMove) {
		return game.Reject("TINY-1", "no unit moves in the %s step", step.Name)
	}
	st := ext(x.S)
	u := st.unit(m.Unit)
	switch {
	case u == nil:
		return game.Reject("", "there is no unit %s", strict.Quote(m.Unit, 40))
	case c.Side != game.Umpire && c.Side != u.Side:
		return game.Reject("TINY-1", "%s is not a unit of %s", u.ID, c.Side)
	case !slices.Contains(step.Actors, u.Side):
		return game.Reject("TINY-1", "%s moves in its own side's step, not in %s's", u.ID, step.Phase)
	case u.Moved:
		return game.Reject("TINY-1", "%s has moved this turn already", u.ID)
	case !x.Sc.Field.Contains(m.To):
		return game.Reject("TINY-1", "%s is off the table; it is %g by %g inches", m.To, x.Sc.Field.Width, x.Sc.Field.Depth)
	}
	to := m.To.Round()
	d := u.At.Dist(to)
	if d > r.move+1e-9 {
		return game.Reject("TINY-1", "%s is %s\" from %s; a unit moves at most %s\" a turn", to, geom.Tenth(d), u.At, geom.Tenth(r.move))
	}
	from := u.At
	return x.Emit(game.Event{Type: EvMoved, Side: u.Side, See: game.All, Rule: "TINY-1",
		Moves: []game.Move{{Unit: u.ID, To: to, From: &from}},
		Data:  &Moved{Unit: u.ID, From: from, To: to, Distance: math.Round(d*100) / 100}})
}

// Random makes a command for the conformance suite: most often a move of
// the acting side's unit, some beyond its reach or off the table, or
// another side's; else the acting side's ready.
func (r *Rules) Random(g *game.Game, rng *rand.Rand) game.Command {
	s := g.State()
	side := s.Phase
	st := ext(s)
	if rng.IntN(4) == 0 {
		return game.Command{Side: side, Verb: game.Ready}
	}
	u := st.sideUnit(side)
	if rng.IntN(8) == 0 {
		u = &st.Units[rng.IntN(len(st.Units))]
	}
	if u == nil {
		return game.Command{Side: side, Verb: game.Ready}
	}
	a := rng.Float64() * 2 * math.Pi
	d := rng.Float64() * r.move * 1.4
	to := geom.Pt(u.At.X+d*math.Cos(a), u.At.Y+d*math.Sin(a))
	return game.Command{Side: side, Verb: VerbMove, Args: &Move{Unit: u.ID, To: to}}
}
