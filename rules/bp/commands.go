package bp

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/geom/foot"
	"orderly/sight"
)

// slack absorbs rounding in distances typed to the hundredth of an inch.
const slack = 0.01

// Command checks a BP command against the state and emits its events.
func (r *Rules) Command(c *game.Command, x *game.Tx) error {
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return fmt.Errorf("bp: the arguments of %s are %T, not BP's", c.Verb, c.Args)
	}
	st := ext(x.S)
	side := c.Side
	if side == game.Umpire {
		// The umpire acts for whoever acts in the step.
		side = st.phasing(x.S.Phase)
		if x.S.Step == StepRespond && (st.Charge != nil || st.Traverse != nil) {
			side = st.enemy(side)
		}
	}
	k := &cmd{r: r, x: x, s: x.S, st: st, side: side, a: a, sc: x.Sc, umpire: c.Side == game.Umpire}
	switch c.Verb {
	case "initiative":
		return k.initiative()
	case "order":
		return k.order()
	case "move":
		if a.General != "" {
			return k.moveGeneral()
		}
		return k.move()
	case "charge":
		return k.charge()
	case "respond":
		return k.respond()
	case "traverse":
		return k.traverse()
	case "shoot":
		return k.shoot()
	case "fight":
		return k.fight()
	}
	return game.Reject("", "bp has no command %s", c.Verb)
}

// cmd is a command being carried out.
type cmd struct {
	r    *Rules
	x    *game.Tx // nil when only checking (offers, forecasts)
	s    *game.State
	st   *State
	sc   *battle.Scenario
	side string
	a    *Args
	// umpire says the umpire gives the command: he knows every piece.
	umpire bool
}

// seat is whose knowledge a command is checked on (issue 32): with fog of
// war a side knows only the enemy pieces it spots; the umpire knows all.
func (k *cmd) seat() string {
	if k.umpire {
		return game.Umpire
	}
	return k.side
}

// blind reports whether the command is a side's in a game played with fog
// of war: a move that meets an enemy unit the side does not know of is
// then carried out up to the contact, not refused (issue 32).
func (k *cmd) blind() bool { return !k.umpire && k.s.Fogged() }

// unknown reports whether the acting side does not know of enemy unit e:
// the scenario hides it (BP's hidden units), or with fog of war none of
// the side's pieces spots it.
func (k *cmd) unknown(e *Unit) bool {
	return e.Side != k.side && (e.Hidden || k.s.Hidden(k.seat(), e.ID))
}

// knows is whether the acting side knows of enemy unit e (unknown).
func (k *cmd) knows(e *Unit) bool { return !k.unknown(e) }

// own finds a unit of the acting side that is on the table.
func (k *cmd) own(id, rule string) (*Unit, *battle.Unit, *game.Piece, error) {
	u, bu, p := k.st.Unit(id), k.sc.Unit(id), k.s.Piece(id)
	if u == nil || bu == nil || p == nil {
		return nil, nil, nil, game.Reject(rule, "there is no unit %s", id)
	}
	if u.Side != k.side {
		return nil, nil, nil, game.Reject(rule, "%s is a unit of %s, not of %s", id, u.Side, k.side)
	}
	if u.Gone || !p.OnTable {
		return nil, nil, nil, game.Reject(rule, "%s has left the table", id)
	}
	return u, bu, p, nil
}

// enemyUnit finds an enemy unit on the table that the acting side sees.
func (k *cmd) enemyUnit(id, rule string) (*Unit, *battle.Unit, *game.Piece, error) {
	u, bu, p := k.st.Unit(id), k.sc.Unit(id), k.s.Piece(id)
	if u == nil || bu == nil || p == nil || u.Side != k.side && u.Hidden {
		return nil, nil, nil, game.Reject(rule, "there is no unit %s", id)
	}
	if u.Side == k.side {
		return nil, nil, nil, game.Reject(rule, "%s is a unit of %s's own", id, k.side)
	}
	if u.Gone || !p.OnTable {
		return nil, nil, nil, game.Reject(rule, "%s has left the table", id)
	}
	return u, bu, p, nil
}

// initiative gives a unit near the enemy its one initiative move (BP-3).
func (k *cmd) initiative() error {
	if err := k.initiativeOK(); err != nil {
		return err
	}
	u, bu := k.st.Unit(k.a.Unit), k.sc.Unit(k.a.Unit)
	return k.x.Emit(game.Event{Type: EvInitiative, Side: k.side, See: k.see(u.ID), Rule: "BP-3",
		Data: &Initiative{Unit: u.ID, Allow: k.r.moveOf(bu), Away: u.Disordered}})
}

// see is who may see an event of an order or an initiative move: their
// own side alone while any of its units is hidden (an order or an
// initiative move does not show where a hidden unit is; its move does),
// or in a game played with fog of war (whether a commander's order
// reached his units may turn on pieces the enemy does not spot: the enemy
// sees what the units then do), everyone otherwise.
func (k *cmd) see(ids ...string) string {
	if k.s.Fogged() {
		return k.side
	}
	for _, id := range ids {
		if u := k.st.Unit(id); u != nil && u.Hidden {
			return k.side
		}
	}
	return game.All
}

// unitKind is how bp/orders knows a unit: lacking initiative, artillery
// or formed troops.
func unitKind(bu *battle.Unit) string {
	switch {
	case flag(bu.Attrs, "lacking-initiative"):
		return "lacking-initiative"
	case isArtillery(bu):
		return "artillery"
	}
	return "formed"
}

func isArtillery(bu *battle.Unit) bool { return bu.Type == "artillery" || bu.Type == "horse-artillery" }
func isCavalry(bu *battle.Unit) bool   { return bu.Type == "cavalry" || bu.Type == "heavy-cavalry" }

// isSkirmisher reports whether a unit is skirmishers, or stands in
// skirmish order.
func isSkirmisher(bu *battle.Unit, p *game.Piece) bool {
	return bu.Type == "skirmishers" || p.Shape == "skirmish"
}

// order is a brigade commander's order and its command roll (BP-1, BP-2,
// BP-4).
func (k *cmd) order() error {
	b, gen, bus, err := k.orderable()
	if err != nil {
		return err
	}
	kind := k.a.Kind
	last := kind == "follow-me" || kind == "rally"
	rating, trait := k.r.rating(gen)
	ro, _, err := k.x.Roll("bp/command", gen.ID, map[string]string{"rating": strconv.Itoa(rating), "modifier": strconv.Itoa(trait + k.a.Modifier)})
	if err != nil {
		return err
	}
	rolls := []game.Roll{*ro}
	d := &Ordered{Brigade: b.ID, General: gen.ID, Units: k.a.Units, Kind: kind, Result: ro.Result}
	switch ro.Result {
	case "blunder":
		bl, t, err := k.x.Roll("bp/blunder", gen.ID, nil)
		if err != nil {
			return err
		}
		rolls = append(rolls, *bl)
		d.Blunder, d.Moves, d.Last = bl.Result, game.Value(t, bl.Result), true
	case "fail":
		d.Last = true
	default:
		d.Moves = game.Value(k.r.command, ro.Result)
	}
	var moves []game.Move
	var met []meeting
	for i, bu := range bus {
		allow := float64(d.Moves) * k.r.moveOf(bu)
		if d.Blunder != "" {
			// The blunder is carried out at once, as a forced move.
			p := k.s.Piece(bu.ID)
			to, went, by := k.r.forcedMove(k.s, k.sc, p, d.Blunder, allow)
			d.Forced = append(d.Forced, round(went))
			if went > slack {
				moves = append(moves, game.Move{Unit: bu.ID, To: to})
				moves = append(moves, k.joined(bu.ID, to)...)
			}
			if e := k.st.Unit(by); e != nil && k.blind() && k.unknown(e) {
				// With fog of war, stopped short of a unit its side did
				// not know of: a contact (issue 32).
				met = append(met, meeting{unit: bu.ID, met: by})
			}
			allow = 0
		}
		if kind == "rally" && d.Blunder == "" && ro.Result != "fail" {
			allow = 0
			d.Rallied = append(d.Rallied, max(0, k.st.Unit(bu.ID).Casualties-d.Moves))
		}
		d.Allow = append(d.Allow, allow)
		if last && d.Blunder == "" && ro.Result != "fail" && i == 0 {
			d.Last, d.Joined = true, bu.ID
			moves = append(moves, game.Move{General: gen.ID, To: k.s.Piece(bu.ID).At})
		}
	}
	if err := k.x.Emit(game.Event{Type: EvOrdered, Side: k.side, See: k.see(k.a.Units...), Rule: "BP-1", Rolls: rolls, Moves: moves, Data: d}); err != nil {
		return err
	}
	return k.contacts(met, "BP-2")
}

