package bp

import (
	"math"
	"math/rand/v2"
	"slices"

	"orderly/game"
	"orderly/geom"
)

// Random makes a random command for the current step of g, mostly
// plausible and some not, for the conformance suite and fuzzing.
func (r *Rules) Random(g *game.Game, rng *rand.Rand) game.Command {
	s, sc, step := g.State(), g.Scenario(), g.Step()
	st := ext(s)
	side := st.phasing(s.Phase)
	if step.Name == StepRespond && (st.Charge != nil || st.Traverse != nil) {
		side = st.enemy(side)
	}
	if rng.IntN(20) == 0 {
		return game.Command{Side: side, Verb: game.Ready}
	}
	if rng.IntN(40) == 0 {
		return game.Command{Side: game.Umpire, Verb: game.End}
	}
	var own, enemy []string
	for _, u := range st.Units {
		if !st.alive(s, u.ID) {
			continue
		}
		if u.Side == side {
			own = append(own, u.ID)
		} else if !u.Hidden {
			enemy = append(enemy, u.ID)
		}
	}
	pick := func(xs []string) string {
		if len(xs) == 0 {
			return "nobody"
		}
		return xs[rng.IntN(len(xs))]
	}
	c := game.Command{Side: side}
	a := &Args{}
	c.Args = a
	switch step.Name {
	case StepRespond:
		if tr := st.Traverse; tr != nil {
			c.Verb, a.Unit = "traverse", pick(append(slices.Clone(tr.Firers), "pass", pick(enemy)))
			return c
		}
		c.Verb, a.Response = "respond", Responses[rng.IntN(len(Responses))]
	case StepShoot:
		c.Verb = "shoot"
		a.Unit = pick(own)
		if u := st.Unit(a.Unit); u != nil && rng.IntN(4) > 0 {
			if legal := r.Legal(s, sc, a.Unit, nil); len(legal) > 0 {
				a.Target = legal[rng.IntN(len(legal))]
				return c
			}
		}
		a.Target = pick(enemy)
	case StepFight:
		c.Verb = "fight"
		var engaged []string
		for _, u := range st.Units {
			if len(u.Engaged) > 0 {
				engaged = append(engaged, u.ID)
			}
		}
		a.Unit = pick(append(engaged, pick(own)))
	default:
		switch n := rng.IntN(10); {
		case n < 2:
			c.Verb, a.Unit = "initiative", pick(own)
			var near []string
			for _, id := range own {
				if r.inProximity(s, id, side) {
					near = append(near, id)
				}
			}
			if len(near) > 0 && rng.IntN(3) > 0 {
				a.Unit = pick(near)
			}
		case n < 5:
			c.Verb = "order"
			var brigs []*Brigade
			for i := range st.Brigades {
				if st.Brigades[i].Side == side {
					brigs = append(brigs, &st.Brigades[i])
				}
			}
			b := brigs[rng.IntN(len(brigs))]
			a.Brigade = b.ID
			for _, id := range sc.Formation(b.ID).Units {
				if rng.IntN(2) == 0 {
					a.Units = append(a.Units, id)
				}
			}
			if len(a.Units) == 0 {
				a.Units = []string{pick(own)}
			}
			a.Kind = r.orders[rng.IntN(len(r.orders))]
			switch rng.IntN(3) {
			case 0:
				a.Kind = "advance"
			case 1:
				a.Kind = "charge"
			}
		case n < 8:
			c.Verb = "move"
			a.Unit = pick(own)
			p := s.Piece(a.Unit)
			u := st.Unit(a.Unit)
			if p == nil || u == nil {
				a.To = &geom.Point{}
				return c
			}
			left := u.Allow - u.Used
			f := r.footOf(s, p)
			ahead := f.Ahead()
			d := rng.Float64() * max(left, 1) * 1.2
			if rng.IntN(3) == 0 {
				d = -d
			}
			to := geom.Pt(math.Round((p.At.X+ahead.X*d)*100)/100, math.Round((p.At.Y+ahead.Y*d)*100)/100)
			switch rng.IntN(6) {
			case 0:
				to.X += float64(rng.IntN(7) - 3)
			case 1:
				to.X = p.At.X + float64(rng.IntN(25)-12)
				to.Y = p.At.Y
			case 2, 3:
				// Forward at 40 degrees, across the enemy's front.
				k := math.Abs(d) * 0.7
				side := float64(rng.IntN(2)*2 - 1)
				to = geom.Pt(math.Round((p.At.X+ahead.X*k-ahead.Y*k*side*0.8)*100)/100, math.Round((p.At.Y+ahead.Y*k+ahead.X*k*side*0.8)*100)/100)
			}
			a.To = &to
			if rng.IntN(6) == 0 {
				shapes := r.shapes
				a.Shape = shapes[rng.IntN(len(shapes))]
			}
		case n < 9:
			c.Verb, a.Unit, a.Target = "charge", pick(own), pick(enemy)
			var ready []string
			for _, id := range own {
				if u := st.Unit(id); u.Allow > u.Used && (u.Order == "charge" || u.Order == "initiative") {
					ready = append(ready, id)
				}
			}
			if len(ready) > 0 {
				a.Unit = pick(ready)
				if p := s.Piece(a.Unit); p != nil {
					best := -1.0
					for _, e := range enemy {
						if d := p.At.Dist(s.Piece(e).At); best < 0 || d < best {
							best, a.Target = d, e
						}
					}
				}
			}
		default:
			c.Verb = "move"
			var gens []string
			for _, gs := range st.Generals {
				if gs.Side == side {
					gens = append(gens, gs.ID)
				}
			}
			a.General = pick(gens)
			p := s.Piece(a.General)
			to := geom.Pt(float64(rng.IntN(int(sc.Field.Width)+1)), float64(rng.IntN(int(sc.Field.Depth)+1)))
			if p != nil && rng.IntN(2) == 0 {
				to = geom.Pt(p.At.X+float64(rng.IntN(21)-10), p.At.Y+float64(rng.IntN(21)-10))
			}
			a.To = &to
		}
	}
	return c
}
