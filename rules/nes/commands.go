package nes

import (
	"fmt"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/geom/hex"
	"orderly/sight"
	"orderly/terrain"
)

// Command checks an NES command against the state and emits its events.
func (r *Rules) Command(c *game.Command, x *game.Tx) error {
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return fmt.Errorf("nes: the arguments of %s are %T, not NES's", c.Verb, c.Args)
	}
	st := ext(x.S)
	side := c.Side
	if side == game.Umpire {
		side = st.phasing(x.S.Phase)
	}
	k := &cmd{r: r, x: x, s: x.S, st: st, sc: x.Sc, side: side, seat: c.Side, a: a}
	switch c.Verb {
	case "send":
		return k.send()
	case "cp":
		return k.cp()
	case "move":
		return k.move()
	case "form":
		return k.form()
	case "retire":
		return k.retire()
	case "loss":
		return k.loss()
	case "bombard":
		return k.bombard()
	case "charge":
		return k.charge()
	case "sight":
		return game.Reject("", "sight asks what a line of sight meets (the page's odds); it is not a command")
	}
	return game.Reject("", "nes has no command %s", c.Verb)
}

// cmd is a command being carried out.
type cmd struct {
	r    *Rules
	x    *game.Tx // nil when only checking (offers, forecasts)
	s    *game.State
	st   *State
	sc   *battle.Scenario
	side string
	// seat is who gives it: the side, or the umpire acting for it. What
	// the command decides, it decides on what the seat knows (issue 32).
	seat string
	a    *Args
}

// hidden reports whether the seat giving the command does not spot the
// enemy piece id (fog of war): for the command's legality, paths and
// costs it is not there. The umpire knows every piece.
func (k *cmd) hidden(id string) bool { return k.s.Hidden(k.seat, id) }

// leader finds a command unit of the acting side, by its own id or the
// id of the formation it commands.
func (k *cmd) leader(id, what string) (*Leader, error) {
	l := k.st.Leader(id)
	if l == nil {
		if f := k.sc.Formation(id); f != nil {
			l = k.st.Leader(f.General)
		}
	}
	if l == nil || l.Side != k.side {
		return nil, game.Reject("", "%s: there is no command unit %s of %s; name one of your own generals", what, id, k.side)
	}
	return l, nil
}

// unit finds a combat unit of the acting side that is on the map.
func (k *cmd) unit(id string) (*Unit, error) {
	u := k.st.Unit(id)
	if u == nil || u.Side != k.side {
		return nil, game.Reject("", "there is no combat unit %s of %s; name one of your own units", id, k.side)
	}
	if !u.alive() {
		return nil, game.Reject("", "%s is gone from the map", id)
	}
	return u, nil
}

// hex reads a label against the map.
func (k *cmd) hex(label, what string) (int, geom.Point, error) {
	p, err := k.sc.Map.Parse(label)
	if err != nil {
		return 0, geom.Point{}, game.Reject("", "%s: %v", what, err)
	}
	i, _ := k.sc.Terrain.At(p)
	return i, p, nil
}

// cost is what an order costs in command points (NES-1: urgent adds one).
func (r *Rules) cost(urgent bool) int {
	c := r.play["order-cost"]
	if urgent {
		c += r.play["urgent-cost"]
	}
	return c
}

// send sends an order down the chain of command (NES-1, NES-2): to a
// command unit under the sender, for its command points. In the sender's
// hex it is received; within his radius NES-1 is rolled; beyond, it goes
// under a delay marker of one level for each radius or part of one beyond
// the first, at most 3.
func (k *cmd) send() error {
	a := k.a
	from, err := k.leader(a.From, "from")
	if err != nil {
		return err
	}
	to, err := k.leader(a.To, "to")
	if err != nil {
		return err
	}
	if !k.st.subordinate(to.ID, from.ID) {
		return game.Reject("NES-2", "%s is not under %s's command; an order goes to a command unit below its sender", a.To, a.From)
	}
	side := k.st.Side(k.side)
	cost := k.r.cost(a.Urgent)
	if side.Points < cost {
		return game.Reject("NES-1", "%s has %d command points left this turn, and this order costs %d", k.side, side.Points, cost)
	}
	o := Order{Kind: a.Kind, Note: a.Note, Sender: from.ID, Urgent: a.Urgent, FromHQ: k.st.fromHQ(from)}
	if a.Objective != "" {
		_, p, err := k.hex(a.Objective, "objective")
		if err != nil {
			return err
		}
		o.Objective = &p
	}
	d := k.r.delivery(k.st, from, to, a.Urgent, o.FromHQ, 0)
	sent := &Sent{Sender: from.ID, Receiver: to.ID, Order: o, Dist: d.own, Radius: from.Radius, Cost: cost}
	if d.dist < d.own {
		sent.Dist = d.dist
	}
	ev := game.Event{Type: EvSent, Side: k.side, See: k.side, Rule: "NES-2", Data: sent}
	switch {
	case d.same:
		sent.Result = Received
	case d.within:
		ro, _, err := k.x.Roll(k.r.deliver.ID, to.ID, d.params)
		if err != nil {
			return err
		}
		ev.Rule, ev.Rolls = "NES-1", []game.Roll{*ro}
		sent.Result = ro.Result
	default:
		sent.Result = delayMarker(d.delay)
	}
	return k.x.Emit(ev)
}