// meeting is a unit of the acting side that came upon an enemy unit it
// did not know of.
type meeting struct{ unit, met string }

// contacts emits the engine's contact event for each (game.Contacted):
// from it on the side spots the unit it met (issue 32).
func (k *cmd) contacts(cs []meeting, rule string) error {
	for _, c := range cs {
		if err := k.x.Contact(k.side, c.unit, c.met, k.s.Piece(c.met).At, rule); err != nil {
			return err
		}
	}
	return nil
}

// forcedMove is where a blunder's forced move takes a unit: straight in
// the blunder's direction (ahead, back, to the left or right of its
// facing) for dist, stopping at the table's edge or short of any enemy
// unit, how far it went, and the enemy unit it stopped short of, if one
// stopped it (BP-2).
func (r *Rules) forcedMove(s *game.State, sc *battle.Scenario, p *game.Piece, dir string, dist float64) (geom.Point, float64, string) {
	f := r.footOf(s, p)
	a := f.Ahead()
	var v geom.Point
	switch dir {
	case "back":
		v = geom.Pt(-a.X, -a.Y)
	case "left":
		v = geom.Pt(a.Y, -a.X)
	case "right":
		v = geom.Pt(-a.Y, a.X)
	case "hold":
		return p.At, 0, ""
	default:
		v = a
	}
	at := func(t float64) geom.Point {
		return geom.Pt(math.Round((p.At.X+v.X*t)*100)/100, math.Round((p.At.Y+v.Y*t)*100)/100)
	}
	ok := func(t float64) bool {
		to := at(t)
		return sc.Field.Contains(to) && r.blocker(s, p.Side, f, to, "", game.Umpire, true) == ""
	}
	if ok(dist) {
		return at(dist), dist, ""
	}
	lo, hi := 0.0, dist
	for range 40 {
		mid := (lo + hi) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	by := ""
	if sc.Field.Contains(at(hi)) {
		by = r.blocker(s, p.Side, f, at(hi), "", game.Umpire, true)
	}
	lo = math.Floor(lo*100) / 100
	return at(lo), lo, by
}

// orderable checks an order before its roll: the brigade, its commander
// and the units named.
func (k *cmd) orderable() (*Brigade, *battle.General, []*battle.Unit, error) {
	b := k.st.Brigade(k.a.Brigade)
	if b == nil || k.sc.Formation(b.ID) == nil {
		return nil, nil, nil, game.Reject("BP-1", "there is no brigade %s", k.a.Brigade)
	}
	if b.Side != k.side {
		return nil, nil, nil, game.Reject("BP-1", "%s is a brigade of %s, not of %s", b.ID, b.Side, k.side)
	}
	if b.Done {
		return nil, nil, nil, game.Reject("BP-4", "%s gives no more orders this turn (a failed order, a blunder, a last order, his own move or the army commander's, or a later brigade's orders ended them)", b.General)
	}
	gen := k.sc.General(b.General)
	kind := k.a.Kind
	last := kind == "follow-me" || kind == "rally"
	if last && len(k.a.Units) != 1 {
		return nil, nil, nil, game.Reject("BP-4", "%s is given to one unit, which the commander joins; %d are named", kind, len(k.a.Units))
	}
	var bus []*battle.Unit
	for _, id := range k.a.Units {
		u, bu, p, err := k.own(id, "BP-1")
		if err != nil {
			return nil, nil, nil, err
		}
		switch {
		case u.Brigade != b.ID:
			return nil, nil, nil, game.Reject("BP-1", "%s is not of brigade %s but of %s", id, b.ID, u.Brigade)
		case u.Ordered:
			return nil, nil, nil, game.Reject("BP-1", "%s has had an order this turn; a unit takes one order a turn", id)
		case u.Initiative:
			return nil, nil, nil, game.Reject("BP-3", "%s has made an initiative move this turn, in place of an order", id)
		case u.Disordered:
			return nil, nil, nil, game.Reject("BP-3", "%s is disordered and cannot be ordered", id)
		case len(u.Engaged) > 0:
			return nil, nil, nil, game.Reject("BP-3", "%s is in combat and cannot be ordered", id)
		case !k.r.allowed[[2]string{kind, unitKind(bu)}]:
			return nil, nil, nil, game.Reject("BP-4", "%s (%s) cannot take a %s order (bp/orders)", id, unitKind(bu), kind)
		}
		if last && u.Hidden {
			return nil, nil, nil, game.Reject("BP-4", "%s is hidden, and its commander joining it would show where it is; it must be seen first", id)
		}
		if last {
			if d := k.r.footOf(k.s, p).DistTo(k.s.Piece(gen.ID).At); d > Reach+slack {
				return nil, nil, nil, game.Reject("BP-4", "%s stands %s\" from %s; a commander joins a unit within %s\"", gen.ID, inch(d), id, inch(Reach))
			}
		}
		bus = append(bus, bu)
	}
	return b, gen, bus, nil
}

// move moves a unit within its allowance, held to the arcs near the enemy
// (BP-4, BP-7).
func (k *cmd) move() error {
	u, bu, p, err := k.movable()
	if err != nil {
		return err
	}
	w, err := k.wanted(u, bu, p)
	if err != nil {
		return err
	}
	step := k.r.moveOf(bu)
	dist, changes := p.At.Dist(w.to), w.changes(p)
	if dist < 1e-9 && changes == 0 {
		return game.Reject("BP-4", "%s stands at %s, %s, facing %s degrees already; the move changes nothing", u.ID, p.At, game.Formed(p.Shape), inch(p.Facing))
	}
	if err := affords(u, dist, changes, step); err != nil {
		return err
	}
	f := k.r.footOf(k.s, p)
	if err := k.mayMove(u, p, f, w, dist); err != nil {
		return err
	}
	w, stop, met := k.stopShort(u, p, f, w, dist)
	if stop != "" {
		dist, changes = p.At.Dist(w.to), w.changes(p)
	}
	moves := append([]game.Move{w.move(u.ID, p)}, k.joined(u.ID, w.to)...)
	md := &Moved{Unit: u.ID, Distance: round(dist), Cost: round(dist + float64(changes)*step), Stopped: stop}
	return k.emitMoved(u, bu, f, w.to, moves, md, met)
}

// movable finds the unit a move command names: the acting side's, out of
// combat, with an order or an initiative move it has not spent on a
// blunder (BP-2, BP-3, BP-4).
func (k *cmd) movable() (*Unit, *battle.Unit, *game.Piece, error) {
	u, bu, p, err := k.own(k.a.Unit, "BP-4")
	if err != nil {
		return nil, nil, nil, err
	}
	if len(u.Engaged) > 0 {
		return nil, nil, nil, game.Reject("BP-3", "%s is in combat and cannot move", u.ID)
	}
	if u.Order == "" {
		return nil, nil, nil, game.Reject("BP-4", "%s has no order and no initiative move this turn", u.ID)
	}
	if u.Order == "blunder" {
		return nil, nil, nil, game.Reject("BP-2", "%s has carried out its blunder (%s) as a forced move and moves no more this turn", u.ID, u.Forced)
	}
	return u, bu, p, nil
}

// place is where a unit is to end a move, facing which way in which
// formation.
type place struct {
	to     geom.Point
	facing float64
	shape  string
}

// changes counts the changes of formation and of facing from p's to w's,
// each costing a move (BP-4).
func (w place) changes(p *game.Piece) int {
	n := 0
	if w.shape != p.Shape {
		n++
	}
	if math.Abs(w.facing-p.Facing) > 1e-9 {
		n++
	}
	return n
}

// move is the piece move that takes piece p of unit id to w, naming only
// what changes besides the place.
func (w place) move(id string, p *game.Piece) game.Move {
	m := game.Move{Unit: id, To: w.to}
	if w.shape != p.Shape {
		m.Shape = w.shape
	}
	if w.facing != p.Facing {
		fc := w.facing
		m.Facing = &fc
	}
	return m
}

// wanted is where the move command sends unit u, standing as p: its
// place, facing and formation where the command leaves them out. The
// formation must be one u's type takes and the place on the table.
func (k *cmd) wanted(u *Unit, bu *battle.Unit, p *game.Piece) (place, error) {
	w := place{to: p.At, facing: p.Facing, shape: p.Shape}
	if k.a.To != nil {
		w.to = *k.a.To
	}
	if k.a.Facing != nil {
		w.facing = *k.a.Facing
	}
	if k.a.Shape != "" {
		w.shape = k.a.Shape
		if _, ok := k.r.foot[w.shape]; !ok {
			return w, game.Reject("BP-4", "%s is not a formation; allowed: %s", w.shape, join(k.r.shapes))
		}
		if !k.r.takes(bu.Type, w.shape) {
			return w, game.Reject("BP-4", "%s cannot take formation %s: artillery is limbered or unlimbered, and only artillery is; allowed for %s: %s", u.ID, w.shape, bu.Type, join(k.r.Shapes()[bu.Type]))
		}
	}
	if !k.sc.Field.Contains(w.to) {
		return w, game.Reject("BP-4", "%s is off the table (0..%s by 0..%s inches)", w.to, inch(k.sc.Field.Width), inch(k.sc.Field.Depth))
	}
	return w, nil
}

// affords checks that a move of dist inches with changes changes of
// formation or facing, each costing step, fits in what is left of u's
// allowance (BP-4).
func affords(u *Unit, dist float64, changes int, step float64) error {
	cost := dist + float64(changes)*step
	left := u.Allow - u.Used
	if cost <= left+slack {
		return nil
	}
	if changes > 0 {
		return game.Reject("BP-4", "%s has %s\" of its moves left; this move takes %s\" (%s\" of ground and %s of %s\" for the change of formation or facing)", u.ID, inch(left), inch(cost), inch(dist), game.Count(changes, "move", "moves"), inch(step))
	}
	return game.Reject("BP-4", "%s has %s\" of its moves left; this move is %s\"", u.ID, inch(left), inch(dist))
}

// mayMove checks the way of unit u, standing as p with footprint f, to w,
// dist inches off, on the acting side's knowledge: a disordered unit only
// away from the enemy (BP-3), only in its arcs near the enemy (BP-7), not
// forward under a retreat order, not through an enemy unit and not ending
// in contact with one (BP-4).
func (k *cmd) mayMove(u *Unit, p *game.Piece, f foot.Foot, w place, dist float64) error {
	d := geom.Pt(w.to.X-p.At.X, w.to.Y-p.At.Y)
	if u.Disordered && dist > slack {
		// Disordered, on an initiative retreat or by fire during its
		// moves: only away from every enemy (BP-3).
		if err := k.away(u, f, w.to, w.shape, w.facing); err != nil {
			return err
		}
	}
	if near := k.r.near(k.s, u.ID, Proximity, k.knows); len(near) > 0 && !f.Moves(d, Half) {
		return game.Reject("BP-7", "%s is within %s\" of %s, so it may move only forward in its front arc or back in its rear arc, whatever its order", u.ID, inch(Proximity), near[0])
	}
	if u.Order == "retreat" && dist > slack {
		if a := f.Ahead(); d.X*a.X+d.Y*a.Y > slack {
			return game.Reject("BP-4", "%s is under a retreat order; its moves may not go forward", u.ID)
		}
	}
	if e := k.r.through(k.s, u.Side, f, w.to, "", k.seat()); e != "" {
		return game.Reject("BP-4", "the way from %s to %s passes through %s; a unit moves around the enemy, not through him", p.At, w.to, e)
	}
	nf := k.r.footAt(u, w.to, w.facing, w.shape)
	for i := range k.st.Units {
		e := &k.st.Units[i]
		if e.Side != u.Side && !k.unknown(e) && k.st.alive(k.s, e.ID) && nf.Dist(k.r.footOf(k.s, k.s.Piece(e.ID))) <= 1e-6 {
			return game.Reject("BP-4", "%s would end touching %s; only a charge goes into contact", u.ID, e.ID)
		}
	}
	return nil
}

// stopShort is where unit u's move from p (footprint f) to w, dist inches
// off, ends: short of it where it meets a unit its side did not know of,
// with why it stopped ("" if it did not) and the contacts made. A unit
// hidden from the mover stops it where it comes within 12", and shows
// itself (Settle). With fog of war a unit the side does not know of stops
// it where the footprints would touch, in the formation and facing it
// moved in; either is a contact (issue 32).
func (k *cmd) stopShort(u *Unit, p *game.Piece, f foot.Foot, w place, dist float64) (place, string, []meeting) {
	stop := ""
	var met []meeting
	th, _ := k.r.unseen(k.s, u.Side, f, w.to)
	tf, touched := 1.0, ""
	if k.blind() {
		tf, touched = k.meets(f, w.to)
	}
	switch {
	case tf < 1 && tf < th:
		w = place{to: k.stopAt(f, w.to, tf), facing: p.Facing, shape: p.Shape}
		stop = "it came upon an enemy unit it had not seen"
		met = append(met, meeting{unit: u.ID, met: touched})
	case th < 1 && dist > slack:
		// The hidden unit shows itself (Settle), with fog of war in a
		// contact with the unit that came within 12" of it.
		w.to = geom.Pt(math.Round((p.At.X+(w.to.X-p.At.X)*th)*100)/100, math.Round((p.At.Y+(w.to.Y-p.At.Y)*th)*100)/100)
		stop = "a unit it had not seen comes into view"
	}
	if e := k.touches(k.r.footAt(u, w.to, w.facing, w.shape)); k.blind() && e != "" && (w.shape != p.Shape || w.facing != p.Facing) {
		// It cannot take its new formation or facing where it stands.
		w.shape, w.facing = p.Shape, p.Facing
		stop = "it came upon an enemy unit it had not seen"
		if len(met) == 0 {
			met = append(met, meeting{unit: u.ID, met: e})
		}
	}
	return w, stop, met
}

// emitMoved emits the moved event of unit u (footprint f before the move)
// to to, with the enemy units whose front it crossed, which may give
// traversing fire (BP-5): in the event, or with fog of war after it and
// its contacts met, in a crossed event (crossings).
func (k *cmd) emitMoved(u *Unit, bu *battle.Unit, f foot.Foot, to geom.Point, moves []game.Move, md *Moved, met []meeting) error {
	if !k.s.Fogged() {
		md.Across = k.r.across(k.s, u.ID, f, to, func(*Unit) bool { return true })
		if len(md.Across) > 0 {
			k.x.EndStep()
		}
		return k.x.Emit(game.Event{Type: EvMoved, Side: k.side, See: game.All, Rule: "BP-7", Moves: moves, Data: md})
	}
	across := k.crossed(u, bu, f, to)
	if len(across) > 0 {
		k.x.EndStep()
	}
	if err := k.x.Emit(game.Event{Type: EvMoved, Side: k.side, See: game.All, Rule: "BP-7", Moves: moves, Data: md}); err != nil {
		return err
	}
	if err := k.contacts(met, "BP-4"); err != nil {
		return err
	}
	if len(across) == 0 {
		return nil
	}
	return k.crossings(u, across, met)
}

// crossed lists, with fog of war, the enemy units whose front unit u
// (footprint f before the move) crossed that may give traversing fire at
// it: those that see it where the move ends, where their range is
// measured too. That is the shooter's knowledge, not the mover's side's.
func (k *cmd) crossed(u *Unit, bu *battle.Unit, f foot.Foot, to geom.Point) []string {
	field := sight.On(k.r.sight, k.sc)
	mover := sight.Mark{ID: u.ID, Side: u.Side, Kind: bu.Type, At: to}
	return k.r.across(k.s, u.ID, f, to, func(e *Unit) bool {
		return field.Spotted(sight.Mark{ID: e.ID, Side: e.Side, Kind: k.sc.Unit(e.ID).Type, At: e.At}, mover)
	})
}

// crossings emits, with fog of war, what a move across the front of the
// units across shows: the chance to fire shows each to the mover's side
// as firing would, whether it then fires or not: a contact, after the
// move's own contacts (met); then the crossing, which both sides now see
// (issue 32).
func (k *cmd) crossings(u *Unit, across []string, met []meeting) error {
	for _, id := range across {
		if slices.Contains(met, meeting{unit: u.ID, met: id}) {
			continue // the move's own contact
		}
		if err := k.x.Contact(u.Side, u.ID, id, k.s.Piece(id).At, "BP-5"); err != nil {
			return err
		}
	}
	return k.x.Emit(game.Event{Type: EvCrossed, Side: u.Side, See: game.All, Rule: "BP-5", Data: &Crossed{Unit: u.ID, Units: across}})
}

// meets is where a unit of the acting side standing at f, on its way
// straight to to, first touches an enemy unit the side does not know of
// (unknown): the share of the way it goes before, and the unit; 1 and ""
// if it touches none.
func (k *cmd) meets(f foot.Foot, to geom.Point) (float64, string) {
	best, by := 1.0, ""
	for i := range k.st.Units {
		e := &k.st.Units[i]
		if e.Side == k.side || !k.unknown(e) || !k.st.alive(k.s, e.ID) {
			continue
		}
		if t, ok := f.Meets(to, k.r.footOf(k.s, e.Piece)); ok && t < best {
			best, by = t, e.ID
		}
	}
	return best, by
}

// stopAt is where a unit standing at f stops on its way straight to to
// after share t of it, where it would touch a unit (meets): to the
// hundredth of an inch, short of touching any unit the side does not
// know of.
func (k *cmd) stopAt(f foot.Foot, to geom.Point, t float64) geom.Point {
	l := f.At.Dist(to)
	at := func(t float64) geom.Point {
		return geom.Pt(math.Round((f.At.X+(to.X-f.At.X)*t)*100)/100, math.Round((f.At.Y+(to.Y-f.At.Y)*t)*100)/100)
	}
	for n := 0; n < 20 && t > 0; n++ {
		g := f
		g.At = at(t)
		if k.touches(g) == "" {
			return g.At
		}
		t = max(0, t-0.01/max(l, 0.01))
	}
	return f.At
}

// touches is the first enemy unit the acting side does not know of that a
// footprint touches, or "".
func (k *cmd) touches(g foot.Foot) string {
	for i := range k.st.Units {
		e := &k.st.Units[i]
		if e.Side != k.side && k.unknown(e) && k.st.alive(k.s, e.ID) && g.Dist(k.r.footOf(k.s, e.Piece)) <= 1e-6 {
			return e.ID
		}
	}
	return ""
}

// away checks that a disordered unit's move goes away from every enemy
// unit its side knows of (BP-3).
func (k *cmd) away(u *Unit, f foot.Foot, to geom.Point, shape string, facing float64) error {
	nf := k.r.footAt(u, to, facing, shape)
	for i := range k.st.Units {
		e := &k.st.Units[i]
		if e.Side == u.Side || k.unknown(e) || !k.st.alive(k.s, e.ID) {
			continue
		}
		ef := k.r.footOf(k.s, k.s.Piece(e.ID))
		if nf.Dist(ef) < f.Dist(ef)-slack {
			return game.Reject("BP-3", "%s is disordered and may only retreat away from every enemy; this move comes closer to %s", u.ID, e.ID)
		}
	}
	return nil
}

// across lists the enemy units that may give traversing fire at a unit
// moving from f straight to to: units that shoot, out of combat and with
// their closing or traversing fire of the turn unused, across whose front
// the mover's footprint passes within 12" ahead of them over half their
// frontage or more (BP-5; our reading of "moves through at least half the
// unit's frontage": the ground its footprint sweeps, foot.Across, not
// counting lanes it covers both where it starts and where it ends), and
// that see it, as sees says (with fog of war, each unit itself where the
// move ends).
func (r *Rules) across(s *game.State, id string, f foot.Foot, to geom.Point, sees func(e *Unit) bool) []string {
	st := ext(s)
	mover := st.Unit(id)
	var out []string
	for i := range st.Units {
		e := &st.Units[i]
		if e.Side == mover.Side || e.Hidden || e.Fired || len(e.Engaged) > 0 || e.Shooting == 0 || e.Range == 0 || !st.alive(s, e.ID) {
			continue
		}
		g := r.footOf(s, e.Piece)
		if f.Across(to, g, Proximity) < g.Width/2-slack {
			continue
		}
		// It fires with all its normal rules: the mover, where it ends,
		// must be in its range.
		end := f
		end.At = to
		if d := end.DistTo(g.At); d > e.Range+slack && (e.Shape != "skirmish" || end.Dist(g) > e.Range+slack) {
			continue
		}
		if !sees(e) {
			continue
		}
		out = append(out, e.ID)
	}
	return out
}

// traverse is a reply to a move across a unit's front: it gives
// traversing fire, or the side passes (BP-5).
func (k *cmd) traverse() error {
	tr := k.st.Traverse
	if tr == nil {
		return game.Reject("BP-5", "no move across the front of a unit waits for traversing fire")
	}
	firer := k.st.Unit(tr.Firers[0])
	if firer.Side != k.side {
		return game.Reject("BP-5", "traversing fire at %s is given by %s's side", tr.Unit, firer.ID)
	}
	k.x.EndStep()
	if k.a.Unit == "pass" {
		return k.x.Emit(game.Event{Type: EvPassed, Side: k.side, See: game.All, Rule: "BP-5", Data: &Passed{Unit: tr.Unit, Units: tr.Firers}})
	}
	if !slices.Contains(tr.Firers, k.a.Unit) {
		return game.Reject("BP-5", "%s may not give traversing fire at %s; those who may: %s, or pass", k.a.Unit, tr.Unit, join(tr.Firers))
	}
	v, rolls, moves, err := k.r.shootAt(k.x, k.a.Unit, tr.Unit, 0, false)
	if err != nil {
		return err
	}
	v.Traversing = true
	if len(tr.Firers) > 1 && (v.Test == nil || !v.Test.Gone) {
		// Others may still fire: the reply goes on.
		k.x.KeepStep()
	}
	return k.x.Emit(game.Event{Type: EvShot, Side: k.side, See: game.All, Rule: "BP-5", Rolls: rolls, Moves: moves, Data: v})
}

// through is the first enemy unit that seat knows of (not hidden by the
// scenario, and with fog of war spotted; game.Umpire knows every one),
// other than except, that a unit of side standing at f touches or crosses
// on its way straight to to (foot.Sweeps), or "".
func (r *Rules) through(s *game.State, side string, f foot.Foot, to geom.Point, except, seat string) string {
	return r.blocker(s, side, f, to, except, seat, false)
}

// blocker is through, counting every enemy unit when all is set (for
// moves the engine works out, which stop short of them).
func (r *Rules) blocker(s *game.State, side string, f foot.Foot, to geom.Point, except, seat string, all bool) string {
	st := ext(s)
	for i := range st.Units {
		e := &st.Units[i]
		if e.Side == side || e.ID == except || !all && (e.Hidden || s.Hidden(seat, e.ID)) || !st.alive(s, e.ID) {
			continue
		}
		if f.Sweeps(to, r.footOf(s, e.Piece)) {
			return e.ID
		}
	}
	return ""
}

// eps12 is the rounding allowed at the 12" of proximity, as foot.Within.
const eps12 = 1e-9

// unseen is how far a unit standing at f may go straight toward to before
// it comes within 12" of an enemy unit hidden from its side, which then
// shows itself and stops the move there: 1 for the whole way. The unit
// that stops it is the second answer.
func (r *Rules) unseen(s *game.State, side string, f foot.Foot, to geom.Point) (float64, string) {
	st := ext(s)
	l := f.At.Dist(to)
	best, by := 1.0, ""
	for i := range st.Units {
		e := &st.Units[i]
		if e.Side == side || !e.Hidden || !st.alive(s, e.ID) {
			continue
		}
		g := r.footOf(s, e.Piece)
		m := func(t float64) foot.Foot {
			x := f
			x.At = geom.Pt(f.At.X+(to.X-f.At.X)*t, f.At.Y+(to.Y-f.At.Y)*t)
			return x
		}
		// A bound first: the centres' closest approach less both
		// half-diagonals.
		fc, gc := centre(f), centre(g)
		d := geom.Pt(to.X-f.At.X, to.Y-f.At.Y)
		t := 0.0
		if l > 0 {
			t = math.Max(0, math.Min(1, ((gc.X-fc.X)*d.X+(gc.Y-fc.Y)*d.Y)/(l*l)))
		}
		reach := math.Hypot(f.Width, f.Depth)/2 + math.Hypot(g.Width, g.Depth)/2
		if math.Hypot(fc.X+d.X*t-gc.X, fc.Y+d.Y*t-gc.Y)-reach > Proximity {
			continue
		}
		// The distance to g along the way is convex in t: find its
		// least (the end, if it is within 12" there), then the first
		// point within 12" before it.
		dist := func(t float64) float64 { return m(t).Dist(g) }
		if dist(0) <= Proximity+eps12 {
			continue // within 12" already: it shows itself (Settle)
		}
		lo, hi := 0.0, 1.0
		if dist(1) <= Proximity+eps12 {
			lo = 1 // the ternary search below is skipped
		}
		for hi-lo > 1e-9 {
			a, b := lo+(hi-lo)/3, hi-(hi-lo)/3
			if dist(a) <= dist(b) {
				hi = b
			} else {
				lo = a
			}
		}
		tmin := (lo + hi) / 2
		if dist(tmin) > Proximity+eps12 {
			continue
		}
		lo, hi = 0, tmin
		for range 30 {
			mid := (lo + hi) / 2
			if dist(mid) <= Proximity+eps12 {
				hi = mid
			} else {
				lo = mid
			}
		}
		if hi < best {
			best, by = hi, e.ID
		}
	}
	return best, by
}

// joined is the move of a commander who has joined unit id, to at.
func (k *cmd) joined(id string, at geom.Point) []game.Move {
	var out []game.Move
	for _, g := range k.st.Generals {
		if g.Joined == id {
			out = append(out, game.Move{General: g.ID, To: at})
		}
	}
	return out
}

// moveGeneral moves a commander once a turn, three moves' distance (BP-4).
func (k *cmd) moveGeneral() error {
	g := k.st.General(k.a.General)
	if g == nil {
		return game.Reject("BP-4", "there is no commander %s", k.a.General)
	}
	if g.Side != k.side {
		return game.Reject("BP-4", "%s is a commander of %s, not of %s", g.ID, g.Side, k.side)
	}
	if g.Moved {
		return game.Reject("BP-4", "%s has moved this turn; a commander moves once", g.ID)
	}
	p := k.s.Piece(g.ID)
	to := *k.a.To
	if !k.sc.Field.Contains(to) {
		return game.Reject("BP-4", "%s is off the table (0..%s by 0..%s inches)", to, inch(k.sc.Field.Width), inch(k.sc.Field.Depth))
	}
	reach := CommanderMoves * k.r.move["commander"]
	dist := p.At.Dist(to)
	if dist > reach+slack {
		return game.Reject("BP-4", "%s moves at most %s\" (three moves of %s\"); this move is %s\"", g.ID, inch(reach), inch(k.r.move["commander"]), inch(dist))
	}
	return k.x.Emit(game.Event{Type: EvMoved, Side: k.side, See: game.All, Rule: "BP-4", Moves: []game.Move{{General: g.ID, To: to}},
		Data: &Moved{General: g.ID, Distance: round(dist), Cost: round(dist), Left: g.Joined != "", Army: g.Brigade == ""}})
}

// charge moves a unit straight into contact with an enemy in its front
// arc, and hands the game to the charged side for its reply (BP-4).
//
// With fog of war a charge whose way meets an enemy unit the side does
// not know of stops there as a move does (move), and no charge is made:
// what it went is spent (issue 32).
func (k *cmd) charge() error {
	at, dist, h, err := k.chargeTo()
	if err != nil {
		return err
	}
	u := k.a.Unit
	if h != nil {
		went := k.s.Piece(u).At.Dist(h.at)
		moves := append([]game.Move{{Unit: u, To: h.at}}, k.joined(u, h.at)...)
		if err := k.x.Emit(game.Event{Type: EvMoved, Side: k.side, See: game.All, Rule: "BP-4", Moves: moves,
			Data: &Moved{Unit: u, Distance: round(went), Cost: round(went), Stopped: h.why}}); err != nil {
			return err
		}
		if h.met == "" {
			return nil
		}
		return k.contacts([]meeting{{unit: u, met: h.met}}, "BP-4")
	}
	moves := append([]game.Move{{Unit: u, To: at}}, k.joined(u, at)...)
	k.x.EndStep()
	if err := k.x.Emit(game.Event{Type: EvCharged, Side: k.side, See: game.All, Rule: "BP-4", Moves: moves,
		Data: &Charged{Unit: u, Target: k.a.Target, Distance: round(dist)}}); err != nil {
		return err
	}
	if k.s.Fogged() {
		// The charged side sees what charges it (fog of war).
		return k.r.seen(k.x, u, k.a.Target, "BP-4")
	}
	return nil
}

// seen makes unit by, which acts on the enemy unit target (a volley at
// it, a charge into contact with it), spotted by target's side, played
// with fog of war: a contact (game.Contacted), from which on the two spot
// each other while both stand still. It is shown to target's side alone:
// whether that side spotted by before is its own knowledge, not by's
// side's (issue 32).
func (r *Rules) seen(x *game.Tx, by, target, rule string) error {
	b, t := x.S.Piece(by), x.S.Piece(target)
	return x.Emit(game.Event{Type: game.Contacted, Side: b.Side, See: t.Side, Rule: rule,
		Data: &game.Contact{Piece: by, Met: target, At: x.Sc.Space().Format(t.At)}})
}

// halt is where a move stops short of where it was sent, on meeting an
// enemy unit its side did not know of, and why.
type halt struct {
	at       geom.Point
	met, why string
}

// chargeTo checks a charge and works out where the charger ends and how
// far it goes; with fog of war, where it stops if it meets an enemy unit
// its side does not know of on the way (halt).
func (k *cmd) chargeTo() (geom.Point, float64, *halt, error) {
	at, dist, err := k.chargeWay()
	if err != nil || !k.blind() {
		return at, dist, nil, err
	}
	p := k.s.Piece(k.a.Unit)
	f := k.r.footOf(k.s, p)
	th, _ := k.r.unseen(k.s, k.side, f, at)
	tf, touched := k.meets(f, at)
	switch {
	case tf < 1 && tf < th:
		return at, dist, &halt{at: k.stopAt(f, at, tf), met: touched, why: "it came upon an enemy unit it had not seen"}, nil
	case th < 1:
		// The hidden unit shows itself in a contact (Settle).
		stop := geom.Pt(math.Round((p.At.X+(at.X-p.At.X)*th)*100)/100, math.Round((p.At.Y+(at.Y-p.At.Y)*th)*100)/100)
		return at, dist, &halt{at: stop, why: "a unit it had not seen comes into view"}, nil
	}
	return at, dist, nil, nil
}

// chargeWay checks a charge on what the side knows and works out where
// the charger ends and how far it goes.
func (k *cmd) chargeWay() (geom.Point, float64, error) {
	var none geom.Point
	u, bu, p, err := k.own(k.a.Unit, "BP-4")
	if err != nil {
		return none, 0, err
	}
	t, _, tp, err := k.enemyUnit(k.a.Target, "BP-4")
	if err != nil {
		return none, 0, err
	}
	switch {
	case len(u.Engaged) > 0:
		return none, 0, game.Reject("BP-4", "%s is in combat already", u.ID)
	case u.Order != "charge" && u.Order != "initiative":
		return none, 0, game.Reject("BP-4", "%s may charge only under a charge order or on its initiative move; its order is %s", u.ID, orNone(u.Order))
	case u.Forced != "" || u.Order == "blunder":
		return none, 0, game.Reject("BP-4", "%s is carrying out a forced move (%s) and cannot charge", u.ID, u.Forced)
	case u.Disordered:
		return none, 0, game.Reject("BP-3", "%s is disordered and may only retreat", u.ID)
	case isArtillery(bu):
		return none, 0, game.Reject("BP-4", "artillery does not charge")
	}
	f, g := k.r.footOf(k.s, p), k.r.footOf(k.s, tp)
	if f.InArc(g, foot.Front, Half) <= 0 {
		return none, 0, game.Reject("BP-4", "%s is not in the front arc of %s; a charge goes forward", t.ID, u.ID)
	}
	at, dist, ok := contact(f, g)
	if !ok {
		return none, 0, game.Reject("BP-4", "%s already touches %s", u.ID, t.ID)
	}
	left := u.Allow - u.Used
	if dist > left+slack {
		return none, 0, game.Reject("BP-4", "%s is %s\" from contact with %s and has %s\" of its moves left", u.ID, inch(dist), t.ID, inch(left))
	}
	d := geom.Pt(at.X-p.At.X, at.Y-p.At.Y)
	if e := k.r.through(k.s, u.Side, f, at, t.ID, k.seat()); e != "" {
		return none, 0, game.Reject("BP-4", "the way to %s passes through %s", t.ID, e)
	}
	if th, _ := k.r.unseen(k.s, u.Side, f, at); th < 1 && !k.blind() {
		// A hidden unit would show itself on the way: the charge is
		// not carried out blind; move up first (our reading).
		return none, 0, game.Reject("BP-4", "%s cannot see the whole way to %s yet; move it closer first", u.ID, t.ID)
	}
	if len(k.r.near(k.s, u.ID, Proximity, k.knows)) > 0 && !f.Moves(d, Half) {
		return none, 0, game.Reject("BP-7", "the way to %s leaves the front arc of %s; near the enemy a unit moves only straight ahead within %s degrees", t.ID, u.ID, inch(Half))
	}
	return at, dist, nil
}

// respond is the charged side's reply.
func (k *cmd) respond() error {
	ch := k.st.Charge
	if ch == nil {
		return game.Reject("BP-4", "no charge waits for a reply")
	}
	if k.st.Unit(ch.Target).Side != k.side {
		return game.Reject("BP-4", "the charge of %s is answered by %s's side", ch.Unit, ch.Target)
	}
	if err := k.r.canRespond(k.s, k.sc, ch, k.a.Response); err != nil {
		return err
	}
	k.x.EndStep()
	return k.r.respond(k.x, ch, k.a.Response, false)
}

// canRespond checks a reply against the source's restrictions by type
// (BP-4) and closing fire's once a turn (BP-5).
func (r *Rules) canRespond(s *game.State, sc *battle.Scenario, ch *Charge, resp string) error {
	st := ext(s)
	t, tb, tp := st.Unit(ch.Target), sc.Unit(ch.Target), s.Piece(ch.Target)
	cb, cp := sc.Unit(ch.Unit), s.Piece(ch.Unit)
	if len(t.Engaged) > 0 && resp != "stand" {
		return game.Reject("BP-4", "%s is in combat already, so it stands", t.ID)
	}
	switch resp {
	case "closing-fire":
		switch {
		case isSkirmisher(tb, tp) || tp.Shape == "march-column":
			return game.Reject("BP-5", "%s, skirmishers or in march column, gives no closing fire", t.ID)
		case t.Fired:
			return game.Reject("BP-5", "%s has given closing or traversing fire this turn; a unit does so once a turn", t.ID)
		case attr(tb.Attrs, "shooting", 0) == 0 || r.rangeOf(tb) == 0:
			return game.Reject("BP-5", "%s does not shoot", t.ID)
		case r.footOf(s, tp).InArc(r.footOf(s, cp), foot.Front, Half) <= 0:
			return game.Reject("BP-5", "%s is not in the front arc of %s, which cannot fire at it", ch.Unit, t.ID)
		}
	case "evade":
		cav := isCavalry(tb) && (cb.Type == "infantry" || isSkirmisher(cb, cp))
		skirm := isSkirmisher(tb, tp) && !isSkirmisher(cb, cp)
		if !cav && !skirm {
			return game.Reject("BP-4", "%s cannot evade: cavalry evades infantry and skirmishers, skirmishers evade all but skirmishers", t.ID)
		}
		if _, ok := r.evade(s, sc, ch); !ok {
			return game.Reject("BP-4", "%s has no room to evade: a move straight away from %s leaves the table", t.ID, ch.Unit)
		}
	case "counter-charge", "turn-and-face":
		if !isCavalry(tb) {
			return game.Reject("BP-4", "only cavalry may %s", resp)
		}
	}
	return nil
}

// evade is where a charged unit ends a move straight away from its
// charger, and whether that is on the table.
func (r *Rules) evade(s *game.State, sc *battle.Scenario, ch *Charge) (geom.Point, bool) {
	tp, cp := s.Piece(ch.Target), s.Piece(ch.Unit)
	tc, cc := centre(r.footOf(s, tp)), centre(r.footOf(s, cp))
	d := geom.Pt(tc.X-cc.X, tc.Y-cc.Y)
	n := math.Hypot(d.X, d.Y)
	if n < 1e-9 {
		return tp.At, false
	}
	m := r.moveOf(sc.Unit(ch.Target))
	to := geom.Pt(math.Round((tp.At.X+d.X/n*m)*100)/100, math.Round((tp.At.Y+d.Y/n*m)*100)/100)
	return to, sc.Field.Contains(to)
}

// respond emits the reply to a charge: auto says none was given.
func (r *Rules) respond(x *game.Tx, ch *Charge, resp string, auto bool) error {
	s, sc := x.S, x.Sc
	d := &Responded{Unit: ch.Target, Charger: ch.Unit, Response: resp, Auto: auto, Engaged: true}
	var rolls []game.Roll
	var moves []game.Move
	tp, cp := s.Piece(ch.Target), s.Piece(ch.Unit)
	switch resp {
	case "closing-fire":
		v, rs, ms, err := r.shootAt(x, ch.Target, ch.Unit, 0, true)
		if err != nil {
			return err
		}
		d.Volley, rolls, moves = v, rs, ms
		d.Engaged = v.Test == nil || v.Test.Result == "hold"
	case "evade":
		to, _ := r.evade(s, sc, ch)
		moves = append(moves, game.Move{Unit: ch.Target, To: to})
		d.Engaged = false
	case "turn-and-face":
		tc, cc := centre(r.footOf(x.S, tp)), centre(r.footOf(x.S, cp))
		f := bearing(geom.Pt(cc.X-tc.X, cc.Y-tc.Y))
		moves = append(moves, game.Move{Unit: ch.Target, To: tp.At, Facing: &f})
	}
	return x.Emit(game.Event{Type: EvResponded, Side: ext(s).Unit(ch.Target).Side, See: game.All, Rule: "BP-4", Rolls: rolls, Moves: moves, Data: d})
}

// shareEps absorbs the rounding of an area share worked out by clipping
// (foot.InArc): a unit standing exactly half in the arc may come out a
// hair over half.
const shareEps = 1e-9

// targets lists the enemy units a unit may shoot at, closest first: in
// its front arc and range, not in combat, seen (BP-5), and with fog of war
// spotted by seat (its side, or game.Umpire for all). notClear says which
// of them it may pass over: among them a unit with half or more of its
// area outside the front arc (NotClear), exactly half included.
func (r *Rules) targets(s *game.State, sc *battle.Scenario, id string, cover []string, seat string) (ids []string, dists []float64, notClear []bool) {
	st := ext(s)
	u, bu, p := st.Unit(id), sc.Unit(id), s.Piece(id)
	rng := r.rangeOf(bu)
	f := r.footOf(s, p)
	for _, e := range st.Units {
		if e.Side == u.Side || e.Hidden || len(e.Engaged) > 0 || !st.alive(s, e.ID) || s.Hidden(seat, e.ID) {
			continue
		}
		ep := s.Piece(e.ID)
		g := r.footOf(s, ep)
		share := f.InArc(g, foot.Front, Half)
		d := g.DistTo(f.At) // from the centre of the front rank (BP-5)
		if p.Shape == "skirmish" {
			d = f.Dist(g) // from the model the player picks
		}
		if share <= 0 || d > rng+slack {
			continue
		}
		eb := sc.Unit(e.ID)
		nc := isSkirmisher(eb, ep) || isArtillery(eb) && ep.Shape == "unlimbered" || share <= NotClear+shareEps ||
			isArtillery(bu) && d > rng/2+slack || slices.Contains(cover, e.ID)
		ids, dists, notClear = append(ids, e.ID), append(dists, d), append(notClear, nc)
	}
	// Closest first, scenario order among equals.
	idx := make([]int, len(ids))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case dists[a] < dists[b]-slack:
			return -1
		case dists[b] < dists[a]-slack:
			return 1
		}
		return 0
	})
	oi, od, on := make([]string, len(ids)), make([]float64, len(ids)), make([]bool, len(ids))
	for i, j := range idx {
		oi[i], od[i], on[i] = ids[j], dists[j], notClear[j]
	}
	return oi, od, on
}

