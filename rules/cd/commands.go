package cd

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/geom"
	"orderly/geom/foot"
	"orderly/table"
)

// Command checks a CD command against the state and emits its events.
func (r *Rules) Command(c *game.Command, x *game.Tx) error {
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return fmt.Errorf("cd: the arguments of %s are %T, not CD's", c.Verb, c.Args)
	}
	st := ext(x.S)
	side := c.Side
	if side == game.Umpire {
		// The umpire acts for the side whose turn it is.
		side = st.phasing(x.S.Phase)
	}
	k := &cmd{r: r, x: x, s: x.S, st: st, sc: x.Sc, side: side, a: a, umpire: c.Side == game.Umpire}
	switch c.Verb {
	case "activate":
		return k.activate()
	case "move":
		return k.move()
	case "relieve":
		return k.relieve()
	case "retire":
		return k.retire()
	case "screen":
		return k.screen()
	case "recall":
		return k.recall()
	case "lose":
		return k.lose()
	case "mark":
		return k.mark()
	}
	return game.Reject("", "cd has no command %s", c.Verb)
}

// cmd is a command being carried out, or only checked (x nil).
type cmd struct {
	r      *Rules
	x      *game.Tx
	s      *game.State
	st     *State
	sc     *battle.Scenario
	side   string
	a      *Args
	umpire bool // the umpire may record a loss, a mark or a retreat of either side
}

// blind reports whether the command is a side's in a game played with fog
// of war: it is checked on what the side knows, and a move that meets an
// enemy unit the side does not spot is carried out up to the contact
// (issue 32). The umpire knows every piece.
func (k *cmd) blind() bool { return !k.umpire && k.s.Fogged() }

// ownWithFog is who sees an event of side's own business: played with fog
// of war, side alone (an activation's roll counts the side's earlier rolls
// of the turn, its hidden units' among them; the units that moved in its
// turn include hidden ones); without, everyone.
func ownWithFog(s *game.State, side string) string {
	if s.Fogged() {
		return side
	}
	return game.All
}

// unknown reports whether v is an enemy unit the acting side does not
// spot, with fog of war.
func (k *cmd) unknown(v *Unit) bool { return k.blind() && v.Side != k.side && k.s.Hidden(k.side, v.ID) }

// own finds a unit of the acting side on the table.
func (k *cmd) own(id, rule string) (*Unit, error) {
	u := k.st.Unit(id)
	if u == nil || u.Piece == nil {
		return nil, game.Reject(rule, "there is no unit %s", id)
	}
	if u.Side != k.side {
		return nil, game.Reject(rule, "%s is a unit of %s, not of %s", id, u.Side, k.side)
	}
	if u.Screened {
		return nil, game.Reject(rule, "%s is in its division's skirmish screen, off the table", id)
	}
	if !u.OnTable {
		return nil, game.Reject(rule, "%s is not on the table", id)
	}
	return u, nil
}

// anyUnit finds a unit on the table of the acting side, or of either side
// for the umpire.
func (k *cmd) anyUnit(id, rule string) (*Unit, error) {
	if u := k.st.Unit(id); k.umpire && u != nil && u.Side != k.side {
		kk := *k
		kk.side = u.Side
		return kk.own(id, rule)
	}
	return k.own(id, rule)
}

// activation is an activation worked out before its roll: what activates,
// on whose rating, and the table bound with every modifier (CD-1, CD-4,
// CD-5, CD-8).
type activation struct {
	kind      string
	formation *Formation
	units     []*Unit
	basis     *Unit
	local     bool
	roll      int
	params    map[string]string
	t         *table.Table
}

// activation checks an activation and binds its roll.
func (k *cmd) activation() (*activation, error) {
	a := k.a
	div, ids, err := k.named()
	if err != nil {
		return nil, err
	}
	us, err := k.activating(div, ids)
	if err != nil {
		return nil, err
	}
	kind := "unit"
	switch {
	case div != nil:
		kind = "division"
	case len(us) > 1:
		kind = "brigade"
	}
	if div != nil && len(a.Units) > 0 {
		if err := k.wholeDivision(div, us); err != nil {
			return nil, err
		}
	}
	act := &activation{kind: kind, units: us}
	if act.local, err = k.local(kind, us); err != nil {
		return nil, err
	}
	if err := k.r.cohere(us); err != nil {
		return nil, err
	}
	if div != nil {
		act.formation = div
	} else {
		act.formation = k.st.Formation(us[0].Formation)
	}
	if a.Vacate && !slices.ContainsFunc(us, func(u *Unit) bool { return k.r.inCover(k.sc, u) }) {
		return nil, game.Reject("CD-1", "none of the units stands in cover, so the activation does not vacate it")
	}
	act.roll = k.st.Side(k.side).Rolls + 1
	if err := k.bindRoll(act); err != nil {
		return nil, err
	}
	return act, nil
}

// named is the division an activation names (nil for a unit or a
// brigade's group) and the units it names: for a division that names
// none, each of its units on the table that has not activated this turn
// (CD-4).
func (k *cmd) named() (*Formation, []string, error) {
	a := k.a
	switch {
	case a.Division != "":
		div := k.st.Formation(a.Division)
		if div == nil || div.Kind != battle.Division {
			return nil, nil, game.Reject("CD-4", "there is no division %s", a.Division)
		}
		if div.Side != k.side {
			return nil, nil, game.Reject("CD-4", "%s is a division of %s, not of %s", div.ID, div.Side, k.side)
		}
		if len(a.Units) > 0 {
			return div, a.Units, nil
		}
		var ids []string
		for _, u := range k.st.Units {
			if u.Division == div.ID && k.st.alive(k.s, u.ID) && u.Act == 0 {
				ids = append(ids, u.ID)
			}
		}
		if len(ids) == 0 {
			return nil, nil, game.Reject("CD-4", "division %s has no unit on the table that has not activated this turn", div.ID)
		}
		return div, ids, nil
	case a.Unit != "":
		return nil, []string{a.Unit}, nil
	}
	return nil, a.Units, nil
}