// cp stacks a command point with a commander for the turn (NES-3: a
// division leader whose corps or wing commander is stacked with a CP
// checks continuation at -2).
func (k *cmd) cp() error {
	l, err := k.leader(k.a.General, "general")
	if err != nil {
		return err
	}
	if l.CP {
		return game.Reject("NES-3", "%s already has a command point stacked with him this turn", l.ID)
	}
	side := k.st.Side(k.side)
	if c := k.r.play["cp-cost"]; side.Points < c {
		return game.Reject("NES-3", "%s has %d command points left this turn, and stacking one costs %d", k.side, side.Points, c)
	}
	return k.x.Emit(game.Event{Type: EvCP, Side: k.side, See: k.side, Rule: "NES-3", Data: &Placed{Leader: l.ID, Cost: k.r.play["cp-cost"]}})
}

// mover is a piece that moves: a combat unit or a command unit.
type mover struct {
	id      string
	at      geom.Point
	hq      *Side // the side whose HQ moves, or nil
	unit    *Unit // nil for a command unit
	leader  *Leader
	mode    Mode
	allow   int // sixths it may spend this turn
	used    int
	gt      bool // its moves so far this turn were grand tactical
	typ     string
	command string // the command unit whose state rules the unit's allowance
}

// mover finds the piece a move names and how it moves.
func (k *cmd) mover() (*mover, error) {
	a := k.a
	if a.HQ {
		// The army's headquarters moves as a command unit does (our
		// reading: 1 MP a hex, the command units' allowance).
		sd := k.st.Side(k.side)
		return &mover{id: k.side + "'s HQ", at: sd.HQ, hq: sd, mode: Mode{Command: true}, allow: k.r.allow["command"], used: sd.Used, typ: "command"}, nil
	}
	if a.General != "" {
		l, err := k.leader(a.General, "general")
		if err != nil {
			return nil, err
		}
		m := &mover{id: l.ID, at: l.At, leader: l, mode: Mode{Command: true, GT: a.GT}, allow: k.r.allow["command"], used: l.Used, gt: l.GT, typ: "command"}
		if a.GT {
			m.allow += GrandTactical * Sixths
		}
		return m, nil
	}
	u, err := k.unit(a.Unit)
	if err != nil {
		return nil, err
	}
	m := &mover{id: u.ID, at: u.At, unit: u, used: u.Used, gt: u.GT, typ: u.Type, command: u.Leader,
		mode: Mode{Column: column(u.Type, u.Shape), Road: u.Shape == "road-column", GT: a.GT, Disorder: a.Disorder,
			Disordered: u.Status != "formed", General: u.Shape == "general-order"}}
	m.allow = k.r.allowance(k.st, u, a.GT)
	return m, nil
}

// allowance is a combat unit's movement allowance this turn in sixths: its
// type's (nes/allowance), 2 more in grand tactical movement (NES-7), or
// at most nes/play's standing-mp while the command unit it answers to is
// standing.
func (r *Rules) allowance(st *State, u *Unit, gt bool) int {
	a := r.allow[u.Type]
	if gt {
		a += GrandTactical * Sixths
	}
	if l := &st.Leaders[u.li]; l.State != Mobilized {
		a = min(a, r.play["standing-mp"]*Sixths)
	}
	return a
}

// blocked marks the hexes the command's piece may not enter, as its seat
// knows them: those with an enemy combat unit or command unit it spots
// (every one without fog of war, or for the umpire).
func (k *cmd) blocked() []bool {
	if !k.s.Fogged() || k.seat == game.Umpire {
		return k.st.blocked(k.side)
	}
	t := k.sc.Terrain
	out := make([]bool, t.Len())
	mark := func(p *game.Piece) {
		if i, ok := t.At(p.At); ok && p.Side != k.side && !k.hidden(p.ID) {
			out[i] = true
		}
	}
	for i := range k.st.Units {
		if u := &k.st.Units[i]; u.alive() {
			mark(u.Piece)
		}
	}
	for i := range k.st.Leaders {
		if l := &k.st.Leaders[i]; l.OnTable {
			mark(l.Piece)
		}
	}
	return out
}