// Legal lists the targets unit id may shoot at now: the closest in its
// front arc and range, and any closer or as close after passing over
// not-clear ones (BP-5). cover lists units declared not clear. With fog
// of war only the enemy units its side spots count.
func (r *Rules) Legal(s *game.State, sc *battle.Scenario, id string, cover []string) []string {
	u := ext(s).Unit(id)
	if u == nil {
		return nil
	}
	return r.legal(s, sc, id, cover, u.Side)
}

// legal is Legal on what seat knows.
func (r *Rules) legal(s *game.State, sc *battle.Scenario, id string, cover []string, seat string) []string {
	ids, dists, nc := r.targets(s, sc, id, cover, seat)
	var out []string
	for i := range ids {
		out = append(out, ids[i])
		if !nc[i] {
			// The first clear target: others as close may be chosen too.
			for j := i + 1; j < len(ids) && dists[j] <= dists[i]+slack; j++ {
				out = append(out, ids[j])
			}
			break
		}
	}
	return out
}

// shoot is a unit's volley in its side's shooting phase (BP-5).
func (k *cmd) shoot() error {
	if err := k.shootable(); err != nil {
		return err
	}
	if k.s.Fogged() {
		// The volley gives the shooter away (fog of war), whether its
		// target's side spotted it or not: a contact is mutual, and one
		// made only when that side did not would tell the shooter's side
		// (its commanders, with strict fog) what the enemy sees.
		if err := k.r.seen(k.x, k.a.Unit, k.a.Target, "BP-5"); err != nil {
			return err
		}
	}
	v, rolls, moves, err := k.r.shootAt(k.x, k.a.Unit, k.a.Target, k.a.Modifier, false)
	if err != nil {
		return err
	}
	return k.x.Emit(game.Event{Type: EvShot, Side: k.side, See: game.All, Rule: "BP-5", Rolls: rolls, Moves: moves, Data: v})
}

