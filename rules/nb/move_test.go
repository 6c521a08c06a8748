package nb_test

import (
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/nb"
	"orderly/script"
)

// offTable is a scenario whose corps I has the order ORDER, its pieces at
// AT1..AT3 (left out for an off-board reserve).
const offTable = `
name: off-table
rules: nb
turns: 6
field: {width: 72, depth: 48, grid: {columns: 6, rows: 4}}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: napoleon, quality: excellent, range: 12, at: [36, 46]}
    corps:
      - id: I
        general: {id: derlon, quality: average, range: 8AT1}
        order: ORDER
        divisions:
          - id: I-1
            general: {id: quiot, quality: average, range: 4AT2}
            units:
              - {id: I-1-a, type: infantry, speed: 6AT3}
  - id: british
    nation: british
    edge: north
    army: {id: wellington, quality: excellent, range: 16, at: [60, 2]}
    corps:
      - id: B
        general: {id: hill, quality: good, range: 8, at: [60, 4]}
        order: defend
        divisions:
          - id: B-1
            general: {id: clinton, quality: good, range: 4, at: [60, 5]}
            units:
              - {id: B-1-a, type: infantry, speed: 6, at: [60, 6]}
`

// TestObjectiveOffTableScenario checks that a scenario whose order has an
// objective off the table is refused when it loads, as a write with one
// is in play (examples/nb/nb-16-speed.yaml): an initial order, and the
// order an off-board reserve follows once it enters.
func TestObjectiveOffTableScenario(t *testing.T) {
	r := engine(t)
	eng := func(string) (game.Rules, error) { return r, nil }
	place := strings.NewReplacer("AT1", ", at: [20, 40]", "AT2", ", at: [20, 41]", "AT3", ", at: [20, 42]")
	off := strings.NewReplacer("AT1", "", "AT2", "", "AT3", "")
	for order, pieces := range map[string]*strings.Replacer{
		"{kind: defend, objective: [80, 10]}":                                   place,
		"{kind: reserve, entry: C4, then: {kind: attack, objective: [30, -1]}}": off,
	} {
		_, err := script.LoadScenario("off.yaml", []byte(pieces.Replace(strings.Replace(offTable, "ORDER", order, 1))), eng)
		if err == nil || !strings.Contains(err.Error(), "is off the table (0..72 by 0..48 inches)") {
			t.Errorf("%s: %v; want the objective refused as off the table", order, err)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\n") {
			t.Errorf("error is more than one line: %v", err)
		}
	}
	if _, err := script.LoadScenario("on.yaml", []byte(place.Replace(strings.Replace(offTable, "ORDER", "{kind: defend, objective: [72, 0]}", 1))), eng); err != nil {
		t.Errorf("an objective on the edge of the table: %v", err)
	}
}

// TestMovedTwice: a move command that names a piece twice, unit or
// general, is refused, and changes nothing; the same pieces once each
// are accepted.
func TestMovedTwice(t *testing.T) {
	r := engine(t)
	eng := func(string) (game.Rules, error) { return r, nil }
	place := strings.NewReplacer("AT1", ", at: [20, 40]", "AT2", ", at: [20, 41]", "AT3", ", at: [20, 42]")
	sc, err := script.LoadScenario("twice.yaml", []byte(place.Replace(strings.Replace(offTable, "ORDER", "defend", 1))), eng)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	for g.Step().Name != "move" {
		if err := g.Exec(game.Command{Side: game.Umpire, Verb: "end"}); err != nil {
			t.Fatal(err)
		}
	}
	unit := func(to float64) game.Move { return game.Move{Unit: "I-1-a", To: geom.Pt(20, to)} }
	gen := func(to float64) game.Move { return game.Move{General: "quiot", To: geom.Pt(21, to)} }
	for _, moves := range [][]game.Move{{unit(40), unit(41)}, {gen(40), unit(41), gen(39)}} {
		n := g.Len()
		err := g.Exec(game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: moves}})
		if err == nil || !strings.Contains(err.Error(), "is moved twice in one command") {
			t.Errorf("%v: got %v, want moved twice", moves, err)
		}
		if g.Len() != n {
			t.Errorf("%v: the refused command added %d events", moves, g.Len()-n)
		}
	}
	if err := g.Exec(game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: []game.Move{gen(40), unit(40)}}}); err != nil {
		t.Errorf("each piece once: %v", err)
	}
}

// TestViewLeavesMembersAlone: taking a side's view, which leaves out the
// enemy's pieces off the table, changes nothing in the game's own state
// (a division's members were once rewritten through a shared list).
func TestViewLeavesMembersAlone(t *testing.T) {
	r := engine(t)
	eng := func(string) (game.Rules, error) { return r, nil }
	off := strings.NewReplacer("AT1", "", "AT2", "", "AT3", "")
	src := off.Replace(strings.Replace(offTable, "ORDER", "{kind: reserve, entry: C4, then: {kind: attack, objective: [30, 10]}}", 1))
	sc, err := script.LoadScenario("off.yaml", []byte(src), eng)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	members := func() []string {
		s := nb.StateOf(g.State())
		var out []string
		for u := range s.Members(s.Formation("B-1")) {
			out = append(out, u.ID)
		}
		return out
	}
	for _, seat := range []string{"british", "french", game.Umpire} {
		g.Sees(seat)
		if got := members(); !slices.Equal(got, []string{"B-1-a"}) {
			t.Fatalf("after %s's view B-1's members are %v; want [B-1-a]", seat, got)
		}
	}
}
