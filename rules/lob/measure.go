package lob

import (
	"fmt"
	"slices"

	"orderly/game"
	"orderly/geom"
	"orderly/terrain"
)

// moverIndex is the column of lob/allowance and lob/terrain for a kind of
// piece.
func moverIndex(kind string) int { return slices.Index(movers, kind) }

// Price is the cost in movement points of a step from hex i to its
// neighbour in direction d for a kind of piece (infantry, cavalry,
// artillery, leader), from the user's lob/terrain: along a road the
// road's cost; else the terrain of the hex entered plus each hexside
// feature crossed. False when prohibited (P).
func (r *Rules) Price(t *terrain.Map, kind string, i, d int) (int, bool) {
	j := t.Next(i, d)
	m := moverIndex(kind)
	if j < 0 || m < 0 {
		return 0, false
	}
	nh := len(hexKinds)
	if t.Road(i, d) != terrain.None {
		c := r.cost[nh+len(sideKinds)][m]
		return c, c >= 0
	}
	c := r.cost[t.Terrain(j)][m]
	if c < 0 {
		return 0, false
	}
	for f := range sideKinds {
		if t.Has(i, d, f) {
			s := r.cost[nh+f][m]
			if s < 0 {
				return 0, false
			}
			c += s
		}
	}
	return c, true
}

// mover is a piece about to move: what it is, where it stands, its
// allowance and what it has used.
type mover struct {
	id    string
	kind  string
	at    geom.Point
	allow int
	used  int
	unit  *Unit
	lead  *Leader
	hq    *Formation
	army  *Side
}

// mover finds the piece a move or post names.
func (k *cmd) mover(post bool) (*mover, error) {
	a := k.a
	switch {
	case a.Army:
		sd := k.st.Side(k.side)
		if sd.Goal == nil {
			return nil, game.Reject("LOB-4", "the army HQ moves only under an order the army commander issued with his command roll (issue to hq)")
		}
		return &mover{id: k.side + "'s army HQ", kind: "leader", at: sd.HQ, allow: k.r.allow["leader"], used: sd.HQUsed, army: sd}, nil
	case a.HQ != "":
		f, err := k.command(a.HQ, "hq")
		if err != nil {
			return nil, err
		}
		if !f.HQOn {
			return nil, game.Reject("LOB-1", "the HQ of %s is not on the map; its leader acts as its HQ and moves as a leader", f.ID)
		}
		return &mover{id: f.ID + "'s HQ", kind: "leader", at: f.HQ, allow: k.r.allow["leader"], used: f.HQUsed, hq: f}, nil
	case a.Leader != "":
		l, err := k.leader(a.Leader, "leader")
		if err != nil {
			return nil, err
		}
		return &mover{id: l.ID, kind: "leader", at: l.At, allow: k.r.allow["leader"], used: l.Used, lead: l}, nil
	}
	u, err := k.unit(a.Unit)
	if err != nil {
		return nil, err
	}
	if post && u.Type != "artillery" {
		return nil, game.Reject("LOB-4", "%s is %s; only batteries are posted", u.ID, u.Type)
	}
	return &mover{id: u.ID, kind: u.Type, at: u.At, allow: k.r.allow[u.Type], used: u.Used, unit: u}, nil
}

// blocked marks the hexes with an enemy combat unit, but those hidden
// says are not there (nil: none).
func (st *State) blocked(side string, hidden func(string) bool) []bool {
	t := st.sc.Terrain
	out := make([]bool, t.Len())
	for i := range st.Units {
		if u := &st.Units[i]; u.alive() && u.Side != side && (hidden == nil || !hidden(u.ID)) {
			if j, ok := t.At(u.At); ok {
				out[j] = true
			}
		}
	}
	return out
}

