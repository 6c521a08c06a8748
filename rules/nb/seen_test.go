package nb

import (
	"slices"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// The visibility predicates Unseen uses agree with View, the view a seat
// is shown, for every piece of every side, on and off the table.
func TestSeesAgreesWithView(t *testing.T) {
	gs := &game.State{}
	piece := func(id, side string, on bool, at geom.Point) *game.Piece {
		p, err := gs.AddPiece(game.Piece{ID: id, Side: side, OnTable: on, At: at})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	st := &State{
		Sides: []SideState{{ID: "a"}, {ID: "b"}},
		Formations: []*Formation{
			{ID: "A", Side: "a", Kind: battle.Corps}, {ID: "A-1", Side: "a", Kind: battle.Division, Parent: "A"},
			{ID: "B", Side: "b", Kind: battle.Corps}, {ID: "B-1", Side: "b", Kind: battle.Division, Parent: "B"},
			{ID: "R", Side: "b", Kind: battle.Corps}, {ID: "R-1", Side: "b", Kind: battle.Division, Parent: "R"},
			{ID: "P", Side: "b", Kind: battle.Corps},
		},
		Units: []*Unit{
			{Piece: piece("a1", "a", true, geom.Point{}), Division: "A-1"}, {Piece: piece("b1", "b", true, geom.Point{}), Division: "B-1"},
			{Piece: piece("r1", "b", false, geom.Point{}), Division: "R-1"}, {Piece: piece("r2", "b", false, geom.Point{}), Division: "R-1"},
		},
		Generals: []*General{
			{Piece: piece("ga", "a", true, geom.Point{}), Commands: "A"}, {Piece: piece("gb", "b", true, geom.Point{}), Commands: "B"},
			{Piece: piece("gr", "b", false, geom.Point{}), Commands: "R"}, {Piece: piece("gp", "b", true, geom.Point{X: 1}), Commands: "P"},
		},
		Messengers: []*Messenger{{ID: "m-b-1", Side: "b"}},
	}
	st.index()
	gs.Ext = st
	r := &Rules{}
	for _, seat := range []string{"a", "b", game.Umpire} {
		v := of(r.View(gs, seat))
		for _, id := range append(st.unitIDs(), "nope") {
			if got, want := st.seesUnit(seat, id), slices.Contains(v.unitIDs(), id); got != want {
				t.Errorf("%s sees unit %s: %v, the view says %v", seat, id, got, want)
			}
		}
		for _, id := range append(st.generalIDs(), "nope") {
			if got, want := st.seesGeneral(seat, id), slices.Contains(v.generalIDs(), id); got != want {
				t.Errorf("%s sees general %s: %v, the view says %v", seat, id, got, want)
			}
		}
		for _, id := range append(st.formationIDs(), "nope") {
			if got, want := st.seesFormation(seat, id), slices.Contains(v.formationIDs(), id); got != want {
				t.Errorf("%s sees formation %s: %v, the view says %v", seat, id, got, want)
			}
		}
	}
	// A hidden id and a missing one get the same answer, with a near
	// match only from the view (r2, hidden, is nearer r1 than a1 is).
	rout := func(seat, id string) error {
		return r.Unseen(gs, seat, &game.Command{Verb: "rout", Args: &Args{Units: []string{id}}})
	}
	hidden, missing := rout("a", "r1"), rout("a", "r9")
	if hidden == nil || missing == nil {
		t.Fatalf("hidden %v, missing %v", hidden, missing)
	}
	if h, m := hidden.Error(), missing.Error(); h != `unit "r1" is not in this game; did you mean a1?` || m != `unit "r9" is not in this game; did you mean a1?` {
		t.Errorf("hidden %q, missing %q", h, m)
	}
	if err := rout(game.Umpire, "r1"); err != nil {
		t.Errorf("the umpire: %v", err)
	}
}