// meets finds the first hex of a path, worked out on what the seat knows,
// that holds an enemy piece it did not spot (fog of war): the index of
// the hex in the path and the piece met there, a combat unit before a
// command unit; -1 if the path is clear. A check (offers, forecasts)
// meets nothing: it knows only what the seat knows.
func (k *cmd) meets(path []int) (int, *game.Piece) {
	if k.x == nil || !k.s.Fogged() || k.seat == game.Umpire {
		return -1, nil
	}
	t := k.sc.Terrain
	o := k.st.occupied()
	in := func(p geom.Point, j int) bool {
		i, ok := t.At(p)
		return ok && i == j
	}
	for n, j := range path {
		for si, s := range k.st.sides {
			if s == k.side || !o.present[si][j] {
				continue
			}
			for i := range k.st.Units {
				if u := &k.st.Units[i]; u.Side == s && u.alive() && in(u.At, j) {
					return n, u.Piece
				}
			}
			for i := range k.st.Leaders {
				if l := &k.st.Leaders[i]; l.Side == s && l.OnTable && in(l.At, j) {
					return n, l.Piece
				}
			}
		}
	}
	return -1, nil
}

// blocked marks the hexes a side's pieces may not enter: those with an
// enemy combat unit or command unit in them.
func (st *State) blocked(side string) []bool {
	o := st.occupied()
	for si, s := range st.sides {
		if s != side {
			return o.present[si]
		}
	}
	return nil
}

// Route is a priced path over the map: its hexes after the start, the
// total in sixths, and NES-7's effects along it: whether the piece
// disorders or takes general order on the way, and the first hex where
// it does (a map index).
type Route struct {
	Path       []int
	Cost       int
	Disorder   bool
	General    bool
	DisorderAt int
	GeneralAt  int
}

// Route prices a path of hexes from start for a piece that sets out in
// mode md, each a neighbour of the one before (NES-7): its cost and
// effects, or why a step is refused.
func (r *Rules) Route(t *terrain.Map, md Mode, start int, path []int) (Route, string) {
	return r.route(t, md, start, path, nil)
}

// route prices a path of hexes from start, each a neighbour of the one
// before, for a piece that sets out in mode md: each step in the mode the
// steps before it left the piece in (the chart's D and G take hold as a
// hex is entered: Mode.after); the reason if a step may not be taken.
func (r *Rules) route(t *terrain.Map, md Mode, start int, path []int, blocked []bool) (Route, string) {
	out := Route{Path: path}
	at, already := start, md.Disordered
	for _, j := range path {
		d := t.Dir(at, j)
		if d < 0 {
			return out, fmt.Sprintf("hex %s does not touch %s before it; a path is a chain of neighbouring hexes", t.Label(j), t.Label(at))
		}
		if blocked != nil && blocked[j] {
			return out, fmt.Sprintf("hex %s holds the enemy", t.Label(j))
		}
		s, why := r.enter(t, md, at, d)
		switch why {
		case prohibited:
			return out, fmt.Sprintf("hex %s (%s) or the hexside into it is prohibited to it", t.Label(j), t.TerrainName(j))
		case disorderedWoods:
			if !already && out.Disorder {
				return out, fmt.Sprintf("it disordered at hex %s on the way, and disordered cavalry and artillery may not enter woods (hex %s)", t.Label(out.DisorderAt), t.Label(j))
			}
			return out, fmt.Sprintf("it is disordered, and disordered cavalry and artillery may not enter woods (hex %s)", t.Label(j))
		case crossingDisorders:
			return out, fmt.Sprintf("crossing into hex %s disorders it, and disordered cavalry and artillery may not enter woods", t.Label(j))
		}
		out.Cost += s.mp
		if s.disorder && !out.Disorder {
			out.Disorder, out.DisorderAt = true, j
		}
		if s.general && !out.General {
			out.General, out.GeneralAt = true, j
		}
		md = md.after(s)
		at = j
	}
	return out, ""
}

// Plan is a move worked out: the route, its start, and what the piece
// has to spend.
type Plan struct {
	Route
	From, To int
	Left     int // sixths the piece had before the move
}