// activating finds the units ids of an activation: the acting side's,
// each named once, not yet activated or back from the screen this turn,
// all of division div, or without one all of one brigade (CD-1, CD-4,
// CD-8).
func (k *cmd) activating(div *Formation, ids []string) ([]*Unit, error) {
	var us []*Unit
	for _, id := range ids {
		u, err := k.own(id, "CD-1")
		if err != nil {
			return nil, err
		}
		if slices.Contains(us, u) {
			return nil, game.Reject("CD-4", "%s is named twice", id)
		}
		switch {
		case u.Act > 0:
			return nil, game.Reject("CD-1", "%s has activated this turn (roll %d); a unit activates once a turn", id, u.Act)
		case u.Act < 0:
			return nil, game.Reject("CD-8", "%s came back from the skirmish screen this turn and does not activate", id)
		case div != nil && u.Division != div.ID:
			return nil, game.Reject("CD-4", "%s is not of division %s but of %s", id, div.ID, u.Division)
		case div == nil && u.Formation != us0(us, u).Formation:
			return nil, game.Reject("CD-4", "%s is of %s, not %s: a group moves on one roll only within one brigade", id, u.Formation, us[0].Formation)
		}
		us = append(us, u)
	}
	return us, nil
}

// local reports whether an activation of kind is by local initiative: out
// of command radius a unit moves only so, alone (CD-8).
func (k *cmd) local(kind string, us []*Unit) (bool, error) {
	local := false
	for _, u := range us {
		if ok, why := k.r.inCommand(k.s, k.st, u); !ok {
			if kind != "unit" {
				return false, game.Reject("CD-8", "%s is out of command radius (%s), so it may not move with a %s; it may activate alone by local initiative", u.ID, why, kind)
			}
			local = true
		}
	}
	return local, nil
}

// cohere checks the coherence of a group, or of each brigade of a
// division, in the order the units are named (CD-4).
func (r *Rules) cohere(us []*Unit) error {
	groups := map[string][]*Unit{}
	var order []string
	for _, u := range us {
		if _, ok := groups[u.Formation]; !ok {
			order = append(order, u.Formation)
		}
		groups[u.Formation] = append(groups[u.Formation], u)
	}
	for _, f := range order {
		if err := r.coherent(groups[f]); err != nil {
			return err
		}
	}
	return nil
}

// bindRoll binds act's activation roll: the group rolls with the state of
// its least favourable unit (our reading of CD-4), on that unit's class
// dice.
func (k *cmd) bindRoll(act *activation) error {
	best := math.MaxInt
	for _, u := range act.units {
		p := k.params(act, u)
		b, err := k.r.activation.Bind(p)
		if err != nil {
			return fmt.Errorf("cd: %w", err)
		}
		o, err := k.r.activation.Odds(b)
		if err != nil {
			return fmt.Errorf("cd: %w", err)
		}
		if o.Modifier < best {
			best, act.basis, act.params = o.Modifier, u, p
		}
	}
	spec, err := dice.Parse(act.basis.Dice)
	if err != nil {
		return fmt.Errorf("cd: %s's class dice: %w", act.basis.ID, err)
	}
	if act.t, err = k.r.activation.WithDice(spec); err != nil {
		return fmt.Errorf("cd: %w", err)
	}
	return nil
}

// wholeDivision checks that a division's roll leaves behind only units
// that do not meet the criteria: out of command radius, or not coherent
// with the named units of their brigade (CD-4: "units not meeting the
// criteria are left behind").
func (k *cmd) wholeDivision(div *Formation, us []*Unit) error {
	for i := range k.st.Units {
		v := &k.st.Units[i]
		if v.Division != div.ID || v.Act != 0 || !k.st.alive(k.s, v.ID) || slices.Contains(us, v) {
			continue
		}
		if ok, _ := k.r.inCommand(k.s, k.st, v); !ok {
			continue
		}
		var mates []*Unit
		for _, u := range us {
			if u.Formation == v.Formation {
				mates = append(mates, u)
			}
		}
		if len(mates) > 0 && k.r.coherent(append(mates, v)) != nil {
			continue
		}
		return game.Reject("CD-4", "a division moves whole: %s is in command radius and coherent with its brigade, so it may not be left behind", v.ID)
	}
	return nil
}

// us0 is the first unit of a list being built, or u.
func us0(us []*Unit, u *Unit) *Unit {
	if len(us) > 0 {
		return us[0]
	}
	return u
}

// params are the activation chart's parameters for one unit (CD-1, CD-5).
func (k *cmd) params(act *activation, u *Unit) map[string]string {
	f := act.formation
	p := map[string]string{
		"rating": f.Rating, "bonus": strconv.Itoa(f.Bonus), "style": k.st.Side(k.side).Style, "roll": strconv.Itoa(act.roll),
		"shaken": strconv.FormatBool(u.Shaken), "disordered": strconv.FormatBool(u.Disordered), "in-smoke": strconv.FormatBool(u.Smoke),
		"moved-last-turn": strconv.FormatBool(u.MovedLast), "vacating-cover": strconv.FormatBool(k.a.Vacate && k.r.inCover(k.sc, u)),
	}
	if u.CW != nil {
		p["cw"] = strconv.Itoa(*u.CW)
	}
	if act.local {
		p["local-initiative"] = strconv.Itoa(int(k.r.values["local-initiative"]))
	}
	return p
}

// factor is an activation result's movement factor: x1.5 is 1.5, none 0.
func factor(result string) float64 {
	f, err := strconv.ParseFloat(strings.TrimPrefix(result, "x"), 64)
	if err != nil {
		return 0
	}
	return f
}