// meets finds the first hex of a path, worked out on what the seat knows,
// that holds an enemy combat unit it did not spot (fog of war): the index
// of the hex in the path and the unit met there; -1 if the path is clear.
// A check (offers, forecasts) meets nothing: it knows only what the seat
// knows.
func (k *cmd) meets(path []int) (int, *Unit) {
	if k.x == nil || !k.s.Fogged() || k.seat == game.Umpire {
		return -1, nil
	}
	t := k.sc.Terrain
	at := map[int]*Unit{}
	for i := range k.st.Units {
		if u := &k.st.Units[i]; u.alive() && u.Side != k.side {
			if j, ok := t.At(u.At); ok && at[j] == nil {
				at[j] = u
			}
		}
	}
	for n, j := range path {
		if u := at[j]; u != nil {
			return n, u
		}
	}
	return -1, nil
}

// stacked counts a side's combat units in a hex.
func (st *State) stacked(side string, p geom.Point) int {
	n := 0
	for i := range st.Units {
		if u := &st.Units[i]; u.alive() && u.Side == side && u.At == p {
			n++
		}
	}
	return n
}

// Path is a move worked out: the hexes after the start and the cost.
type Path struct {
	Hexes []int
	Cost  int
}

// plan works out a move to hex to: along the path given, or the least-cost
// path within what the piece has left, not through the enemy.
func (k *cmd) plan(m *mover, to geom.Point) (*Path, error) {
	t := k.sc.Terrain
	from, ok := t.At(m.at)
	dest, ok2 := t.At(to)
	if !ok || !ok2 {
		return nil, game.Reject("", "%s or hex %s is off the map", m.id, k.sc.Map.Format(to))
	}
	if from == dest {
		return nil, game.Reject("", "%s is in hex %s already", m.id, t.Label(dest))
	}
	left := max(m.allow-m.used, 0)
	blocked := k.st.blocked(k.side, k.hidden)
	step := k.r.stepper(t, m.kind, blocked)
	if len(k.a.Path) > 0 {
		p := &Path{}
		at := from
		for n, l := range k.a.Path {
			h, err := k.hex(l, fmt.Sprintf("path[%d]", n))
			if err != nil {
				return nil, err
			}
			j, _ := t.At(h)
			d := t.Dir(at, j)
			if d < 0 {
				return nil, game.Reject("", "%s cannot take that path: hex %s does not touch %s before it; a path is a chain of neighbouring hexes", m.id, t.Label(j), t.Label(at))
			}
			if blocked[j] {
				return nil, game.Reject("", "%s cannot take that path: hex %s holds the enemy", m.id, t.Label(j))
			}
			c, ok := step(at, d)
			if !ok {
				return nil, game.Reject("", "%s cannot take that path: hex %s (%s) or the hexside into it is prohibited to %s", m.id, t.Label(j), t.TerrainName(j), m.kind)
			}
			p.Hexes, p.Cost, at = append(p.Hexes, j), p.Cost+c, j
		}
		if at != dest {
			return nil, game.Reject("", "the path ends in hex %s, not %s", t.Label(at), t.Label(dest))
		}
		if p.Cost > left {
			return nil, game.Reject("", "the path costs %s MP and %s has %s MP left this turn", MP(p.Cost), m.id, MP(left))
		}
		return p, nil
	}
	path, cost, found := k.st.searcher().Path(from, dest, step, k.r.floor[m.kind], left)
	if !found {
		if _, c, ok := k.st.searcher().Path(from, dest, step, k.r.floor[m.kind], 3*m.allow+1); ok {
			return nil, game.Reject("", "the way to hex %s costs %s MP and %s has %s MP left this turn", t.Label(dest), MP(c), m.id, MP(left))
		}
		return nil, game.Reject("", "%s cannot reach hex %s this turn: every way is prohibited to it, held by the enemy, or far beyond its %s MP", m.id, t.Label(dest), MP(m.allow))
	}
	return &Path{Hexes: path, Cost: cost}, nil
}

// outWords says that unit u stands d hexes from the HQ of f, its Command,
// beyond its radius, and what follows (LOB-2): the words of a move
// refused for it, and of the advice (Advise).
func outWords(u *Unit, f *Formation, d int) string {
	return fmt.Sprintf("%s is out of the command radius of %s (%d hexes from its HQ); it may only move back toward it", u.ID, f.ID, d)
}