// plan works out the move a command names: along its path, or the
// least-cost path to its hex, refused if prohibited or beyond what the
// piece has left.
func (k *cmd) plan(m *mover) (*Plan, error) {
	t := k.sc.Terrain
	from, ok := t.At(m.at)
	if !ok {
		return nil, game.Reject("", "%s is not on the map", m.id)
	}
	to, _, err := k.hex(k.a.To, "to")
	if err != nil {
		return nil, err
	}
	left := m.allow - m.used
	pl := &Plan{From: from, To: to, Left: left}
	if to == from {
		return nil, game.Reject("NES-7", "%s is already in hex %s", m.id, t.Label(to))
	}
	blocked := k.blocked()
	if len(k.a.Path) > 0 {
		path := make([]int, len(k.a.Path))
		for i, l := range k.a.Path {
			if path[i], _, err = k.hex(l, fmt.Sprintf("path[%d]", i)); err != nil {
				return nil, err
			}
		}
		rt, why := k.r.route(t, m.mode, from, path, blocked)
		if why != "" {
			return nil, game.Reject("NES-7", "%s cannot take that path: %s", m.id, why)
		}
		pl.Route = rt
	} else {
		// The search follows the piece's mode as the chart's effects change
		// it on the way, so the cheapest way it may take is found.
		mv := k.st.moves(k.r, m.mode)
		path, _, found := k.st.searcher().PathLayers(from, to, &mv.layers, blocked, mv.floor, max(left, 0))
		if !found {
			// Beyond what it has left, or no way at all? A search bounded by
			// three allowances tells, and no search runs over the whole map.
			if _, c, ok := k.st.searcher().PathLayers(from, to, &mv.layers, blocked, mv.floor, 3*m.allow); ok {
				return nil, game.Reject("NES-7", "the way to hex %s costs %s MP and %s has %s MP left this turn", t.Label(to), MP(c), m.id, MP(max(left, 0)))
			}
			return nil, game.Reject("NES-7", "%s cannot reach hex %s this turn: every way is prohibited to it, held by the enemy, or far beyond its %s MP", m.id, t.Label(to), MP(m.allow))
		}
		pl.Route, _ = k.r.route(t, m.mode, from, path, blocked)
	}
	if pl.Cost > left {
		return nil, game.Reject("NES-7", "the way to hex %s costs %s MP and %s has %s MP left this turn", t.Label(to), MP(pl.Cost), m.id, MP(max(left, 0)))
	}
	return pl, nil
}

// move moves a piece over the map (NES-7): along the path given, or the
// least-cost path to the hex, within what it has left of its allowance,
// not into or through the enemy, and not overstacking the hex it ends in.
// The chart's D and G take hold as each hex is entered: the rest of the
// move is priced in the new formation and state, and a step the new state
// may not take is refused (NES-7; the search for the least-cost path
// follows the same changes).
//
// With fog of war the move is worked out on what the side spots: an enemy
// piece it does not spot is not there for it. If the way then runs into
// such a piece, the move is carried out up to the hex before it (the last
// hex before it where a combat unit may stack, if that one is full), the
// movement points spent on the way stay spent, and the contact is an
// event that both sides see: from then on each spots the other's piece.
func (k *cmd) move() error {
	m, err := k.mover()
	if err != nil {
		return err
	}
	if m.mode.Road && m.mode.GT {
		return game.Reject("NES-7", "%s is in road column; grand tactical movement is for units out of it", m.id)
	}
	if m.used > 0 && m.hq == nil && m.gt != m.mode.GT {
		how := "normally"
		if m.gt {
			how = "by grand tactical movement"
		}
		return game.Reject("NES-7", "%s has moved %s this turn; a piece moves the whole turn by grand tactical movement or not at all", m.id, how)
	}
	pl, err := k.plan(m)
	if err != nil {
		return err
	}
	t := k.sc.Terrain
	full := func(j int) bool {
		return m.unit != nil && int(k.st.occupied().units[k.st.sideIndex(k.side)][j])+1 > k.r.play["stack"]
	}
	if full(pl.To) {
		n := int(k.st.occupied().units[k.st.sideIndex(k.side)][pl.To])
		return game.Reject("NES-7", "hex %s already holds %d of your combat units, and at most %d may stack in a hex", t.Label(pl.To), n, k.r.play["stack"])
	}
	stop, met := k.meets(pl.Path)
	if stop >= 0 {
		for stop > 0 && full(pl.Path[stop-1]) {
			stop--
		}
		pl.Route, _ = k.r.route(t, m.mode, pl.From, pl.Path[:stop], nil)
		pl.To = pl.From
		if stop > 0 {
			pl.To = pl.Path[stop-1]
		}
	}
	if len(pl.Path) > 0 {
		if err := k.moved(m, pl); err != nil {
			return err
		}
	}
	if met == nil {
		return nil
	}
	id := m.id
	if m.hq != nil {
		id = hqMark(k.side)
	}
	return k.x.Contact(k.side, id, met.ID, met.At, "NES-7")
}

