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
	rc := &randomCmd{r: r, g: g, s: s, st: st, side: side, rng: rng}
	rc.sort()
	a := &Args{}
	c := game.Command{Side: side, Args: a}
	if step.Name != StepActivate {
		c.Verb, a.Unit = "activate", rc.pick(rc.own)
		return c
	}
	switch n := rng.IntN(20); {
	case n < 5:
		c.Verb, a.Unit = "activate", rc.pick(rc.fresh)
	case n < 7:
		c.Verb, a.Units = "activate", rc.brigade()
	case n < 8:
		c.Verb, a.Division = "activate", rc.pick(rc.divs)
	case n < 15:
		c.Verb = "move"
		rc.move(a)
	case n < 16:
		c.Verb, a.Unit, a.Relieved = "relieve", rc.pick(rc.going), rc.pick(rc.going)
	case n < 17:
		c.Verb, a.Unit = "screen", rc.pick(rc.own)
	case n < 18:
		c.Verb, a.Unit = "mark", rc.pick(rc.own)
		t := rng.IntN(2) == 0
		a.Disordered = &t
	case n < 19:
		c.Verb = "retire"
		rc.retire(a)
	default:
		c.Verb, a.General = "lose", rc.general()
	}
	return c
}

// randomCmd is a random command being made for side (Random).
type randomCmd struct {
	r    *Rules
	g    *game.Game
	s    *game.State
	st   *State
	side string
	rng  *rand.Rand
	// own are the side's units in play; fresh those not yet activated,
	// going those activated with some move left; divs its divisions.
	own, fresh, going, divs []string
}

// sort lists the side's units in play, fresh and going, and its
// divisions.
func (rc *randomCmd) sort() {
	for _, u := range rc.st.Units {
		if u.Side != rc.side || !rc.st.alive(rc.s, u.ID) {
			continue
		}
		rc.own = append(rc.own, u.ID)
		if u.Act == 0 {
			rc.fresh = append(rc.fresh, u.ID)
		}
		if u.Act > 0 && u.Factor > u.Used {
			rc.going = append(rc.going, u.ID)
		}
	}
	for _, f := range rc.st.Formations {
		if f.Side == rc.side && f.Kind == battle.Division {
			rc.divs = append(rc.divs, f.ID)
		}
	}
}

// pick is one of xs at random, or "nobody" from none.
func (rc *randomCmd) pick(xs []string) string {
	if len(xs) == 0 {
		return "nobody"
	}
	return xs[rc.rng.IntN(len(xs))]
}

// brigade is the units of a fresh unit's brigade not yet activated, for
// a group's activation.
func (rc *randomCmd) brigade() []string {
	u := rc.st.Unit(rc.pick(rc.fresh))
	if u == nil {
		return []string{"nobody"}
	}
	var ids []string
	for _, v := range rc.st.Units {
		if v.Formation == u.Formation && v.Act == 0 && rc.st.alive(rc.s, v.ID) {
			ids = append(ids, v.ID)
		}
	}
	return ids
}

// move makes a move of a going unit, mostly ahead, sometimes beyond its
// move or in a new formation or facing.
func (rc *randomCmd) move(a *Args) {
	a.Unit = rc.pick(rc.going)
	u := rc.st.Unit(a.Unit)
	if u == nil {
		return
	}
	d := (rc.rng.Float64()*1.2 + 0.1) * rc.r.rateOf(u) * max(u.Factor-u.Used, 0.2)
	ang := rc.rng.Float64() * 2 * math.Pi
	if rc.rng.IntN(3) > 0 {
		ang = u.Facing * math.Pi / 180
	}
	to := geom.Pt(math.Round((u.At.X+d*math.Sin(ang))*100)/100, math.Round((u.At.Y-d*math.Cos(ang))*100)/100)
	a.To = &to
	if rc.rng.IntN(5) == 0 {
		shapes := rc.r.Shapes()[u.Type]
		a.Shape = shapes[rc.rng.IntN(len(shapes))]
	}
	if rc.rng.IntN(6) == 0 {
		f := float64(rc.rng.IntN(8) * 45)
		a.Facing = &f
	}
}

// retire makes a forced move of one of the side's units 3" back.
func (rc *randomCmd) retire(a *Args) {
	a.Unit = rc.pick(rc.own)
	u := rc.st.Unit(a.Unit)
	if u == nil {
		a.To = &geom.Point{}
		return
	}
	to := geom.Pt(u.At.X, min(rc.g.Scenario().Field.Depth, u.At.Y+3))
	a.To = &to
}

// general is one of the side's commanders not yet lost.
func (rc *randomCmd) general() string {
	var gens []string
	for _, gg := range rc.st.Generals {
		if gg.Side == rc.side && !gg.Lost {
			gens = append(gens, gg.ID)
		}
	}
	return rc.pick(gens)
}