// shootable checks a volley: the shooter, and its target the legal one.
func (k *cmd) shootable() error {
	u, bu, _, err := k.own(k.a.Unit, "BP-5")
	if err != nil {
		return err
	}
	if _, _, _, err := k.enemyUnit(k.a.Target, "BP-5"); err != nil {
		return err
	}
	for _, id := range k.a.Cover {
		if _, _, _, err := k.enemyUnit(id, "BP-5"); err != nil {
			return err
		}
	}
	switch {
	case u.Shot:
		return game.Reject("BP-5", "%s has shot this turn", u.ID)
	case len(u.Engaged) > 0:
		return game.Reject("BP-5", "%s is in combat and fights instead of shooting", u.ID)
	case attr(bu.Attrs, "shooting", 0) == 0 || k.r.rangeOf(bu) == 0:
		return game.Reject("BP-5", "%s does not shoot", u.ID)
	}
	legal := k.r.legal(k.s, k.sc, u.ID, k.a.Cover, k.seat())
	if !slices.Contains(legal, k.a.Target) {
		if len(legal) == 0 {
			return game.Reject("BP-5", "%s has no target: no enemy unit out of combat stands in its front arc within %s\"", u.ID, inch(k.r.rangeOf(bu)))
		}
		return game.Reject("BP-5", "%s must shoot at the closest clear enemy in its front arc and range: %s, not %s", u.ID, join(legal), k.a.Target)
	}
	return nil
}

