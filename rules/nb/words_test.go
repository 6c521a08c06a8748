package nb_test

import (
	"os"
	"testing"

	"orderly/game"
	"orderly/rules/nb"
	"orderly/script"
)

// TestEntrySlidText: an off-board reserve's entry point more than 8" from
// every un-routed enemy unit stays put; one within 8" slides along the
// edge to the nearest hundredth of an inch that is clear (NB-10), and the
// entry says how far and from where. VI's marker stands at (30, 48) on the
// south edge and B-1-a on the edge west of it: 8.01" away the marker is
// clear; exactly 8" away it slides 0.01" east, to (30.01, 48), which a
// position written to the tenth shows as (30, 48) as well, so the text
// gives the distance to the hundredth rather than "from (30, 48) to (30,
// 48)"; 7.5" away it slides 0.51" (half 8", less 7.5", and the hundredth).
func TestEntrySlidText(t *testing.T) {
	r := engine(t)
	for _, c := range []struct{ at, want string }{
		{"[21.99, 48]", "VI enters at (30, 48) with 2 pieces (NB-10)"},
		{"[22, 48]", `VI enters at (30, 48) with 3 pieces; the entry point slid 0.01" along the edge from (30, 48), clear of the enemy (NB-10)`},
		{"[22.5, 48]", `VI enters at (30.5, 48) with 3 pieces; the entry point slid 0.51" along the edge from (30, 48), clear of the enemy (NB-10)`},
	} {
		g := entered(t, r, c.at, game.FogOff)
		var got string
		for _, e := range g.Log() {
			if e.Type == nb.ReserveEntered {
				got = g.Describe(&e, nil)
			}
		}
		if got != c.want {
			t.Errorf("B-1-a at %s: the entry reads\n%s\nwant\n%s", c.at, got, c.want)
		}
	}
}

// TestCombatDeclaredRule: starting combat is NB-6's (engaged units respond
// only to the formations they are engaged with), and the declaration cites
// it, as the refusals do; NB-12 only exempts the units from the command
// range check. The nb-06 example's turn 3 declaration and turn 1 refusal.
func TestCombatDeclaredRule(t *testing.T) {
	r := engine(t)
	const path = "../../examples/nb/nb-06-combat-target.yaml"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Load(path, data, func(string) (game.Rules, error) { return r, nil }, script.Disk)
	if err != nil {
		t.Fatal(err)
	}
	g, timeline, err := s.Run(r)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		nb.CombatDeclared:    "I-1-a start combat with B-1-a (NB-6)",
		game.CommandRejected: "unit I-1-a cannot start combat with B-2: its division I-1 is engaged only with B-1, and engaged units respond only to those [combat] (NB-6)",
	}
	for _, e := range timeline {
		w, ok := want[e.Type]
		if !ok {
			continue
		}
		delete(want, e.Type)
		if got := g.Describe(&e, nil); got != w {
			t.Errorf("the first %s reads\n%s\nwant\n%s", e.Type, got, w)
		}
	}
	for typ := range want {
		t.Errorf("no %s in the game", typ)
	}
}
