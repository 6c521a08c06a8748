package nes_test

import (
	"fmt"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules/nes"
)

// line is a scenario on a 20 x 3 map: the french army commander (radius
// 3) at 0102 and his one corps commander at corps, with a division whose
// brigade's units stand at units.
func line(corps, units string) string {
	return fmt.Sprintf(`name: line
rules: nes
turns: 6
map: {columns: 20, rows: 3}
sides:
  - id: french
    nation: french
    edge: west
    command-points: 9
    army: {id: c, at: "0102", range: 3}
    corps:
      - id: k
        general: {id: k-g, at: %q, range: 3, rating: 9}
        divisions:
          - id: d
            general: {id: d-g, at: %q, range: 2, rating: 9}
            brigades:
              - id: b
                general: {id: b-g, at: %q, range: 2, rating: 9}
                units:
                  - {id: u, type: infantry, at: %q, strength: 4}
  - id: russian
    nation: russian
    edge: east
    command-points: 1
    army: {id: r, at: "2002", range: 3}
    divisions:
      - id: rd
        general: {id: rd-g, at: "2001", range: 2, rating: 4}
        units:
          - {id: ru, type: infantry, at: "2003", strength: 4}
`, corps, corps, corps, units)
}

// TestDeliveryByDistance: NES-2's distances from a sender of radius 3 in
// a straight line of hexes: in his hex received without a roll; 1 and 3
// hexes (within the radius) roll NES-1; 4 hexes (radius + 1) delay 1;
// 7 (2 radii + 1) delay 2; 10 (3 radii + 1) delay 3; 16 still delay 3.
// The distance is to the receiver or the nearest of its combat units.
func TestDeliveryByDistance(t *testing.T) {
	r := engine(t)
	// Hexes on row 02 of an odd-q map: column c is c-1 hexes from 0102.
	cases := []struct {
		corps, units string
		rolls        bool
		want         string
	}{
		{"0102", "0202", false, "received"},
		{"0202", "0302", true, "received"},
		{"0402", "0502", true, "received"},
		{"0502", "0602", false, "delay-1"},
		{"0802", "0902", false, "delay-2"},
		{"1102", "1202", false, "delay-3"},
		{"1702", "1802", false, "delay-3"},
		// the corps commander is far, his division's unit within 3
		{"1102", "0402", true, "received"},
	}
	for _, c := range cases {
		sc := read(t, r, "line.yaml", []byte(line(c.corps, c.units)))
		q := &queue{Faces: []int{0}}
		g, err := game.New(sc, r, q)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := g.Do(game.Command{Side: "french", Verb: "send", Args: &nes.Args{From: "c", To: "k", Kind: "attack"}})
		if err != nil {
			t.Fatalf("corps at %s: %v", c.corps, err)
		}
		var sent *nes.Sent
		var rolled bool
		for _, e := range evs {
			if d, ok := e.Data.(*nes.Sent); ok {
				sent, rolled = d, len(e.Rolls) > 0
			}
		}
		if sent == nil || sent.Result != c.want || rolled != c.rolls {
			t.Errorf("corps at %s, units at %s: %+v rolled %v; want %s, rolled %v", c.corps, c.units, sent, rolled, c.want, c.rolls)
		}
	}
}

// TestMarkersCountDown: an order at delay 3 steps down a level each of
// the side's turns, then at delay 1 rolls NES-1 every turn with -1 for
// each turn it has stayed there (NES-2, our reading), keeping the -2 of
// an order sent from the army commander's hex (NES-1's accrued
// modifiers): with the corps commander's bonus 0, 7 is delay-1 at -1-2
// (total 4) and at -2-2 (total 3), and 5 received at -3-2 (total 0).
func TestMarkersCountDown(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "line.yaml", []byte(line("1102", "1202")))
	q := &queue{Faces: []int{7, 7, 5}}
	g, err := game.New(sc, r, q)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Do(game.Command{Side: "french", Verb: "send", Args: &nes.Args{From: "c", To: "k", Kind: "attack"}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"k-g delay-2", "k-g delay-1", "k-g delay-1 total 4", "k-g delay-1 total 3", "k-g received total 0"}
	var got []string
	for range 60 {
		if g.State().Over || len(got) == len(want) {
			break
		}
		evs, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			b, ok := e.Data.(*nes.Begun)
			if !ok || b.Side != "french" {
				continue
			}
			n := 0
			for _, m := range b.Markers {
				s := fmt.Sprintf("%s delay-%d", m.Leader, m.Delay)
				if m.Result != "" {
					s = fmt.Sprintf("%s %s total %d", m.Leader, m.Result, e.Rolls[n].Total)
					n++
				}
				got = append(got, s)
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("markers %q, want %q", got, want)
	}
	k := nes.StateOf(g.State()).Leader("k-g")
	if k.Order == nil || k.Order.Kind != "attack" || k.Marker != nes.Received || k.State != nes.Mobilized {
		t.Errorf("after delivery k-g has %+v, marker %q, %s", k.Order, k.Marker, k.State)
	}
}

// TestHQMoves: the army's headquarters moves as a command unit (1 MP a
// hex), and an order sent from its new hex gets the -2 of NES-1.
func TestHQMoves(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(2))
	if err != nil {
		t.Fatal(err)
	}
	fc, err := r.Forecast(sc, g.State(), "french", &nes.Args{From: "davout", To: "fr-1-1", Kind: "attack"})
	if err != nil || fc[0].Params["from-hq"] != "false" {
		t.Fatalf("davout at 0610 away from the HQ at 0211: %+v %v", fc, err)
	}
	for g.Step().Name != nes.StepMove {
		if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := g.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{HQ: true, To: "0610"}})
	if err != nil {
		t.Fatal(err)
	}
	var mv *nes.Moved
	for _, e := range evs {
		if d, ok := e.Data.(*nes.Moved); ok {
			mv = d
		}
	}
	if mv == nil || mv.HQ != "french" || mv.To != "0610" || mv.Cost != 4*nes.Sixths {
		t.Fatalf("the HQ's move: %+v", mv)
	}
	if hq := nes.StateOf(g.State()).Side("french").HQ; fmt.Sprint(hq) != "(6, 10)" && fmt.Sprint(hq) != "{6 10}" {
		t.Errorf("the HQ stands at %v", hq)
	}
	fc, err = r.Forecast(sc, g.State(), "french", &nes.Args{From: "davout", To: "fr-1-1", Kind: "attack"})
	if err != nil || fc[0].Params["from-hq"] != "true" {
		t.Errorf("davout in the HQ's hex: %+v %v", fc, err)
	}
	if _, err := g.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{HQ: true, To: "1806"}}); err == nil || !strings.Contains(err.Error(), "MP left") {
		t.Errorf("the HQ beyond its allowance: %v", err)
	}
}

