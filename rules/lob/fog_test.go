package lob_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/rules/lob"
)

// place has the umpire set piece id on hex at.
func place(t *testing.T, g *game.Game, id, at string) {
	t.Helper()
	if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.Place, Args: &game.Placement{Piece: id, Hex: at, Why: "a test"}}); err != nil {
		t.Fatal(err)
	}
}

// given is what side is given in g from event number from on: the events
// it may see, as it is shown them, numbered from 1, each with its words,
// then its view.
func given(t *testing.T, g *game.Game, side string, from int) []byte {
	t.Helper()
	type shown struct {
		E game.Event `json:"e"`
		D string     `json:"d"`
	}
	var out []shown
	g.Scan(from, func(e *game.Event) {
		if !e.Visible(side) {
			return
		}
		c := e.Shown(side, g.Fog() != game.FogOff)
		c.Seq, c.Hash = len(out)+1, ""
		out = append(out, shown{c, g.Describe(&c, nil)})
	})
	b, err := json.Marshal(struct {
		Events []shown
		View   *game.State
	}{out, g.Sees(side)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// diff shows where a and b part.
func diff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-200)
	return "…" + string(a[lo:min(len(a), i+100)]) + "…\n…" + string(b[lo:min(len(b), i+100)]) + "…"
}

// skedaddles lists the skedaddled events of g from event number from on
// that side may see.
func skedaddles(g *game.Game, side string, from int) []*lob.Skedaddle {
	var out []*lob.Skedaddle
	g.Scan(from, func(e *game.Event) {
		if d, ok := e.Data.(*lob.Skedaddle); ok && e.Visible(side) {
			out = append(out, d)
		}
	})
	return out
}

// enterHex has the umpire set the Confederate unit id next to hex to,
// then move it into to in the Confederate movement step, as the umpire
// acting for the Confederates (no command radius to keep it back).
func enterHex(t *testing.T, g *game.Game, id, next, to string) {
	t.Helper()
	place(t, g, id, next)
	toStep(t, g, "confederate", lob.StepMove)
	if _, err := g.Do(game.Command{Side: game.Umpire, Verb: "move", Args: &lob.Args{Unit: id, To: to}}); err != nil {
		t.Fatal(err)
	}
}

// TestSkedaddleShown: when an enemy line enters a Command's HQ hex, the
// enemy is shown that the Command skedaddles, but not which of its
// formations stood within command radius then (under fog that depends on
// units it may not spot), nor which lost their reserve status (it is not
// told of reserves at all); the skedaddling side is told both.
//
// Under fog, two games of the wooded field that differ only in where a
// Union cavalry regiment the Confederates spot in neither stands (in the
// wood within its division's radius, or far off) give the Confederates
// the same events and view; without fog, the Confederates' copy of the
// demo's skedaddle names no reserve.
func TestSkedaddleShown(t *testing.T) {
	r := engine(t)
	sc := gametest.ReadFile(t, r, "testdata/blind.yaml")
	for _, fog := range []string{game.FogOn, game.FogStrict} {
		var gs [2]*game.Game
		var from [2]int
		for i, cav := range []string{"0502", "1502"} {
			g, err := game.New(sc, r, game.Seeded(1), game.WithFog(fog))
			if err != nil {
				t.Fatal(err)
			}
			place(t, g, "1-cav", cav)
			if !g.State().Hidden("confederate", "1-cav") {
				t.Fatalf("%s: the Confederates spot 1-cav at %s", fog, cav)
			}
			from[i] = g.Len()
			enterHex(t, g, "21-va", "0507", "0506") // II-1's HQ hex
			gs[i] = g
		}
		if a, b := gametest.Knows(gs[0], "confederate"), gametest.Knows(gs[1], "confederate"); !bytes.Equal(a, b) {
			t.Fatalf("%s: the Confederates know different things:\n%s\n%s", fog, a, b)
		}
		if a, b := given(t, gs[0], "confederate", from[0]), given(t, gs[1], "confederate", from[1]); !bytes.Equal(a, b) {
			t.Errorf("%s: the Confederates are given different things by where a unit they do not spot stands:\n%s", fog, diff(a, b))
		}
		// The Union is told what it must bring back within radius.
		for i, want := range [][]string{{"II-1", "crawford", "gordon"}, {"crawford"}} {
			var held []string
			for _, d := range skedaddles(gs[i], "union", from[i]) {
				held = append(held, d.Held...)
			}
			if strings.Join(held, " ") != strings.Join(want, " ") {
				t.Errorf("%s: game %d: the Union is told %v are held; want %v", fog, i, held, want)
			}
			if f := lob.StateOf(gs[i].State()).Formation("II-1"); !f.Skedaddle || strings.Join(f.Held, " ") != strings.Join(want, " ") {
				t.Errorf("%s: game %d: II-1 skedaddled %v, held %v; want %v", fog, i, f.Skedaddle, f.Held, want)
			}
		}
	}

	// Without fog: Gordon's brigade of II-1 is a reserve, which the
	// Confederates are not told of.
	g, err := game.New(demo(t, r), r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	from := g.Len()
	enterHex(t, g, "21-va", "0905", "0906") // II-1's HQ hex
	seen := skedaddles(g, "confederate", from)
	if len(seen) != 1 || strings.Join(seen[0].Commands, " ") != "II-1" || seen[0].Cause != "21-va" {
		t.Fatalf("the Confederates see %+v; want II-1 to skedaddle for 21-va", seen)
	}
	if d := seen[0]; len(d.Held) > 0 || len(d.Lost) > 0 {
		t.Errorf("the Confederates are told of II-1's formations: held %v, reserves lost %v", d.Held, d.Lost)
	}
	var lost []string
	for _, d := range skedaddles(g, "union", from) {
		lost = append(lost, d.Lost...)
	}
	if strings.Join(lost, " ") != "gordon" || lob.StateOf(g.State()).Formation("gordon").Reserve {
		t.Errorf("the Union is told %v lose reserve status, and gordon is in reserve: %v; want gordon, no longer",
			lost, lob.StateOf(g.State()).Formation("gordon").Reserve)
	}
}

// TestAwareOwnSide: a side declares none but its own army commander
// aware, and is refused in words that say nothing of the enemy's; before
// the scenario's unaware-until it may not declare him aware (only the
// umpire may, as the scenario's events call for). A refused aware changes
// nothing; the umpire's makes him aware.
func TestAwareOwnSide(t *testing.T) {
	r := engine(t)
	sc := demo(t, r) // Pope is unaware until turn 3; Jackson is aware
	for _, fog := range []string{game.FogOff, game.FogOn} {
		var said []string
		for _, umpire := range []bool{false, true} {
			g, err := game.New(sc, r, game.Seeded(1), game.WithFog(fog))
			if err != nil {
				t.Fatal(err)
			}
			if umpire {
				if _, err := g.Do(game.Command{Side: game.Umpire, Verb: "aware", Args: &lob.Args{Side: "union"}}); err != nil {
					t.Fatalf("%s: the umpire declares Pope aware: %v", fog, err)
				}
			}
			// The Confederates name the Union, in the Union's orders step
			// (the Confederates' verbs come in theirs: the engine refuses
			// them here before LOB sees them, so go to the Confederates').
			for g.Step().Name != lob.StepOrders || g.Acting()[0] != "confederate" {
				if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
					t.Fatal(err)
				}
			}
			n := g.Len()
			_, err = g.Do(game.Command{Side: "confederate", Verb: "aware", Args: &lob.Args{Side: "union"}})
			if err == nil || g.Len() != n {
				t.Fatalf("%s: the Confederates declare Pope aware: %v", fog, err)
			}
			said = append(said, err.Error())
		}
		if said[0] != said[1] {
			t.Errorf("%s: the refusal depends on the enemy's awareness: %q, %q", fog, said[0], said[1])
		}
		if want := "a side may declare only its own army commander aware; the umpire may declare any side's (LOB-4)"; said[0] != want {
			t.Errorf("%s: %q; want %q", fog, said[0], want)
		}

		g, err := game.New(sc, r, game.Seeded(1), game.WithFog(fog))
		if err != nil {
			t.Fatal(err)
		}
		n := g.Len()
		_, err = g.Do(game.Command{Side: "union", Verb: "aware", Args: &lob.Args{}})
		if want := "the army commander of union is unaware until turn 3 (the scenario's unaware-until); only the umpire may declare him aware sooner (LOB-4)"; err == nil || err.Error() != want || g.Len() != n {
			t.Errorf("%s: the Union declares itself aware on turn 1: %v; want %q", fog, err, want)
		}
		if offers := r.Offers(g.Sees("union"), g.Step(), "union"); len(offers["hq:union"]) > 0 {
			t.Errorf("%s: the Union is offered %v for its army HQ", fog, offers["hq:union"])
		}
		if offers := r.Offers(g.Sees(game.Umpire), g.Step(), game.Umpire); strings.Join(offers["hq:union"], " ") != "aware" {
			t.Errorf("%s: the umpire is offered %v for the Union's army HQ; want aware", fog, offers["hq:union"])
		}
		evs, err := g.Do(game.Command{Side: game.Umpire, Verb: "aware", Args: &lob.Args{Side: "union"}})
		if err != nil || !lob.StateOf(g.State()).Side("union").Aware {
			t.Errorf("%s: the umpire declares Pope aware: %v", fog, err)
		}
		for _, e := range evs {
			if e.Visible("confederate") || !e.Visible("union") {
				t.Errorf("%s: the %s event is shown to the Confederates (%v) or not to the Union (%v)", fog, e.Type, e.Visible("confederate"), e.Visible("union"))
			}
		}
		_, err = g.Do(game.Command{Side: "union", Verb: "aware", Args: &lob.Args{Side: "union"}})
		if want := "the army commander of union is aware already (LOB-4)"; err == nil || err.Error() != want {
			t.Errorf("%s: the Union declares itself aware once aware: %v; want %q", fog, err, want)
		}
	}
}

// TestGoneLeavesField: under fog of war a unit lost to its last strength
// point leaves the field: its piece is off the table, so that it spots
// nothing more (the enemy it alone saw is hidden again) and is not
// spotted; the enemy's view leaves it out, its own side's keeps it, gone;
// its hex may be entered, and stacked on, again.
func TestGoneLeavesField(t *testing.T) {
	r := engine(t)
	sc := gametest.ReadFile(t, r, "testdata/blind.yaml")
	g, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	place(t, g, "28-ny", "1509") // alone, far ahead of its corps
	place(t, g, "21-va", "2009")
	if g.State().Hidden("union", "21-va") || g.State().Hidden("confederate", "28-ny") {
		t.Fatal("28-ny and 21-va do not spot each other")
	}
	for g.Step().Name != lob.StepCombat {
		if _, err := g.Do(game.Command{Side: "union", Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.Do(game.Command{Side: "union", Verb: "loss", Args: &lob.Args{Unit: "28-ny", Points: 4}}); err != nil {
		t.Fatal(err)
	}
	if p := g.State().Piece("28-ny"); p.OnTable {
		t.Errorf("28-ny, lost to its last point, is on the table at %v", p.At)
	}
	if !g.State().Hidden("union", "21-va") {
		t.Error("the Union still spots 21-va, which only 28-ny saw")
	}
	if v := lob.StateOf(g.Sees("confederate")).Unit("28-ny"); v != nil {
		t.Errorf("the Confederate view holds 28-ny: %+v", v)
	}
	if v := lob.StateOf(g.Sees("union")).Unit("28-ny"); v == nil || !v.Gone || v.OnTable {
		t.Errorf("the Union view of 28-ny: %+v; want it gone, off the table", v)
	}
	// In their movement the Confederates march 21-va (out of its
	// division's radius: the umpire acts for them) through the hex where
	// it fell, meeting nothing.
	for g.Step().Name != lob.StepMove || g.Acting()[0] != "confederate" {
		if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	if evs, err := g.Do(game.Command{Side: game.Umpire, Verb: "move", Args: &lob.Args{Unit: "21-va", To: "1409", Path: []string{"1909", "1809", "1709", "1609", "1509", "1409"}}}); err != nil || len(evs) != 1 {
		t.Errorf("21-va marching through the hex where 28-ny fell: %+v, %v", evs, err)
	}
}