// moved emits the move of m along pl.
func (k *cmd) moved(m *mover, pl *Plan) error {
	t := k.sc.Terrain
	mv := &Moved{Cost: pl.Cost, To: t.Label(pl.To)}
	for _, j := range pl.Path {
		mv.Path = append(mv.Path, t.Point(j))
	}
	move := game.Move{To: t.Point(pl.To)}
	var moves []game.Move
	switch {
	case m.hq != nil:
		mv.HQ = m.hq.ID
	case m.unit != nil:
		mv.Unit, move.Unit = m.id, m.id
		if pl.Disorder && m.unit.Status == "formed" {
			mv.Disorder, mv.DisorderAt = true, t.Label(pl.DisorderAt)
		}
		if pl.General && takesGeneral(m.unit) {
			mv.General, mv.GeneralAt, move.Shape = true, t.Label(pl.GeneralAt), "general-order"
		}
	default:
		mv.Leader, move.General = m.id, m.id
	}
	if m.hq == nil {
		moves = append(moves, move)
	}
	switch {
	case m.mode.Road:
		mv.Mode = "road-column"
	case m.mode.GT:
		mv.Mode = "grand-tactical"
	}
	return k.x.Emit(game.Event{Type: EvMoved, Side: k.side, See: game.All, Rule: "NES-7", Moves: moves, Data: mv})
}

// takesGeneral reports whether the chart's G changes u's formation:
// infantry and light cavalry not in general order already (NES-7's note;
// skirmishers' column carries no G).
func takesGeneral(u *Unit) bool {
	return (u.Type == "infantry" || u.Type == "light-cavalry") && u.Shape != "general-order"
}

// form changes a combat unit's formation for nes/play's formation-mp:
// skirmish is infantry's only, general order infantry's and light
// cavalry's (NES-7's columns).
func (k *cmd) form() error {
	u, err := k.unit(k.a.Unit)
	if err != nil {
		return err
	}
	sh := k.a.Shape
	switch {
	case u.Shape == sh:
		return game.Reject("", "%s is already %s", u.ID, game.Formed(sh))
	case sh == "skirmish" && u.Type != "infantry":
		return game.Reject("NES-7", "only infantry forms skirmish order; %s is %s", u.ID, u.Type)
	case sh == "general-order" && u.Type != "infantry" && u.Type != "light-cavalry":
		return game.Reject("NES-7", "only infantry and light cavalry take general order; %s is %s", u.ID, u.Type)
	}
	cost := k.r.play["formation-mp"] * Sixths
	if left := k.r.allowance(k.st, u, false) - u.Used; cost > left {
		return game.Reject("NES-7", "a change of formation costs %s MP and %s has %s MP left this turn", MP(cost), u.ID, MP(max(left, 0)))
	}
	return k.x.Emit(game.Event{Type: EvFormed, Side: k.side, See: game.All, Rule: "NES-7",
		Moves: []game.Move{{Unit: u.ID, To: u.At, Shape: sh}}, Data: &Formed{Unit: u.ID, Formation: sh, Cost: cost}})
}

// retire sends a brigade leader to the rear (retired, or to the BC/FD),
// or brings one back: while retired he counts as outside his division
// leader's radius (NES-3).
func (k *cmd) retire() error {
	l, err := k.leader(k.a.General, "general")
	if err != nil {
		return err
	}
	if l.Role != RoleBrigade {
		return game.Reject("NES-3", "only a brigade leader retires; %s is a %s commander", l.ID, l.Role)
	}
	return k.x.Emit(game.Event{Type: EvRetired, Side: k.side, See: game.All, Rule: "NES-3", Data: &Retired{Leader: l.ID, Retired: !l.Retired}})
}

