package lob_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules/lob"
	"orderly/script"
)

// TestAdviceRadius: in the union's movement step of LOB-2's script, b1
// (5 hexes from d2's HQ, radius 2) and b2 (4 hexes) are warned of, in
// the words a move of theirs away from it is refused with; a1 and b3,
// within their radii, are not; the confederates, who do not move now,
// are told nothing. b1 brought back to 0608 is still out, 3 hexes.
func TestAdviceRadius(t *testing.T) {
	r := engine(t)
	data, err := os.ReadFile("../../examples/lob/lob-02-radius.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Load("lob-02-radius.yaml", data, func(string) (game.Rules, error) { return r, nil }, script.Disk)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(s.Scenario, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	toStep(t, g, "union", lob.StepMove)
	warned := func(side string) map[string]string {
		out := map[string]string{}
		if a := r.Advise(g.Sees(side), g.Step(), side, nil); a != nil {
			for _, w := range a.Warnings {
				if w.Rule != "LOB-2" {
					t.Errorf("warning %+v; want LOB-2", w)
				}
				out[w.Piece] = w.Text
			}
		}
		return out
	}
	w := warned("union")
	if got := slices.Sorted(func(yield func(string) bool) {
		for id := range w {
			if !yield(id) {
				return
			}
		}
	}); !slices.Equal(got, []string{"b1", "b2"}) {
		t.Errorf("warned of %v; want b1 and b2 (%v)", got, w)
	}
	if !strings.Contains(w["b1"], "5 hexes from its HQ") || !strings.Contains(w["b2"], "4 hexes from its HQ") {
		t.Errorf("the warnings %q do not give the distances of the script (5 and 4 hexes)", w)
	}
	_, err = g.Do(game.Command{Side: "union", Verb: "move", Args: &lob.Args{Unit: "b1", To: "0611"}})
	if err == nil || !strings.HasPrefix(err.Error(), strings.TrimSuffix(w["b1"], " (LOB-2)")) {
		t.Errorf("b1's move away is refused with %v; want the warning's words %q", err, w["b1"])
	}
	if c := warned("confederate"); len(c) != 0 {
		t.Errorf("the confederates, who do not move now, are warned %v", c)
	}
	if _, err := g.Do(game.Command{Side: "union", Verb: "move", Args: &lob.Args{Unit: "b1", To: "0608"}}); err != nil {
		t.Fatal(err)
	}
	if w := warned("union"); !strings.Contains(w["b1"], "3 hexes from its HQ") {
		t.Errorf("b1 back at 0608: warned %q; want 3 hexes from its HQ", w["b1"])
	}
}

// TestAdviceCommandRoll: in its orders step the union is told Pope has
// his one command roll of the turn to make (LOB-4); once he has issued an
// order, none is left.
func TestAdviceCommandRoll(t *testing.T) {
	r := engine(t)
	g, err := game.New(demo(t, r), r, game.Seeded(3))
	if err != nil {
		t.Fatal(err)
	}
	toOrders(t, g, "union")
	left := func() game.Left {
		t.Helper()
		a := r.Advise(g.Sees("union"), g.Step(), "union", nil)
		if a == nil || len(a.Left) != 1 {
			t.Fatalf("the union's advice in its orders step is %+v; want its command roll", a)
		}
		return a.Left[0]
	}
	if l := left(); l.Left != 1 || l.Of != 1 || l.Rule != "LOB-4" {
		t.Errorf("before issuing: %+v; want 1 of 1 (LOB-4)", l)
	}
	// Pope's order to II Corps: the command roll is made, whatever it gives.
	if _, err := g.Do(game.Command{Side: "union", Verb: "issue", Args: &lob.Args{To: "II", Kind: lob.Attack, Objective: "1005"}}); err != nil {
		t.Fatal(err)
	}
	if l := left(); l.Left != 0 {
		t.Errorf("after the command roll: %+v; want 0 of 1", l)
	}
}