// outOfRadius reports whether combat unit u stands outside its Command's
// radius (LOB-2), with the Command and how far it stands from its HQ.
func (st *State) outOfRadius(u *Unit) (*Formation, int, bool) {
	f := st.Formation(u.Command)
	if f == nil {
		return nil, 0, false
	}
	in, d := st.InRadius(f, u.At)
	return f, d, d >= 0 && !in
}

// radiusRule checks a combat unit's move from one hex to another against
// its Command (LOB-2, LOB-7, LOB-8): a unit out of command radius moves
// only back toward it; a unit of a Command in no-orders status or
// skedaddled stays within it (10.8a, 10.9; our reading); a unit of a
// fluked division does not advance toward the enemy (10.7b), the enemy
// its side knows of (hidden says which enemy units it does not spot; nil:
// none).
func (st *State) radiusRule(u *Unit, to geom.Point, hidden func(string) bool) (string, string) {
	f := st.Formation(u.Command)
	if f == nil {
		return "", ""
	}
	in, d0 := st.InRadius(f, u.At)
	inTo, d1 := st.InRadius(f, to)
	if u.Used > 0 && !in {
		// It began its movement this turn in radius: it may go on out of
		// it (10.2g).
		if began, _ := st.InRadius(f, u.Start); began {
			in = true
		}
	}
	switch {
	case d0 < 0:
		return "", ""
	case !in && d1 >= d0:
		return "LOB-2", fmt.Sprintf("%s, and hex %s is not nearer", outWords(u, f, d0), st.sc.Map.Format(to))
	case in && !inTo && f.Skedaddle:
		return "LOB-8", fmt.Sprintf("%s is skedaddled; its units move within its command radius, and hex %s is outside it", f.ID, st.sc.Map.Format(to))
	case in && !inTo && f.Order == "" && !f.Rejoin:
		return "LOB-2", fmt.Sprintf("%s has no orders; its units move within its command radius, and hex %s is outside it", f.ID, st.sc.Map.Format(to))
	}
	if f.Fluked {
		if e0, e1 := st.nearestEnemy(u.Side, u.At, hidden), st.nearestEnemy(u.Side, to, hidden); e0 >= 0 && e1 < e0 {
			cause := "failed a fluke stoppage check"
			if f.Futile {
				cause = "ended its attack as futile"
			}
			return "LOB-7", fmt.Sprintf("%s %s; its units cannot advance until it recovers, and hex %s is nearer the enemy", f.ID, cause, st.sc.Map.Format(to))
		}
	}
	return "", ""
}

// towardGoal says why the army HQ may not move to hex to: it moves only
// toward the destination of its order (LOB-4); "" when it may.
func (st *State) towardGoal(sd *Side, to geom.Point) string {
	if sd.Goal == nil {
		return "the army HQ moves only under an order the army commander issued with his command roll"
	}
	if st.dist(to, *sd.Goal) >= st.dist(sd.HQ, *sd.Goal) {
		return fmt.Sprintf("the army HQ moves toward %s, the destination of its order, and hex %s is not nearer it", st.sc.Map.Format(*sd.Goal), st.sc.Map.Format(to))
	}
	return ""
}

// nearestEnemy is the distance to the nearest enemy combat unit, or -1,
// leaving out those hidden says are not there (nil: none).
func (st *State) nearestEnemy(side string, p geom.Point, hidden func(string) bool) int {
	best := -1
	for i := range st.Units {
		if u := &st.Units[i]; u.alive() && u.Side != side && (hidden == nil || !hidden(u.ID)) {
			if d := st.dist(p, u.At); best < 0 || d < best {
				best = d
			}
		}
	}
	return best
}

