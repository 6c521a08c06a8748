package nb_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules/nb"
)

// TestOffersAreWhatIsAccepted: in every move step of a random game, for
// each seat, each unit and formation and each verb Offers covers, the
// command for that piece alone is offered exactly when the game would
// accept it. The page shows a button only for what is offered, so it
// never offers what the rules refuse nor hides what they allow.
func TestOffersAreWhatIsAccepted(t *testing.T) {
	r := engine(t)
	seen := map[string][2]int{} // verb -> [offered, refused]
	for _, path := range []string{"../../examples/nb/nb-14-cavalry-react.yaml", "../../examples/nb/nb-10-off-board-reserve.yaml", "../../examples/nb/seed-example.yaml", "../../examples/nb/nb-06-combat-target.yaml", "../../examples/nb/nb-06-engagement.yaml"} {
		sc := scenarioOf(t, r, path)
		g, err := game.New(sc, r, game.Seeded(4))
		if err != nil {
			t.Fatal(err)
		}
		checked := 0
		for turn := 1; turn <= min(sc.Turns, 5) && !g.State().Over; turn++ {
			for g.Step().Name != "write" && !g.State().Over {
				if err := g.Exec(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
					t.Fatal(err)
				}
			}
			if g.State().Over {
				break
			}
			// An order for each formation, one at a time; on even turns
			// after the side has written as many as it may (NB-2).
			if turn%2 == 0 {
				for _, side := range sideIDs(g) {
					for _, f := range nb.StateOf(g.State()).Formations {
						if f.Side == side && f.Kind != "army" {
							_ = g.Exec(game.Command{Side: side, Verb: "write", Args: &nb.Args{Write: &nb.Write{For: []string{f.ID}, Kind: "defend"}}})
						}
					}
				}
			}
			for _, seat := range append(sideIDs(g), game.Umpire) {
				offers := r.Offers(g.Sees(seat), g.Step(), seat)
				for _, f := range nb.StateOf(g.State()).Formations {
					checked++
					trial, err := game.Replay(sc, r, g.Log())
					if err != nil {
						t.Fatal(err)
					}
					trial.SetDice(game.Seeded(9))
					w := &nb.Write{For: []string{f.ID}, Kind: "defend"}
					_, err = trial.Do(game.Command{Side: seat, Verb: "write", Args: &nb.Args{Write: w}})
					if p := nb.StateOf(g.State()).Formation(f.Parent); err != nil && strings.Contains(err.Error(), "to receive the order") && p != nil {
						// The order may go to the parent's commander instead (NB-11).
						w.To = p.General
						_, err = trial.Do(game.Command{Side: seat, Verb: "write", Args: &nb.Args{Write: w}})
					}
					n := seen["write"]
					if err == nil {
						n[0]++
					} else {
						n[1]++
					}
					seen["write"] = n
					if offered := slices.Contains(offers[f.ID], "write"); offered != (err == nil) {
						t.Errorf("%s turn %d, %s write for %s: offered %v, but the command gives %v", path, turn, seat, f.ID, offered, err)
					}
				}
			}
			for g.Step().Name != "move" && !g.State().Over {
				if err := g.Exec(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
					t.Fatal(err)
				}
			}
			if g.State().Over {
				break
			}
			// Rout a unit now and then, so that rally has someone to offer.
			for _, u := range nb.StateOf(g.State()).Units {
				if u.OnTable && u.Status != "routed" && turn%2 == 0 {
					if err := g.Exec(game.Command{Side: game.Umpire, Verb: "rout", Args: &nb.Args{Units: []string{u.ID}}}); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
			// And a general falls now and then, so that replace has
			// someone to offer (NB-15).
			for _, gn := range nb.StateOf(g.State()).Generals {
				if gn.OnTable && gn.Fate == "" && turn%2 == 1 && gn.Commands != "" {
					if err := g.Exec(game.Command{Side: game.Umpire, Verb: "remove", Args: &nb.Args{General: gn.ID, Fate: "killed"}}); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
			step := g.Step()
			step.Verbs = append(slices.Clone(step.Verbs), "rout", "rally", "remove", "replace")
			for _, seat := range append(sideIDs(g), game.Umpire) {
				offers := r.Offers(g.Sees(seat), step, seat)
				s := nb.StateOf(g.State())
				try := func(id, verb string, args *nb.Args) {
					checked++
					trial, err := game.Replay(sc, r, g.Log())
					if err != nil {
						t.Fatal(err)
					}
					trial.SetDice(game.Seeded(9))
					_, err = trial.Do(game.Command{Side: seat, Verb: verb, Args: args})
					n := seen[verb]
					if err == nil {
						n[0]++
					} else {
						n[1]++
					}
					seen[verb] = n
					if offered := slices.Contains(offers[id], verb); offered != (err == nil) {
						t.Errorf("%s turn %d, %s %s %s: offered %v, but the command gives %v", path, turn, seat, verb, id, offered, err)
					}
				}
				for _, u := range s.Units {
					if !u.OnTable {
						continue
					}
					for _, verb := range []string{"react", "rout", "rally"} {
						try(u.ID, verb, &nb.Args{Units: []string{u.ID}})
					}
					// Combat names a target: each division the unit's is
					// engaged with, or an enemy division if none.
					targets := s.Formation(u.Division).With
					if len(targets) == 0 {
						for _, f := range s.Formations {
							if f.Side != u.Side && f.Kind == "division" {
								targets = []string{f.ID}
								break
							}
						}
					}
					for _, tg := range targets {
						try(u.ID, "combat", &nb.Args{Units: []string{u.ID}, Target: tg})
					}
				}
				for _, f := range s.Formations {
					try(f.ID, "complete", &nb.Args{Formation: f.ID})
				}
				for _, gn := range s.Generals {
					try(gn.ID, "remove", &nb.Args{General: gn.ID, Fate: "captured"})
					at, _ := g.State().Pos(gn.ID)
					if !gn.OnTable {
						at = g.State().Pieces[0].At
					}
					try(gn.ID, "replace", &nb.Args{General: gn.ID, New: &nb.NewGeneral{ID: fmt.Sprintf("new-%s-%d", gn.ID, turn), Quality: "average", Range: 6, At: at}})
				}
			}
			if err := g.Exec(game.Command{Side: game.Umpire, Verb: game.End}); err != nil {
				t.Fatal(err)
			}
		}
		if checked == 0 {
			t.Errorf("%s: no offer was checked", path)
		}
	}
	for _, verb := range []string{"write", "react", "combat", "rout", "rally", "complete", "remove", "replace"} {
		if n := seen[verb]; n[0] == 0 || n[1] == 0 {
			t.Errorf("%s: accepted %d times, refused %d times; the games should show both", verb, n[0], n[1])
		}
	}
}

func sideIDs(g *game.Game) []string {
	var out []string
	for _, p := range g.State().Pieces {
		if p.Side != "" && !slices.Contains(out, p.Side) {
			out = append(out, p.Side)
		}
	}
	return out
}
