package gametest

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
)

// Naming is a command that names a piece, for HiddenAsMissing.
type Naming struct {
	Verb string
	// IDs lists the pieces the command may name for side in s; nil means
	// every enemy piece on the field.
	IDs func(s *game.State, side string) []string
	// Make is the command side gives naming id in s.
	Make func(s *game.State, side, id string) game.Command
	// Differ says how hid, the refusal of the command naming a hidden id,
	// differs from miss, the refusal naming an id not in the game with id
	// put in its place, or "" if they agree; nil means they must agree
	// word for word.
	Differ func(g *game.Game, side, id, hid, miss string) string
}

// EnemyPieces lists the pieces on the field in s that are not side's and
// that pick accepts.
func EnemyPieces(pick func(s *game.State, id string) bool) func(s *game.State, side string) []string {
	return func(s *game.State, side string) []string {
		var out []string
		for _, p := range s.Pieces {
			if p.Side != side && p.OnTable && pick(s, p.ID) {
				out = append(out, p.ID)
			}
		}
		return out
	}
}

// HiddenAsMissing plays random games of sc with fog of war until a side
// may give n's verb while one of the pieces n lists for it is hidden from
// it. The command naming that piece must then be refused as the same
// command naming an id not in the game is: as the server answers (the
// rule set's Unseen, then the game), and as the game alone refuses the
// missing id. So a refusal tells a side nothing of a piece it does not
// spot.
func HiddenAsMissing(t *testing.T, rules Random, sc *battle.Scenario, n Naming) {
	t.Helper()
	const missing = "no-such-id"
	ids := n.IDs
	if ids == nil {
		ids = EnemyPieces(func(*game.State, string) bool { return true })
	}
	for seed := uint64(1); seed <= 20; seed++ {
		g, err := game.New(sc, rules, game.Seeded(seed), game.WithFog(game.FogOn))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		for k := 0; k < 3000 && !g.State().Over; k++ {
			if slices.Contains(g.Step().Verbs, n.Verb) {
				for _, side := range g.Acting() {
					s := g.State()
					for _, id := range ids(s, side) {
						if !s.Hidden(side, id) {
							continue
						}
						refusal := func(c game.Command, unseen bool) string {
							var err error
							if unseen {
								err = rules.Unseen(g.State(), side, &c)
							}
							if err == nil {
								_, err = g.Do(c)
							}
							var ge *game.Error
							if !errors.As(err, &ge) {
								t.Fatalf("%s naming %v: %v; want a refusal", n.Verb, c.Args, err)
							}
							return err.Error()
						}
						hid := refusal(n.Make(s, side, id), true)
						for _, unseen := range []bool{true, false} {
							miss := strings.ReplaceAll(refusal(n.Make(s, side, missing), unseen), missing, id)
							why := ""
							if n.Differ != nil {
								why = n.Differ(g, side, id, hid, miss)
							} else if hid != miss {
								why = "they differ"
							}
							if why != "" {
								t.Fatalf("%s of %s naming the hidden %s: %q; naming a missing id: %q; %s", n.Verb, side, id, hid, miss, why)
							}
						}
						return
					}
				}
			}
			g.Do(rules.Random(g, rng))
		}
	}
	t.Fatalf("no game reached a step of %s with a piece it names hidden from the side that acts", n.Verb)
}