// activate rolls the class dice for a unit, a coherent brigade group or a
// division (CD-1, CD-4, CD-5).
func (k *cmd) activate() error {
	act, err := k.activation()
	if err != nil {
		return err
	}
	b, err := act.t.Bind(act.params)
	if err != nil {
		return fmt.Errorf("cd: %w", err)
	}
	ro, err := k.x.RollBound(act.t, b, act.basis.ID)
	if err != nil {
		return err
	}
	ids := make([]string, len(act.units))
	for i, u := range act.units {
		ids[i] = u.ID
	}
	d := &Activated{Kind: act.kind, Formation: act.formation.ID, General: act.formation.General, Units: ids, Basis: act.basis.ID,
		Roll: act.roll, Result: ro.Result, Factor: factor(ro.Result), Local: act.local, Vacate: k.a.Vacate}
	return k.x.Emit(game.Event{Type: EvActivated, Side: k.side, See: ownWithFog(k.s, k.side), Rule: "CD-1", Rolls: k.x.Recorded(ro), Data: d})
}

// group is the units that move with u: its activation's, on the table.
func (k *cmd) group(u *Unit) []*Unit {
	if u.Act <= 0 || u.Act > len(k.st.Acts) {
		return []*Unit{u}
	}
	var out []*Unit
	for _, id := range k.st.Acts[u.Act-1].Units {
		if v := k.st.Unit(id); v != nil && v.Act == u.Act && k.st.alive(k.s, id) {
			out = append(out, v)
		}
	}
	return out
}

// shrink is a footprint a hair smaller, so that units that only touch do
// not block each other's moves.
func shrink(f foot.Foot) foot.Foot {
	f.Width, f.Depth = max(0.1, f.Width-0.05), max(0.1, f.Depth-0.05)
	a := f.Ahead()
	f.At = geom.Pt(f.At.X-a.X*0.025, f.At.Y-a.Y*0.025)
	return f
}

// moving is one unit's part of a move being checked.
type moving struct {
	u      *Unit
	to     geom.Point
	facing float64
	shape  string
	leg    Leg
}

// plan checks a move of an activated unit and its group as one body
// (CD-2, CD-3, CD-4, CD-7, CD-8, CD-9), without carrying it out.
func (k *cmd) plan() ([]moving, *Unit, error) {
	u, err := k.mover()
	if err != nil {
		return nil, nil, err
	}
	act := k.st.Acts[u.Act-1]
	grp := k.group(u)
	to, facing := u.At, u.Facing
	if k.a.To != nil {
		to = *k.a.To
	}
	if k.a.Facing != nil {
		facing = *k.a.Facing
	}
	turn := facing - u.Facing
	if k.a.Through != "" && len(grp) > 1 {
		return nil, nil, game.Reject("CD-7", "a passage of lines is one unit's move; %s moves with its %s", u.ID, act.Kind)
	}
	var out []moving
	for _, m := range grp {
		// The group moves as one body: each unit where u's move takes
		// its place, turned as u turns.
		mv := moving{u: m, to: to, facing: norm(m.Facing + turn), shape: m.Shape}
		if m != u {
			mv.to = place(m.At, u.At, to, turn)
		} else {
			mv.facing = norm(facing)
		}
		if err := k.reshape(&mv, act, len(grp)); err != nil {
			return nil, nil, err
		}
		if err := k.reaches(&mv, act); err != nil {
			return nil, nil, err
		}
		out = append(out, mv)
	}
	if err := k.town(out); err != nil {
		return nil, nil, err
	}
	if err := k.apart(out); err != nil {
		return nil, nil, err
	}
	through, err := k.way(out)
	if err != nil {
		return nil, nil, err
	}
	if k.a.Through != "" && through == nil {
		return nil, nil, game.Reject("CD-7", "the way of %s does not pass through %s", u.ID, k.a.Through)
	}
	return out, through, nil
}

// mover finds the unit a move command names: the acting side's, activated
// this turn with a move to make, not back from the screen (CD-1, CD-8).
func (k *cmd) mover() (*Unit, error) {
	u, err := k.own(k.a.Unit, "CD-2")
	if err != nil {
		return nil, err
	}
	switch {
	case u.Act == 0:
		return nil, game.Reject("CD-1", "%s has not activated this turn; activate it first", u.ID)
	case u.Act < 0:
		return nil, game.Reject("CD-8", "%s came back from the skirmish screen this turn and does not move", u.ID)
	case u.Factor == 0:
		return nil, game.Reject("CD-1", "%s rolled no move this turn", u.ID)
	}
	return u, nil
}

// reshape gives mv the formation the command names, if its unit may take
// it: not while disordered, artillery's only for artillery, and one its
// type has; a group of n units changes only if all may (CD-8).
func (k *cmd) reshape(mv *moving, act Act, n int) error {
	m, shape := mv.u, k.a.Shape
	if shape == "" || shape == m.Shape {
		return nil
	}
	switch {
	case m.Disordered:
		return game.Reject("CD-8", "%s is disordered: it stays in general order and may not change formation until it recovers", m.ID)
	case m.isArt() != slices.Contains(Guns, shape):
		if n > 1 {
			return game.Reject("CD-8", "%s cannot take formation %s, and a %s changes formation only if all its units do", m.ID, shape, act.Kind)
		}
		return game.Reject("CD-8", "%s cannot take formation %s: artillery is limbered or unlimbered, and only artillery is", m.ID, shape)
	case !m.isArt() && !k.r.rates[[2]string{m.Type, shape}].ok:
		return game.Reject("CD-8", "%s has no %s formation (cd/movement)", m.Type, shape)
	}
	mv.shape = shape
	return nil
}

