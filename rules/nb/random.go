package nb

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// Random makes a random command for g, mostly plausible and some not,
// for the conformance suite (gametest.Random). An order's note is
// "secret-SIDE-N", so that a view that leaks it is caught.
func (r *Rules) Random(g *game.Game, rng *rand.Rand) game.Command {
	p := &player{g: g, rng: rng, sc: g.Scenario(), n: g.Len()}
	return p.command()
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

// near is a point within d of at (rounded, so sometimes just beyond it).
func (p *player) near(at geom.Point, d float64) geom.Point {
	r, a := d*p.rng.Float64(), 2*math.Pi*p.rng.Float64()
	return geom.Pt(at.X+r*math.Cos(a), at.Y+r*math.Sin(a)).Round()
}

// command makes one random command, by a random side or the umpire.
func (p *player) command() game.Command {
	s := of(p.g.State())
	side := p.sc.Sides[p.rng.IntN(len(p.sc.Sides))].ID
	if p.rng.IntN(8) == 0 {
		side = game.Umpire
	}
	ch := p.choices(s, side)
	p.n++
	if p.rng.IntN(10) == 0 {
		return game.Command{Side: side, Verb: "end"}
	}
	all := append(slices.Clone(verbs), game.Ready)
	c := cmd{&game.Command{Side: side, Verb: all[p.rng.IntN(len(all))]}, &Args{}}
	if c.Verb != game.Ready {
		c.Command.Args = c.Args
	}
	p.args(c, s, ch)
	return *c.Command
}

// choices is what a random command may name: mostly the acting side's
// pieces and formations, now and then another's.
type choices struct{ units, gens, forms, msgs []string }

// choices lists what a command of side may name.
func (p *player) choices(s *State, side string) choices {
	var ch choices
	for _, u := range s.Units {
		if u.Side == side || side == game.Umpire || p.rng.IntN(20) == 0 {
			ch.units = append(ch.units, u.ID)
		}
	}
	for _, g := range s.Generals {
		if g.Side == side || side == game.Umpire {
			ch.gens = append(ch.gens, g.ID)
		}
	}
	for _, f := range s.Formations {
		if f.Side == side && f.Kind != battle.Army {
			ch.forms = append(ch.forms, f.ID)
		}
	}
	for _, m := range s.Messengers {
		ch.msgs = append(ch.msgs, m.ID)
	}
	return ch
}

// args fills in the arguments of c's verb from ch.
func (p *player) args(c cmd, s *State, ch choices) {
	switch c.Verb {
	case "write":
		c.Write = p.write(c.Side, ch)
	case "move":
		p.moves(c, s, ch)
	case "attach":
		c.General = p.pick(ch.gens)
		if p.rng.IntN(2) == 0 {
			c.To = p.pick(ch.gens)
		} else {
			c.To = p.pick(ch.units)
		}
	case "detach":
		c.General = p.pick(ch.gens)
	case "redirect":
		c.Messenger, c.To = p.pick(ch.msgs), p.pick(ch.gens)
	case "complete":
		c.Formation = p.pick(ch.forms)
	case "combat":
		c.Units = []string{p.pick(ch.units)}
		var enemy []string
		for _, u := range s.Units {
			if u.Side != c.Side || p.rng.IntN(10) == 0 {
				enemy = append(enemy, u.ID, u.Division)
			}
		}
		c.Target = p.pick(enemy)
	case "react", "rout", "rally":
		c.Units = []string{p.pick(ch.units)}
	case "remove":
		c.General, c.Fate = p.pick(ch.gens), fates[p.rng.IntN(len(fates))]
	case "replace":
		c.General = p.pick(ch.gens)
		c.New = &NewGeneral{ID: fmt.Sprintf("new-%d", p.n), Quality: "average", Range: 6, At: p.point()}
	}
}

// write makes a random order of side, its note a secret.
func (p *player) write(side string, ch choices) *Write {
	kinds := []string{"attack", "defend", "attack", "reserve", "charge"}
	w := &Write{For: []string{p.pick(ch.forms)}, Kind: kinds[p.rng.IntN(len(kinds))],
		Note: fmt.Sprintf("secret-%s-%d", side, p.n)}
	if p.rng.IntN(3) == 0 {
		o := p.point()
		w.Objective = &o
	}
	if p.rng.IntN(4) == 0 {
		w.To = p.pick(ch.gens)
	}
	if p.rng.IntN(6) == 0 {
		w.For = append(w.For, p.pick(ch.forms))
	}
	return w
}

// moves makes c the moves of one to four pieces, mostly within their
// speed, now and then with a formation or the umpire's overrides.
func (p *player) moves(c cmd, s *State, ch choices) {
	for range 1 + p.rng.IntN(4) {
		if p.rng.IntN(4) == 0 {
			c.Moves = append(c.Moves, game.Move{General: p.pick(ch.gens), To: p.point()})
			continue
		}
		m := game.Move{Unit: p.pick(ch.units), To: p.point()}
		if u := s.Unit(m.Unit); u != nil && u.OnTable && p.rng.IntN(4) != 0 {
			// Mostly a move within the unit's speed, so that units
			// come into reach of the enemy and go out of it again.
			m.To = p.near(u.At, u.Speed)
		}
		if p.rng.IntN(4) == 0 {
			m.Shape = p.pick(append(slices.Clone(shapes), "wedge"))
		}
		c.Moves = append(c.Moves, m)
	}
	if c.Side == game.Umpire || p.rng.IntN(20) == 0 {
		c.Overrides = make([]string, len(c.Moves))
		for i, m := range c.Moves {
			if m.Unit != "" && p.rng.IntN(2) == 0 {
				c.Overrides[i] = fmt.Sprintf("umpire's call %d", p.n)
			}
		}
	}
}
