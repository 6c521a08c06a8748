package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/sight"
)

// Tracked checks a rule set's game.Tracker over random games of sc,
// seeded 1..games: after every event, each piece that stands elsewhere
// than before it, or came onto the field or left it, is one the event
// moves or the rule set names as touched (or one that joined the game),
// and so is each of its marks (game.Marker) that came, went or changed;
// Mark finds every mark as Marks gives it. Fog of war looks again only at
// what is named, so what is left out would be seen where it no longer
// stands. The test fails if the games moved nothing beyond their events'
// moves, so that it cannot pass by testing nothing.
func Tracked(t *testing.T, rules Random, sc *battle.Scenario, games int) {
	t.Helper()
	tr, ok := rules.(game.Tracker)
	if !ok {
		t.Fatalf("rule set %s does not say what its events touch (game.Tracker)", rules.ID())
	}
	marker, _ := rules.(game.Marker)
	beyond := 0
	for seed := 1; seed <= games; seed++ {
		t.Run(fmt.Sprintf("tracked-%d", seed), func(t *testing.T) {
			var fails []string
			started := false // the state before the first event is not known
			var pieces []game.Piece
			marks := map[string]sight.Mark{}
			note := func(s *game.State) {
				pieces = pieces[:0]
				for _, p := range s.Pieces {
					pieces = append(pieces, *p)
				}
				clear(marks)
				if marker != nil {
					marker.Marks(s, func(m sight.Mark) { marks[m.ID] = m })
				}
			}
			watch := func(s *game.State, e *game.Event) {
				if len(fails) > 0 {
					return
				}
				if !started {
					started = true
					note(s)
					return
				}
				var named []int
				var namedMarks []string
				tr.Touched(s, e, func(i int) { named = append(named, i) }, func(id string) { namedMarks = append(namedMarks, id) })
				fs, n := movedBeyond(s, e, pieces, named)
				fails, beyond = append(fails, fs...), beyond+n
				if marker != nil {
					fails = append(fails, marksTouched(tr, marker, s, e, marks, namedMarks)...)
				}
				note(s)
			}
			g, err := game.New(sc, rules, game.Seeded(uint64(seed)), game.WithWatch(watch))
			if err != nil {
				t.Fatalf("new game: %v", err)
			}
			rng := rand.New(rand.NewPCG(uint64(seed), 11))
			for steps := 0; !g.State().Over && steps < 3000 && len(fails) == 0; steps++ {
				c := rules.Random(g, rng)
				if _, err := doSafely(g, c); err != nil {
					if ge := (*game.Error)(nil); !errors.As(err, &ge) {
						t.Fatalf("command %+v failed without a rejection: %v", c, err)
					}
				}
			}
			if len(fails) > 0 {
				t.Fatal(fails[0])
			}
		})
	}
	if beyond == 0 {
		t.Fatalf("over %d games no event moved a piece beyond its moves; the test needs some", games)
	}
}

// movedBeyond checks that every piece that event e moved, put on the field
// or took off it, other than by its moves, is among named (Touched's):
// pieces were the pieces before e, s the state after it. It returns a
// failure for each one left out, and how many were named rightly.
func movedBeyond(s *game.State, e *game.Event, pieces []game.Piece, named []int) (fails []string, beyond int) {
	for i, p := range s.Pieces {
		if i >= len(pieces) {
			continue // joined the game
		}
		was := pieces[i]
		if was.At == p.At && was.OnTable == p.OnTable {
			continue
		}
		if slices.ContainsFunc(e.Moves, func(m game.Move) bool { return m.ID() == p.ID }) {
			continue
		}
		if !slices.Contains(named, i) {
			fails = append(fails, fmt.Sprintf("event %d (%s) took %s from %v (on the field %v) to %v (%v) but does not move it, and the rule set does not name it as touched", e.Seq, e.Type, p.ID, was.At, was.OnTable, p.At, p.OnTable))
			continue
		}
		beyond++
	}
	return fails, beyond
}

// marksTouched checks the marks after event e (the state s): Mark finds
// each as Marks gives it, and every mark e put on the field, changed or
// took off it (marks: those before e) is among named (Touched's).
func marksTouched(tr game.Tracker, marker game.Marker, s *game.State, e *game.Event, marks map[string]sight.Mark, named []string) []string {
	var fails []string
	now := map[string]sight.Mark{}
	marker.Marks(s, func(m sight.Mark) {
		now[m.ID] = m
		if got, ok := tr.Mark(s, m.ID); !ok || got != m {
			fails = append(fails, fmt.Sprintf("after event %d (%s) Mark finds %s as %+v (%v); Marks gives %+v", e.Seq, e.Type, m.ID, got, ok, m))
		}
	})
	for id, m := range now {
		if was, ok := marks[id]; (!ok || was != m) && !slices.Contains(named, id) {
			fails = append(fails, fmt.Sprintf("event %d (%s) put mark %s at %v, but the rule set does not name it as touched", e.Seq, e.Type, id, m.At))
		}
	}
	for id := range marks {
		if _, ok := now[id]; !ok && !slices.Contains(named, id) {
			fails = append(fails, fmt.Sprintf("event %d (%s) took mark %s off the field, but the rule set does not name it as touched", e.Seq, e.Type, id))
		}
	}
	return fails
}