// chain is a scenario on a 20 x 3 map: a french corps commander (rating
// rating) with an attack order, his division leader (rating 3) in his
// radius, and a brigade; the french play first; turn 2 is an evening.
func chain(rating int) string {
	return fmt.Sprintf(`name: chain
rules: nes
turns: 4
evening: [2]
map: {columns: 20, rows: 3}
sides:
  - id: french
    nation: french
    edge: west
    command-points: 3
    army: {id: c, at: "0102", range: 3}
    corps:
      - id: k
        general: {id: k-g, at: "0302", range: 3, rating: %d}
        order: attack
        divisions:
          - id: d
            general: {id: d-g, at: "0402", range: 2, rating: 3}
            brigades:
              - id: b
                general: {id: b-g, at: "0402", range: 2, rating: 4}
                units:
                  - {id: u, type: infantry, at: "0402", strength: 4}
  - id: russian
    nation: russian
    edge: east
    command-points: 1
    army: {id: r, at: "2002", range: 3}
    divisions:
      - id: rd
        general: {id: rd-g, at: "2001", range: 2, rating: 4}
        units:
          - {id: ru, type: infantry, at: "2003", strength: 4}
`, rating)
}

// TestFallsAtOnce: a corps commander who drops to standing does so at once
// (NES-3): his division leader's check, made after his, no longer has -2
// for a mobilized corps commander but -1 for standing within his radius.
// Corps (rating 1): 9 - 2 (attack) = 7 > 1, standing; division (rating 3):
// 7 - 2 (attack, inherited) - 1 = 4 > 3, standing (with -2 it would be 3).
func TestFallsAtOnce(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "chain.yaml", []byte(chain(1)))
	g, err := game.New(sc, r, &queue{Faces: []int{9, 7}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for g.Step().Name != nes.StepMove {
		evs, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if c, ok := e.Data.(*nes.Checked); ok {
				for i, ck := range c.Checks {
					got = append(got, fmt.Sprintf("%s %s %d", ck.Leader, ck.Result, e.Rolls[i].Total))
				}
			}
		}
	}
	if want := "[k-g standing 7 d-g standing 4]"; fmt.Sprint(got) != want {
		t.Errorf("checks %v, want %s", got, want)
	}
}

// TestComingTurn: the odds of a coming continuation check are for the
// turn it will be rolled on: in the french orders step of turn 1 this
// turn's (not an evening); once the french segment is over, and through
// the russian turn, turn 2's (an evening: +2).
func TestComingTurn(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "chain.yaml", []byte(chain(9)))
	g, err := game.New(sc, r, game.Seeded(3))
	if err != nil {
		t.Fatal(err)
	}
	evening := func() string {
		b := r.Annotate(g.State(), g.Step(), "french").(nes.Board)
		for _, o := range b.Odds {
			if o.Leader == "k-g" {
				return o.Params["evening"] + " " + o.Why
			}
		}
		return "none"
	}
	if got := evening(); got != "false continuation check on turn 1 (NES-3)" {
		t.Errorf("in the french orders step of turn 1: %s", got)
	}
	for g.Step().Name != nes.StepMove {
		if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	if got := evening(); got != "true continuation check on turn 2 (NES-3)" {
		t.Errorf("in the french movement of turn 1: %s", got)
	}
	for g.State().Phase != "russian-command" {
		if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	if got := evening(); got != "true continuation check on turn 2 (NES-3)" {
		t.Errorf("in the russian turn 1: %s", got)
	}
}
