// Package gametest is the conformance suite that every rule set must pass
// (in the spirit of OpenSpiel's): random legal play never panics, every log
// replays to the same state hash, a game round-trips through JSON, a
// rejected command changes nothing, and a side's view never holds the other
// side's secrets. It also builds large synthetic fields for benchmarks.
package gametest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// Check is a rule set's own test of a game's state, run by Conformance
// after every accepted command.
type Check func(t *testing.T, g *game.Game)

// Conformance plays games of sc under rules with random commands, seeded
// 1..games, and checks the engine's promises (and the given checks) after
// every command.
func Conformance(t *testing.T, rules game.Rules, sc *battle.Scenario, games int, checks ...Check) {
	t.Helper()
	for seed := 1; seed <= games; seed++ {
		t.Run(fmt.Sprintf("seed-%d", seed), func(t *testing.T) {
			play(t, rules, sc, uint64(seed), checks)
		})
	}
}

func play(t *testing.T, rules game.Rules, sc *battle.Scenario, seed uint64, checks []Check) {
	g, err := game.New(sc, rules, game.Seeded(seed))
	if err != nil {
		t.Fatalf("new game: %v", err)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	p := &player{g: g, rng: rng, sc: sc}
	accepted, rejected := 0, 0
	for steps := 0; !g.State().Over && steps < 5000; steps++ {
		c := p.command()
		before, n := g.Hash(), g.Len()
		evs, err := doSafely(g, c)
		if err != nil {
			var ge *game.Error
			if !errors.As(err, &ge) {
				t.Fatalf("command %+v failed without a rejection: %v", c, err)
			}
			if g.Hash() != before || g.Len() != n {
				t.Fatalf("rejected command %+v changed the game: %v", c, err)
			}
			if ge.Msg == "" || strings.Contains(ge.Msg, "\n") {
				t.Fatalf("rejection of %+v is not one line: %q", c, ge.Msg)
			}
			rejected++
			continue
		}
		accepted++
		for _, check := range checks {
			check(t, g)
		}
		for _, e := range evs {
			if e.See == "" || e.Type == "" {
				t.Fatalf("event %d (%s) has no audience or type", e.Seq, e.Type)
			}
		}
		if accepted%25 == 0 {
			checkReplay(t, g)
			checkViews(t, g)
		}
	}
	if !g.State().Over {
		t.Fatalf("the game did not end in 5000 commands (turn %d)", g.State().Turn)
	}
	checkReplay(t, g)
	checkViews(t, g)
	if accepted < 20 || rejected == 0 {
		t.Fatalf("random play accepted %d and rejected %d commands; the generator is too narrow", accepted, rejected)
	}
}

func doSafely(g *game.Game, c game.Command) (evs []game.Event, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return g.Do(c)
}

// checkReplay folds the log again, directly and through JSON, and compares
// the state hashes.
func checkReplay(t *testing.T, g *game.Game) {
	t.Helper()
	r, err := game.Replay(g.Scenario(), g.Rules(), g.Log())
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if r.Hash() != g.Hash() {
		t.Fatalf("replay of %d events gives hash %s, the game has %s", g.Len(), r.Hash(), g.Hash())
	}
	b, err := json.Marshal(g.Log())
	if err != nil {
		t.Fatalf("marshal log: %v", err)
	}
	var back []game.Event
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("unmarshal log: %v", err)
	}
	r2, err := game.Replay(g.Scenario(), g.Rules(), back)
	if err != nil {
		t.Fatalf("replay from JSON: %v", err)
	}
	if r2.Hash() != g.Hash() {
		t.Fatal("replay from JSON gives another state")
	}
	b2, _ := json.Marshal(back)
	if string(b) != string(b2) {
		t.Fatal("the log does not round-trip through JSON unchanged")
	}
}

