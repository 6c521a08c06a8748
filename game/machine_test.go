package game_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/sight"
	"orderly/strict"
	"orderly/table"
)

// drill is a rule set written only to test the turn machine (issue 10,
// item 2) on shapes NB does not have: a phasing-player turn (blue's
// phases, then red's), and in each side's command phase a loop over its
// brigade commanders, one step each, that stops at the first failed order
// roll, as in an activation game. Each commander's step waits for his side
// alone; a failed roll sends the side on to its move step, skipping the
// commanders after him.
type drill struct {
	order *table.Table
	sc    *battle.Scenario
}

// drillState is drill's part of the state: the result of each commander's
// roll this turn, by formation.
type drillState struct {
	Rolled map[string]string `json:"rolled,omitempty"`
}

func (d *drillState) Clone(*game.State) game.Ext {
	return &drillState{Rolled: clonedMap(d.Rolled)}
}

func (d *drillState) Reset(from game.Ext, _ *game.State) {
	d.Rolled = clonedMap(from.(*drillState).Rolled)
}

// NewTurn clears the rolls: each turn every commander may roll again.
func (d *drillState) NewTurn() { clear(d.Rolled) }

func clonedMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// rolledData is the payload of an order-rolled event.
type rolledData struct {
	Formation string `json:"formation"`
	Result    string `json:"result"`
}

const drillTables = `rules: drill
title: drill
tables:
  - id: drill/order
    rule: DRILL-1
    title: Order roll
    doc: A brigade commander's order roll.
    dice: 1d6
    results:
      - {key: fail, doc: the order fails}
      - {key: pass, doc: the order is carried out}
    bands:
      "<=2": fail
      ">=3": pass
`

func newDrill(t testing.TB, sc *battle.Scenario) *drill {
	t.Helper()
	set, err := table.Load([]table.Source{{Name: "drill.yaml", Data: []byte(drillTables)}})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := set.Table("drill/order")
	if err != nil {
		t.Fatal(err)
	}
	return &drill{order: tb, sc: sc}
}

func (r *drill) ID() string                   { return "drill" }
func (r *drill) Vocab() battle.Vocab          { return battle.Vocab{} }
func (r *drill) Check(*battle.Scenario) error { return nil }
func (r *drill) Init(*battle.Scenario, *game.State) (game.Ext, error) {
	return &drillState{Rolled: map[string]string{}}, nil
}
func (r *drill) Verbs() []string               { return []string{"order"} }
func (r *drill) Setup(*game.Tx) error          { return nil }
func (r *drill) Run(game.Step, *game.Tx) error { return nil }
func (r *drill) Settle(*game.Tx) error         { return nil }
func (r *drill) View(s *game.State, _ string) *game.State {
	return s
}
func (r *drill) Unseen(*game.State, string, *game.Command) error { return nil }

// What every rule set gives besides (game.Rules): drill plays no fog, writes
// no orders, has no turn of fixed phases, measures nothing and adds
// nothing to a board but its state.
func (r *drill) Sight() *sight.Rules { return nil }
func (r *drill) Forecast(*battle.Scenario, *game.State, string, any) ([]game.Forecast, error) {
	return nil, nil
}
func (r *drill) Kinds() []string                                  { return nil }
func (r *drill) Writes() string                                   { return "" }
func (r *drill) Seen(*game.State) []string                        { return nil }
func (r *drill) Sequence(*battle.Scenario) []game.Step            { return nil }
func (r *drill) Fields() []string                                 { return nil }
func (r *drill) Match(*game.Event, string, string) bool           { return false }
func (r *drill) Measures() game.Measure                           { return game.Measure{} }
func (r *drill) Planned(*battle.Scenario, *game.Command) []string { return nil }
func (r *drill) Measure(*game.Event, func(string, string, int))   {}
func (r *drill) Offers(*game.State, game.Step, string) map[string][]string {
	return nil
}
func (r *drill) Shapes() map[string][]string                 { return nil }
func (r *drill) Forecasts() []string                         { return nil }
func (r *drill) Annotate(*game.State, game.Step, string) any { return nil }
func (r *drill) BoardTypes() game.BoardTypes {
	return game.BoardTypes{State: &drillState{}}
}
func (r *drill) Table(id string) (*table.Table, error) {
	if id != r.order.ID {
		return nil, fmt.Errorf("no table %s", id)
	}
	return r.order, nil
}