// move moves a piece (LOB-2), or posts a battery (LOB-4: no command roll;
// it unlimbers within its Command's radius).
//
// With fog of war the move is worked out on what the side spots: an enemy
// combat unit it does not spot is not there for it (nor for the rule that
// a fluked division does not advance toward the enemy). If the way then
// runs into such a unit, the move is carried out up to the hex before it
// (the last hex before it where a combat unit may stack, if that one is
// full), the movement points spent on the way stay spent, a battery being
// posted is not (it stays limbered), and the contact is an event that
// both sides see: from then on each spots the other's piece. The checks
// of the move (command radius, the army HQ's destination) are made on the
// move as it was given.
func (k *cmd) move(post bool) error {
	m, err := k.mover(post)
	if err != nil {
		return err
	}
	to, err := k.hex(k.a.To, "to")
	if err != nil {
		return err
	}
	pl, err := k.plan(m, to)
	if err != nil {
		return err
	}
	rule, id, err := k.mayMove(m, to, post)
	if err != nil {
		return err
	}
	t := k.sc.Terrain
	stop, met := k.meets(pl.Hexes)
	if stop >= 0 {
		for stop > 0 && m.unit != nil && k.st.stacked(k.side, t.Point(pl.Hexes[stop-1]))+1 > k.r.play["stack"] {
			stop--
		}
		pl.Hexes, pl.Cost, post = pl.Hexes[:stop], k.cost(m, pl.Hexes[:stop]), false
	}
	if len(pl.Hexes) > 0 {
		mv, moves := k.moved(m, pl, post)
		if err := k.x.Emit(game.Event{Type: EvMoved, Side: k.side, See: game.All, Rule: rule, Moves: moves, Data: mv}); err != nil {
			return err
		}
	}
	if met != nil {
		if err := k.x.Contact(k.side, id, met.ID, met.At, rule); err != nil {
			return err
		}
	}
	if m.unit == nil {
		return nil
	}
	return k.entered(m.unit, pl.Hexes)
}

// mayMove checks m's move to hex to, as given (LOB-1, LOB-2, LOB-4): the
// army HQ only toward its destination, a combat unit not into a full
// stack nor out of its Command's radius, a battery posted within it; the
// umpire may override the radius and destination. It returns the rule of
// the move and the id of the piece moving (an HQ's for an HQ).
func (k *cmd) mayMove(m *mover, to geom.Point, post bool) (rule, id string, err error) {
	switch {
	case m.army != nil:
		if why := k.st.towardGoal(m.army, to); why != "" && !k.umpire {
			return "", "", game.Reject("LOB-4", "%s", why)
		}
		return "LOB-4", armyHQ(k.side), nil
	case m.hq != nil:
		return "LOB-1", commandHQ(m.hq.ID), nil
	case m.unit == nil:
		return "LOB-2", m.id, nil
	}
	u := m.unit
	if n := k.st.stacked(k.side, to); n+1 > k.r.play["stack"] {
		return "", "", game.Reject("", "hex %s holds %d of your combat units already; at most %d stack (lob/play stack)", k.sc.Map.Format(to), n, k.r.play["stack"])
	}
	if rl, why := k.st.radiusRule(u, to, k.hidden); why != "" && !k.umpire {
		return "", "", game.Overridable(u.ID, rl, "%s", why)
	}
	if !post {
		return "LOB-2", m.id, nil
	}
	f := k.st.Formation(u.Command)
	if in, _ := k.st.InRadius(f, to); !in {
		return "", "", game.Reject("LOB-4", "a posted battery unlimbers within its Command's radius; hex %s is outside that of %s", k.sc.Map.Format(to), f.ID)
	}
	return "LOB-4", m.id, nil
}

// moved is the moved event's payload for m along pl's hexes, and the
// engine's move of its piece (none for an HQ, which is no piece of the
// engine's); a battery posted unlimbers.
func (k *cmd) moved(m *mover, pl *Path, post bool) (*Moved, []game.Move) {
	t := k.sc.Terrain
	last := pl.Hexes[len(pl.Hexes)-1]
	end := t.Point(last)
	mv := &Moved{Cost: pl.Cost, To: t.Label(last), Posted: post}
	for _, j := range pl.Hexes {
		mv.Path = append(mv.Path, t.Point(j))
	}
	switch {
	case m.army != nil:
		mv.Army = k.side
	case m.hq != nil:
		mv.HQ = m.hq.ID
	case m.lead != nil:
		mv.Leader = m.id
		return mv, []game.Move{{General: m.id, To: end, Piece: m.lead.pi + 1}}
	default:
		mv.Unit = m.unit.ID
		mo := game.Move{Unit: m.unit.ID, To: end, Piece: m.unit.pi + 1}
		if post {
			mo.Shape = "unlimbered"
		}
		return mv, []game.Move{mo}
	}
	return mv, nil
}

