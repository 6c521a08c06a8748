package nes

import (
	"math/rand/v2"

	"orderly/game"
	"orderly/terrain"
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
	p := newPicker(st, g.Scenario().Terrain, side, rng)
	a := &Args{}
	c := game.Command{Side: side, Args: a}
	switch step.Name {
	case StepOrders:
		c.Verb = p.order(a)
	case StepMove:
		c.Verb = p.move(a)
	case StepCombat:
		c.Verb = p.combat(a)
	default:
		c.Verb = game.Ready
	}
	return c
}

// picker makes the random choices of a command for side: its command
// units, its combat units and the enemy's on the map, and hexes near them.
type picker struct {
	st                    *State
	t                     *terrain.Map
	side                  string
	rng                   *rand.Rand
	leaders, units, enemy []string
}

// newPicker lists side's command units and the combat units on the map of
// both sides.
func newPicker(st *State, t *terrain.Map, side string, rng *rand.Rand) *picker {
	p := &picker{st: st, t: t, side: side, rng: rng}
	for _, l := range st.Leaders {
		if l.Side == side {
			p.leaders = append(p.leaders, l.ID)
		}
	}
	for _, u := range st.Units {
		switch {
		case !u.alive():
		case u.Side == side:
			p.units = append(p.units, u.ID)
		default:
			p.enemy = append(p.enemy, u.ID)
		}
	}
	return p
}

// pick is one of xs, or "nobody" if there is none.
func (p *picker) pick(xs []string) string {
	if len(xs) == 0 {
		return "nobody"
	}
	return xs[p.rng.IntN(len(xs))]
}

// near is the label of a hex one to four random steps from the piece id.
func (p *picker) near(id string) string {
	var at int
	if u := p.st.Unit(id); u != nil {
		at, _ = p.t.At(u.At)
	} else if l := p.st.Leader(id); l != nil {
		at, _ = p.t.At(l.At)
	}
	for range p.rng.IntN(4) + 1 {
		if n := p.t.Next(at, p.rng.IntN(6)); n >= 0 {
			at = n
		}
	}
	return p.t.Label(at)
}

// order fills a of a command of the orders step, a command point or an
// order sent (mostly to a subordinate), and returns its verb.
func (p *picker) order(a *Args) string {
	if p.rng.IntN(5) == 0 {
		a.General = p.pick(p.leaders)
		return "cp"
	}
	a.From = p.pick(p.leaders)
	var subs []string
	for _, l := range p.st.Leaders {
		if p.st.subordinate(l.ID, a.From) {
			subs = append(subs, l.ID)
		}
	}
	a.To = p.pick(subs)
	if p.rng.IntN(10) == 0 {
		a.To = p.pick(p.leaders)
	}
	a.Kind = Orders[p.rng.IntN(len(Orders))]
	a.Urgent = p.rng.IntN(4) == 0
	a.Note = "secret-" + p.side + "-" + itoa(p.rng.IntN(1000))
	if p.rng.IntN(2) == 0 {
		a.Objective = p.near(p.pick(p.enemy))
	}
	return "send"
}

// move fills a of a command of the movement phase, a change of formation,
// a retirement or a move of a piece or the headquarters, and returns its
// verb.
func (p *picker) move(a *Args) string {
	if p.rng.IntN(6) == 0 {
		a.Unit, a.Shape = p.pick(p.units), Shapes[p.rng.IntN(len(Shapes))]
		return "form"
	}
	if p.rng.IntN(15) == 0 {
		a.General = p.pick(p.leaders)
		return "retire"
	}
	switch p.rng.IntN(8) {
	case 0, 1:
		a.General = p.pick(p.leaders)
		a.To = p.near(a.General)
	case 2:
		a.HQ = true
		a.To = p.near(p.pick(p.leaders))
	default:
		a.Unit = p.pick(p.units)
		a.To = p.near(a.Unit)
	}
	a.GT = p.rng.IntN(6) == 0
	a.Disorder = p.rng.IntN(6) == 0
	return "move"
}

// combat fills a of a command of the combat phase, a loss, a bombardment
// or a charge, and returns its verb.
func (p *picker) combat(a *Args) string {
	switch p.rng.IntN(3) {
	case 0:
		a.Unit, a.Situation = p.pick(append(p.units, p.enemy...)), Situations[p.rng.IntN(len(Situations))]
		a.Points = 1 + p.rng.IntN(2)
		return "loss"
	case 1:
		a.Unit = p.pick(p.units)
		a.Target = p.near(p.pick(p.enemy))
		return "bombard"
	default:
		a.Unit = p.pick(p.units)
		a.Target = p.near(a.Unit)
		return "charge"
	}
}