// brigades lists a side's brigade commanders (its divisions) in order.
func (r *drill) brigades(side string) []string {
	var out []string
	for _, f := range r.sc.Side(side).Formations {
		if f.Kind == battle.Division {
			out = append(out, f.ID)
		}
	}
	return out
}

// Next is the machine: per turn, each side in scenario order has a phase
// named after it: its commanders one by one while their rolls pass, then
// its move step.
func (r *drill) Next(s *game.State) (game.Step, int) {
	d := s.Ext.(*drillState)
	turn, side := s.Turn, s.Phase
	switch {
	case turn == 0 || s.Phase == "setup":
		turn, side = max(turn, 1), r.sc.Sides[0].ID
	case s.Step == "move":
		i := slices.IndexFunc(r.sc.Sides, func(sd *battle.Side) bool { return sd.ID == side })
		if i+1 == len(r.sc.Sides) {
			// A new turn: its rolls are all still to come (the engine calls
			// NewTurn when the turn begins; here none have been made).
			return game.Step{Phase: r.sc.Sides[0].ID, Name: "orders", Actors: []string{r.brigades(r.sc.Sides[0].ID)[0]}, Verbs: []string{"order"}}, turn + 1
		}
		side = r.sc.Sides[i+1].ID
	}
	for _, b := range r.brigades(side) {
		switch d.Rolled[b] {
		case "fail":
			return game.Step{Phase: side, Name: "move", Actors: []string{side}}, turn
		case "":
			return game.Step{Phase: side, Name: "orders", Actors: []string{b}, Verbs: []string{"order"}}, turn
		}
	}
	return game.Step{Phase: side, Name: "move", Actors: []string{side}}, turn
}

func (r *drill) Decode(verb string, rd strict.Reader, n *yaml.Node, where string) (any, error) {
	if verb != "order" {
		return nil, rd.Errf(n, "%s: drill has no command %s", where, verb)
	}
	return rd.ID(n, where)
}

// Command rolls the order of the commander whose step it is; he rolls once.
func (r *drill) Command(c *game.Command, x *game.Tx) error {
	f, _ := c.Args.(string)
	actor := x.Step().Actors[0]
	if f != actor {
		return game.Reject("DRILL-1", "%s does not give orders now; %s does", f, actor)
	}
	if x.S.Ext.(*drillState).Rolled[f] != "" {
		return game.Reject("DRILL-1", "%s has given his order this turn", f)
	}
	roll, _, err := x.Roll("drill/order", f, nil)
	if err != nil {
		return err
	}
	return x.Emit(game.Event{Type: "order-rolled", Side: c.Side, See: game.All, Rule: "DRILL-1",
		Rolls: []game.Roll{*roll}, Data: &rolledData{Formation: f, Result: roll.Result}})
}

func (r *drill) Payload(typ string) (any, bool) {
	if typ == "order-rolled" {
		return &rolledData{}, true
	}
	return nil, false
}

func (r *drill) Apply(s *game.State, e *game.Event) error {
	if e.Type != "order-rolled" {
		return nil
	}
	p := e.Data.(*rolledData)
	s.Ext.(*drillState).Rolled[p.Formation] = p.Result
	return nil
}

func (r *drill) Describe(e *game.Event, _ func(string) string) string {
	if p, ok := e.Data.(*rolledData); ok {
		return fmt.Sprintf("%s's order roll: %s.", p.Formation, p.Result)
	}
	return e.Type
}

