package lob_test

import (
	"strings"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules/lob"
)

// contactScenario: a union column at 0303 and, four hexes east in the
// woods of 0703 (seen from three hexes at most), a confederate line that
// no union piece spots.
const contactScenario = `
name: contact
rules: lob
turns: 1
map:
  columns: 12
  rows: 8
  layout: odd-q
  terrain: |
    ............
    ............
    ......w.....
    ............
    ............
    ............
    ............
    ............
sides:
  - id: union
    nation: union
    edge: west
    hq: "0101"
    army: {id: pope, at: "0101", range: 4, value: 3}
    divisions:
      - id: d1
        general: {id: d1-g, at: "0106", range: 6, value: 2}
        hq: "0106"
        order: {kind: move, objective: "0903"}
        units:
          - {id: a1, type: infantry, at: "0303", formation: column, strength: 3}
  - id: confederate
    nation: confederate
    edge: east
    army: {id: lee, at: "1208", range: 4, value: 3}
    divisions:
      - id: c1
        general: {id: c1-g, at: "1207", range: 3, value: 2}
        units:
          - {id: c-u1, type: infantry, at: "0703", formation: line, strength: 3}
`

// moving starts the contact scenario in fog mode and plays it to the
// union's movement step.
func moving(t *testing.T, r *lob.Rules, fog string) *game.Game {
	t.Helper()
	sc := gametest.Read(t, r, "contact.yaml", []byte(contactScenario))
	g, err := game.New(sc, r, game.Seeded(1), game.WithFog(fog))
	if err != nil {
		t.Fatal(err)
	}
	for g.Step().Name != lob.StepMove {
		if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestContact: under fog of war a move whose path runs into an enemy unit
// the side does not spot is carried out up to the hex before it, the
// movement points spent stay spent, and a contact event (which the side
// sees) has each side spot the other's piece; the same move without fog
// is refused as the path through the enemy it is (LOB-2). A move to the
// hidden unit's own hex, by the path the server finds, stops beside it.
func TestContact(t *testing.T) {
	r := engine(t)
	path := []string{"0403", "0503", "0603", "0703", "0803"}
	for _, fog := range []string{game.FogOn, game.FogStrict} {
		g := moving(t, r, fog)
		if !g.State().Hidden("union", "c-u1") {
			t.Fatalf("%s: the union spots c-u1 in the woods before the move", fog)
		}
		if fc, err := r.Forecast(g.Scenario(), g.Sees("union"), "union", &lob.Args{Unit: "a1", To: "0803", Path: path}); err != nil || len(fc) != 1 || len(fc[0].Path) != 6 {
			t.Fatalf("%s: the forecast of the move on the union's view: %+v, %v", fog, fc, err)
		}
		evs, err := g.Do(game.Command{Side: "union", Verb: "move", Args: &lob.Args{Unit: "a1", To: "0803", Path: path}})
		if err != nil {
			t.Fatalf("%s: the move into the hidden confederate is refused: %v", fog, err)
		}
		if len(evs) != 2 {
			t.Fatalf("%s: %d events, want a move and a contact: %+v", fog, len(evs), evs)
		}
		mv, ok := evs[0].Data.(*lob.Moved)
		if !ok || mv.To != "0603" || len(mv.Path) != 3 || mv.Cost != 3*lob.Sixths {
			t.Errorf("%s: the move %+v; want 3 hexes to 0603 for 3 MP", fog, evs[0].Data)
		}
		c, ok := evs[1].Data.(*game.Contact)
		if evs[1].Type != game.Contacted || !ok || c.Piece != "a1" || c.Met != "c-u1" || c.At != "0703" || evs[1].Rule != "LOB-2" {
			t.Errorf("%s: the contact %+v", fog, evs[1])
		}
		for _, e := range evs {
			if !e.Visible("union") {
				t.Errorf("%s: the union does not see its own %s event", fog, e.Type)
			}
		}
		if g.State().Hidden("union", "c-u1") || g.State().Hidden("confederate", "a1") {
			t.Errorf("%s: after the contact the sides do not spot each other's pieces", fog)
		}
		u := lob.StateOf(g.State()).Unit("a1")
		if p, _ := g.State().Pos("a1"); g.Scenario().Space().Format(p) != "0603" || u.Used != 3*lob.Sixths {
			t.Errorf("%s: a1 stands at %v having used %s MP; want 0603 and 3", fog, p, lob.MP(u.Used))
		}
		if d := g.Describe(&evs[1], nil); !strings.Contains(d, "came upon") {
			t.Errorf("%s: the contact reads %q", fog, d)
		}
		// The confederates see a1 now, but not how far it has come, nor
		// from where.
		if v := lob.StateOf(g.Sees("confederate")).Unit("a1"); v == nil || v.Used != 0 || v.Start != (geom.Point{}) {
			t.Errorf("%s: the confederate view of a1: %+v", fog, v)
		}
		if v := lob.StateOf(g.Sees("union")).Unit("a1"); v.Used != 3*lob.Sixths || v.Start != geom.Pt(3, 3) {
			t.Errorf("%s: the union view of a1: used %d, start %v", fog, v.Used, v.Start)
		}
	}

	// By the path it finds, worked out on what the union knows.
	g := moving(t, r, game.FogOn)
	evs, err := g.Do(game.Command{Side: "union", Verb: "move", Args: &lob.Args{Unit: "a1", To: "0703"}})
	if err != nil || len(evs) != 2 || evs[1].Type != game.Contacted {
		t.Fatalf("the move to the hidden confederate's hex: %+v, %v", evs, err)
	}
	mv := evs[0].Data.(*lob.Moved)
	if p, _ := g.State().Pos("a1"); g.Scenario().Space().Dist(p, geom.Pt(7, 3)) != 1 || lob.StateOf(g.State()).Unit("a1").Used != mv.Cost {
		t.Errorf("by the path found, a1 stops at %v having used %d sixths (the move says %d); want it beside 0703", p, lob.StateOf(g.State()).Unit("a1").Used, mv.Cost)
	}

	// Without fog the path through the confederate is refused, as before.
	g = moving(t, r, game.FogOff)
	_, err = g.Do(game.Command{Side: "union", Verb: "move", Args: &lob.Args{Unit: "a1", To: "0803", Path: path}})
	if err == nil || err.Error() != "a1 cannot take that path: hex 0703 holds the enemy" {
		t.Errorf("without fog: %v", err)
	}
}