// reaches measures mv's leg (CD-2, CD-3) and checks that it ends on the
// table, within what is left of its unit's move (a shaken unit's change
// of formation costing a quarter of its move, CD-8), and in cover unless
// the activation declared leaving it (CD-1).
func (k *cmd) reaches(mv *moving, act Act) error {
	m := mv.u
	if !k.sc.Field.Contains(mv.to) {
		return game.Reject("CD-2", "%s would end at %s, off the table (0..%s by 0..%s inches)", m.ID, mv.to, inch(k.sc.Field.Width), inch(k.sc.Field.Depth))
	}
	if d, most := m.At.Dist(mv.to), k.r.fastest(m, k.a.Charge); d > most+slack {
		return game.Reject("CD-2", "%s may move at most %s\" more this turn, even at its best rate on open ground; this move is %s\"", m.ID, inch(most), inch(d))
	}
	l, err := k.r.leg(k.sc, m, m.At, mv.to, mv.shape, k.a.Mode, k.a.Charge)
	if err != nil {
		return err
	}
	if mv.shape != m.Shape && m.Shaken && l.Shape == mv.shape {
		l.Change = m.Factor / 4 // a quarter of its move (CD-8)
	}
	mv.shape = l.Shape
	left := m.Factor - m.Used
	if need := l.Cost + l.Change; need > left+slack/l.Rate {
		extra := ""
		if l.Change > 0 {
			extra = ", and a quarter of its move for a shaken unit's change of formation"
		}
		if t := round(l.Cost*l.Rate - l.Distance); t > 0 {
			extra += fmt.Sprintf(", %s\" more for %s", inch(t), strings.Join(l.Terrain, ", "))
		}
		return game.Reject("CD-2", "%s has %s\" of its move left (%s of %s\" %s); this move takes %s\" (%s\" of ground%s)",
			m.ID, inch(left*l.Rate), factorWords(m.Factor), inch(l.Rate), modeWords(l.Mode), inch(need*l.Rate), inch(l.Distance), extra)
	}
	// Leaving cover needs the activation's -2 (CD-1).
	if !act.Vacate && l.Distance > 0 && k.r.inCover(k.sc, m) && !covered(k.sc.Field, centre(k.r.footAt(m, mv.to, mv.facing, mv.shape))) {
		return game.Reject("CD-1", "%s would leave cover, which its activation did not declare (vacate, -2)", m.ID)
	}
	mv.leg = l
	return nil
}

// apart checks that no two units of a group would stand on one another
// in their new formations, but in one town block (CD-8, CD-9).
func (k *cmd) apart(out []moving) error {
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			a := shrink(k.r.footAt(out[i].u, out[i].to, out[i].facing, out[i].shape))
			b := shrink(k.r.footAt(out[j].u, out[j].to, out[j].facing, out[j].shape))
			if a.Dist(b) <= 0 && !k.sameBlock(out[i], out[j]) {
				return game.Reject("CD-8", "%s and %s would stand on one another in their new formations", out[i].u.ID, out[j].u.ID)
			}
		}
	}
	return nil
}

// way checks each unit's way, on the acting side's knowledge: not through
// the enemy, not ending on a friend but in a town block they share;
// through friends only as a passage of lines, or artillery through formed
// troops (CD-7). It gives the unit passed through (nil for none).
func (k *cmd) way(out []moving) (*Unit, error) {
	var through *Unit
	for _, mv := range out {
		f := shrink(k.r.footOf(mv.u))
		end := shrink(k.r.footAt(mv.u, mv.to, mv.facing, mv.shape))
		for i := range k.st.Units {
			v := &k.st.Units[i]
			if !k.st.alive(k.s, v.ID) || k.unknown(v) || slices.ContainsFunc(out, func(o moving) bool { return o.u == v }) {
				continue
			}
			g := k.r.footOf(v)
			if !f.Sweeps(mv.to, g) && end.Dist(g) > 0 {
				continue
			}
			if v.Side == mv.u.Side && k.bothInBlock(mv, v) {
				continue
			}
			switch {
			case v.Side != mv.u.Side:
				return nil, game.Reject("CD-2", "the way of %s to %s runs into the enemy's %s", mv.u.ID, mv.to, v.ID)
			case end.Dist(g) <= 0:
				return nil, game.Reject("CD-2", "%s would end on top of %s", mv.u.ID, v.ID)
			case mv.u.isArt() && !v.Disordered:
				// Artillery passes through formed troops freely.
			case k.a.Through == v.ID:
				through = v
			default:
				return nil, game.Reject("CD-7", "the way of %s runs through %s; name it with through for a passage of lines", mv.u.ID, v.ID)
			}
		}
	}
	return through, nil
}

// bothInBlock reports whether a moving unit starts or ends in the town
// block where v stands: friends share a block up to its stands (CD-9).
func (k *cmd) bothInBlock(mv moving, v *Unit) bool {
	vb, ok := k.r.blockOf(k.sc, v, v.At, v.Facing, v.Shape)
	if !ok {
		return false
	}
	if b, ok := k.r.blockOf(k.sc, mv.u, mv.to, mv.facing, mv.shape); ok && vb == b {
		return true
	}
	b, ok := k.r.blockOf(k.sc, mv.u, mv.u.At, mv.u.Facing, mv.u.Shape)
	return ok && vb == b
}

// sameBlock reports whether two moving units end in one town block.
func (k *cmd) sameBlock(a, b moving) bool {
	ba, ok := k.r.blockOf(k.sc, a.u, a.to, a.facing, a.shape)
	if !ok {
		return false
	}
	bb, ok := k.r.blockOf(k.sc, b.u, b.to, b.facing, b.shape)
	return ok && ba == bb
}

