package nb_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/sight"
)

// TestFogBigField: on a field many times wider than anything sees, what
// the engine says each side spots (it looks only near each piece) is what
// every piece of the side looking at every enemy finds, after each of a
// run of the umpire's placements that scatter pieces over the field and
// off its edges of the index's cells.
func TestFogBigField(t *testing.T) {
	r := engine(t)
	sc, err := gametest.Army{Rules: "nb", Nations: [2]string{"french", "british"}, Quality: "average",
		Units: 1200, Divisions: 60, Corps: 4, Range: 8}.Build()
	if err != nil {
		t.Fatal(err)
	}
	if far := r.Sight().Farthest(); sc.Field.Width < 3*far || sc.Field.Depth < 3*far {
		t.Fatalf("the field (%v by %v) is not much wider than the farthest sight (%v)", sc.Field.Width, sc.Field.Depth, far)
	}
	g, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	field := sight.On(r.Sight(), sc)
	rng := rand.New(rand.NewPCG(1, 2))
	seen, hidden := 0, 0
	for n := range 12 {
		if n > 0 {
			var units []string
			for _, p := range g.State().Pieces {
				if p.OnTable && sc.Unit(p.ID) != nil {
					units = append(units, p.ID)
				}
			}
			id := units[rng.IntN(len(units))]
			// Anywhere on the table, often at a whole multiple of the
			// farthest sight, where two cells meet.
			to := geom.Pt(rng.Float64()*sc.Field.Width, rng.Float64()*sc.Field.Depth)
			if n%2 == 0 {
				far := r.Sight().Farthest() + 1
				to = geom.Pt(far*float64(1+rng.IntN(int(sc.Field.Width/far))), far*float64(1+rng.IntN(int(sc.Field.Depth/far))))
				to = geom.Pt(min(to.X, sc.Field.Width), min(to.Y, sc.Field.Depth))
			}
			if _, err := g.Do(game.Command{Side: game.Umpire, Verb: game.Place, Args: &game.Placement{Piece: id, To: to, Why: "scatter"}}); err != nil {
				t.Fatal(err)
			}
		}
		s := g.State()
		marks := gametest.PieceMarks(sc, s)
		for _, side := range sc.Sides {
			for _, m := range marks {
				if m.Side == side.ID {
					continue
				}
				want := gametest.Spots(field, marks, side.ID, m.ID)
				if got := !s.Hidden(side.ID, m.ID); got != want {
					t.Fatalf("after %d placements %s spots %s at %v: the engine says %v, every piece looking says %v", n, side.ID, m.ID, m.At, got, want)
				}
				if want {
					seen++
				} else {
					hidden++
				}
			}
		}
	}
	if seen == 0 || hidden == 0 {
		t.Fatalf("%d enemies seen and %d hidden; the test needs both", seen, hidden)
	}
}

// TestTracked: what NB says each event touches (game.Tracker) covers
// every piece and messenger the event's fold moves.
func TestTracked(t *testing.T) {
	r := engine(t)
	for _, path := range []string{"../../examples/nb/seed-example.yaml", "../../examples/nb/nb-10-off-board-reserve.yaml", "../../examples/nb/nb-11-hierarchy.yaml"} {
		t.Run(path[strings.LastIndex(path, "/")+1:], func(t *testing.T) {
			gametest.Tracked(t, r, scenarioOf(t, r, path), 4)
		})
	}
}
