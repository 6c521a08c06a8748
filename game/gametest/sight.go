package gametest

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/sight"
)

// PieceMarks are the sight marks of the pieces on the field in s: a unit's
// kind is its type, any other piece's "general".
func PieceMarks(sc *battle.Scenario, s *game.State) []sight.Mark {
	var out []sight.Mark
	for _, p := range s.Pieces {
		if !p.OnTable {
			continue
		}
		kind := "general"
		if u := sc.Unit(p.ID); u != nil {
			kind = u.Type
		}
		out = append(out, sight.Mark{ID: p.ID, Side: p.Side, Kind: kind, At: p.At})
	}
	return out
}

// Spots reports whether one of side's marks among marks spots the mark
// id on field.
func Spots(field *sight.Field, marks []sight.Mark, side, id string) bool {
	i := slices.IndexFunc(marks, func(m sight.Mark) bool { return m.ID == id })
	if i < 0 {
		return false
	}
	return slices.ContainsFunc(marks, func(o sight.Mark) bool { return o.Side == side && field.Spotted(o, marks[i]) })
}

// Wander plays up to steps of rules' random commands in g, until the game
// is over or stop says so. Every every-th step, from the first, the
// command is scout's instead, if it gives one (the umpire setting a piece
// where the test wants it). A refused command is skipped; a failure that
// is not a refusal fails the test. After each accepted command, after
// runs.
func Wander(t *testing.T, rules Random, g *game.Game, rng *rand.Rand, steps, every int, scout func() (game.Command, bool), stop func() bool, after func()) {
	t.Helper()
	for n := 0; !g.State().Over && n < steps && !stop(); n++ {
		c := rules.Random(g, rng)
		if n%every == every/10 {
			if s, ok := scout(); ok {
				c = s
			}
		}
		if _, err := g.Do(c); err != nil {
			var ge *game.Error
			if !errors.As(err, &ge) {
				t.Fatalf("command %+v: %v", c, err)
			}
			continue
		}
		after()
	}
}