// checkViews checks that a side's view holds nothing the side may not see.
func checkViews(t *testing.T, g *game.Game) {
	t.Helper()
	for _, side := range g.Scenario().Sides {
		v := g.View(side.ID)
		for _, e := range v.Events {
			if !e.Visible(side.ID) {
				t.Fatalf("view of %s has event %d (%s) meant for %s", side.ID, e.Seq, e.Type, e.See)
			}
			if e.Side != side.ID && e.See != game.All {
				t.Fatalf("view of %s has the other side's event %d (%s)", side.ID, e.Seq, e.Type)
			}
			if e.Side != side.ID && (e.Order != nil || e.OrderID != "" || e.Type == game.ReserveScheduled) {
				t.Fatalf("view of %s has the other side's order or secret roll in event %d (%s)", side.ID, e.Seq, e.Type)
			}
		}
		s := v.State
		for _, o := range s.Orders {
			if o.Side != side.ID {
				t.Fatalf("view of %s has order %s of %s", side.ID, o.ID, o.Side)
			}
		}
		for _, m := range s.Messengers {
			if m.Side != side.ID && (m.Order != "" || m.To != "") {
				t.Fatalf("view of %s shows what messenger %s carries", side.ID, m.ID)
			}
		}
		for _, f := range s.Formations {
			if f.Side != side.ID && (f.Order != nil || f.Then != nil || f.Entry != 0 || f.Reserve != "" || (f.Square != "" && !f.Placed)) {
				t.Fatalf("view of %s shows the orders or reserve of formation %s", side.ID, f.ID)
			}
		}
		for _, u := range s.Units {
			if u.Side != side.ID && !u.OnTable {
				t.Fatalf("view of %s shows unit %s, which is off the table", side.ID, u.ID)
			}
		}
		b, _ := json.Marshal(v)
		other := g.Scenario().Enemy(side.ID)
		if strings.Contains(string(b), "secret-"+other) {
			t.Fatalf("view of %s holds a secret note of %s", side.ID, other)
		}
	}
	all := g.View(game.Umpire)
	if len(all.Events) != g.Len() {
		t.Fatalf("the umpire sees %d of %d events", len(all.Events), g.Len())
	}
}

// player makes random commands, mostly plausible, some not.
type player struct {
	g   *game.Game
	rng *rand.Rand
	sc  *battle.Scenario
	n   int
}

func (p *player) pick(xs []string) string {
	if len(xs) == 0 {
		return "nobody"
	}
	return xs[p.rng.IntN(len(xs))]
}

func (p *player) point() geom.Point {
	f := p.sc.Field
	return geom.Pt(p.rng.Float64()*f.Width*1.1-f.Width*0.05, p.rng.Float64()*f.Depth*1.1-f.Depth*0.05).Round()
}

func (p *player) command() game.Command {
	s := p.g.State()
	side := p.sc.Sides[p.rng.IntN(len(p.sc.Sides))].ID
	if p.rng.IntN(8) == 0 {
		side = game.Umpire
	}
	var units, gens, forms, msgs []string
	for _, u := range s.Units {
		if u.Side == side || side == game.Umpire || p.rng.IntN(20) == 0 {
			units = append(units, u.ID)
		}
	}
	for _, g := range s.Generals {
		if g.Side == side || side == game.Umpire {
			gens = append(gens, g.ID)
		}
	}
	for _, f := range s.Formations {
		if f.Side == side && f.Kind != battle.Army {
			forms = append(forms, f.ID)
		}
	}
	for _, m := range s.Messengers {
		msgs = append(msgs, m.ID)
	}
	p.n++
	if p.rng.IntN(10) == 0 {
		return game.Command{Side: side, Verb: "end"}
	}
	c := game.Command{Side: side, Verb: game.Verbs[p.rng.IntN(len(game.Verbs)-1)]}
	switch c.Verb {
	case "write":
		kinds := []string{"attack", "defend", "attack", "reserve", "charge"}
		c.Write = &game.Write{For: []string{p.pick(forms)}, Kind: kinds[p.rng.IntN(len(kinds))],
			Note: fmt.Sprintf("secret-%s-%d", side, p.n)}
		if p.rng.IntN(3) == 0 {
			o := p.point()
			c.Write.Objective = &o
		}
		if p.rng.IntN(4) == 0 {
			c.Write.To = p.pick(gens)
		}
		if p.rng.IntN(6) == 0 {
			c.Write.For = append(c.Write.For, p.pick(forms))
		}
	case "move":
		for range 1 + p.rng.IntN(4) {
			if p.rng.IntN(4) == 0 {
				c.Moves = append(c.Moves, game.Move{General: p.pick(gens), To: p.point()})
				continue
			}
			m := game.Move{Unit: p.pick(units), To: p.point()}
			if p.rng.IntN(4) == 0 {
				m.Shape = p.pick(append(slices.Clone(battle.Shapes), "wedge"))
			}
			c.Moves = append(c.Moves, m)
		}
	case "attach":
		c.General = p.pick(gens)
		if p.rng.IntN(2) == 0 {
			c.To = p.pick(gens)
		} else {
			c.To = p.pick(units)
		}
	case "detach":
		c.General = p.pick(gens)
	case "redirect":
		c.Messenger, c.To = p.pick(msgs), p.pick(gens)
	case "complete":
		c.Formation = p.pick(forms)
	case "react", "combat", "rout", "rally":
		c.Units = []string{p.pick(units)}
	case "remove":
		c.General, c.Fate = p.pick(gens), []string{"killed", "captured"}[p.rng.IntN(2)]
	case "replace":
		c.General = p.pick(gens)
		c.New = &game.NewGeneral{ID: fmt.Sprintf("new-%d", p.n), Quality: "average", Range: 6, At: p.point()}
	}
	return c
}
