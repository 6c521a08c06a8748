package nb_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"orderly/game"
	"orderly/rules/nb"
)

// TestBoardTargetsAreWhatIsAccepted: in the write and move steps of
// random games, for each side, each general and each messenger, attach
// (to every unit and general of the game), detach and redirect (to every
// general) are offered with a target on the board exactly when the game
// accepts them (NB-11, NB-13). The page's buttons and lists are the
// board's, so it offers nothing the rules refuse and hides nothing they
// allow.
func TestBoardTargetsAreWhatIsAccepted(t *testing.T) {
	r := engine(t)
	seen := map[string][2]int{} // verb -> [accepted, refused]
	for _, path := range []string{"../../examples/nb/nb-13-attached-generals.yaml", "../../examples/nb/nb-11-switch-before-ride.yaml", "../../examples/nb/nb-11-hierarchy.yaml", "../../examples/nb/seed-example.yaml"} {
		sc := scenarioOf(t, r, path)
		g, err := game.New(sc, r, game.Seeded(4))
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewPCG(3, uint64(len(path))))
		for turn := 1; turn <= min(sc.Turns, 4) && !g.State().Over; turn++ {
			for _, step := range []string{"write", "move"} {
				for g.Step().Name != step && !g.State().Over {
					if err := g.Exec(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
						t.Fatal(err)
					}
				}
				if g.State().Over {
					break
				}
				if step == "write" {
					// Orders for some formations, so that messengers ride.
					for _, f := range nb.StateOf(g.State()).Formations {
						if f.Kind != "army" && rnd.IntN(2) == 0 {
							_ = g.Exec(game.Command{Side: f.Side, Verb: "write", Args: &nb.Args{Write: &nb.Write{For: []string{f.ID}, Kind: "defend"}}})
						}
					}
				}
				for _, side := range sideIDs(g) {
					checkTargets(t, r, g, side, seen)
					// Attach or detach a general now and then, so that both
					// are offered in later steps.
					if step != "move" {
						continue
					}
					for _, gn := range nb.StateOf(g.State()).Generals {
						offers := r.Offers(g.Sees(side), g.Step(), side)
						b := r.Annotate(g.Sees(side), g.Step(), side).(nb.Board)
						switch {
						case slices.Contains(offers[gn.ID], "detach") && rnd.IntN(2) == 0:
							if err := g.Exec(game.Command{Side: side, Verb: "detach", Args: &nb.Args{General: gn.ID}}); err != nil {
								t.Fatal(err)
							}
						case slices.Contains(offers[gn.ID], "attach") && rnd.IntN(2) == 0:
							to := b.Generals[gn.ID].Attach[rnd.IntN(len(b.Generals[gn.ID].Attach))].ID
							if err := g.Exec(game.Command{Side: side, Verb: "attach", Args: &nb.Args{General: gn.ID, To: to}}); err != nil {
								t.Fatal(err)
							}
						}
					}
				}
			}
		}
	}
	for _, verb := range []string{"attach", "detach", "redirect"} {
		if n := seen[verb]; n[0] == 0 || n[1] == 0 {
			t.Errorf("%s: accepted %d times, refused %d times; the games should show both", verb, n[0], n[1])
		}
	}
}

// checkTargets tries, on a copy of g, every attach, detach and redirect
// side might give, and compares the answers with its offers and board.
func checkTargets(t *testing.T, r *nb.Rules, g *game.Game, side string, seen map[string][2]int) {
	t.Helper()
	view := g.Sees(side)
	offers := r.Offers(view, g.Step(), side)
	b := r.Annotate(view, g.Step(), side).(nb.Board)
	s := nb.StateOf(g.State())
	try := func(id, verb string, args *nb.Args, offered bool) {
		trial, err := game.Replay(g.Scenario(), r, g.Log())
		if err != nil {
			t.Fatal(err)
		}
		trial.SetDice(game.Seeded(9))
		_, err = trial.Do(game.Command{Side: side, Verb: verb, Args: args})
		n := seen[verb]
		if err == nil {
			n[0]++
		} else {
			n[1]++
		}
		seen[verb] = n
		if offered != (err == nil) {
			t.Errorf("turn %d %s, %s %s %+v: offered %v, but the command gives %v", g.State().Turn, g.Step().Name, side, verb, *args, offered, err)
		}
	}
	var ids []string
	for _, u := range s.Units {
		ids = append(ids, u.ID)
	}
	for _, gn := range s.Generals {
		ids = append(ids, gn.ID)
	}
	for _, gn := range s.Generals {
		attach := slices.Contains(offers[gn.ID], "attach")
		if attach != (len(b.Generals[gn.ID].Attach) > 0) {
			t.Errorf("%s: attach offered %v, targets %v", gn.ID, attach, b.Generals[gn.ID].Attach)
		}
		for _, to := range ids {
			in := slices.ContainsFunc(b.Generals[gn.ID].Attach, func(x nb.Target) bool { return x.ID == to })
			try(gn.ID, "attach", &nb.Args{General: gn.ID, To: to}, attach && in)
		}
		try(gn.ID, "detach", &nb.Args{General: gn.ID}, slices.Contains(offers[gn.ID], "detach"))
	}
	for _, m := range s.Messengers {
		redirect := slices.Contains(offers[m.ID], "redirect")
		for _, gn := range s.Generals {
			in := slices.Contains(b.Messengers[m.ID].Redirect, gn.ID)
			try(m.ID, "redirect", &nb.Args{Messenger: m.ID, To: gn.ID}, redirect && in)
		}
	}
}