// town checks moves in towns: block to adjacent block, but for a road
// column, and at most four friendly stands to a block (CD-9).
func (k *cmd) town(out []moving) error {
	ending := map[block]int{}
	var order []block
	var except []string
	for _, mv := range out {
		except = append(except, mv.u.ID)
	}
	for _, mv := range out {
		if err := k.townWay(mv); err != nil {
			return err
		}
		to, into := k.r.blockOf(k.sc, mv.u, mv.to, mv.facing, mv.shape)
		if into {
			if _, ok := ending[to]; !ok {
				order = append(order, to)
			}
			ending[to] += mv.u.Stands
		}
	}
	for _, b := range order {
		for i := range k.st.Units {
			v := &k.st.Units[i]
			if v.Side == k.side || !k.st.alive(k.s, v.ID) || k.unknown(v) {
				continue
			}
			if vb, ok := k.r.blockOf(k.sc, v, v.At, v.Facing, v.Shape); ok && vb == b {
				return game.Reject("CD-9", "%s is held by the enemy's %s", b, v.ID)
			}
		}
		n := ending[b]
		have := k.r.stands(k.s, k.st, k.side, b, except)
		if most := int(k.r.values["block-stands"]); have+n > most {
			return game.Reject("CD-9", "%s would hold %d friendly stands (%d there and %d coming); a block holds at most %d", b, have+n, have, n, most)
		}
	}
	return nil
}

// townWay checks a move's way in a town, but for a road column's: from
// the block it stands in only to an adjacent one, into the town only to
// the first block met, out of the town only from the block it stands in,
// and never across a further block on the way; forced moves after a
// morale loss too (CD-9).
func (k *cmd) townWay(mv moving) error {
	if mv.shape == "road" || mv.u.At.Dist(mv.to) <= slack {
		return nil
	}
	from, in := k.r.blockOf(k.sc, mv.u, mv.u.At, mv.u.Facing, mv.u.Shape)
	to, into := k.r.blockOf(k.sc, mv.u, mv.to, mv.facing, mv.shape)
	if in && into && !adjacent(from, to) {
		return game.Reject("CD-9", "in a town a unit moves from its block to an adjacent one; %s is not next to %s", to, from)
	}
	for _, b := range k.blocksOn(mv) {
		switch {
		case in && b == from, into && b == to:
		case !in && into:
			return game.Reject("CD-9", "%s enters the town at %s and must stop there before moving on to %s", mv.u.ID, b, to)
		default:
			return game.Reject("CD-9", "the way of %s runs through %s; in a town a unit moves block to adjacent block", mv.u.ID, b)
		}
	}
	return nil
}

// blocksOn lists the town blocks the middle of a moving unit passes
// through, in order, each once.
func (k *cmd) blocksOn(mv moving) []block {
	towns := false
	for _, f := range k.sc.Field.Features {
		towns = towns || f.Type == "town"
	}
	if !towns {
		return nil
	}
	a := centre(k.r.footOf(mv.u))
	b := centre(k.r.footAt(mv.u, mv.to, mv.facing, mv.shape))
	n := min(max(1, int(a.Dist(b)/0.1)), maxSamples)
	var out []block
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		if bl, ok := blockAt(k.sc.Field, geom.Pt(a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t)); ok && (len(out) == 0 || out[len(out)-1] != bl) {
			if !slices.Contains(out, bl) {
				out = append(out, bl)
			}
		}
	}
	return out
}

// disruptive rolls a unit's class dice on the disruptive terrain chart
// (CD-6).
func (k *cmd) disruptive(u *Unit, l Leg) (*game.Roll, Disruption, error) {
	spec, err := dice.Parse(u.Dice)
	if err != nil {
		return nil, Disruption{}, fmt.Errorf("cd: %s's class dice: %w", u.ID, err)
	}
	t, err := k.r.disrupt.WithDice(spec)
	if err != nil {
		return nil, Disruption{}, fmt.Errorf("cd: %w", err)
	}
	b, err := t.Bind(map[string]string{"rating": l.Disruptive})
	if err != nil {
		return nil, Disruption{}, fmt.Errorf("cd: %w", err)
	}
	ro, err := k.x.RollBound(t, b, u.ID)
	if err != nil {
		return nil, Disruption{}, err
	}
	return ro, Disruption{Unit: u.ID, Feature: l.Feature, Rating: l.Disruptive, Result: ro.Result, Steps: game.Value(t, ro.Result)}, nil
}

// move moves an activated unit, with its group as one body (CD-2, CD-3,
// CD-6, CD-7, CD-8).
//
// With fog of war a move that meets an enemy unit the side does not spot
// (footprints that would touch, or a town block it holds) stops short of
// it, the whole body at once, in the formation and facing it moved in,
// and keeps what it cost; the contact follows the move (issue 32).
func (k *cmd) move() error {
	out, through, err := k.plan()
	if err != nil {
		return err
	}
	var met *meeting
	if k.blind() {
		cut, passed, m := k.meet(out, through)
		if m != nil {
			for i := range cut {
				k.cutLeg(out[i], &cut[i])
			}
			out, through, met = cut, passed, m
		}
	}
	d := &Moved{}
	var rolls []game.Roll
	moves := make([]game.Move, 0, len(out))
	for _, mv := range out {
		d.Units = append(d.Units, mv.u.ID)
		d.Legs = append(d.Legs, mv.leg)
		m := game.Move{Unit: mv.u.ID, To: mv.to}
		if mv.shape != mv.u.Shape {
			m.Shape = mv.shape
		}
		if mv.facing != mv.u.Facing {
			fc := mv.facing
			m.Facing = &fc
		}
		if mv.leg.Disruptive != "" {
			ro, x, err := k.disruptive(mv.u, mv.leg)
			if err != nil {
				return err
			}
			rolls = append(rolls, *ro)
			d.Disrupted = append(d.Disrupted, x)
			if strings.HasPrefix(x.Result, "disordered") && !mv.u.isArt() {
				m.Shape = "general-order"
			}
		}
		moves = append(moves, m)
	}
	if through != nil {
		ro, _, err := k.x.Roll("cd/passage", out[0].u.ID, nil)
		if err != nil {
			return err
		}
		rolls = append(rolls, *ro)
		d.Through, d.Passage = through.ID, ro.Result
		if ro.Result == "disordered" {
			if !out[0].u.isArt() {
				moves[0].Shape = "general-order"
			}
			if !through.isArt() && through.Shape != "general-order" {
				moves = append(moves, game.Move{Unit: through.ID, To: through.At, Shape: "general-order"})
			}
		}
	}
	if err := k.x.Emit(game.Event{Type: EvMoved, Side: k.side, See: game.All, Rule: "CD-2", Rolls: rolls, Moves: moves, Data: d}); err != nil {
		return err
	}
	return k.contact(met, "CD-2")
}

