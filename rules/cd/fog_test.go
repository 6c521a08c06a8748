package cd_test

import (
	"strings"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules/cd"
)

// The regression tests of the fog of war review (issue 32, second round):
// each plays two games that differ only in what enemy pieces the side
// does not spot did, and checks that the side is told the same in both.

// must carries out c in g.
func must(t *testing.T, g *game.Game, c game.Command) []game.Event {
	t.Helper()
	evs, err := g.Do(c)
	if err != nil {
		t.Fatalf("%s %+v: %v", c.Verb, c.Args, err)
	}
	return evs
}

// place is the umpire's placement of piece id at (x, y).
func place(id string, x, y float64) game.Command {
	return game.Command{Side: game.Umpire, Verb: game.Place, Args: &game.Placement{Piece: id, To: geom.Pt(x, y), Why: "a test"}}
}

// TestScreenCountUnseen: with fog of war a side is not told how many
// castings the enemy's unseen units added to a division's skirmish screen
// (review finding 5). An Austrian unit watches 1-ligne of Foy's division
// from 10"; in one game 4-leger, of the same division and unseen, joins
// the screen.
func TestScreenCountUnseen(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	mk := func() *game.Game {
		g, err := game.New(sc, r, game.Seeded(3), game.WithFog(game.FogOn))
		if err != nil {
			t.Fatal(err)
		}
		must(t, g, place("ir-1", 34, 26))
		return g
	}
	a, b := mk(), mk()
	if s := a.State(); s.Hidden("austrian", "1-ligne") || !s.Hidden("austrian", "4-leger") {
		t.Fatal("the Austrians should spot 1-ligne and not 4-leger")
	}
	must(t, a, game.Command{Side: "french", Verb: "screen", Args: &cd.Args{Unit: "4-leger"}})
	if cd.StateOf(a.State()).Formation("foy").Screen != 4 {
		t.Fatal("4-leger's castings are not in Foy's screen")
	}
	gametest.SameTold(t, a, b, "austrian", "after 4-leger joined the screen unseen")
}

// TestScreenEvents: the screened and recalled events tell everyone the
// division's screen after them, but with fog of war they carry nothing
// but the unit's own (review finding 5); the state keeps the count all
// the same.
func TestScreenEvents(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	for _, fog := range []string{game.FogOff, game.FogOn} {
		g, err := game.New(sc, r, game.Seeded(3), game.WithFog(fog))
		if err != nil {
			t.Fatal(err)
		}
		sd := must(t, g, game.Command{Side: "french", Verb: "screen", Args: &cd.Args{Unit: "4-leger"}})[0]
		screened := sd.Data.(*cd.Screened)
		if n := cd.StateOf(g.State()).Formation("foy").Screen; n != 4 {
			t.Fatalf("fog %s: Foy's screen is %d after 4-leger joined; want 4", fog, n)
		}
		rc := must(t, g, game.Command{Side: "french", Verb: "recall", Args: &cd.Args{Unit: "4-leger", To: &geom.Point{X: 10, Y: 47.9}}})[0]
		recalled := rc.Data.(*cd.Recalled)
		if n := cd.StateOf(g.State()).Formation("foy").Screen; n != 0 {
			t.Fatalf("fog %s: Foy's screen is %d after 4-leger came back; want 0", fog, n)
		}
		desc := g.Describe(&sd, nil)
		if fog == game.FogOff {
			if screened.Screen == nil || *screened.Screen != 4 || recalled.Screen == nil || *recalled.Screen != 0 || !strings.Contains(desc, "now 4") {
				t.Fatalf("without fog the events give the screen as %v and %v (%q); want 4, then 0", screened.Screen, recalled.Screen, desc)
			}
			continue
		}
		if screened.Screen != nil || recalled.Screen != nil || strings.Contains(desc, "now") {
			t.Fatalf("with fog the events give the screen as %v and %v (%q); want nothing", screened.Screen, recalled.Screen, desc)
		}
	}
}

