package cd

import (
	"math"
	"math/rand/v2"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
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
	var own, fresh, going, divs []string
	for _, u := range st.Units {
		if u.Side != side || !st.alive(s, u.ID) {
			continue
		}
		own = append(own, u.ID)
		if u.Act == 0 {
			fresh = append(fresh, u.ID)
		}
		if u.Act > 0 && u.Factor > u.Used {
			going = append(going, u.ID)
		}
	}
	for _, f := range st.Formations {
		if f.Side == side && f.Kind == battle.Division {
			divs = append(divs, f.ID)
		}
	}
	pick := func(xs []string) string {
		if len(xs) == 0 {
			return "nobody"
		}
		return xs[rng.IntN(len(xs))]
	}
	a := &Args{}
	c := game.Command{Side: side, Args: a}
	if step.Name != StepActivate {
		c.Verb, a.Unit = "activate", pick(own)
		return c
	}
	switch n := rng.IntN(20); {
	case n < 5:
		c.Verb, a.Unit = "activate", pick(fresh)
	case n < 7:
		c.Verb = "activate"
		if u := st.Unit(pick(fresh)); u != nil {
			for _, v := range st.Units {
				if v.Formation == u.Formation && v.Act == 0 && st.alive(s, v.ID) {
					a.Units = append(a.Units, v.ID)
				}
			}
		} else {
			a.Units = []string{"nobody"}
		}
	case n < 8:
		c.Verb, a.Division = "activate", pick(divs)
	case n < 15:
		c.Verb, a.Unit = "move", pick(going)
		if u := st.Unit(a.Unit); u != nil {
			d := (rng.Float64()*1.2 + 0.1) * r.rateOf(u) * max(u.Factor-u.Used, 0.2)
			ang := rng.Float64() * 2 * math.Pi
			if rng.IntN(3) > 0 {
				ang = u.Facing * math.Pi / 180
			}
			to := geom.Pt(math.Round((u.At.X+d*math.Sin(ang))*100)/100, math.Round((u.At.Y-d*math.Cos(ang))*100)/100)
			a.To = &to
			if rng.IntN(5) == 0 {
				shapes := r.Shapes()[u.Type]
				a.Shape = shapes[rng.IntN(len(shapes))]
			}
			if rng.IntN(6) == 0 {
				f := float64(rng.IntN(8) * 45)
				a.Facing = &f
			}
		}
	case n < 16:
		c.Verb, a.Unit, a.Relieved = "relieve", pick(going), pick(going)
	case n < 17:
		c.Verb, a.Unit = "screen", pick(own)
	case n < 18:
		c.Verb, a.Unit = "mark", pick(own)
		t := rng.IntN(2) == 0
		a.Disordered = &t
	case n < 19:
		c.Verb, a.Unit = "retire", pick(own)
		if u := st.Unit(a.Unit); u != nil {
			to := geom.Pt(u.At.X, min(g.Scenario().Field.Depth, u.At.Y+3))
			a.To = &to
		} else {
			a.To = &geom.Point{}
		}
	default:
		c.Verb = "lose"
		var gens []string
		for _, gg := range st.Generals {
			if gg.Side == side && !gg.Lost {
				gens = append(gens, gg.ID)
			}
		}
		a.General = pick(gens)
	}
	return c
}