// relief is a relief checked: the fresh unit, the front-line unit, whether
// both move on one brigade roll, and the share of a move it takes.
type relief struct {
	fresh, front *Unit
	group        bool
	cost         float64
}

// relief checks a relief of a front-line unit by a fresh one (CD-7).
func (k *cmd) relief() (*relief, error) {
	fresh, err := k.own(k.a.Unit, "CD-7")
	if err != nil {
		return nil, err
	}
	front, err := k.own(k.a.Relieved, "CD-7")
	if err != nil {
		return nil, err
	}
	if fresh == front {
		return nil, game.Reject("CD-7", "a unit does not relieve itself")
	}
	for _, u := range []*Unit{fresh, front} {
		switch {
		case u.Act <= 0:
			return nil, game.Reject("CD-7", "%s has not activated this turn; both units of a relief must", u.ID)
		case u.Factor == 0:
			return nil, game.Reject("CD-7", "%s rolled no move, so the relief does not happen", u.ID)
		case u.Used > 0:
			return nil, game.Reject("CD-7", "%s has moved this turn; a relief is the units' move", u.ID)
		}
	}
	if v := veer(fresh.Facing, fresh.At, front.At); v > k.r.values["veer"]+0.01 {
		return nil, game.Reject("CD-7", "%s would veer %s degrees to reach %s's place; at most %s", fresh.ID, inch(v), front.ID, inch(k.r.values["veer"]))
	}
	act := k.st.Acts[fresh.Act-1]
	group := fresh.Act == front.Act && act.Kind != "unit" && fresh.Formation == front.Formation
	lf, err := k.r.leg(k.sc, fresh, fresh.At, front.At, fresh.Shape, "", false)
	if err != nil {
		return nil, err
	}
	lb, err := k.r.leg(k.sc, front, front.At, fresh.At, front.Shape, "", false)
	if err != nil {
		return nil, err
	}
	cost := max(lf.Cost, lb.Cost)
	for _, u := range []*Unit{fresh, front} {
		if cost > u.Factor+slack {
			return nil, game.Reject("CD-7", "the exchange takes %s of a move, beyond %s's %s", inch(cost), u.ID, factorWords(u.Factor))
		}
	}
	return &relief{fresh: fresh, front: front, group: group, cost: cost}, nil
}

// relieve exchanges a fresh unit with a front-line unit (CD-7).
func (k *cmd) relieve() error {
	rl, err := k.relief()
	if err != nil {
		return err
	}
	fresh, front, group, cost := rl.fresh, rl.front, rl.group, rl.cost
	ff, bf := front.Facing, fresh.Facing
	moves := []game.Move{{Unit: fresh.ID, To: front.At, Facing: &ff}, {Unit: front.ID, To: fresh.At, Facing: &bf}}
	d := &Relieved{Unit: fresh.ID, Relieved: front.ID, Group: group, Cost: round(cost)}
	var rolls []game.Roll
	if !group {
		ro, _, err := k.x.Roll("cd/passage", fresh.ID, nil)
		if err != nil {
			return err
		}
		rolls = append(rolls, *ro)
		d.Result = ro.Result
		if ro.Result == "disordered" {
			for i, u := range []*Unit{fresh, front} {
				if !u.isArt() {
					moves[i].Shape = "general-order"
				}
			}
		}
	}
	return k.x.Emit(game.Event{Type: EvRelieved, Side: k.side, See: game.All, Rule: "CD-7", Rolls: rolls, Moves: moves, Data: d})
}

// retire is a forced move after a morale loss, which needs no activation
// and no command radius; in a town it displaces friends from a block it
// overfills (CD-8, CD-9).
func (k *cmd) retire() error {
	u, err := k.anyUnit(k.a.Unit, "CD-9")
	if err != nil {
		return err
	}
	to := *k.a.To
	facing := u.Facing
	if k.a.Facing != nil {
		facing = *k.a.Facing
	}
	if !k.sc.Field.Contains(to) {
		return game.Reject("CD-9", "%s is off the table (0..%s by 0..%s inches)", to, inch(k.sc.Field.Width), inch(k.sc.Field.Depth))
	}
	f := shrink(k.r.footOf(u))
	for i := range k.st.Units {
		v := &k.st.Units[i]
		if v.Side != u.Side && k.st.alive(k.s, v.ID) && !k.unknown(v) && f.Sweeps(to, k.r.footOf(v)) {
			return game.Reject("CD-9", "the way of %s to %s runs into the enemy's %s", u.ID, to, v.ID)
		}
	}
	if err := k.townWay(moving{u: u, to: to, facing: facing, shape: u.Shape}); err != nil {
		return err
	}
	// With fog of war it stops short of an enemy unit its side does not
	// spot, as a move does (issue 32).
	var met *meeting
	if k.blind() {
		if cut, _, m := k.meet([]moving{{u: u, to: to, facing: facing, shape: u.Shape}}, nil); m != nil {
			to, facing, met = cut[0].to, cut[0].facing, m
		}
	}
	moves := []game.Move{{Unit: u.ID, To: to}}
	if facing != u.Facing {
		moves[0].Facing = &facing
	}
	d := &Retired{Unit: u.ID, Distance: round(u.At.Dist(to))}
	if b, ok := k.r.blockOf(k.sc, u, to, facing, u.Shape); ok {
		ms, ids := k.displace(u, b)
		moves = append(moves, ms...)
		d.Displaced = ids
	}
	if err := k.x.Emit(game.Event{Type: EvRetired, Side: u.Side, See: game.All, Rule: "CD-9", Moves: moves, Data: d}); err != nil {
		return err
	}
	return k.contact(met, "CD-9")
}