// TestScreenLeavesField: a unit in the skirmish screen is off the table,
// so with fog of war it neither sees nor is seen, and it is back on the
// table when recalled (the review's correctness note). 4-leger, in the
// open 6.5" from ir-1 at the edge of the Bois de Lasne, is the only
// French piece that spots it, and is spotted by it.
func TestScreenLeavesField(t *testing.T) {
	r := engine(t)
	g, err := game.New(demo(t, r), r, game.Seeded(3), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	must(t, g, place("ir-1", 6, 29.5))
	must(t, g, place("4-leger", 6, 36))
	if s := g.State(); s.Hidden("french", "ir-1") || s.Hidden("austrian", "4-leger") {
		t.Fatal("4-leger and ir-1 should spot each other")
	}
	evs := must(t, g, game.Command{Side: "french", Verb: "screen", Args: &cd.Args{Unit: "4-leger"}})
	s := g.State()
	if s.Piece("4-leger").OnTable {
		t.Fatal("4-leger in the screen is still on the table")
	}
	if !s.Hidden("french", "ir-1") {
		t.Fatal("4-leger in the screen still spots ir-1")
	}
	if !s.Hidden("austrian", "4-leger") || cd.StateOf(g.Sees("austrian")).Unit("4-leger") != nil {
		t.Fatal("the Austrians still see 4-leger in the screen")
	}
	if !evs[0].Visible("austrian") {
		t.Fatal("the Austrians, who saw 4-leger, are not shown it leave the table for the screen")
	}
	must(t, g, game.Command{Side: "french", Verb: "recall", Args: &cd.Args{Unit: "4-leger", To: &geom.Point{X: 10, Y: 47.9}}})
	if p := g.State().Piece("4-leger"); !p.OnTable || p.At != geom.Pt(10, 47.9) {
		t.Fatalf("recalled, 4-leger stands at %v, on the table %v; want (10, 47.9) on the table", p.At, p.OnTable)
	}
	if _, err := game.Replay(g.Scenario(), r, g.Log(), game.WithFog(game.FogOn)); err != nil {
		t.Fatalf("the log does not replay under fog: %v", err)
	}
}

// TestMovedFlagsUnseen: with fog of war a side is not told which enemy
// units moved this turn or last, or relieved, when it may not have seen
// them do it (review finding 8). In one game 4-leger activates and moves
// unseen; in the other the umpire sets it down at the same place. Then an
// Austrian unit comes to look at it.
func TestMovedFlagsUnseen(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	mk := func() *game.Game {
		g, err := game.New(sc, r, &queue{Faces: []int{5, 5}}, game.WithFog(game.FogOn))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a, b := mk(), mk()
	must(t, a, game.Command{Side: "french", Verb: "activate", Args: &cd.Args{Unit: "4-leger"}})
	must(t, a, game.Command{Side: "french", Verb: "move", Args: &cd.Args{Unit: "4-leger", To: &geom.Point{X: 10, Y: 39}}})
	if u := cd.StateOf(a.State()).Unit("4-leger"); !u.Moved {
		t.Fatal("4-leger's move did not count")
	}
	must(t, b, place("4-leger", 10, 39))
	for _, g := range []*game.Game{a, b} {
		must(t, g, place("ir-1", 12, 30))
		if g.State().Hidden("austrian", "4-leger") {
			t.Fatal("the Austrians do not spot 4-leger from ir-1")
		}
	}
	gametest.SameTold(t, a, b, "austrian", "after 4-leger moved unseen")
	for _, g := range []*game.Game{a, b} {
		must(t, g, game.Command{Side: "french", Verb: "ready"})
	}
	if u := cd.StateOf(a.State()).Unit("4-leger"); !u.MovedLast {
		t.Fatal("4-leger's move did not count for the next turn")
	}
	gametest.SameTold(t, a, b, "austrian", "after the French turn")
}

// TestDivisionUnseen: with fog of war an order naming an enemy division
// none of whose pieces the side spots is refused exactly as one naming a
// division not in the game (review finding 9); one the side spots is
// refused as the enemy's.
func TestDivisionUnseen(t *testing.T) {
	r := engine(t)
	g, err := game.New(demo(t, r), r, game.Seeded(3), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	answer := func(div string) string {
		c := game.Command{Side: "french", Verb: "activate", Args: &cd.Args{Division: div}}
		err := r.Unseen(g.State(), "french", &c)
		if err == nil {
			_, err = g.Do(c)
		}
		if err == nil {
			t.Fatalf("activate division %s is carried out", div)
		}
		return strings.ReplaceAll(err.Error(), div, "ID")
	}
	if !g.State().Hidden("french", "bianchi") {
		t.Fatal("the French spot a piece of Bianchi's division at the start")
	}
	if hid, none := answer("bianchi"), answer("nosuch"); hid != none {
		t.Fatalf("a hidden division is refused %q, a missing one %q", hid, none)
	}
	must(t, g, place("ir-1", 20, 34))
	if g.State().Hidden("french", "bianchi") {
		t.Fatal("the French do not spot ir-1 of Bianchi's division 6\" from their line")
	}
	if got := answer("bianchi"); !strings.Contains(got, "is a division of austrian") {
		t.Fatalf("a division the French spot is refused %q; want it named the enemy's", got)
	}
}
