package nb_test

import (
	"errors"
	"slices"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/nb"
)

// to runs g with the umpire's end until it reaches step name.
func to(t *testing.T, g *game.Game, name string) {
	t.Helper()
	for g.Step().Name != name && !g.State().Over {
		if err := g.Exec(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAttackOrderFormations: the formations a unit under an attack order
// is offered are those NB-7 allows until its division is engaged (column,
// march column; limbered for guns), and the one it stands in; never line
// (the playtest's formation menu offered line). Each offered formation
// is accepted and line is refused with NB-7.
func TestAttackOrderFormations(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/nb-07-column-only.yaml")
	g, err := game.New(sc, r, game.Seeded(7))
	if err != nil {
		t.Fatal(err)
	}
	to(t, g, "move")
	b := r.Annotate(g.Sees("french"), g.Step(), "french").(nb.Board)
	want := map[string][]string{
		"I-1-a": {"column", "march-column"},
		"I-1-c": {"limbered"},
		"I-1-d": {"column", "march-column", "square"}, // it stands in square
	}
	for id, w := range want {
		if got := b.Formations[id]; !slices.Equal(got, w) {
			t.Errorf("%s is offered formations %v; want %v (NB-7)", id, got, w)
		}
	}
	if !slices.Contains(r.Offers(g.Sees("french"), g.Step(), "french")["I-1-a"], "move") {
		t.Errorf("I-1-a is not offered move in its side's move step")
	}
	for _, sh := range b.Formations["I-1-a"] {
		trial, err := game.Replay(sc, r, g.Log())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := trial.Do(game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: "I-1-a", To: geom.Pt(18, 39), Shape: sh}}}}); err != nil {
			t.Errorf("I-1-a to %s, offered, is refused: %v", sh, err)
		}
	}
	_, err = g.Do(game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: "I-1-a", To: geom.Pt(18, 39), Shape: "line"}}}})
	var ge *game.Error
	if !errors.As(err, &ge) || ge.Rule != "NB-7" {
		t.Errorf("I-1-a to line, not offered, gives %v; want an NB-7 refusal", err)
	}
}

// TestAdviceIsTheEndOfMovement: what Advise warns a side of in the move
// step is, word for word, what the end of movement then logs for it
// (NB-12, NB-7); a warning put right before the end goes. NB-12's
// script: Quiot's range is 4" and I-1-b stands 6" from him.
func TestAdviceIsTheEndOfMovement(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/nb-12-command-range.yaml")
	g, err := game.New(sc, r, game.Seeded(12))
	if err != nil {
		t.Fatal(err)
	}
	name := game.Names(sc)
	to(t, g, "move")
	a := r.Advise(g.Sees("french"), g.Step(), "french", name)
	if a == nil {
		t.Fatal("no advice for the French in the move step, with units out of range")
	}
	var warned []string
	for _, w := range a.Warnings {
		warned = append(warned, w.Rule+" "+w.Text)
	}
	if !slices.ContainsFunc(a.Warnings, func(w game.Warning) bool { return w.Rule == "NB-12" && w.Piece == "I-1-b" }) {
		t.Errorf("no NB-12 warning for I-1-b, 6\" from Quiot (range 4): %v", warned)
	}
	if b := r.Advise(g.Sees("british"), g.Step(), "british", name); b != nil && len(b.Warnings) > 0 {
		t.Errorf("the British are warned of the French units: %v", b.Warnings)
	}
	// Put I-1-b right; the rest are logged as warned.
	trial, err := game.Replay(sc, r, g.Log())
	if err != nil {
		t.Fatal(err)
	}
	if err := trial.Exec(game.Command{Side: "french", Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: "I-1-b", To: geom.Pt(24, 36)}}}}); err != nil {
		t.Fatal(err)
	}
	if b := r.Advise(trial.Sees("french"), trial.Step(), "french", name); slices.ContainsFunc(b.Warnings, func(w game.Warning) bool { return w.Piece == "I-1-b" && w.Rule == "NB-12" }) {
		t.Errorf("I-1-b, moved within Quiot's range, is still warned of: %v", b.Warnings)
	}
	from := len(g.Log())
	to(t, g, "write")
	var logged []string
	for _, e := range g.Log()[from:] {
		if e.Side == "french" && (e.Type == nb.RangeViolation || e.Type == nb.Restriction) {
			logged = append(logged, e.Rule+" "+game.Describe(r, &e, name))
		}
	}
	slices.Sort(warned)
	slices.Sort(logged)
	if !slices.Equal(warned, logged) {
		t.Errorf("warned before the end of movement:\n%q\nlogged at it:\n%q", warned, logged)
	}
}

