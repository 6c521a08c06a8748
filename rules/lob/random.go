package lob

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
	if rng.IntN(10) == 0 {
		return game.Command{Side: side, Verb: game.Ready}
	}
	if rng.IntN(80) == 0 {
		return game.Command{Side: game.Umpire, Verb: game.End}
	}
	p := newPicker(st, g.Scenario().Terrain, rng, side)
	a := &Args{}
	c := game.Command{Side: side, Args: a}
	if step.Player() && rng.IntN(40) == 0 {
		return p.enterCmd(c, a)
	}
	switch step.Name {
	case StepOrders:
		p.orderCmd(&c, a)
	case StepMove:
		p.moveCmd(&c, a)
	case StepCombat:
		p.combatCmd(&c, a)
	default:
		c.Verb = game.Ready
	}
	return c
}

// picker draws the pieces, orders and hexes of random commands for one
// side (Random).
type picker struct {
	st   *State
	t    *terrain.Map
	rng  *rand.Rand
	side string
	// forms are the side's formations, cmds its Commands; units its
	// combat units and enemy the other side's, alive.
	forms, cmds, leaders, units, enemy, orders []string
}

// newPicker lists what side may name in a command.
func newPicker(st *State, t *terrain.Map, rng *rand.Rand, side string) *picker {
	p := &picker{st: st, t: t, rng: rng, side: side}
	for _, f := range st.Formations {
		if f.Side == side {
			p.forms = append(p.forms, f.ID)
			if f.IsCommand() {
				p.cmds = append(p.cmds, f.ID)
			}
		}
	}
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
	for _, o := range st.Orders {
		if o.Side == side {
			p.orders = append(p.orders, o.ID)
		}
	}
	return p
}

// pick is one of xs, or "nobody" when there is none.
func (p *picker) pick(xs []string) string {
	if len(xs) == 0 {
		return "nobody"
	}
	return xs[p.rng.IntN(len(xs))]
}

// near is the label of a hex a few steps from unit or leader id.
func (p *picker) near(id string) string {
	var at int
	if u := p.st.Unit(id); u != nil {
		at, _ = p.t.At(u.At)
	} else if l := p.st.Leader(id); l != nil {
		at, _ = p.t.At(l.At)
	}
	for range p.rng.IntN(5) + 1 {
		if n := p.t.Next(at, p.rng.IntN(6)); n >= 0 {
			at = n
		}
	}
	return p.t.Label(at)
}

// enterCmd is the umpire naming where a reinforcement enters if blocked
// (3.7a): a road hex on an edge, or now and then any hex.
func (p *picker) enterCmd(c game.Command, a *Args) game.Command {
	c.Side, c.Verb, a.Formation = game.Umpire, "enter", p.pick(p.forms)
	exits := RoadExits(p.t)
	if len(exits) > 0 && p.rng.IntN(3) > 0 {
		a.To = p.t.Label(exits[p.rng.IntN(len(exits))])
	} else {
		a.To = p.near(p.pick(p.units))
	}
	return c
}

// orderCmd fills c with a command of the orders step: mostly an order
// issued, else a release, initiative, condition, post or ending.
func (p *picker) orderCmd(c *game.Command, a *Args) {
	rng := p.rng
	switch rng.IntN(10) {
	case 0:
		c.Verb, a.Formation = "release", p.pick(p.forms)
	case 1:
		c.Verb, a.Leader, a.Purpose, a.Formation = "initiative", p.pick(p.leaders), Purposes[rng.IntN(len(Purposes))], p.pick(p.forms)
		a.With = []string{p.pick(p.cmds)}
	case 2:
		c.Verb, a.Order = "condition", p.pick(p.orders)
	case 3:
		c.Verb, a.Unit = "post", p.pick(p.units)
		a.To = p.near(a.Unit)
	case 4:
		c.Verb, a.Formation = []string{"futile", "fulfil", "skedaddle"}[rng.IntN(3)], p.pick(p.cmds)
	default:
		p.issueCmd(c, a)
	}
}

// issueCmd fills c with an order issued, now and then with an objective, a
// condition or a reserve, or to the army HQ.
func (p *picker) issueCmd(c *game.Command, a *Args) {
	rng := p.rng
	c.Verb, a.To, a.Kind = "issue", p.pick(p.cmds), Orders[rng.IntN(len(Orders))]
	a.Note = "secret-" + p.side + "-" + itoa(rng.IntN(1000))
	if rng.IntN(3) > 0 {
		a.Objective = p.near(p.pick(append(p.enemy, p.units...)))
	}
	if rng.IntN(4) == 0 {
		a.Condition = "secret-" + p.side + "-" + itoa(rng.IntN(1000))
	}
	if rng.IntN(5) == 0 {
		a.Reserve = p.pick(p.forms)
	}
	if rng.IntN(8) == 0 {
		a.To, a.Kind = "hq", Move
	}
}

// moveCmd fills c with a command of the movement step: mostly a unit's move,
// else a change of formation, initiative, or a leader's or HQ's move.
func (p *picker) moveCmd(c *game.Command, a *Args) {
	rng := p.rng
	switch rng.IntN(10) {
	case 0:
		c.Verb, a.Unit, a.Shape = "form", p.pick(p.units), Shapes[rng.IntN(len(Shapes))]
	case 1:
		c.Verb, a.Leader, a.Purpose, a.Formation = "initiative", p.pick(p.leaders), Purposes[rng.IntN(len(Purposes))], p.pick(p.forms)
	case 2:
		c.Verb, a.HQ = "move", p.pick(p.cmds)
		a.To = p.near(p.pick(p.leaders))
	case 3:
		c.Verb, a.Leader = "move", p.pick(p.leaders)
		a.To = p.near(a.Leader)
	case 4:
		c.Verb, a.Army = "move", true
		a.To = p.near(p.pick(p.leaders))
	default:
		c.Verb, a.Unit = "move", p.pick(p.units)
		a.To = p.near(a.Unit)
	}
}

// combatCmd fills c with a command of the combat step: mostly a loss, else
// an ending or a skedaddle.
func (p *picker) combatCmd(c *game.Command, a *Args) {
	switch p.rng.IntN(4) {
	case 0:
		c.Verb, a.Formation = []string{"futile", "fulfil", "skedaddle"}[p.rng.IntN(3)], p.pick(p.cmds)
	default:
		c.Verb, a.Unit, a.Points = "loss", p.pick(append(p.units, p.enemy...)), 1+p.rng.IntN(2)
	}
}
