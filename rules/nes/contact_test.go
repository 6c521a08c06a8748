package nes_test

import (
	"fmt"
	"strings"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/nes"
)

// contactScenario: a french line of infantry at 0303 and, three hexes
// east in the woods of 0603 (seen from two hexes at most), a russian one
// that no french piece spots.
const contactScenario = `
name: contact
rules: nes
turns: 1
map:
  columns: 12
  rows: 6
  layout: odd-q
  terrain: |
    ............
    ............
    .....w......
    ............
    ............
    ............
sides:
  - id: french
    nation: french
    edge: west
    command-points: 1
    army: {id: napoleon, at: "0101", range: 6, bonus: 2}
    divisions:
      - id: d1
        general: {id: friant, at: "0105", bonus: 0, rating: 9, range: 3}
        order: move
        units:
          - {id: f-inf, type: infantry, formation: line, at: "0303", strength: 4}
  - id: russian
    nation: russian
    edge: east
    command-points: 1
    army: {id: kutuzov, at: "1206", range: 6, bonus: 1}
    divisions:
      - id: r1
        general: {id: r1-g, at: "1205", bonus: 1, rating: 9, range: 3}
        units:
          - {id: r-inf, type: infantry, formation: line, at: "0603", strength: 5}
`

// moving starts the contact scenario in fog mode and plays it to the
// french movement step.
func moving(t *testing.T, r *nes.Rules, fog string) *game.Game {
	t.Helper()
	g, err := game.New(read(t, r, "contact.yaml", []byte(contactScenario)), r, game.Seeded(1), game.WithFog(fog))
	if err != nil {
		t.Fatal(err)
	}
	for g.Step().Name != nes.StepMove {
		if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestContact: under fog of war a move whose path runs into an enemy
// piece the side does not spot is carried out up to the hex before it,
// the movement points spent stay spent, and a contact event (which the
// side sees) has each side spot the other's piece; the same move without
// fog is refused as the path through the enemy it is (NES-7). A move to
// the hidden piece's own hex, by the path the server finds, stops beside
// it the same way.
func TestContact(t *testing.T) {
	r := engine(t)
	path := []string{"0403", "0503", "0603", "0703"}
	for _, fog := range []string{game.FogOn, game.FogStrict} {
		g := moving(t, r, fog)
		if !g.State().Hidden("french", "r-inf") {
			t.Fatalf("%s: the french spot r-inf in the woods before the move", fog)
		}
		if _, err := r.Forecast(g.Scenario(), g.Sees("french"), "french", &nes.Args{Unit: "f-inf", To: "0703", Path: path}); err != nil {
			t.Fatalf("%s: the forecast of the move on the french view: %v", fog, err)
		}
		evs, err := g.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{Unit: "f-inf", To: "0703", Path: path}})
		if err != nil {
			t.Fatalf("%s: the move into the hidden russian is refused: %v", fog, err)
		}
		if len(evs) != 2 {
			t.Fatalf("%s: %d events, want a move and a contact: %+v", fog, len(evs), evs)
		}
		mv, ok := evs[0].Data.(*nes.Moved)
		if !ok || mv.To != "0503" || len(mv.Path) != 2 || mv.Cost != 2*nes.Sixths {
			t.Errorf("%s: the move %+v; want 2 hexes to 0503 for 2 MP", fog, evs[0].Data)
		}
		c, ok := evs[1].Data.(*game.Contact)
		if evs[1].Type != game.Contacted || !ok || c.Piece != "f-inf" || c.Met != "r-inf" || c.At != "0603" || evs[1].Rule != "NES-7" {
			t.Errorf("%s: the contact %+v", fog, evs[1])
		}
		for _, e := range evs {
			if !e.Visible("french") {
				t.Errorf("%s: the french do not see their own %s event", fog, e.Type)
			}
		}
		if g.State().Hidden("french", "r-inf") || g.State().Hidden("russian", "f-inf") {
			t.Errorf("%s: after the contact the sides do not spot each other's pieces", fog)
		}
		u := nes.StateOf(g.State()).Unit("f-inf")
		if p, _ := g.State().Pos("f-inf"); g.Scenario().Space().Format(p) != "0503" || u.Used != 2*nes.Sixths {
			t.Errorf("%s: f-inf stands at %v having used %s MP; want 0503 and 2", fog, p, nes.MP(u.Used))
		}
		if d := g.Describe(&evs[1], nil); !strings.Contains(d, "came upon") {
			t.Errorf("%s: the contact reads %q", fog, d)
		}
		// The russians see f-inf now, but not how far it has come.
		if v := nes.StateOf(g.Sees("russian")).Unit("f-inf"); v == nil || v.Used != 0 || v.GT {
			t.Errorf("%s: the russian view of f-inf: %+v", fog, v)
		}
		if v := nes.StateOf(g.Sees("french")).Unit("f-inf"); v.Used != 2*nes.Sixths {
			t.Errorf("%s: the french view of f-inf has used %d sixths", fog, v.Used)
		}
	}

	// By the path it finds: the server works it out on what the french
	// know, through the woods or round them, and stops beside the
	// russian.
	g := moving(t, r, game.FogOn)
	evs, err := g.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{Unit: "f-inf", To: "0603"}})
	if err != nil || len(evs) != 2 || evs[1].Type != game.Contacted {
		t.Fatalf("the move to the hidden russian's hex: %+v, %v", evs, err)
	}
	mv := evs[0].Data.(*nes.Moved)
	if p, _ := g.State().Pos("f-inf"); g.Scenario().Space().Dist(p, geom.Pt(6, 3)) != 1 || nes.StateOf(g.State()).Unit("f-inf").Used != mv.Cost {
		t.Errorf("by the path found, f-inf stops at %v having used %d sixths (the move says %d); want it beside 0603", p, nes.StateOf(g.State()).Unit("f-inf").Used, mv.Cost)
	}

	// Without fog the path through the russian is refused, as before.
	g = moving(t, r, game.FogOff)
	_, err = g.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{Unit: "f-inf", To: "0703", Path: path}})
	if err == nil || err.Error() != "f-inf cannot take that path: hex 0603 holds the enemy (NES-7)" {
		t.Errorf("without fog: %v", err)
	}
}