// enfilade reports whether shooter takes target in enfilade: it stands
// on the target's flank, beyond its front and rear arcs, and shoots with
// ranked muskets, or is artillery at half range or less (BP-5; our
// reading of "at right angles").
func (r *Rules) enfilade(s *game.State, sc *battle.Scenario, shooter, target string) bool {
	bu := sc.Unit(shooter)
	sp, tp := s.Piece(shooter), s.Piece(target)
	f, g := r.footOf(s, sp), r.footOf(s, tp)
	return !isSkirmisher(bu, sp) && g.ArcOf(f.At, Half) == foot.Flank && (!isArtillery(bu) || f.Dist(g) <= r.rangeOf(bu)/2+slack)
}

// shootAt rolls a volley of shooter at target and what follows: saves,
// casualties, disorder, a break test (BP-5).
func (r *Rules) shootAt(x *game.Tx, shooter, target string, mod int, closing bool) (*Volley, []game.Roll, []game.Move, error) {
	s, sc := x.S, x.Sc
	bu, tb := sc.Unit(shooter), sc.Unit(target)
	dice := attr(bu.Attrs, "shooting", 0)
	enf := r.enfilade(s, sc, shooter, target)
	ro, _, err := x.Roll("bp/shooting", shooter, map[string]string{"dice": strconv.Itoa(dice), "modifier": strconv.Itoa(mod),
		"save": strconv.Itoa(attr(tb.Attrs, "morale", 4)), "enfilade": strconv.FormatBool(enf)})
	if err != nil {
		return nil, nil, nil, err
	}
	v := &Volley{Shooter: shooter, Target: target, Dice: dice, Enfilade: enf, Closing: closing, Casualties: ro.Total,
		Disorders: slices.Contains(ro.Marks, "disorders")}
	if len(ro.Stages) > 0 {
		v.Hits = ro.Stages[0].Kept
	}
	rolls := []game.Roll{*ro}
	t := ext(s).Unit(target)
	stamina := attr(tb.Attrs, "stamina", 1)
	v.After = t.Casualties + v.Casualties
	var moves []game.Move
	if v.After > stamina || v.Casualties > 0 && isArtillery(bu) {
		test, br, mv, err := r.breakTest(x, target, v.After, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		v.Test, rolls, moves = test, append(rolls, *br), mv
		v.After = min(v.After, stamina)
	}
	v.Shaken = v.After >= stamina
	return v, rolls, moves, nil
}

// breakTest rolls a unit's break test with casualties after the blow and
// a margin of defeat, and works out a retreat (BP-5, BP-6; the table is
// example data).
func (r *Rules) breakTest(x *game.Tx, id string, after, margin int) (*Test, *game.Roll, []game.Move, error) {
	tb := x.Sc.Unit(id)
	stamina := attr(tb.Attrs, "stamina", 1)
	mod := -margin
	if after > stamina {
		mod -= after - stamina
	}
	mod = max(mod, -12)
	ro, t, err := x.Roll("bp/break-test", id, map[string]string{"modifier": strconv.Itoa(mod), "shaken": strconv.FormatBool(after >= stamina)})
	if err != nil {
		return nil, nil, nil, err
	}
	test := &Test{Unit: id, Modifier: mod, Result: ro.Result}
	var moves []game.Move
	switch {
	case ro.Result == "break":
		test.Gone = true
	case game.Value(t, ro.Result) > 0:
		p := x.S.Piece(id)
		a := r.footOf(x.S, p).Ahead()
		m := float64(game.Value(t, ro.Result)) * r.moveOf(tb)
		to := geom.Pt(math.Round((p.At.X-a.X*m)*100)/100, math.Round((p.At.Y-a.Y*m)*100)/100)
		if !x.Sc.Field.Contains(to) {
			test.Gone = true // retreating off the table, it is lost
		} else {
			moves = append(moves, game.Move{Unit: id, To: to})
		}
	}
	return test, ro, moves, nil
}

// fight resolves one engagement: both sides roll at once, and a unit
// whose casualties then exceed its stamina takes a break test (BP-6, as
// shooting does, BP-5). With the combat-margin house rule (bp/options)
// the side that inflicts fewer casualties also loses by the difference,
// and each of its units tests at minus it.
func (k *cmd) fight() error {
	u := k.st.Unit(k.a.Unit)
	if u == nil || k.sc.Unit(k.a.Unit) == nil || u.Side != k.side && u.Hidden {
		return game.Reject("BP-6", "there is no unit %s", k.a.Unit)
	}
	if len(u.Engaged) == 0 {
		return game.Reject("BP-6", "%s is not in combat", u.ID)
	}
	if u.Fought {
		return game.Reject("BP-6", "the combat of %s has been fought this phase", u.ID)
	}
	return k.r.fight(k.x, u.ID)
}

// fight emits the combat of the engagement unit id is in.
func (r *Rules) fight(x *game.Tx, id string) error {
	st := ext(x.S)
	group := st.group(id)
	d := &Fought{Units: group, Margins: r.margin}
	var rolls []game.Roll
	recv := map[string]int{}
	inflicted := map[string]int{}
	for _, uid := range group {
		u, bu := st.Unit(uid), x.Sc.Unit(uid)
		target := u.Engaged[0]
		tb := x.Sc.Unit(target)
		dice := attr(bu.Attrs, "combat", 0)
		ro, _, err := x.Roll("bp/shooting", uid, map[string]string{"dice": strconv.Itoa(dice), "save": strconv.Itoa(attr(tb.Attrs, "morale", 4))})
		if err != nil {
			return err
		}
		rolls = append(rolls, *ro)
		d.Blows = append(d.Blows, Blow{Unit: uid, Target: target, Dice: dice, Casualties: ro.Total})
		recv[target] += ro.Total
		inflicted[u.Side] += ro.Total
	}
	for _, sd := range st.sides {
		d.Scores = append(d.Scores, Score{Side: sd, Casualties: inflicted[sd]})
	}
	if r.margin && len(d.Scores) == 2 && d.Scores[0].Casualties != d.Scores[1].Casualties {
		lo, hi := d.Scores[0], d.Scores[1]
		if lo.Casualties > hi.Casualties {
			lo, hi = hi, lo
		}
		d.Loser, d.Margin = lo.Side, hi.Casualties-lo.Casualties
	}
	var moves []game.Move
	for _, uid := range group {
		u, bu := st.Unit(uid), x.Sc.Unit(uid)
		after := u.Casualties + recv[uid]
		stamina := attr(bu.Attrs, "stamina", 1)
		margin := 0
		if u.Side == d.Loser {
			margin = d.Margin
		}
		if margin > 0 || after > stamina {
			test, ro, mv, err := r.breakTest(x, uid, after, margin)
			if err != nil {
				return err
			}
			rolls = append(rolls, *ro)
			d.Tests = append(d.Tests, *test)
			moves = append(moves, mv...)
			after = min(after, stamina)
		}
		d.After = append(d.After, after)
		if after >= stamina {
			d.Shaken = append(d.Shaken, uid)
		}
	}
	return x.Emit(game.Event{Type: EvFought, Side: st.phasing(x.S.Phase), See: game.All, Rule: "BP-6", Rolls: rolls, Moves: moves, Data: d})
}

func round(v float64) float64 { return math.Round(v*100) / 100 }

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func join(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	out := xs[0]
	for _, x := range xs[1:] {
		out += ", " + x
	}
	return out
}