// loss records strength a combat unit lost (the players resolve fire and
// shock on their own charts) and rolls NES-4 for every command unit of its
// side in its hex, but at extended range.
func (k *cmd) loss() error {
	a := k.a
	u := k.st.Unit(a.Unit)
	if u == nil || !u.alive() {
		return game.Reject("", "there is no combat unit %s on the map", a.Unit)
	}
	if a.Points > u.Strength {
		return game.Reject("", "%s has %d strength points; it cannot lose %d", u.ID, u.Strength, a.Points)
	}
	l := &Lost{Unit: u.ID, Points: a.Points, Situation: a.Situation}
	ev := game.Event{Type: EvLost, Side: k.side, See: game.All, Rule: "NES-4", Data: l}
	if a.Situation == "fire-extended" {
		return k.x.Emit(ev)
	}
	var checks []*Leader
	for i := range k.st.Leaders {
		c := &k.st.Leaders[i]
		if c.Side == u.Side && c.Role != RoleArmy && c.OnTable && k.st.dist(c.At, u.At) == 0 {
			checks = append(checks, c)
		}
	}
	check := func(ev *game.Event, l *Lost, c *Leader) error {
		ro, _, err := k.x.Roll(k.r.loss.ID, c.ID, map[string]string{"situation": a.Situation})
		if err != nil {
			return err
		}
		ev.Rolls = append(ev.Rolls, *ro)
		lc := LossCheck{Leader: c.ID, Result: ro.Result}
		if ro.Result == "loss" {
			switch {
			case c.Role == RoleBrigade && c.Reduced:
				lc.Effect = "already reduced"
			case c.Role == RoleBrigade:
				lc.Effect = "reduced"
			default:
				lc.Effect = "replaced"
			}
		}
		l.Checks = append(l.Checks, lc)
		return nil
	}
	if !k.s.Fogged() {
		for _, c := range checks {
			if err := check(&ev, l, c); err != nil {
				return err
			}
		}
		return k.x.Emit(ev)
	}
	// With fog of war each command unit checks in an event of its own,
	// shown only to the sides that spot it, before the unit loses the
	// strength (which may take it off the map).
	for _, c := range checks {
		more := &Lost{Unit: u.ID, Situation: a.Situation, More: true}
		mev := game.Event{Type: EvLost, Side: k.side, See: game.All, Rule: "NES-4", Data: more}
		if err := check(&mev, more, c); err != nil {
			return err
		}
		if err := k.x.Emit(mev); err != nil {
			return err
		}
	}
	return k.x.Emit(ev)
}

// Impact is where extended-range fire lands: the hex n steps along the
// line of sight from the firing hex through the target, n the target's
// distance plus the deviation (NES-5); false off the map.
func (st *State) Impact(from, target geom.Point, dev int) (geom.Point, bool) {
	m := st.sc.Map
	a, _ := m.Hex(from)
	b, _ := m.Hex(target)
	h := hex.Along(a, b, hex.Distance(a, b)+dev)
	p := m.Point(h)
	return p, m.Contains(p)
}

// bombard fires class 1 artillery of strength 4 or more at a hex at
// extended range (NES-5): the target must be in its line of sight and
// within nes/play's extended range; the deviation roll finds the impact
// hex along the line of sight, and nes/extended-fire (example values)
// what befalls every combat unit there. No command unit loss is checked
// at extended range (NES-4).
func (k *cmd) bombard() error {
	u, err := k.unit(k.a.Unit)
	if err != nil {
		return err
	}
	if u.Type != "artillery" || u.Class != 1 || u.Strength < 4 {
		return game.Reject("NES-5", "only class 1 artillery of strength 4 or more fires at extended range; %s is %s of class %d and strength %d", u.ID, u.Type, u.Class, u.Strength)
	}
	nation := k.st.Side(k.side).Nation
	if nation != "french" && nation != "russian" {
		return game.Reject("NES-5", "NES-5 gives the deviation of french and russian artillery only; %s is %s", k.side, nation)
	}
	ti, tp, err := k.hex(k.a.Target, "target")
	if err != nil {
		return err
	}
	t := k.sc.Terrain
	fi, _ := t.At(u.At)
	d := t.Distance(fi, ti)
	if lo, hi := k.r.play["extended-min"], k.r.play["extended-max"]; d < lo || d > hi {
		return game.Reject("NES-5", "hex %s is %d hexes away; extended range is %d..%d hexes (nes/play)", t.Label(ti), d, lo, hi)
	}
	if clear, by := k.r.LineOfSight(t, fi, ti); !clear {
		return game.Reject("NES-5", "hex %s is out of %s's line of sight: %s", t.Label(ti), u.ID, by)
	}
	ro, tab, err := k.x.Roll(k.r.deviation.ID, u.ID, map[string]string{"nation": nation})
	if err != nil {
		return err
	}
	dev := 0
	if res := tab.Result(ro.Result); res != nil && res.Value != nil {
		dev = *res.Value
	}
	f := &Fired{Unit: u.ID, Target: t.Label(ti), Result: ro.Result}
	ip, on := k.st.Impact(u.At, tp, dev)
	ev := game.Event{Type: EvFired, Side: k.side, See: game.All, Rule: "NES-5", Rolls: []game.Roll{*ro}, Data: f}
	if !on {
		f.OffMap = true
		return k.x.Emit(ev)
	}
	f.Impact = k.sc.Map.Format(ip)
	fire, ftab, err := k.x.Roll(k.r.extended.ID, f.Impact, nil)
	if err != nil {
		return err
	}
	ev.Rolls = append(ev.Rolls, *fire)
	f.Effect = fire.Result
	lost := 0
	if res := ftab.Result(fire.Result); res != nil && res.Value != nil {
		lost = *res.Value
	}
	// With fog of war each unit hit is an event of its own, shown only to
	// the sides that spot it.
	fog := k.s.Fogged()
	var hits []game.Event
	for i := range k.st.Units {
		v := &k.st.Units[i]
		if !v.alive() || k.st.dist(v.At, ip) != 0 {
			continue
		}
		to := f
		if fog {
			to = &Fired{Unit: u.ID, Target: f.Target, Result: f.Result, Impact: f.Impact, Effect: f.Effect, More: true}
			hits = append(hits, game.Event{Type: EvFired, Side: k.side, See: game.All, Rule: "NES-5", Data: to})
		}
		to.Hit = append(to.Hit, v.ID)
		to.Lost = append(to.Lost, min(lost, v.Strength))
		if fire.Result == "disorder" && v.Status == "formed" {
			to.Disorder = append(to.Disorder, v.ID)
		}
	}
	for _, e := range append([]game.Event{ev}, hits...) {
		if err := k.x.Emit(e); err != nil {
			return err
		}
	}
	return nil
}

