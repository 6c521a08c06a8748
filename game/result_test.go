package game_test

import (
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/geom/hex"
)

var resultSpec = battle.Spec{ID: "nb", Vocab: battle.Vocab{
	Qualities: []string{"average"},
	Nations:   []string{"french", "british"},
	Orders:    []string{"attack", "defend", "reserve"},
	UnitTypes: []string{"infantry"},
	Shapes:    []string{"column", "line"},
	Statuses:  []string{"formed"},
}, Spaces: []string{geom.KindTable}}

// resultScenario: a French unit at the farm (30, 20), a British one at
// the mill (50, 20), each army commander far from both.
const resultScenario = `name: result-test
rules: nb
turns: 4
field: {width: 72, depth: 48}
speeds: {infantry: 6}
sides:
  - id: french
    name: The French
    nation: french
    edge: south
    army: {id: nap, quality: average, range: 12, at: [30, 21]}
    divisions:
      - id: f1
        general: {id: fg, quality: average, range: 4, at: [10, 40]}
        units:
          - {id: fu, type: infantry, at: [30, 20]}
  - id: british
    name: The British
    nation: british
    edge: north
    army: {id: wel, quality: average, range: 12, at: [60, 2]}
    divisions:
      - id: b1
        general: {id: bg, quality: average, range: 4, at: [60, 4]}
        units:
          - {id: bu, type: infantry, at: [50, 20]}
result:
  objectives:
    - {name: the farm, at: [30, 20], points: 3, radius: 4}
    - {name: the mill, at: [50, 20], points: 1, radius: 4}
  margin: MARGIN
`

func resultGame(t *testing.T, margin string) (*battle.Scenario, *game.State) {
	t.Helper()
	src := []byte(resultScenario[:len(resultScenario)-len("MARGIN\n")] + margin + "\n")
	sc, err := battle.Load("result.yaml", src, resultSpec)
	if err != nil {
		t.Fatal(err)
	}
	return sc, game.NewState(sc)
}

// TestResultKnownAnswers works out results of positions by hand.
func TestResultKnownAnswers(t *testing.T) {
	sc, s := resultGame(t, "0")
	o := game.Result(sc, s)
	// The French hold the farm (3), the British the mill (1); the French
	// general at (30, 21) is no combat unit and does not count.
	if o == nil || o.Winner != "french" || o.Points["french"] != 3 || o.Points["british"] != 1 {
		t.Fatalf("at the start: %+v; want the French to win 3 to 1", o)
	}
	if want := "The French wins, 3 points to 1: The French holds the farm; The British holds the mill."; o.Text != want {
		t.Errorf("text %q\nwant %q", o.Text, want)
	}
	if len(o.Held) != 2 || o.Held[0] != (game.Held{Name: "the farm", Points: 3, Side: "french"}) {
		t.Errorf("held %+v", o.Held)
	}

	// The British unit comes within 4 inches of the farm: contested, so
	// nobody holds it; the mill is empty now: 0 to 0, a draw.
	s.Piece("bu").At = geom.Pt(33, 22)
	o = game.Result(sc, s)
	if o.Winner != "" || o.Points["french"] != 0 || o.Points["british"] != 0 || o.Held[0].Side != "" {
		t.Errorf("farm contested: %+v; want a draw at 0 to 0 with the farm held by nobody", o)
	}
	if want := "A draw, 0 to 0 points: no side holds an objective."; o.Text != want {
		t.Errorf("text %q\nwant %q", o.Text, want)
	}

	// Just beyond the radius it does not contest; a unit off the table
	// (broken, or waiting off the board) holds nothing.
	s.Piece("bu").At = geom.Pt(34.01, 20)
	s.Piece("fu").OnTable = false
	o = game.Result(sc, s)
	if o.Winner != "" || o.Points["british"] != 0 || o.Held[0].Side != "" {
		t.Errorf("the French unit off the table: %+v; want nobody at the farm", o)
	}
	s.Piece("fu").OnTable = true
	s.Piece("bu").At = geom.Pt(34, 20) // exactly on the radius: within
	if o = game.Result(sc, s); o.Held[0].Side != "" {
		t.Errorf("a British unit on the radius: farm held by %q; want contested", o.Held[0].Side)
	}

	// A margin of 2: 3 to 1 is not enough; of 1 it is.
	sc, s = resultGame(t, "2")
	if o = game.Result(sc, s); o.Winner != "" || o.Text != "A draw, 3 to 1 points (a win needs a lead of more than 2): The French holds the farm; The British holds the mill." {
		t.Errorf("margin 2: %+v; want a draw", o)
	}
	sc, s = resultGame(t, "1")
	if o = game.Result(sc, s); o.Winner != "french" {
		t.Errorf("margin 1: %+v; want the French to win", o)
	}

	// No result section: no outcome.
	sc.Result = nil
	if o = game.Result(sc, s); o != nil {
		t.Errorf("no result section: %+v; want nil", o)
	}
}

// side is a side of one division: its army commander at gen, and one
// unit at u.
func side(id, unit string, gen, u geom.Point) *battle.Side {
	return &battle.Side{ID: id,
		Formations: []*battle.Formation{
			{ID: id, Side: id, Kind: battle.Army, General: id + "-g", Children: []string{id + "-d"}},
			{ID: id + "-d", Side: id, Kind: battle.Division, Parent: id, General: id + "-dg", Units: []string{unit}},
		},
		Generals: []*battle.General{{ID: id + "-g", Side: id, Commands: id, At: gen}, {ID: id + "-dg", Side: id, Commands: id + "-d", At: gen}},
		Units:    []*battle.Unit{{ID: unit, Side: id, Division: id + "-d", At: u}},
	}
}

// TestResultOnHexes: on a hex map the radius counts hexes, and 0 is the
// objective's own hex.
func TestResultOnHexes(t *testing.T) {
	m, err := hex.NewMap(10, 10, hex.Layout{Offset: hex.OddQ, First: 1})
	if err != nil {
		t.Fatal(err)
	}
	at := func(label string) geom.Point {
		p, err := m.Parse(label)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	sc := &battle.Scenario{Name: "hexes", Map: &m, Turns: 1, Speedless: true, Sides: []*battle.Side{
		side("a", "ua", at("0101"), at("0505")),
		side("b", "ub", at("1010"), at("0507")),
	}, Result: &battle.Result{Objectives: []battle.Objective{
		{Name: "the village", At: at("0505"), Points: 2},
		{Name: "the bridge", At: at("0506"), Points: 1, Radius: 1},
	}}}
	if err := sc.Finish(); err != nil {
		t.Fatal(err)
	}
	o := game.Result(sc, game.NewState(sc))
	// ua stands on the village; both stand one hex from the bridge.
	if o.Held[0].Side != "a" || o.Held[1].Side != "" || o.Winner != "a" || o.Points["a"] != 2 {
		t.Errorf("%+v; want a to hold the village and win 2 to 0, the bridge contested", o)
	}
}
