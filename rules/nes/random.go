package nes

import (
	"math/rand/v2"

	"orderly/game"
)

// Random makes a random command for the current step of g, mostly
// plausible and some not, for the conformance suite and fuzzing.
func (r *Rules) Random(g *game.Game, rng *rand.Rand) game.Command {
	s, step := g.State(), g.Step()
	st := ext(s)
	side := st.phasing(s.Phase)
	if rng.IntN(12) == 0 {
		return game.Command{Side: side, Verb: game.Ready}
	}
	if rng.IntN(60) == 0 {
		return game.Command{Side: game.Umpire, Verb: game.End}
	}
	var leaders, units, enemy []string
	for _, l := range st.Leaders {
		if l.Side == side {
			leaders = append(leaders, l.ID)
		}
	}
	for _, u := range st.Units {
		switch {
		case !u.alive():
		case u.Side == side:
			units = append(units, u.ID)
		default:
			enemy = append(enemy, u.ID)
		}
	}
	pick := func(xs []string) string {
		if len(xs) == 0 {
			return "nobody"
		}
		return xs[rng.IntN(len(xs))]
	}
	t := g.Scenario().Terrain
	near := func(id string) string {
		var at int
		if u := st.Unit(id); u != nil {
			at, _ = t.At(u.At)
		} else if l := st.Leader(id); l != nil {
			at, _ = t.At(l.At)
		}
		for range rng.IntN(4) + 1 {
			if n := t.Next(at, rng.IntN(6)); n >= 0 {
				at = n
			}
		}
		return t.Label(at)
	}
	a := &Args{}
	c := game.Command{Side: side, Args: a}
	switch step.Name {
	case StepOrders:
		if rng.IntN(5) == 0 {
			c.Verb, a.General = "cp", pick(leaders)
			return c
		}
		c.Verb = "send"
		a.From = pick(leaders)
		var subs []string
		for _, l := range st.Leaders {
			if st.subordinate(l.ID, a.From) {
				subs = append(subs, l.ID)
			}
		}
		a.To = pick(subs)
		if rng.IntN(10) == 0 {
			a.To = pick(leaders)
		}
		a.Kind = Orders[rng.IntN(len(Orders))]
		a.Urgent = rng.IntN(4) == 0
		a.Note = "secret-" + side + "-" + itoa(rng.IntN(1000))
		if rng.IntN(2) == 0 {
			a.Objective = near(pick(enemy))
		}
	case StepMove:
		if rng.IntN(6) == 0 {
			c.Verb, a.Unit, a.Shape = "form", pick(units), Shapes[rng.IntN(len(Shapes))]
			return c
		}
		if rng.IntN(15) == 0 {
			c.Verb, a.General = "retire", pick(leaders)
			return c
		}
		c.Verb = "move"
		switch rng.IntN(8) {
		case 0, 1:
			a.General = pick(leaders)
			a.To = near(a.General)
		case 2:
			a.HQ = true
			a.To = near(pick(leaders))
		default:
			a.Unit = pick(units)
			a.To = near(a.Unit)
		}
		a.GT = rng.IntN(6) == 0
		a.Disorder = rng.IntN(6) == 0
	case StepCombat:
		switch rng.IntN(3) {
		case 0:
			c.Verb, a.Unit, a.Situation = "loss", pick(append(units, enemy...)), Situations[rng.IntN(len(Situations))]
			a.Points = 1 + rng.IntN(2)
		case 1:
			c.Verb, a.Unit = "bombard", pick(units)
			a.Target = near(pick(enemy))
		default:
			c.Verb, a.Unit = "charge", pick(units)
			a.Target = near(a.Unit)
		}
	default:
		c.Verb = game.Ready
	}
	return c
}