// LineOfSight reports whether hex b can be seen from hex a, and if not
// what blocks it (NES-7, through package sight and sight.yaml): a hex
// between them of woods, farmette or town, or higher than both ends (our
// reading of "higher elevations between"). A line that runs along a
// hexside is blocked only if both sides block it (our reading).
func (r *Rules) LineOfSight(t *terrain.Map, a, b int) (bool, string) {
	return sight.OnMap(r.sight, t).ClearHex(a, b)
}

// charge makes a cavalry charge at an adjacent hex (NES-6): the terrain
// must allow it (NES-7's charging cavalry column); every enemy combat unit
// in the charged hex (primary zone) and in the other hexes around it
// (secondary zone, our reading) checks morale on nes/charge-morale-check
// (example values) with the charge modifier of nes/cavalry-charge-morale.
func (k *cmd) charge() error {
	u, err := k.unit(k.a.Unit)
	if err != nil {
		return err
	}
	class, err := cavalryClass(u)
	if err != nil {
		return err
	}
	t := k.sc.Terrain
	ti, _, err := k.hex(k.a.Target, "target")
	if err != nil {
		return err
	}
	fi, _ := t.At(u.At)
	d := t.Dir(fi, ti)
	if d < 0 {
		return game.Reject("NES-6", "hex %s is not next to %s; cavalry charges an adjacent hex", t.Label(ti), u.ID)
	}
	eff := k.r.chargeEffect(t, class, fi, d)
	if eff == "P" {
		return game.Reject("NES-7", "%s cavalry may not charge into hex %s (%s) or across its hexside", class, t.Label(ti), t.TerrainName(ti))
	}
	ch := &Charged{Unit: u.ID, Target: t.Label(ti), Effect: eff}
	ev := game.Event{Type: EvCharged, Side: k.side, See: game.All, Rule: "NES-6", Data: ch}
	if err := k.chargeDisorder(&ev, ch, u, eff); err != nil {
		return err
	}
	return k.emitCharge(ev, ch, u, class, k.chargeZones(t, fi, ti))
}

// cavalryClass is the class of cavalry u, heavy or light, or why it may
// not charge (NES-6).
func cavalryClass(u *Unit) (string, error) {
	class := Cavalry[u.Cavalry]
	if class == "" {
		class = strings.TrimSuffix(u.Type, "-cavalry")
	}
	if class != "heavy" && class != "light" {
		return "", game.Reject("NES-6", "only cavalry charges; %s is %s", u.ID, u.Type)
	}
	return class, nil
}

// chargeDisorder says in ch whether the chart's effect eff disorders the
// formed cavalry u as it charges (NES-7): always, or on the roll of a
// brook crossed, which ev records.
func (k *cmd) chargeDisorder(ev *game.Event, ch *Charged, u *Unit, eff string) error {
	switch {
	case strings.HasPrefix(eff, "disorders on"):
		// A brook: the cavalry rolls as it crosses (the chart's note 1).
		ro, _, err := k.x.Roll(k.r.brook.ID, u.ID, nil)
		if err != nil {
			return err
		}
		ev.Rolls = append(ev.Rolls, *ro)
		ch.Disordered = ro.Result == "disorders" && u.Status == "formed"
	case strings.HasPrefix(eff, "disorders"):
		ch.Disordered = u.Status == "formed"
	}
	return nil
}

