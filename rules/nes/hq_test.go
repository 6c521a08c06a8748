package nes_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/rules/nes"
	"orderly/sight"
)

// TestFogHQ: under fog of war an enemy headquarters counter is seen only
// while one of the side's pieces (or its own headquarters) spots it,
// worked out here from positions and the sight data: a side's view then
// leaves its hex empty and says it is unseen, the page's board has no
// counter for it, and no event that moves it reaches the side. Over random
// games of the demo; the test fails unless an headquarters was both seen
// and hidden and moved at least once.
func TestFogHQ(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	field := sight.On(r.Sight(), sc)
	// spots reports whether side spots the enemy headquarters of enemy in s.
	spots := func(s *game.State, side, enemy string) bool {
		marks := gametest.PieceMarks(sc, s)
		for _, sd := range nes.StateOf(s).Sides {
			if sd.ID == enemy || sd.ID == side {
				marks = append(marks, sight.Mark{ID: "hq-" + sd.ID, Side: sd.ID, Kind: "hq", At: sd.HQ})
			}
		}
		return gametest.Spots(field, marks, side, "hq-"+enemy)
	}
	seen, hidden, moves := 0, 0, 0
	for seed := uint64(1); seed <= 4; seed++ {
		var fails []string
		watch := func(s *game.State, e *game.Event) {
			d, ok := e.Data.(*nes.Moved)
			if !ok || d.HQ == "" {
				return
			}
			moves++
			for _, sd := range sc.Sides {
				if sd.ID != d.HQ && e.Visible(sd.ID) && !spots(s, sd.ID, d.HQ) {
					fails = append(fails, "event "+e.Type+" moving "+d.HQ+"'s headquarters reaches "+sd.ID+", which does not spot it")
				}
			}
		}
		g, err := game.New(sc, r, game.Seeded(seed), game.WithFog(game.FogOn), game.WithWatch(watch))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 11))
		// Now and then the umpire sets an enemy unit on a headquarters'
		// hex, so that it is spotted.
		scout := func() (game.Command, bool) {
			sd := nes.StateOf(g.State()).Sides[rng.IntN(2)]
			for _, p := range g.State().Pieces {
				if p.Side != sd.ID && p.OnTable && sc.Unit(p.ID) != nil {
					return game.Command{Side: game.Umpire, Verb: game.Place, Args: &game.Placement{Piece: p.ID, Hex: sc.Space().Format(sd.HQ), Why: "a scout"}}, true
				}
			}
			return game.Command{}, false
		}
		gametest.Wander(t, r, g, rng, 3000, 400, scout, func() bool { return len(fails) > 0 }, func() {
			for _, side := range sc.Sides {
				v := g.Sees(side.ID)
				box, _ := r.Annotate(v, g.Step(), side.ID).(nes.Board)
				for _, sd := range nes.StateOf(v).Sides {
					if sd.ID == side.ID {
						continue
					}
					want := spots(g.State(), side.ID, sd.ID)
					_, drawn := box.HQ[sd.ID]
					switch {
					case want && (sd.Unseen || !drawn):
						t.Fatalf("seed %d: %s spots %s's headquarters, but its view says unseen %v, drawn %v", seed, side.ID, sd.ID, sd.Unseen, drawn)
					case !want && (!sd.Unseen || drawn || sd.HQ != (nes.Side{}).HQ):
						t.Fatalf("seed %d: %s does not spot %s's headquarters, but its view has it at %v (unseen %v, drawn %v)", seed, side.ID, sd.ID, sd.HQ, sd.Unseen, drawn)
					case want:
						seen++
					default:
						hidden++
					}
				}
			}
		})
		if len(fails) > 0 {
			t.Fatal(fails[0])
		}
	}
	if seen == 0 || hidden == 0 || moves == 0 {
		t.Fatalf("over the games a headquarters was seen %d times, hidden %d times and moved %d times; the test needs each", seen, hidden, moves)
	}
}

// TestFogSeenToGo: under fog of war a side that spots an enemy unit and
// destroys it sees the event that takes it off the map, though nobody
// spots it after (it is gone): the fog narrows only the news of pieces the
// side could not see.
func TestFogSeenToGo(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	acts := func(side string) bool {
		return slices.Contains(g.Step().Verbs, "loss") && slices.Contains(g.Acting(), side)
	}
	for n := 0; !acts("french") && n < 200; n++ {
		if err := g.Exec(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
			t.Fatal(err)
		}
	}
	if !acts("french") {
		t.Fatal("the French never come to a step that takes loss")
	}
	var mine, theirs string
	for _, p := range g.State().Pieces {
		if p.OnTable && sc.Unit(p.ID) != nil {
			if p.Side == "french" && mine == "" {
				mine = p.ID
			} else if p.Side != "french" && theirs == "" {
				theirs = p.ID
			}
		}
	}
	at, _ := g.State().Pos(mine)
	if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.Place, Args: &game.Placement{Piece: theirs, Hex: sc.Space().Format(at), Why: "in contact"}}); err != nil {
		t.Fatal(err)
	}
	if g.State().Hidden("french", theirs) {
		t.Fatalf("the French do not spot %s standing with their %s", theirs, mine)
	}
	points := nes.StateOf(g.State()).Unit(theirs).Strength
	evs, err := g.Do(game.Command{Side: "french", Verb: "loss", Args: &nes.Args{Unit: theirs, Points: points, Situation: "shock"}})
	if err != nil {
		t.Fatal(err)
	}
	if p := g.State().Piece(theirs); p.OnTable {
		t.Fatalf("%s lost all %d points and is still on the map", theirs, points)
	}
	for _, e := range evs {
		if !e.Visible("french") {
			t.Fatalf("event %d (%s), which takes %s off the map, is not shown to the French who destroyed it", e.Seq, e.Type, theirs)
		}
	}
}
