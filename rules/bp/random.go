package bp

import (
	"math"
	"math/rand/v2"
	"slices"

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
	if step.Name == StepRespond && (st.Charge != nil || st.Traverse != nil) {
		side = st.enemy(side)
	}
	if rng.IntN(20) == 0 {
		return game.Command{Side: side, Verb: game.Ready}
	}
	if rng.IntN(40) == 0 {
		return game.Command{Side: game.Umpire, Verb: game.End}
	}
	rc := &randomCmd{r: r, s: s, sc: g.Scenario(), st: st, side: side, rng: rng}
	rc.own, rc.enemy = rc.units()
	c := game.Command{Side: side}
	a := &Args{}
	c.Args = a
	switch step.Name {
	case StepRespond:
		rc.respond(&c, a)
	case StepShoot:
		rc.shoot(&c, a)
	case StepFight:
		rc.fight(&c, a)
	default:
		rc.move(&c, a)
	}
	return c
}

// randomCmd is a random command being made for side (Random).
type randomCmd struct {
	r          *Rules
	s          *game.State
	sc         *battle.Scenario
	st         *State
	side       string
	own, enemy []string // the side's units on the table, and the enemy's it sees
	rng        *rand.Rand
}

// units lists the side's units still in play, and the enemy's it sees.
func (rc *randomCmd) units() (own, enemy []string) {
	for _, u := range rc.st.Units {
		if !rc.st.alive(rc.s, u.ID) {
			continue
		}
		if u.Side == rc.side {
			own = append(own, u.ID)
		} else if !u.Hidden {
			enemy = append(enemy, u.ID)
		}
	}
	return own, enemy
}

// pick is one of xs at random, or "nobody" from none.
func (rc *randomCmd) pick(xs []string) string {
	if len(xs) == 0 {
		return "nobody"
	}
	return xs[rc.rng.IntN(len(xs))]
}

// respond makes a reply to a charge, or traversing fire.
func (rc *randomCmd) respond(c *game.Command, a *Args) {
	if tr := rc.st.Traverse; tr != nil {
		c.Verb, a.Unit = "traverse", rc.pick(append(slices.Clone(tr.Firers), "pass", rc.pick(rc.enemy)))
		return
	}
	c.Verb, a.Response = "respond", Responses[rc.rng.IntN(len(Responses))]
}

// shoot makes a shot, mostly at a legal target.
func (rc *randomCmd) shoot(c *game.Command, a *Args) {
	c.Verb = "shoot"
	a.Unit = rc.pick(rc.own)
	if u := rc.st.Unit(a.Unit); u != nil && rc.rng.IntN(4) > 0 {
		if legal := rc.r.Legal(rc.s, rc.sc, a.Unit, nil); len(legal) > 0 {
			a.Target = legal[rc.rng.IntN(len(legal))]
			return
		}
	}
	a.Target = rc.pick(rc.enemy)
}

// fight makes a combat, mostly of a unit in one.
func (rc *randomCmd) fight(c *game.Command, a *Args) {
	c.Verb = "fight"
	var engaged []string
	for _, u := range rc.st.Units {
		if len(u.Engaged) > 0 {
			engaged = append(engaged, u.ID)
		}
	}
	a.Unit = rc.pick(append(engaged, rc.pick(rc.own)))
}

// move makes a command of the movement step: an initiative move, an
// order, a unit's move, a charge or a commander's move.
func (rc *randomCmd) move(c *game.Command, a *Args) {
	switch n := rc.rng.IntN(10); {
	case n < 2:
		rc.initiative(c, a)
	case n < 5:
		rc.order(c, a)
	case n < 8:
		rc.moveUnit(c, a)
	case n < 9:
		rc.charge(c, a)
	default:
		rc.moveGeneral(c, a)
	}
}

// initiative makes an initiative move, mostly of a unit near the enemy.
func (rc *randomCmd) initiative(c *game.Command, a *Args) {
	c.Verb, a.Unit = "initiative", rc.pick(rc.own)
	var near []string
	for _, id := range rc.own {
		if rc.r.inProximity(rc.s, id, rc.side) {
			near = append(near, id)
		}
	}
	if len(near) > 0 && rc.rng.IntN(3) > 0 {
		a.Unit = rc.pick(near)
	}
}

