package nes_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/geom/hex"
	"orderly/rules"
	"orderly/rules/nes"
	"orderly/table"
	"orderly/terrain"
)

func engine(t testing.TB) *nes.Rules {
	t.Helper()
	set, err := table.Load(rules.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	r, err := nes.New(set)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func read(t testing.TB, r *nes.Rules, name string, data []byte) *battle.Scenario {
	return gametest.Read(t, r, name, data)
}

func demo(t testing.TB, r *nes.Rules) *battle.Scenario {
	return gametest.ReadFile(t, r, "../../examples/nes/nes-demo.yaml")
}

// queue is dice that hand out given faces in order.
type queue = gametest.Queue

// TestConformance plays random games of the demo and of a synthetic
// battle through the conformance suite.
func TestConformance(t *testing.T) {
	r := engine(t)
	gametest.Conformance(t, r, demo(t, r), 3)
	sc := synthetic(t, 2, 3, 3, 2, 30)
	sc.Turns = 4
	gametest.Conformance(t, r, sc, 2)
}

// synthetic builds an NES battle on a map of size x size hexes of mixed
// terrain: each side has corps corps of divs divisions of brigs brigades
// of units combat units, in blocks facing each other.
func synthetic(t testing.TB, corps, divs, brigs, units, size int) *battle.Scenario {
	t.Helper()
	grid := hex.Map{Columns: size, Rows: size, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 3}}
	m, err := terrain.New(grid, nes.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range m.Len() {
		switch x := rng.IntN(100); {
		case x < 8:
			m.SetTerrain(i, 1) // light cover
		case x < 12:
			m.SetTerrain(i, 2) // farmette
		}
		for d := range 3 {
			if m.Next(i, d) >= 0 && rng.IntN(20) == 0 {
				m.AddFeature(i, d, 0) // a brook
			}
		}
	}
	sc := &battle.Scenario{Name: "synthetic", Rules: "nes", Turns: 1000, Map: &grid, Terrain: m, Speedless: true}
	pt := func(col, row int) geom.Point { return geom.Pt(float64(col), float64(row)) }
	points := 6
	for si, id := range []string{"french", "russian"} {
		s := &battle.Side{ID: id, Name: id, Nation: id, Edge: []string{"west", "east"}[si], Points: &points}
		col0 := 2
		dir := 1
		if si == 1 {
			col0, dir = size-1, -1
		}
		army := &battle.Formation{ID: id, Side: id, Kind: battle.Army, General: id + "-c"}
		s.Formations = append(s.Formations, army)
		s.Generals = append(s.Generals, &battle.General{ID: army.General, Side: id, Commands: army.ID, Range: 8, At: pt(col0, size/2)})
		row := 1
		col := col0 + dir
		next := func() geom.Point { // two hexes a row, down the columns
			p := pt(col, row)
			row++
			if row > size {
				row, col = 1, col+dir
			}
			return p
		}
		for c := range corps {
			k := &battle.Formation{ID: fmt.Sprintf("%s-k%d", id, c), Side: id, Kind: battle.Corps, Parent: army.ID, General: fmt.Sprintf("%s-k%d-g", id, c), Order: &battle.Order{Kind: "attack"}}
			army.Children = append(army.Children, k.ID)
			s.Formations = append(s.Formations, k)
			s.Generals = append(s.Generals, &battle.General{ID: k.General, Side: id, Commands: k.ID, Range: 6, Attrs: map[string]any{"rating": 5, "bonus": 1}, At: pt(col, row)})
			for d := range divs {
				dv := &battle.Formation{ID: fmt.Sprintf("%s-d%d", k.ID, d), Side: id, Kind: battle.Division, Parent: k.ID, General: fmt.Sprintf("%s-k%d-d%d-g", id, c, d), Order: &battle.Order{Kind: "move"}}
				k.Children = append(k.Children, dv.ID)
				s.Formations = append(s.Formations, dv)
				s.Generals = append(s.Generals, &battle.General{ID: dv.General, Side: id, Commands: dv.ID, Range: 4, Attrs: map[string]any{"rating": 5, "bonus": 1}, At: pt(col, row)})
				for b := range brigs {
					br := &battle.Formation{ID: fmt.Sprintf("%s-b%d", dv.ID, b), Side: id, Kind: battle.Brigade, Parent: dv.ID, General: fmt.Sprintf("%s-b%d-g", dv.ID, b)}
					dv.Children = append(dv.Children, br.ID)
					s.Formations = append(s.Formations, br)
					at := next()
					s.Generals = append(s.Generals, &battle.General{ID: br.General, Side: id, Commands: br.ID, Range: 2, Attrs: map[string]any{"rating": 4, "bonus": 1}, At: at})
					for u := range units {
						if u%2 == 1 {
							at = next()
						}
						typ := "infantry"
						if u%5 == 4 {
							typ = "light-cavalry"
						}
						un := &battle.Unit{ID: fmt.Sprintf("%s-u%d", br.ID, u), Side: id, Division: br.ID, Type: typ, Shape: "line", Status: "formed", At: at, Attrs: map[string]any{"strength": 5}}
						br.Units = append(br.Units, un.ID)
						s.Units = append(s.Units, un)
					}
					if units%2 == 0 {
						next()
					}
				}
			}
		}
		sc.Sides = append(sc.Sides, s)
	}
	if err := sc.Finish(); err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestFog is the fog-of-war property test on the demo.
// TestTableDice plays the demo to the end with every roll thrown at the
// table, and in mixed dice (issue 15).
func TestTableDice(t *testing.T) {
	r := engine(t)
	gametest.TableDice(t, r, demo(t, r), 2, game.DiceTable)
	gametest.TableDice(t, r, demo(t, r), 2, game.DiceMixed)
}

// TestBlind is the differential property of fog of war (issue 32): a side
// is given the same whatever hidden enemy pieces do.
func TestBlind(t *testing.T) {
	r := engine(t)
	gametest.Blind(t, r, demo(t, r), 8, probe)
}

// probe aims moves, their forecasts, lines of sight, charges and fire of
// the side's units and leaders near at (where a hidden enemy stands in one
// game of a differential pair) at it and past it.
func probe(g *game.Game, side string, at geom.Point, rng *rand.Rand) []game.Command {
	t := g.Scenario().Terrain
	sp := g.Scenario().Space()
	aim, ok := gametest.AimAt(t, sp, at, rng)
	if !ok {
		return nil
	}
	past, through := aim.Past, aim.Through
	var out []game.Command
	st := nes.StateOf(g.State())
	step := g.Step().Name
	for _, u := range st.Units {
		if u.Side != side || !u.OnTable || sp.Dist(u.At, at) > 6 || len(out) > 12 {
			continue
		}
		// A look along a line is a question asked in any step.
		out = append(out, game.Command{Verb: "sight", Args: &nes.Args{Sight: true, From: sp.Format(u.At), To: past(u.At)}})
		switch step {
		case nes.StepMove:
			out = append(out,
				game.Command{Verb: "move", Args: &nes.Args{Unit: u.ID, To: aim.Hex()}},
				game.Command{Verb: "move", Args: &nes.Args{Unit: u.ID, To: past(u.At), GT: rng.IntN(3) == 0}},
			)
			if p := through(u.At); len(p) > 0 {
				out = append(out, game.Command{Verb: "move", Args: &nes.Args{Unit: u.ID, To: p[len(p)-1], Path: p}})
			}
		case nes.StepCombat:
			out = append(out,
				game.Command{Verb: "charge", Args: &nes.Args{Unit: u.ID, Target: aim.Hex()}},
				game.Command{Verb: "bombard", Args: &nes.Args{Unit: u.ID, Target: aim.Hex()}},
			)
		}
	}
	if step != nes.StepMove {
		return out
	}
	for _, l := range st.Leaders {
		if l.Side == side && sp.Dist(l.At, at) <= 6 {
			out = append(out, game.Command{Verb: "move", Args: &nes.Args{General: l.ID, To: past(l.At)}})
			if p := through(l.At); len(p) > 0 {
				out = append(out, game.Command{Verb: "move", Args: &nes.Args{General: l.ID, To: p[len(p)-1], Path: p}})
			}
		}
	}
	if hq := st.Side(side).HQ; sp.Dist(hq, at) <= 6 {
		out = append(out, game.Command{Verb: "move", Args: &nes.Args{HQ: true, To: past(hq)}})
	}
	return out
}

func TestFog(t *testing.T) {
	r := engine(t)
	gametest.Fog(t, r, demo(t, r), 4)
}

// TestHiddenAsMissing: with fog of war a command naming an enemy piece
// the side does not spot is refused as one naming an id not in the game,
// with Command's own words for a missing id: a loss (any side's unit),
// and an order sent to a command unit (the side's own).
func TestHiddenAsMissing(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	units := gametest.EnemyPieces(func(s *game.State, id string) bool { return nes.StateOf(s).Unit(id) != nil })
	leaders := gametest.EnemyPieces(func(s *game.State, id string) bool { return nes.StateOf(s).Leader(id) != nil })
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "loss", IDs: units, Make: func(_ *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "loss", Args: &nes.Args{Unit: id, Points: 1, Situation: "shock"}}
	}})
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "send", IDs: leaders, Make: func(_ *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "send", Args: &nes.Args{From: id, To: id, Kind: "attack"}}
	}})
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "move", IDs: units, Make: func(_ *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "move", Args: &nes.Args{Unit: id, To: "0101"}}
	}})
}