// displace moves friends of u out of block b until it holds at most four
// stands with u: each to the adjacent block of the town with room nearest
// it, or else out of the town (CD-9). Units leave in reverse scenario
// order, the last to come first.
func (k *cmd) displace(u *Unit, b block) ([]game.Move, []string) {
	most := int(k.r.values["block-stands"])
	room := map[int]int{}
	for i := range b.town.Blocks {
		room[i] = most - k.r.stands(k.s, k.st, u.Side, block{b.town, i}, []string{u.ID})
	}
	room[b.i] -= u.Stands
	var moves []game.Move
	var ids []string
	for i := len(k.st.Units) - 1; i >= 0 && room[b.i] < 0; i-- {
		v := &k.st.Units[i]
		if v == u || v.Side != u.Side || !k.st.alive(k.s, v.ID) {
			continue
		}
		if vb, ok := k.r.blockOf(k.sc, v, v.At, v.Facing, v.Shape); !ok || vb != b {
			continue
		}
		at := centre(k.r.footOf(v))
		best, bd := -1, math.Inf(1)
		for j := range b.town.Blocks {
			nb := block{b.town, j}
			if j == b.i || !adjacent(b, nb) || room[j] < v.Stands {
				continue
			}
			if d := middle(b.town.Blocks[j]).Dist(at); d < bd {
				best, bd = j, d
			}
		}
		var dest geom.Point
		if best >= 0 {
			dest = middle(b.town.Blocks[best])
			room[best] -= v.Stands
		} else {
			dest = outOf(b.town, middle(b.town.Blocks[b.i]), k.sc.Field)
		}
		room[b.i] += v.Stands
		// The unit's middle goes to dest.
		a := foot.Foot{Facing: v.Facing}.Ahead()
		dp := k.r.foot[v.Shape][1] / 2
		moves = append(moves, game.Move{Unit: v.ID, To: geom.Pt(math.Round((dest.X+a.X*dp)*100)/100, math.Round((dest.Y+a.Y*dp)*100)/100)})
		ids = append(ids, v.ID)
	}
	return moves, ids
}

// middle is the mean of a polygon's corners.
func middle(pg []geom.Point) geom.Point {
	var x, y float64
	for _, p := range pg {
		x, y = x+p.X, y+p.Y
	}
	return geom.Pt(x/float64(len(pg)), y/float64(len(pg)))
}

// outOf is a point an inch outside a town, straight out from the town's
// middle through from, held on the table.
func outOf(town *battle.Feature, from geom.Point, fd battle.Field) geom.Point {
	c := middle(town.Area)
	dx, dy := from.X-c.X, from.Y-c.Y
	l := math.Hypot(dx, dy)
	if l < 1e-9 {
		dx, dy, l = 0, 1, 1
	}
	dx, dy = dx/l, dy/l
	p := from
	for i := 0; i < 4000 && town.Area.Contains(p); i++ {
		p = geom.Pt(p.X+dx*0.1, p.Y+dy*0.1)
	}
	p = geom.Pt(p.X+dx, p.Y+dy)
	p = geom.Pt(min(max(p.X, 0), fd.Width), min(max(p.Y, 0), fd.Depth))
	return p
}

// screen takes a skirmish-capable unit off the table into its division's
// skirmish screen (CD-8).
func (k *cmd) screen() error {
	u, err := k.own(k.a.Unit, "CD-8")
	if err != nil {
		return err
	}
	switch {
	case !u.Skirmish:
		return game.Reject("CD-8", "%s is not skirmish capable, so it cannot reinforce the screen", u.ID)
	case u.Moved || u.Used > 0:
		return game.Reject("CD-8", "%s has moved this turn", u.ID)
	}
	div := k.st.Formation(u.Division)
	d := &Screened{Unit: u.ID, Division: div.ID, Stands: u.Stands}
	if !k.s.Fogged() {
		d.Screen = screenAfter(div.Screen + u.Stands)
	}
	return k.x.Emit(game.Event{Type: EvScreened, Side: k.side, See: game.All, Rule: "CD-8", Data: d})
}

// screenAfter is a division's screen after a unit joins or leaves it, for
// an event's payload: without fog of war everyone is told it.
func screenAfter(n int) *int { return &n }