// TestFogLossChecks: under fog of war the NES-4 check of each command unit
// in the hex of a unit that loses strength is an event of its own, before
// the loss (so that the fog gives it to the sides that spot that command
// unit, whatever else they spot); without fog the checks are in the loss's
// event, as before.
func TestFogLossChecks(t *testing.T) {
	r := engine(t)
	sc := strings.Replace(contactScenario, `general: {id: friant, at: "0105"`, `general: {id: friant, at: "0303"`, 1)
	for _, fog := range []string{game.FogOff, game.FogOn} {
		g, err := game.New(read(t, r, "loss.yaml", []byte(sc)), r, game.Seeded(1), game.WithFog(fog))
		if err != nil {
			t.Fatal(err)
		}
		for g.Step().Name != nes.StepCombat {
			if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
				t.Fatal(err)
			}
		}
		evs, err := g.Do(game.Command{Side: "french", Verb: "loss", Args: &nes.Args{Unit: "f-inf", Points: 1, Situation: "shock"}})
		if err != nil {
			t.Fatalf("%s: %v", fog, err)
		}
		var got []string
		for _, e := range evs {
			d := e.Data.(*nes.Lost)
			got = append(got, fmt.Sprintf("%d points, %d checks, %d rolls, more %v", d.Points, len(d.Checks), len(e.Rolls), d.More))
		}
		want := []string{"1 points, 1 checks, 1 rolls, more false"}
		if fog != game.FogOff {
			want = []string{"0 points, 1 checks, 1 rolls, more true", "1 points, 0 checks, 0 rolls, more false"}
		}
		if strings.Join(got, "; ") != strings.Join(want, "; ") {
			t.Errorf("%s: the loss's events are %q; want %q", fog, got, want)
		}
		if u := nes.StateOf(g.State()).Unit("f-inf"); u.Strength != 3 {
			t.Errorf("%s: f-inf has %d strength left; want 3", fog, u.Strength)
		}
	}
}
