package nb_test

import (
	"fmt"
	"slices"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/nb"
)

// TestBoardFatesAndQualities: the umpire's board gives the words of a
// general's fall the page's card offers (NB-15): while remove is offered,
// the fates remove takes, each of them accepted as it decodes and as the
// game plays it; while replace is offered, the qualities a replacement
// may have, each accepted, and they are the rule set's qualities. A seat
// is given them exactly when it is offered the command.
func TestBoardFatesAndQualities(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/seed-example.yaml")
	g, err := game.New(sc, r, game.Seeded(4))
	if err != nil {
		t.Fatal(err)
	}
	umpire := func() nb.Board { return r.Annotate(g.Sees(game.Umpire), g.Step(), game.Umpire).(nb.Board) }
	offeredTo := func(seat, verb string) string {
		offers := r.Offers(g.Sees(seat), g.Step(), seat)
		for _, gn := range nb.StateOf(g.State()).Generals {
			if slices.Contains(offers[gn.ID], verb) {
				return gn.ID
			}
		}
		return ""
	}
	offered := func(verb string) string { return offeredTo(game.Umpire, verb) }
	// Each seat's board has the words exactly when it is offered the
	// command: here remove and not yet replace.
	given := func(when string) {
		for _, seat := range append(sideIDs(g), game.Umpire) {
			b := r.Annotate(g.Sees(seat), g.Step(), seat).(nb.Board)
			if (offeredTo(seat, "remove") != "") != (b.Fates != nil) || (offeredTo(seat, "replace") != "") != (b.Qualities != nil) {
				t.Errorf("%s, %s: fates %v and qualities %v, with remove offered for %q and replace for %q", when, seat, b.Fates, b.Qualities, offeredTo(seat, "remove"), offeredTo(seat, "replace"))
			}
		}
	}
	given("at the start")

	gen := offered("remove")
	if gen == "" {
		t.Fatal("remove is offered for no general at the start")
	}
	b := umpire()
	if !slices.Equal(b.Fates, []string{"killed", "captured"}) {
		t.Errorf("fates %v, want killed and captured (NB-15)", b.Fates)
	}
	for _, fate := range append(slices.Clone(b.Fates), "wounded") {
		in := fmt.Sprintf("{side: umpire, remove: {general: %s, fate: %s}}", gen, fate)
		c, err := game.DecodeCommand(r, []byte(in), "cmd")
		if slices.Contains(b.Fates, fate) != (err == nil) {
			t.Errorf("%s: the board gives fates %v, but decoding gives %v", in, b.Fates, err)
		}
		if err != nil {
			continue
		}
		trial, err := game.Replay(sc, r, g.Log())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := trial.Do(c); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}

	if err := g.Exec(game.Command{Side: game.Umpire, Verb: "remove", Args: &nb.Args{General: gen, Fate: b.Fates[0]}}); err != nil {
		t.Fatal(err)
	}
	if offered("replace") != gen {
		t.Fatalf("replace is not offered for %s, who has fallen", gen)
	}
	given("after the fall")
	b = umpire()
	if want := r.Vocab().Qualities; len(want) == 0 || !slices.Equal(b.Qualities, want) {
		t.Errorf("qualities %v, want the rule set's %v", b.Qualities, want)
	}
	for i, q := range b.Qualities {
		trial, err := game.Replay(sc, r, g.Log())
		if err != nil {
			t.Fatal(err)
		}
		by := &nb.NewGeneral{ID: fmt.Sprintf("new-%d", i), Quality: q, Range: 4, At: geom.Point{X: 10, Y: 10}}
		if _, err := trial.Do(game.Command{Side: game.Umpire, Verb: "replace", Args: &nb.Args{General: gen, New: by}}); err != nil {
			t.Errorf("replace %s by a general of quality %s, as the board offers: %v", gen, q, err)
		}
	}
}