// recall brings a unit back from the screen at its division's rear, with
// 40 casualties and disordered (CD-8). Our reading of "the rear": no
// nearer the front than the division's rearmost unit, in the frame its
// first unit faces, and within its commander's radius.
func (k *cmd) recall() error {
	u := k.st.Unit(k.a.Unit)
	if u == nil || u.Side != k.side {
		return game.Reject("CD-8", "there is no unit %s of %s", k.a.Unit, k.side)
	}
	if !u.Screened {
		return game.Reject("CD-8", "%s is not in the skirmish screen", u.ID)
	}
	to := *k.a.To
	if !k.sc.Field.Contains(to) {
		return game.Reject("CD-8", "%s is off the table (0..%s by 0..%s inches)", to, inch(k.sc.Field.Width), inch(k.sc.Field.Depth))
	}
	div := k.st.Formation(u.Division)
	facing := u.Facing
	if k.a.Facing != nil {
		facing = *k.a.Facing
	}
	ref, err := k.atRear(u, div, to)
	if err != nil {
		return err
	}
	// A unit comes back in general order; a battery as it was.
	shape := u.Shape
	if !u.isArt() {
		shape = "general-order"
	}
	end := shrink(k.r.footAt(u, to, facing, shape))
	for i := range k.st.Units {
		v := &k.st.Units[i]
		if v != u && k.st.alive(k.s, v.ID) && !k.unknown(v) && end.Dist(k.r.footOf(v)) <= 0 {
			return game.Reject("CD-8", "%s would come back on top of %s", u.ID, v.ID)
		}
	}
	// With fog of war a unit that would come back on top of an enemy unit
	// its side does not spot comes back touching it, on its rear side
	// (issue 32).
	var met *meeting
	if k.blind() {
		back := facing
		if ref != nil {
			back = ref.Facing
		}
		var ok bool
		if to, met, ok = k.backOff(u, to, facing, shape, back+180); !ok {
			return k.contact(met, "CD-8")
		}
	}
	cas := max(u.Casualties, int(k.r.values["screen-casualties"]))
	m := game.Move{Unit: u.ID, To: to, Shape: shape, Facing: &facing}
	d := &Recalled{Unit: u.ID, Division: div.ID, Casualties: cas}
	if !k.s.Fogged() {
		d.Screen = screenAfter(max(0, div.Screen-u.Stands))
	}
	if err := k.x.Emit(game.Event{Type: EvRecalled, Side: k.side, See: game.All, Rule: "CD-8", Moves: []game.Move{m}, Data: d}); err != nil {
		return err
	}
	return k.contact(met, "CD-8")
}

// atRear checks that unit u comes back from the screen to to at the rear
// of its division div (our reading of CD-8, recall): no nearer the front
// than the rear edge of the division's rearmost unit, in the frame its
// first unit faces, and within its commander's radius. It gives that
// first unit (nil when the division has none in play).
func (k *cmd) atRear(u *Unit, div *Formation, to geom.Point) (*Unit, error) {
	var ref *Unit
	rear := math.Inf(1)
	for i := range k.st.Units {
		v := &k.st.Units[i]
		if v.Division != div.ID || !k.st.alive(k.s, v.ID) {
			continue
		}
		if ref == nil {
			ref = v
		}
		a := foot.Foot{Facing: ref.Facing}.Ahead()
		for _, c := range k.r.footOf(v).Corners() {
			rear = min(rear, c.X*a.X+c.Y*a.Y)
		}
	}
	if ref != nil {
		a := foot.Foot{Facing: ref.Facing}.Ahead()
		if at := to.X*a.X + to.Y*a.Y; at > rear+slack {
			return nil, game.Reject("CD-8", "%s comes back at the rear of %s: %s is %s\" ahead of its rearmost unit's rear edge", u.ID, div.ID, to, inch(at-rear))
		}
	}
	if g := k.st.commander(k.s, div); g != nil {
		if d := g.At.Dist(to); d > k.r.radius[battle.Division]+slack {
			return nil, game.Reject("CD-8", "%s is %s\" from %s, beyond the division's radius of %s\"", to, inch(d), g.ID, inch(k.r.radius[battle.Division]))
		}
	}
	return ref, nil
}

// lose records a commander killed or disabled and replaces him down the
// chain (CD-8): a formation goes to the commander of its first
// subordinate formation, who keeps his rating, but a brigadier who takes
// a division is rated average +0 (or his promoted rating); his own
// formation goes on the same way, and a brigade left without one goes to
// a stand-in colonel rated average +0.
func (k *cmd) lose() error {
	g := k.st.General(k.a.General)
	if g == nil || (g.Side != k.side && !k.umpire) {
		return game.Reject("CD-8", "there is no commander %s of %s", k.a.General, k.side)
	}
	if g.Lost {
		return game.Reject("CD-8", "%s is lost already", g.ID)
	}
	f := k.st.Formation(g.Commands)
	if f == nil || f.General != g.ID {
		return game.Reject("CD-8", "%s commands no formation now", g.ID)
	}
	d := &Lost{General: g.ID}
	for f != nil {
		var next *Formation
		for i := range k.st.Formations {
			c := &k.st.Formations[i]
			if c.Parent == f.ID && c.General != "" {
				if cg := k.st.General(c.General); cg != nil && !cg.Lost {
					next = c
					break
				}
			}
		}
		if next == nil {
			d.Successors = append(d.Successors, Succession{Formation: f.ID, Rating: "average"})
			break
		}
		sg := k.st.General(next.General)
		s := Succession{Formation: f.ID, General: sg.ID, Rating: sg.Rating, Bonus: sg.Bonus}
		if f.Kind == battle.Division && next.Kind == battle.Brigade {
			s.Rating, s.Bonus = "average", 0
			if sg.Promoted != "" {
				s.Rating = sg.Promoted
			}
		}
		d.Successors = append(d.Successors, s)
		f = next
	}
	side := g.Side
	return k.x.Emit(game.Event{Type: EvLost, Side: side, See: game.All, Rule: "CD-8", Data: d})
}

// mark records what befell a unit at the table: fire, melee and morale
// are read off the players' own charts (the source leaves them out).
func (k *cmd) mark() error {
	u, err := k.anyUnit(k.a.Unit, "")
	if err != nil {
		return err
	}
	a := k.a
	d := &Marked{Unit: u.ID, Shaken: a.Shaken, Disordered: a.Disordered, Smoke: a.Smoke, Casualties: a.Casualties, CW: a.CW}
	var moves []game.Move
	if a.Disordered != nil && *a.Disordered && !u.isArt() && u.Shape != "general-order" {
		moves = append(moves, game.Move{Unit: u.ID, To: u.At, Shape: "general-order"})
	}
	return k.x.Emit(game.Event{Type: EvMarked, Side: u.Side, See: game.All, Moves: moves, Data: d})
}
