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

func (p *player) command() game.Command {
	s := of(p.g.State())
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
	all := append(slices.Clone(verbs), game.Ready)
	c := cmd{&game.Command{Side: side, Verb: all[p.rng.IntN(len(all))]}, &Args{}}
	if c.Verb != game.Ready {
		c.Command.Args = c.Args
	}
	switch c.Verb {
	case "write":
		kinds := []string{"attack", "defend", "attack", "reserve", "charge"}
		c.Write = &Write{For: []string{p.pick(forms)}, Kind: kinds[p.rng.IntN(len(kinds))],
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
			if u := s.Unit(m.Unit); u != nil && u.OnTable && p.rng.IntN(4) != 0 {
				// Mostly a move within the unit's speed, so that units
				// come into reach of the enemy and go out of it again.
				m.To = p.near(u.At, u.Speed)
			}
			if p.rng.IntN(4) == 0 {
				m.Shape = p.pick(append(slices.Clone(battle.Shapes), "wedge"))
			}
			c.Moves = append(c.Moves, m)
		}
		if side == game.Umpire || p.rng.IntN(20) == 0 {
			c.Overrides = make([]string, len(c.Moves))
			for i, m := range c.Moves {
				if m.Unit != "" && p.rng.IntN(2) == 0 {
					c.Overrides[i] = fmt.Sprintf("umpire's call %d", p.n)
				}
			}
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
	case "combat":
		c.Units = []string{p.pick(units)}
		var enemy []string
		for _, u := range s.Units {
			if u.Side != side || p.rng.IntN(10) == 0 {
				enemy = append(enemy, u.ID, u.Division)
			}
		}
		c.Target = p.pick(enemy)
	case "react", "rout", "rally":
		c.Units = []string{p.pick(units)}
	case "remove":
		c.General, c.Fate = p.pick(gens), []string{"killed", "captured"}[p.rng.IntN(2)]
	case "replace":
		c.General = p.pick(gens)
		c.New = &NewGeneral{ID: fmt.Sprintf("new-%d", p.n), Quality: "average", Range: 6, At: p.point()}
	}
	return *c.Command
}
