package lob

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
	if rng.IntN(10) == 0 {
		return game.Command{Side: side, Verb: game.Ready}
	}
	if rng.IntN(80) == 0 {
		return game.Command{Side: game.Umpire, Verb: game.End}
	}
	var forms, cmds, leaders, units, enemy, orders []string
	for _, f := range st.Formations {
		if f.Side == side {
			forms = append(forms, f.ID)
			if f.IsCommand() {
				cmds = append(cmds, f.ID)
			}
		}
	}
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
	for _, o := range st.Orders {
		if o.Side == side {
			orders = append(orders, o.ID)
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
		for range rng.IntN(5) + 1 {
			if n := t.Next(at, rng.IntN(6)); n >= 0 {
				at = n
			}
		}
		return t.Label(at)
	}
	a := &Args{}
	c := game.Command{Side: side, Args: a}
	if step.Player() && rng.IntN(40) == 0 {
		// The umpire names where a reinforcement enters if blocked
		// (3.7a): a road hex on an edge, or now and then any hex.
		c.Side, c.Verb, a.Formation = game.Umpire, "enter", pick(forms)
		exits := RoadExits(t)
		if len(exits) > 0 && rng.IntN(3) > 0 {
			a.To = t.Label(exits[rng.IntN(len(exits))])
		} else {
			a.To = near(pick(units))
		}
		return c
	}
	switch step.Name {
	case StepOrders:
		switch rng.IntN(10) {
		case 0:
			c.Verb, a.Formation = "release", pick(forms)
		case 1:
			c.Verb, a.Leader, a.Purpose, a.Formation = "initiative", pick(leaders), Purposes[rng.IntN(len(Purposes))], pick(forms)
			a.With = []string{pick(cmds)}
		case 2:
			c.Verb, a.Order = "condition", pick(orders)
		case 3:
			c.Verb, a.Unit = "post", pick(units)
			a.To = near(a.Unit)
		case 4:
			c.Verb, a.Formation = []string{"futile", "fulfil", "skedaddle"}[rng.IntN(3)], pick(cmds)
		default:
			c.Verb, a.To, a.Kind = "issue", pick(cmds), Orders[rng.IntN(len(Orders))]
			a.Note = "secret-" + side + "-" + itoa(rng.IntN(1000))
			if rng.IntN(3) > 0 {
				a.Objective = near(pick(append(enemy, units...)))
			}
			if rng.IntN(4) == 0 {
				a.Condition = "secret-" + side + "-" + itoa(rng.IntN(1000))
			}
			if rng.IntN(5) == 0 {
				a.Reserve = pick(forms)
			}
			if rng.IntN(8) == 0 {
				a.To, a.Kind = "hq", Move
			}
		}
	case StepMove:
		switch rng.IntN(10) {
		case 0:
			c.Verb, a.Unit, a.Shape = "form", pick(units), Shapes[rng.IntN(len(Shapes))]
		case 1:
			c.Verb, a.Leader, a.Purpose, a.Formation = "initiative", pick(leaders), Purposes[rng.IntN(len(Purposes))], pick(forms)
		case 2:
			c.Verb, a.HQ = "move", pick(cmds)
			a.To = near(pick(leaders))
		case 3:
			c.Verb, a.Leader = "move", pick(leaders)
			a.To = near(a.Leader)
		case 4:
			c.Verb, a.Army = "move", true
			a.To = near(pick(leaders))
		default:
			c.Verb, a.Unit = "move", pick(units)
			a.To = near(a.Unit)
		}
	case StepCombat:
		switch rng.IntN(4) {
		case 0:
			c.Verb, a.Formation = []string{"futile", "fulfil", "skedaddle"}[rng.IntN(3)], pick(cmds)
		default:
			c.Verb, a.Unit, a.Points = "loss", pick(append(units, enemy...)), 1+rng.IntN(2)
		}
	default:
		c.Verb = game.Ready
	}
	return c
}