const drillScenario = `
name: drill
rules: drill
turns: 2
field: {width: 48, depth: 48}
speeds: {infantry: 6}
sides:
  - id: blue
    nation: blue
    edge: north
    army: {id: blue-c, quality: good, range: 12, at: [24, 2]}
    corps:
      - id: B
        general: {id: b-c, quality: good, range: 8, at: [24, 4]}
        divisions:
          - id: B-1
            general: {id: b1, quality: good, range: 4, at: [10, 6]}
            units: [{id: B-1-a, type: infantry, at: [10, 7]}]
          - id: B-2
            general: {id: b2, quality: good, range: 4, at: [24, 6]}
            units: [{id: B-2-a, type: infantry, at: [24, 7]}]
          - id: B-3
            general: {id: b3, quality: good, range: 4, at: [38, 6]}
            units: [{id: B-3-a, type: infantry, at: [38, 7]}]
  - id: red
    nation: red
    edge: south
    army: {id: red-c, quality: good, range: 12, at: [24, 46]}
    corps:
      - id: R
        general: {id: r-c, quality: good, range: 8, at: [24, 44]}
        divisions:
          - id: R-1
            general: {id: r1, quality: good, range: 4, at: [16, 42]}
            units: [{id: R-1-a, type: infantry, at: [16, 41]}]
          - id: R-2
            general: {id: r2, quality: good, range: 4, at: [32, 42]}
            units: [{id: R-2-a, type: infantry, at: [32, 41]}]
`

// scripted is dice that give the faces in order, whatever is rolled.
type scripted struct{ r *dice.Scripted }

func (s scripted) Roller(game.RollKey) dice.Roller { return s.r }

func newDrillGame(t *testing.T, faces ...int) (*game.Game, *drill, *battle.Scenario) {
	t.Helper()
	sc, err := battle.Load("drill.yaml", []byte(drillScenario), battle.Spec{ID: "drill"})
	if err != nil {
		t.Fatal(err)
	}
	r := newDrill(t, sc)
	g, err := game.New(sc, r, scripted{dice.NewScripted(faces...)})
	if err != nil {
		t.Fatal(err)
	}
	return g, r, sc
}

// where is the step the game stands in, with who acts: "blue/orders B-1".
func where(g *game.Game) string {
	s := g.Step()
	return fmt.Sprintf("%d %s/%s %s", g.State().Turn, s.Phase, s.Name, strings.Join(s.Actors, ","))
}

func do(t *testing.T, g *game.Game, side, verb string, args any) {
	t.Helper()
	if _, err := g.Do(game.Command{Side: side, Verb: verb, Args: args}); err != nil {
		t.Fatalf("%s %s %v at %s: %v", side, verb, args, where(g), err)
	}
}