// zoned is an enemy combat unit in a charge's zone.
type zoned struct {
	unit *Unit
	zone string
}

// chargeZones lists the enemy combat units on the map in the zones of a
// charge from hex fi into hex ti (NES-6): the charged hex first (primary),
// then the other hexes around it (secondary, our reading).
func (k *cmd) chargeZones(t *terrain.Map, fi, ti int) []zoned {
	type area struct {
		hex  int
		zone string
	}
	zones := []area{{ti, "primary"}}
	for dd := range 6 {
		if n := t.Next(ti, dd); n >= 0 && n != fi {
			zones = append(zones, area{n, "secondary"})
		}
	}
	var checks []zoned
	for _, z := range zones {
		for i := range k.st.Units {
			v := &k.st.Units[i]
			if v.Side == k.side || !v.alive() {
				continue
			}
			if j, _ := t.At(v.At); j == z.hex {
				checks = append(checks, zoned{v, z.zone})
			}
		}
	}
	return checks
}

// emitCharge rolls the morale check of each unit in checks and emits the
// charge's event with them; with fog of war each check is an event of its
// own after the charge's, shown only to the sides that spot the unit.
func (k *cmd) emitCharge(ev game.Event, ch *Charged, u *Unit, class string, checks []zoned) error {
	if !k.s.Fogged() {
		for _, c := range checks {
			if err := k.moraleCheck(&ev, ch, u, class, c); err != nil {
				return err
			}
		}
		return k.x.Emit(ev)
	}
	if err := k.x.Emit(ev); err != nil {
		return err
	}
	for _, c := range checks {
		more := &Charged{Unit: u.ID, Target: ch.Target, More: true}
		mev := game.Event{Type: EvCharged, Side: k.side, See: game.All, Rule: "NES-6", Data: more}
		if err := k.moraleCheck(&mev, more, u, class, c); err != nil {
			return err
		}
		if err := k.x.Emit(mev); err != nil {
			return err
		}
	}
	return nil
}

// moraleCheck rolls c's morale check against the charge of class cavalry
// u, with NES-6's modifier, into ev and ch.
func (k *cmd) moraleCheck(ev *game.Event, ch *Charged, u *Unit, class string, c zoned) error {
	mod, err := k.r.chargeModifier(class, u.Strength, c.zone)
	if err != nil {
		return err
	}
	ro, _, err := k.x.Roll(k.r.morale.ID, c.unit.ID, map[string]string{"modifier": itoa(mod)})
	if err != nil {
		return err
	}
	ev.Rolls = append(ev.Rolls, *ro)
	ch.Checks = append(ch.Checks, MoraleCheck{Unit: c.unit.ID, Zone: c.zone, Modifier: mod, Result: ro.Result})
	return nil
}

// chargeModifier is NES-6's modifier for cavalry of class and strength
// charging a unit in zone.
func (r *Rules) chargeModifier(class string, strength int, zone string) (int, error) {
	c, err := r.tables.Lookup("nes/cavalry-charge-morale").Get(map[string]string{"class": class, "strength": itoa(strength), "zone": zone})
	if err != nil {
		return 0, fmt.Errorf("nes: %w", err)
	}
	v, ok := c.Int()
	if !ok {
		return 0, fmt.Errorf("nes: nes/cavalry-charge-morale: %q is not a whole number", c.Text)
	}
	return v, nil
}

// chargeEffect is the charging cavalry column's word for charging from
// hex i across its side d: P if the hex or a hexside feature prohibits
// it, else the first effect found ("" for none).
func (r *Rules) chargeEffect(t *terrain.Map, class string, i, d int) string {
	col := "charge-" + class
	l := r.tables.Lookup("nes/terrain")
	get := func(row string) string {
		c, err := l.Get(map[string]string{"terrain": row, "unit": col})
		if err != nil {
			return ""
		}
		return c.Text
	}
	j := t.Next(i, d)
	out := ""
	if e := get(t.TerrainName(j)); e == "P" {
		return "P"
	} else if e != "none" {
		out = e
	}
	for n, name := range r.kinds.Sides {
		if name == r.kinds.Steep || !t.Has(i, d, n) {
			continue
		}
		if e := get(name); e == "P" {
			return "P"
		} else if e != "none" && out == "" {
			out = e
		}
	}
	return out
}
