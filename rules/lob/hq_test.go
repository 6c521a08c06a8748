package lob_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/rules/lob"
	"orderly/sight"
)

// TestFogHQ: under fog of war an enemy HQ, the army's or a Command's, is
// seen only while one of the side's pieces or HQs spots it, worked out
// here from positions and the sight data: a side's view then leaves its hex
// empty and says it is unseen, the page's board draws no counter and no
// command radius from it, and no event that moves it reaches the side.
// Over random games of the demo, with the umpire now and then setting an
// enemy unit on an HQ's hex; the test fails unless HQs were both seen and
// hidden and moved.
func TestFogHQ(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	field := sight.On(r.Sight(), sc)
	// spots reports whether side spots the HQ counter id (army:SIDE or
	// command:FORMATION) in s.
	spots := func(s *game.State, side, id string) bool {
		st := lob.StateOf(s)
		marks := gametest.PieceMarks(sc, s)
		for _, sd := range st.Sides {
			marks = append(marks, sight.Mark{ID: "army:" + sd.ID, Side: sd.ID, Kind: "hq", At: sd.HQ})
		}
		for _, f := range st.Formations {
			if f.HQOn {
				marks = append(marks, sight.Mark{ID: "command:" + f.ID, Side: f.Side, Kind: "hq", At: f.HQ})
			}
		}
		return gametest.Spots(field, marks, side, id)
	}
	seen, hidden, moves := 0, 0, 0
	for seed := uint64(1); seed <= 4; seed++ {
		var fails []string
		watch := func(s *game.State, e *game.Event) {
			d, ok := e.Data.(*lob.Moved)
			if !ok || d.HQ == "" && d.Army == "" {
				return
			}
			moves++
			id, owner := "army:"+d.Army, d.Army
			if d.HQ != "" {
				id, owner = "command:"+d.HQ, lob.StateOf(s).Formation(d.HQ).Side
			}
			for _, sd := range sc.Sides {
				if sd.ID != owner && e.Visible(sd.ID) && !spots(s, sd.ID, id) {
					fails = append(fails, fmt.Sprintf("event %d moving %s reaches %s, which does not spot it", e.Seq, id, sd.ID))
				}
			}
		}
		g, err := game.New(sc, r, game.Seeded(seed), game.WithFog(game.FogOn), game.WithWatch(watch))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 13))
		// Now and then the umpire sets an enemy unit on an HQ's hex, so
		// that it is spotted.
		scout := func() (game.Command, bool) {
			st := lob.StateOf(g.State())
			at, side := st.Sides[0].HQ, st.Sides[0].ID
			for _, f := range st.Formations {
				if f.HQOn && rng.IntN(2) == 0 {
					at, side = f.HQ, f.Side
					break
				}
			}
			for _, p := range g.State().Pieces {
				if p.Side != side && p.OnTable && sc.Unit(p.ID) != nil {
					return game.Command{Side: game.Umpire, Verb: game.Place, Args: &game.Placement{Piece: p.ID, Hex: sc.Space().Format(at), Why: "a scout"}}, true
				}
			}
			return game.Command{}, false
		}
		gametest.Wander(t, r, g, rng, 3000, 300, scout, func() bool { return len(fails) > 0 }, func() {
			for _, side := range sc.Sides {
				v := g.Sees(side.ID)
				box, _ := r.Annotate(v, g.Step(), side.ID).(lob.Board)
				vs := lob.StateOf(v)
				for _, sd := range vs.Sides {
					if sd.ID == side.ID {
						continue
					}
					want := spots(g.State(), side.ID, "army:"+sd.ID)
					_, drawn := box.HQ[sd.ID]
					if want == sd.Unseen || want != drawn {
						t.Fatalf("seed %d: %s spots %s's army HQ: %v; its view says unseen %v, drawn %v", seed, side.ID, sd.ID, want, sd.Unseen, drawn)
					}
					count(want, &seen, &hidden)
				}
				for _, f := range lob.StateOf(g.State()).Formations {
					if f.Side == side.ID || !f.HQOn {
						continue
					}
					want := spots(g.State(), side.ID, "command:"+f.ID)
					vf := vs.Formation(f.ID)
					fb, boxed := box.Formations[f.ID]
					switch {
					case want && (vf == nil || !vf.HQOn || vf.HQ != f.HQ || !boxed || fb.HQ == nil):
						t.Fatalf("seed %d: %s spots %s's HQ, but its view does not show it", seed, side.ID, f.ID)
					case !want && vf != nil && (vf.HQOn || vf.HQ != (lob.Formation{}).HQ || !vf.HQUnseen || boxed && (fb.HQ != nil || fb.Centre != nil)):
						t.Fatalf("seed %d: %s does not spot %s's HQ, but its view shows it (%+v)", seed, side.ID, f.ID, fb)
					}
					count(want, &seen, &hidden)
				}
			}
		})
		if len(fails) > 0 {
			t.Fatal(fails[0])
		}
	}
	if seen == 0 || hidden == 0 || moves == 0 {
		t.Fatalf("over the games an HQ was seen %d times, hidden %d times and moved %d times; the test needs each", seen, hidden, moves)
	}
}

func count(yes bool, a, b *int) {
	if yes {
		*a++
	} else {
		*b++
	}
}