// order makes an order to some units of one of the side's brigades,
// advance and charge more often than the rest.
func (rc *randomCmd) order(c *game.Command, a *Args) {
	c.Verb = "order"
	var brigs []*Brigade
	for i := range rc.st.Brigades {
		if rc.st.Brigades[i].Side == rc.side {
			brigs = append(brigs, &rc.st.Brigades[i])
		}
	}
	b := brigs[rc.rng.IntN(len(brigs))]
	a.Brigade = b.ID
	for _, id := range rc.sc.Formation(b.ID).Units {
		if rc.rng.IntN(2) == 0 {
			a.Units = append(a.Units, id)
		}
	}
	if len(a.Units) == 0 {
		a.Units = []string{rc.pick(rc.own)}
	}
	a.Kind = rc.r.orders[rc.rng.IntN(len(rc.r.orders))]
	switch rc.rng.IntN(3) {
	case 0:
		a.Kind = "advance"
	case 1:
		a.Kind = "charge"
	}
}

// moveUnit makes a unit's move ahead or back, sideways, or across the
// enemy's front, sometimes beyond its allowance or in a new formation.
func (rc *randomCmd) moveUnit(c *game.Command, a *Args) {
	c.Verb = "move"
	a.Unit = rc.pick(rc.own)
	p := rc.s.Piece(a.Unit)
	u := rc.st.Unit(a.Unit)
	if p == nil || u == nil {
		a.To = &geom.Point{}
		return
	}
	left := u.Allow - u.Used
	ahead := rc.r.footOf(rc.s, p).Ahead()
	d := rc.rng.Float64() * max(left, 1) * 1.2
	if rc.rng.IntN(3) == 0 {
		d = -d
	}
	to := geom.Pt(math.Round((p.At.X+ahead.X*d)*100)/100, math.Round((p.At.Y+ahead.Y*d)*100)/100)
	switch rc.rng.IntN(6) {
	case 0:
		to.X += float64(rc.rng.IntN(7) - 3)
	case 1:
		to.X = p.At.X + float64(rc.rng.IntN(25)-12)
		to.Y = p.At.Y
	case 2, 3:
		// Forward at 40 degrees, across the enemy's front.
		k := math.Abs(d) * 0.7
		side := float64(rc.rng.IntN(2)*2 - 1)
		to = geom.Pt(math.Round((p.At.X+ahead.X*k-ahead.Y*k*side*0.8)*100)/100, math.Round((p.At.Y+ahead.Y*k+ahead.X*k*side*0.8)*100)/100)
	}
	a.To = &to
	if rc.rng.IntN(6) == 0 {
		a.Shape = rc.r.shapes[rc.rng.IntN(len(rc.r.shapes))]
	}
}

// charge makes a charge, mostly of a unit that may charge at the nearest
// enemy.
func (rc *randomCmd) charge(c *game.Command, a *Args) {
	c.Verb, a.Unit, a.Target = "charge", rc.pick(rc.own), rc.pick(rc.enemy)
	var ready []string
	for _, id := range rc.own {
		if u := rc.st.Unit(id); u.Allow > u.Used && (u.Order == "charge" || u.Order == "initiative") {
			ready = append(ready, id)
		}
	}
	if len(ready) == 0 {
		return
	}
	a.Unit = rc.pick(ready)
	if p := rc.s.Piece(a.Unit); p != nil {
		best := -1.0
		for _, e := range rc.enemy {
			if d := p.At.Dist(rc.s.Piece(e).At); best < 0 || d < best {
				best, a.Target = d, e
			}
		}
	}
}

// moveGeneral makes a commander's move, anywhere on the table or near
// where he stands.
func (rc *randomCmd) moveGeneral(c *game.Command, a *Args) {
	c.Verb = "move"
	var gens []string
	for _, gs := range rc.st.Generals {
		if gs.Side == rc.side {
			gens = append(gens, gs.ID)
		}
	}
	a.General = rc.pick(gens)
	p := rc.s.Piece(a.General)
	to := geom.Pt(float64(rc.rng.IntN(int(rc.sc.Field.Width)+1)), float64(rc.rng.IntN(int(rc.sc.Field.Depth)+1)))
	if p != nil && rc.rng.IntN(2) == 0 {
		to = geom.Pt(p.At.X+float64(rc.rng.IntN(21)-10), p.At.Y+float64(rc.rng.IntN(21)-10))
	}
	a.To = &to
}
