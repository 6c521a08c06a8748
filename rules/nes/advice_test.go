package nes_test

import (
	"os"
	"slices"
	"testing"

	"orderly/game"
	"orderly/rules/nes"
	"orderly/script"
)

// TestAdviceStrays: in the French orders step of NES-3's script, the
// continuation checks to come count Friant and Gudin outside Davout's
// radius (+1 each), Bonnet outside Morand's (+1) and Brun beyond twice
// it (+3); Ney stands and makes no check, so Ledru outside his radius is
// not warned of. The French have their 4 command points left.
func TestAdviceStrays(t *testing.T) {
	r := engine(t)
	data, err := os.ReadFile("../../examples/nes/nes-03-continuation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Load("nes-03-continuation.yaml", data, func(string) (game.Rules, error) { return r, nil }, script.Disk)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(s.Scenario, r, game.Seeded(3))
	if err != nil {
		t.Fatal(err)
	}
	if st := g.Step(); st.Name != nes.StepOrders || !slices.Contains(st.Actors, "french") {
		t.Fatalf("the game starts at %+v; want the French orders step", st)
	}
	a := r.Advise(g.Sees("french"), g.Step(), "french", game.Names(s.Scenario))
	if a == nil {
		t.Fatal("no advice for the French")
	}
	got := map[string]string{}
	for _, w := range a.Warnings {
		got[w.Piece] = w.Text
	}
	want := map[string]string{
		"friant": "friant is 5 hexes from davout, outside his radius of 3: +1 on davout's command continuation check (NES-3)",
		"gudin":  "gudin is 4 hexes from davout, outside his radius of 3: +1 on davout's command continuation check (NES-3)",
		"bonnet": "bonnet is 3 hexes from morand, outside his radius of 2: +1 on morand's command continuation check (NES-3)",
		"brun":   "brun is 5 hexes from morand, beyond twice his radius of 2: +3 on morand's command continuation check (NES-3)",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: warned %q; want %q", id, got[id], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("warned of %d leaders; want %d: %v", len(got), len(want), got)
	}
	if len(a.Left) != 1 || a.Left[0].Left != 4 || a.Left[0].Of != 4 {
		t.Errorf("command points left %+v; want 4 of 4", a.Left)
	}
	if b := r.Advise(g.Sees("russian"), g.Step(), "russian", nil); b != nil {
		t.Errorf("the Russians, who do not act now, are told %+v", b)
	}
}