// cost is what m's steps along path cost, from where it stands.
func (k *cmd) cost(m *mover, path []int) int {
	t := k.sc.Terrain
	at, _ := t.At(m.at)
	total := 0
	for _, j := range path {
		c, _ := k.r.Price(t, m.kind, at, t.Dir(at, j))
		total, at = total+c, j
	}
	return total
}

// Settle does nothing: a skedaddle is caused by an enemy unit moving
// into an HQ's hex (entered, in move), not by where pieces stand; a
// reinforcement the engine places, or a piece the umpire sets down, does
// not enter a hex (10.9, 3.7a).
func (r *Rules) Settle(*game.Tx) error { return nil }

// entered makes each enemy Command whose HQ (or the leader acting as it,
// LOB-1) stands in a hex that combat unit u entered on its move, path,
// skedaddle, and an enemy army HQ likewise (LOB-8, 10.9): a unit in line
// or mounted, formed and not routed, causes one; open order infantry does
// not. Everyone who sees it is told that the Command skedaddles, with the
// Commands it takes along; which of its formations were within command
// radius, and which lose reserve status, its own side alone is told, in
// an event of its own (split). Under fog of war an HQ the mover's side
// did not spot is met: a contact, so that it knows what its unit found.
func (k *cmd) entered(u *Unit, path []int) error {
	if u.Shape != "line" && u.Shape != "mounted" || u.Status == "routed" {
		return nil
	}
	t := k.sc.Terrain
	in := make(map[geom.Point]bool, len(path))
	for _, j := range path {
		in[t.Point(j)] = true
	}
	meet := func(id string, at geom.Point) error {
		if !k.hidden(id) {
			return nil
		}
		return k.x.Contact(k.side, u.ID, id, at, "LOB-8")
	}
	gone := map[string]bool{}
	for i := range k.st.Formations {
		f := &k.st.Formations[i]
		if f.Side == k.side || !f.IsCommand() || f.Skedaddle || gone[f.ID] {
			continue
		}
		at, by, ok := k.st.Centre(f)
		if !ok || !in[at] {
			continue
		}
		centre := commandHQ(f.ID)
		if !f.HQOn && by != nil {
			centre = by.ID
		}
		if err := meet(centre, at); err != nil {
			return err
		}
		sk, moves := k.st.skedaddle(f, u.ID)
		// A Command that skedaddled on this move already is not taken
		// along again.
		sk.Commands = slices.DeleteFunc(sk.Commands, func(id string) bool { return id != f.ID && gone[id] })
		for _, id := range sk.Commands {
			gone[id] = true
		}
		open, own := sk.split()
		if err := k.x.Emit(game.Event{Type: EvSkedaddle, Side: f.Side, See: game.All, Rule: "LOB-8", Moves: moves, Data: open}); err != nil {
			return err
		}
		if own == nil {
			continue
		}
		if err := k.x.Emit(game.Event{Type: EvSkedaddle, Side: f.Side, See: f.Side, Rule: "LOB-8", Data: own}); err != nil {
			return err
		}
	}
	for i := range k.st.Sides {
		sd := &k.st.Sides[i]
		if sd.ID == k.side || sd.Skedaddle || !in[sd.HQ] {
			continue
		}
		if err := meet(armyHQ(sd.ID), sd.HQ); err != nil {
			return err
		}
		if err := k.x.Emit(game.Event{Type: EvSkedaddle, Side: sd.ID, See: game.All, Rule: "LOB-8", Data: &Skedaddle{Side: sd.ID, Cause: u.ID}}); err != nil {
			return err
		}
	}
	return nil
}