// TestPhasingTurnAndCommanderLoop plays two turns of drill: blue's phase
// then red's; in each, one step per commander until a roll fails.
func TestPhasingTurnAndCommanderLoop(t *testing.T) {
	// Turn 1: B-1 passes (4), B-2 fails (2): B-3 is skipped. R-1 passes
	// (6), R-2 passes (3): red moves after its last commander. Turn 2: B-1
	// fails at once (1); R-1 fails (2).
	g, _, _ := newDrillGame(t, 4, 2, 6, 3, 1, 2)
	want := func(w string) {
		t.Helper()
		if got := where(g); got != w {
			t.Fatalf("at %q, want %q", got, w)
		}
	}
	want("1 blue/orders B-1")
	// Red does not act in blue's phase: the engine refuses it, whatever
	// the command.
	if _, err := g.Do(game.Command{Side: "red", Verb: "order", Args: "R-1"}); err == nil || !strings.Contains(err.Error(), "red does not act") {
		t.Fatalf("red in blue's phase: %v", err)
	}
	if err := g.Exec(game.Command{Side: "red", Verb: game.Ready}); err == nil {
		t.Fatal("red ready in blue's phase: accepted")
	}
	// Only the commander whose step it is gives his order.
	if _, err := g.Do(game.Command{Side: "blue", Verb: "order", Args: "B-2"}); err == nil || !strings.Contains(err.Error(), "B-1 does") {
		t.Fatalf("B-2 before B-1: %v", err)
	}
	do(t, g, "blue", "order", "B-1")
	do(t, g, "blue", game.Ready, nil)
	want("1 blue/orders B-2")
	do(t, g, "blue", "order", "B-2")
	do(t, g, "blue", game.Ready, nil)
	want("1 blue/move blue") // B-2 failed: B-3 gives no order this turn
	do(t, g, "blue", game.Ready, nil)
	want("1 red/orders R-1")
	do(t, g, "red", "order", "R-1")
	do(t, g, "red", game.Ready, nil)
	want("1 red/orders R-2")
	do(t, g, "red", "order", "R-2")
	do(t, g, "red", game.Ready, nil)
	want("1 red/move red")
	do(t, g, "red", game.Ready, nil)
	want("2 blue/orders B-1") // a new turn: every commander rolls again
	do(t, g, "blue", "order", "B-1")
	do(t, g, "blue", game.Ready, nil)
	want("2 blue/move blue")
	do(t, g, "blue", game.Ready, nil)
	do(t, g, "red", "order", "R-1")
	do(t, g, "red", game.Ready, nil)
	want("2 red/move red")

	// The log names who acted in each step, and replays to the same game,
	// standing in the same step.
	var steps []string
	for _, e := range g.Log() {
		if b, ok := e.Data.(*game.Begun); ok && e.Type == game.StepBegun && e.Turn > 0 {
			steps = append(steps, fmt.Sprintf("%d %s/%s %s", e.Turn, e.Phase, e.Step, strings.Join(b.Actors, ",")))
		}
	}
	wantSteps := []string{"1 blue/orders B-1", "1 blue/orders B-2", "1 blue/move blue", "1 red/orders R-1", "1 red/orders R-2",
		"1 red/move red", "2 blue/orders B-1", "2 blue/move blue", "2 red/orders R-1", "2 red/move red"}
	if !slices.Equal(steps, wantSteps) {
		t.Errorf("steps begun:\n%s\nwant\n%s", strings.Join(steps, "\n"), strings.Join(wantSteps, "\n"))
	}
	r2 := newDrill(t, nil)
	sc, _ := battle.Load("drill.yaml", []byte(drillScenario), battle.Spec{ID: "drill"})
	r2.sc = sc
	re, err := game.Replay(sc, r2, g.Log())
	if err != nil {
		t.Fatal(err)
	}
	if re.Hash() != g.Hash() || where(re) != where(g) {
		t.Errorf("replay: %s at %s, want %s at %s", re.Hash(), where(re), g.Hash(), where(g))
	}
	do(t, g, "red", game.Ready, nil)
	if !g.State().Over {
		t.Errorf("after turn 2 of 2, the game is not over: %s", where(g))
	}
}

// TestAllPass: when every commander's roll passes, the side moves after
// its last commander.
func TestAllPass(t *testing.T) {
	g, _, _ := newDrillGame(t, 3, 4, 5)
	for _, b := range []string{"B-1", "B-2", "B-3"} {
		do(t, g, "blue", "order", b)
		do(t, g, "blue", game.Ready, nil)
	}
	if got := where(g); got != "1 blue/move blue" {
		t.Errorf("after three passes: %s", got)
	}
	// A commander rolls once: a second order in his step is refused, and
	// changes nothing.
	g2, _, _ := newDrillGame(t, 3, 4)
	do(t, g2, "blue", "order", "B-1")
	before := g2.Hash()
	if _, err := g2.Do(game.Command{Side: "blue", Verb: "order", Args: "B-1"}); err == nil {
		t.Error("B-1 rolled twice")
	}
	if g2.Hash() != before {
		t.Error("a refused order changed the game")
	}
}
