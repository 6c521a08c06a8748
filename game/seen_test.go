package game

import (
	"slices"
	"testing"

	"orderly/battle"
	"orderly/geom"
)

// The visibility predicates Unseen uses agree with redact, the view a
// seat is shown, for every piece of every side, on and off the table.
func TestSeesAgreesWithView(t *testing.T) {
	st := &State{
		Sides: []SideState{{ID: "a"}, {ID: "b"}},
		Formations: []*Formation{
			{ID: "A", Side: "a", Kind: battle.Corps}, {ID: "A-1", Side: "a", Kind: battle.Division, Parent: "A"},
			{ID: "B", Side: "b", Kind: battle.Corps}, {ID: "B-1", Side: "b", Kind: battle.Division, Parent: "B"},
			{ID: "R", Side: "b", Kind: battle.Corps}, {ID: "R-1", Side: "b", Kind: battle.Division, Parent: "R"},
			{ID: "P", Side: "b", Kind: battle.Corps},
		},
		Units: []*Unit{
			{ID: "a1", Side: "a", Division: "A-1", OnTable: true}, {ID: "b1", Side: "b", Division: "B-1", OnTable: true},
			{ID: "r1", Side: "b", Division: "R-1"}, {ID: "r2", Side: "b", Division: "R-1"},
		},
		Generals: []*General{
			{ID: "ga", Side: "a", Commands: "A", OnTable: true}, {ID: "gb", Side: "b", Commands: "B", OnTable: true},
			{ID: "gr", Side: "b", Commands: "R"}, {ID: "gp", Side: "b", Commands: "P", OnTable: true, At: geom.Point{X: 1}},
		},
		Messengers: []*Messenger{{ID: "m-b-1", Side: "b"}},
	}
	st.index()
	for _, seat := range []string{"a", "b", Umpire} {
		v := st.redact(seat)
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
	hidden := Unseen(st, "a", &Command{Verb: "rout", Units: []string{"r1"}})
	missing := Unseen(st, "a", &Command{Verb: "rout", Units: []string{"r9"}})
	if hidden == nil || missing == nil {
		t.Fatalf("hidden %v, missing %v", hidden, missing)
	}
	if h, m := hidden.Error(), missing.Error(); h != `unit "r1" is not in this game; did you mean a1?` || m != `unit "r9" is not in this game; did you mean a1?` {
		t.Errorf("hidden %q, missing %q", h, m)
	}
	if err := Unseen(st, Umpire, &Command{Verb: "rout", Units: []string{"r1"}}); err != nil {
		t.Errorf("the umpire: %v", err)
	}
}