// TestOrdersLeft: the French write 3 orders a turn, the British 2 (NB-2);
// the advice counts them down as they are written.
func TestOrdersLeft(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/nb-12-command-range.yaml")
	g, err := game.New(sc, r, game.Seeded(12))
	if err != nil {
		t.Fatal(err)
	}
	to(t, g, "write")
	left := func(side string) game.Left {
		a := r.Advise(g.Sees(side), g.Step(), side, nil)
		if a == nil || len(a.Left) != 1 {
			t.Fatalf("advice for %s: %+v; want one count left", side, a)
		}
		return a.Left[0]
	}
	if l := left("french"); l.Left != 3 || l.Of != 3 || l.Rule != "NB-2" {
		t.Errorf("French before writing: %+v; want 3 of 3 (NB-2)", l)
	}
	if l := left("british"); l.Left != 2 || l.Of != 2 {
		t.Errorf("British before writing: %+v; want 2 of 2 (NB-2)", l)
	}
	if err := g.Exec(game.Command{Side: "french", Verb: "write", Args: &nb.Args{Write: &nb.Write{For: []string{"I"}, Kind: "attack", Objective: &geom.Point{X: 30, Y: 10}}}}); err != nil {
		t.Fatal(err)
	}
	if l := left("french"); l.Left != 2 || l.Of != 3 {
		t.Errorf("French after one order: %+v; want 2 of 3", l)
	}
}

// TestMoveOffers: in the move step a side is offered move for its units
// and its generals on the table, never the enemy's; the umpire for units
// alone, whose move he makes only past their speed with an override and a
// reason (NB-16): dragged without one, the refusal says he may override
// it, and a general's move is not offered him at all.
func TestMoveOffers(t *testing.T) {
	r := engine(t)
	sc := scenarioOf(t, r, "../../examples/nb/nb-12-command-range.yaml")
	g, err := game.New(sc, r, game.Seeded(12))
	if err != nil {
		t.Fatal(err)
	}
	to(t, g, "move")
	fr := r.Offers(g.Sees("french"), g.Step(), "french")
	for _, id := range []string{"I-1-a", "quiot", "derlon"} {
		if !slices.Contains(fr[id], "move") {
			t.Errorf("the French are not offered move for %s: %v", id, fr[id])
		}
	}
	if slices.Contains(fr["B-1-a"], "move") {
		t.Errorf("the French are offered move for the British B-1-a")
	}
	um := r.Offers(g.Sees(game.Umpire), g.Step(), game.Umpire)
	if !slices.Contains(um["I-1-a"], "move") || !slices.Contains(um["B-1-a"], "move") {
		t.Errorf("the umpire is not offered move for units: I-1-a %v, B-1-a %v", um["I-1-a"], um["B-1-a"])
	}
	if slices.Contains(um["quiot"], "move") {
		t.Errorf("the umpire is offered move for a general, which he may not make")
	}
	_, err = g.Do(game.Command{Side: game.Umpire, Verb: "move", Args: &nb.Args{Moves: []game.Move{{Unit: "I-1-a", To: geom.Pt(26, 37)}}}})
	var ge *game.Error
	if !errors.As(err, &ge) || ge.Piece != "I-1-a" {
		t.Errorf("the umpire's move without a reason gives %v; want a refusal he may override for I-1-a", err)
	}
}
