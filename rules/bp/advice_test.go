package bp_test

import (
	"slices"
	"testing"

	"orderly/game"
	"orderly/rules/bp"
)

// TestFailedOrderNotMoved: f1 ordered with 2d6 = 6 against staff 8
// (moves-2) is offered move; ordered with 10 (fail, BP-1) it is not, and
// its move is refused: the page, which drags only what is offered, never
// drags a unit whose order failed. The count of commanders who may still
// give orders goes from 1 of 1 to 0 of 1 after the failure (BP-1, BP-4).
func TestFailedOrderNotMoved(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", duel("          - {id: f1, type: infantry, formation: column, at: [36, 40], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}"))
	for _, c := range []struct {
		faces []int
		moves bool
	}{{[]int{3, 3}, true}, {[]int{5, 5}, false}} {
		g, err := game.New(sc, r, &queue{Faces: c.faces})
		if err != nil {
			t.Fatal(err)
		}
		if a := r.Advise(g.Sees("french"), g.Step(), "french", nil); a == nil || len(a.Left) != 1 || a.Left[0].Left != 1 || a.Left[0].Of != 1 {
			t.Fatalf("before the order the advice is %+v; want 1 of 1 commanders", a)
		}
		if slices.Contains(r.Offers(g.Sees("french"), g.Step(), "french")["f1"], "move") {
			t.Errorf("f1 is offered move before any order")
		}
		do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
		for _, seat := range []string{"french", game.Umpire} {
			if got := slices.Contains(r.Offers(g.Sees(seat), g.Step(), seat)["f1"], "move"); got != c.moves {
				t.Errorf("faces %v: the %s seat is offered move for f1: %v; want %v", c.faces, seat, got, c.moves)
			}
		}
		_, err = g.Do(game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(36, 38)}})
		if (err == nil) != c.moves {
			t.Errorf("faces %v: f1's move gives %v", c.faces, err)
		}
		if !c.moves {
			if a := r.Advise(g.Sees("french"), g.Step(), "french", nil); a == nil || a.Left[0].Left != 0 {
				t.Errorf("after the failed order the advice is %+v; want 0 of 1 commanders", a)
			}
		}
	}
}
