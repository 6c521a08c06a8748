package nb

import (
	"fmt"
	"slices"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/strict"
)

var _ game.Rules = (*Rules)(nil)

// Command checks a command against NB and emits its events.
func (r *Rules) Command(gc *game.Command, x *game.Tx) error {
	c, err := argsOf(gc)
	if err != nil {
		return err
	}
	override := slices.ContainsFunc(c.Overrides, func(s string) bool { return s != "" })
	switch {
	case c.Side == game.Umpire && c.Verb == "move" && !override:
		const why = "the umpire moves pieces only to override a unit's speed: give override with the reason on the move of each unit it lets pass"
		if i := slices.IndexFunc(c.Moves, func(m game.Move) bool { return m.Unit != "" }); i >= 0 {
			return game.Overridable(c.Moves[i].Unit, "NB-16", why)
		}
		return game.Reject("NB-16", why)
	case c.Side == game.Umpire && c.Verb != "move" && !slices.Contains(r.p.anytime, c.Verb):
		return game.Reject("", "the umpire gives only %s, and move with an override; %s is given by a side", strings.Join(r.p.anytime, ", "), c.Verb)
	case c.Side != game.Umpire && override:
		return game.Reject("NB-16", "only the umpire may override a unit's speed; give the move without override, or ask the umpire")
	}
	switch c.Verb {
	case "write":
		return r.write(c, x)
	case "move":
		return r.move(c, x)
	case "attach":
		return r.attach(c, x)
	case "detach":
		return r.detach(c, x)
	case "redirect":
		return r.redirect(c, x)
	case "complete":
		return r.complete(c, x)
	case "react":
		return r.react(c, x)
	case "combat":
		return r.combat(c, x)
	case "rout", "rally":
		return r.status(c, x)
	case "remove":
		return r.remove(c, x)
	case "replace":
		return r.replace(c, x)
	}
	return game.Reject("", "nb has no command %q", c.Verb)
}

// unknown names an id that is not in the game, with a near match.
func unknown(what, id string, all []string) error {
	hint := ""
	if m := strict.Near(id, all); len(m) > 0 {
		hint = fmt.Sprintf("; did you mean %s?", m[0])
	}
	return game.Reject("", "%s %q is not in this game%s", what, id, hint)
}

func (r *Rules) formation(c cmd, x *game.Tx, id string) (*Formation, error) {
	f := st(x).Formation(id)
	if f == nil || f.Kind == battle.Army {
		return nil, unknown("formation", id, x.Sc.IDs("formation"))
	}
	if c.Side != game.Umpire && f.Side != c.Side {
		return nil, game.Reject("", "formation %s belongs to %s, not %s", id, f.Side, c.Side)
	}
	return f, nil
}

func (r *Rules) unit(c cmd, x *game.Tx, id string) (*Unit, error) {
	u := st(x).Unit(id)
	if u == nil {
		return nil, unknown("unit", id, x.Sc.IDs("unit"))
	}
	if c.Side != game.Umpire && u.Side != c.Side {
		return nil, game.Reject("", "unit %s belongs to %s, not %s", id, u.Side, c.Side)
	}
	if !u.OnTable {
		return nil, game.Reject("NB-10", "unit %s is not on the table yet", id)
	}
	return u, nil
}

func (r *Rules) general(c cmd, x *game.Tx, id string) (*General, error) {
	g := st(x).General(id)
	if g == nil {
		var all []string
		for _, g := range st(x).Generals {
			all = append(all, g.ID)
		}
		return nil, unknown("general", id, all)
	}
	if c.Side != game.Umpire && g.Side != c.Side {
		return nil, game.Reject("", "general %s belongs to %s, not %s", id, g.Side, c.Side)
	}
	return g, nil
}

// write checks an order: its objective is on the table (NB-16); NB-2
// (orders per turn), NB-9 (reserve is never a new order), NB-11 (who may
// carry it), NB-13 (an army commander attached to a combat unit writes
// nothing; attached to a general he may) and NB-15 (a formation without
// its general takes no orders); and sends a messenger from the army
// commander (NB-3).
func (r *Rules) write(c cmd, x *game.Tx) error {
	w := c.Write
	if w == nil {
		return game.Reject("", "write needs an order: for, kind, and optionally to, objective, note")
	}
	if err := r.writing(st(x), c.Side); err != nil {
		return err
	}
	a := r.army(x, c.Side)
	if fd := x.Sc.Field; w.Objective != nil && !fd.Contains(*w.Objective) {
		return game.Reject("NB-16", "the objective %v is off the table (0..%s by 0..%s inches); give a point on it", *w.Objective, inch(fd.Width), inch(fd.Depth))
	}
	if !slices.Contains(r.p.newOrders, w.Kind) {
		if w.Kind == "reserve" {
			return game.Reject("NB-9", "reserve is a status, not an order: once a formation leaves it, it never returns; allowed: %s", strings.Join(r.p.newOrders, ", "))
		}
		return game.Reject("", "order kind %q is not one of %s", w.Kind, strings.Join(r.p.newOrders, ", "))
	}
	var fs []*Formation
	for _, id := range w.For {
		f, err := r.formation(c, x, id)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(fs, func(g *Formation) bool { return g.ID == id }) {
			return game.Reject("", "formation %s is named twice", id)
		}
		fs = append(fs, f)
	}
	allowed, err := recipients(st(x), fs)
	if err != nil {
		return err
	}
	for _, f := range fs {
		if err := orderable(st(x), f); err != nil {
			return err
		}
	}
	to := allowed[0]
	if w.To != "" {
		if !slices.Contains(allowed, w.To) {
			return game.Reject("NB-11", "an order for %s is carried to %s, not %s", names(w.For), strings.Join(allowed, " or "), w.To)
		}
		to = w.To
	}
	if g := st(x).General(to); !g.Active() {
		return game.Reject("NB-11", "general %s is not on the table to receive the order", to)
	}
	sd := st(x).Side(c.Side)
	o := st(x).orders.One(Order{ID: st(x).serial("", c.Side, sd.Orders+1), For: st(x).keep(w.For), Kind: w.Kind,
		Objective: w.Objective, Note: w.Note, Written: x.S.Turn, Via: to})
	mid := st(x).serial("m-", c.Side, sd.Messengers+1)
	if err := emit(x, game.Event{Type: MessengerSent, Side: c.Side, See: game.All, Rule: "NB-3"}, &Data{Messenger: mid, At: st(x).pt(a.At), Range: a.Range}); err != nil {
		return err
	}
	return emit(x, game.Event{Type: OrderWritten, Side: c.Side, See: c.Side, Rule: "NB-2"}, &Data{Order: o, Messenger: mid, To: to, General: a.ID})
}

// recipients lists the generals who may receive an order for fs, the
// first being the default (NB-11), in the state's scratch list (good until
// the next call): a wing's commander; a corps's commander
// or his wing's; several corps of one wing through the wing commander; a
// division's general, or his corps commander.
func recipients(s *State, fs []*Formation) ([]string, error) {
	if len(fs) == 0 {
		return nil, game.Reject("", "the order is for nobody; name a wing, corps or division")
	}
	if len(fs) > 1 {
		wing := s.Formation(fs[0].Parent)
		for _, f := range fs {
			if f.Kind != battle.Corps || wing.Kind != battle.Wing || f.Parent != wing.ID {
				return nil, game.Reject("NB-11", "one order may go to several formations only if they are corps of one wing, with one objective")
			}
		}
		return []string{wing.General}, nil
	}
	f := fs[0]
	out := append(s.rc[:0], f.General)
	if p := s.Formation(f.Parent); p != nil {
		switch {
		case f.Kind == battle.Corps && p.Kind == battle.Wing, f.Kind == battle.Division && p.Kind == battle.Corps:
			out = append(out, p.General)
		}
	}
	s.rc = out
	return out, nil
}

// writing refuses every new order of side now: its army commander has
// fallen (NB-15) or is attached to a combat unit (NB-13), or the side has
// written all the orders it may this turn (NB-2).
func (r *Rules) writing(s *State, side string) error {
	sd := s.Side(side)
	army := s.Formation(side)
	if sd == nil || army == nil || s.commander(army) == nil {
		return game.Reject("", "side %s has no army commander to write orders", side)
	}
	a := s.commander(army)
	switch {
	case a.Fate != "":
		return game.Reject("NB-15", "army commander %s is %s; no orders until he is replaced", a.ID, a.Fate)
	case s.WithUnit(a):
		return game.Reject("NB-13", "army commander %s is attached to unit %s and issues no orders until he detaches (attached to a general he may)", a.ID, a.Attached)
	}
	limit, err := r.ordersPerTurn(sd.nation)
	if err != nil {
		return err
	}
	if sd.Written >= limit {
		return game.Reject("NB-2", "%s has written %d of the %s its army commander may write this turn", side, sd.Written, game.Count(limit, "order", "orders"))
	}
	return nil
}

func (r *Rules) ordersPerTurn(nation string) (int, error) {
	l, err := r.tables.FindLookup("nb/orders-per-turn")
	if err != nil {
		return 0, err
	}
	cell, err := l.Get(map[string]string{"nation": nation})
	if err != nil {
		return 0, fmt.Errorf("nb/orders-per-turn: %w", err)
	}
	n, ok := cell.Int()
	if !ok {
		return 0, fmt.Errorf("nb/orders-per-turn: %q is not a number", cell.Text)
	}
	return n, nil
}

// move checks each move: the piece is the side's and on the table, it stays
// on the table, a unit ends no farther from where it began to move this
// turn than its speed from the scenario, unless the umpire overrides it
// with a reason (NB-16; a second move that corrects a placement costs
// nothing more), a unit
// under an attack order takes no formation but column or march column (or
// limbered, for guns) until its division is engaged (NB-7), and a reserve
// entering this turn ends clear of the enemy (NB-10): with fog of war, of
// the enemy the side spots, a unit coming upon one it does not spot
// stopping short of it (see contact.go). The umpire moves the pieces of
// one side at a time, and his reasons are recorded in the event.
func (r *Rules) move(c cmd, x *game.Tx) error {
	if len(c.Moves) == 0 {
		return game.Reject("", "move needs at least one piece")
	}
	if c.Overrides != nil && len(c.Overrides) != len(c.Moves) {
		return fmt.Errorf("nb: move has %d overrides for %d moves", len(c.Overrides), len(c.Moves))
	}
	s := st(x)
	s.moveRound++
	k := &moving{c: c, side: c.Side, out: x.Moves(len(c.Moves))[:0], from: s.pts.Take(len(c.Moves))}
	for i, m := range c.Moves {
		if fd := x.Sc.Field; !fd.Contains(m.To) {
			return game.Reject("", "%s cannot move to %v: that is off the table (0..%s by 0..%s inches)", m.ID(), m.To, inch(fd.Width), inch(fd.Depth))
		}
		var err error
		if m.General != "" {
			err = r.moveGeneral(k, x, m)
		} else {
			err = r.moveUnit(k, x, i, m)
		}
		if err != nil {
			return err
		}
	}
	if len(k.why) > 0 {
		if err := emit(x, game.Event{Type: Moved, Side: k.side, See: game.All, Moves: k.out, Rule: "NB-16"}, &Data{Units: k.passed, How: "umpire", Text: strings.Join(k.why, "; ")}); err != nil {
			return err
		}
		return contacts(x, k.side, k.met)
	}
	if err := emit(x, game.Event{Type: Moved, Side: k.side, See: game.All, Moves: k.out}, &Data{}); err != nil {
		return err
	}
	return contacts(x, k.side, k.met)
}

// moving is a move command being checked: the moves of its pieces checked
// so far, and what the event and the contacts after it record.
type moving struct {
	c    cmd
	side string       // the side whose pieces move (the umpire's command takes it from its first piece)
	out  []game.Move  // the moves checked, each with where its piece started
	from []geom.Point // where each piece started
	why  []string     // the umpire's reasons, as recorded
	// passed lists the units the umpire let past their speed.
	passed []string
	met    []contact // units that came upon an enemy their side did not spot
}

// oneSide takes the side of the moving pieces from piece id, of side
// owner, if the umpire moves them; the umpire moves one side at a time.
func (k *moving) oneSide(id, owner string) error {
	if k.side == game.Umpire {
		k.side = owner
	} else if owner != k.side {
		return game.Reject("", "the umpire moves the pieces of one side at a time; %s is %s's, not %s's", id, owner, k.side)
	}
	return nil
}

// add records mv, whose piece (its index pi) started at at.
func (k *moving) add(mv game.Move, pi int, at geom.Point) {
	k.from[len(k.out)] = at
	mv.From, mv.Piece = &k.from[len(k.out)], pi+1
	k.out = append(k.out, mv)
}

// moveGeneral checks the move m of a general: one not fallen (NB-15), on
// the table (NB-10) and not attached (NB-13).
func (r *Rules) moveGeneral(k *moving, x *game.Tx, m game.Move) error {
	g, err := r.general(k.c, x, m.General)
	if err != nil {
		return err
	}
	if !st(x).firstMove(g.pi) {
		return game.Reject("", "%s is moved twice in one command", m.ID())
	}
	switch {
	case g.Fate != "":
		return game.Reject("NB-15", "general %s is %s", g.ID, g.Fate)
	case !g.OnTable:
		return game.Reject("NB-10", "general %s is not on the table yet", g.ID)
	case g.Attached != "":
		return game.Reject("NB-13", "general %s is attached to %s; detach him first, or move %s", g.ID, g.Attached, g.Attached)
	}
	if err := k.oneSide(g.ID, g.Side); err != nil {
		return err
	}
	k.add(m, g.pi, g.At)
	return nil
}

// moveUnit checks the move m, the command's i-th, of a unit: its speed
// (NB-16), its formation (NB-7) and, for a reserve entering this turn,
// its distance from the enemy it knows of (NB-10).
func (r *Rules) moveUnit(k *moving, x *game.Tx, i int, m game.Move) error {
	u, err := r.unit(k.c, x, m.Unit)
	if err != nil {
		return err
	}
	if !st(x).firstMove(u.pi) {
		return game.Reject("", "%s is moved twice in one command", m.ID())
	}
	if err := k.oneSide(u.ID, u.Side); err != nil {
		return err
	}
	if err := r.withinSpeed(k, u, i, m); err != nil {
		return err
	}
	if err := r.shapeAllowed(x, u, m); err != nil {
		return err
	}
	mv := m
	if r.entered(x, st(x).division(u)) {
		// NB-10, held to what the mover knows (see contact.go).
		if !r.clearOf(x, u.Side, k.c.Side, m.To, true) {
			return game.Reject("NB-10", "unit %s entered this turn and may not end within %s\" of an un-routed enemy unit", u.ID, inch(r.p.entryClear))
		}
		if !r.clearOf(x, u.Side, k.c.Side, m.To, false) {
			to, e := r.meet(x, u.Side, k.c.Side, u.At, m.To)
			mv.To = to
			k.met = append(k.met, contact{u.ID, e})
		}
	}
	k.add(mv, u.pi, u.At)
	return nil
}

// withinSpeed checks that u's move m, the command's i-th, ends within its
// speed of where it began to move this turn (NB-16), or that the umpire
// allows it past, with a reason the event records.
func (r *Rules) withinSpeed(k *moving, u *Unit, i int, m game.Move) error {
	start := u.At
	if u.Start != nil {
		start = *u.Start
	}
	switch d := start.Dist(m.To); {
	case k.c.Overrides != nil && k.c.Overrides[i] != "":
		k.why = append(k.why, u.ID+": "+k.c.Overrides[i])
		k.passed = append(k.passed, u.ID)
	case d <= u.Speed+r.p.precision:
	case u.Start != nil:
		return game.Overridable(u.ID, "NB-16", "unit %s cannot move to %v: that is %s\" from %v, where it began to move this turn, more than its speed of %s\"; the umpire may allow it with an override and a reason", u.ID, m.To, inch(d), start, inch(u.Speed))
	default:
		return game.Overridable(u.ID, "NB-16", "unit %s cannot move to %v: that is %s\" away, more than its speed of %s\" a turn; the umpire may allow it with an override and a reason", u.ID, m.To, inch(d), inch(u.Speed))
	}
	return nil
}

// shapeAllowed checks the formation u takes in its move m: one of the
// formations, and under an attack order one its division may take before
// it is engaged (NB-7).
func (r *Rules) shapeAllowed(x *game.Tx, u *Unit, m game.Move) error {
	if m.Shape == "" {
		return nil
	}
	if !slices.Contains(shapes, m.Shape) {
		return game.Reject("", "formation %q is not one of %s", m.Shape, strings.Join(shapes, ", "))
	}
	return r.shapeOK(st(x), u, m.Shape)
}

// shapeOK refuses a change of unit u to formation shape that an attack
// order on its division forbids until the division is engaged (NB-7):
// the move command checks it, and the offers list the formations it
// lets a unit take (Annotate).
func (r *Rules) shapeOK(s *State, u *Unit, shape string) error {
	div := s.division(u)
	if shape != u.Shape && !slices.Contains(r.p.attackShapes, shape) && div.Order != nil && div.Order.Kind == "attack" && !div.Engaged {
		return game.Reject("NB-7", "unit %s is under an attack order and may not change to %s until its division is engaged; allowed until then: %s", u.ID, shape, strings.Join(r.p.attackShapes, ", "))
	}
	return nil
}

// shapesNow lists the formations unit u may take in a move now: those of
// its type that shapeOK allows, and the one it stands in (NB-7).
func (r *Rules) shapesNow(s *State, u *Unit) []string {
	var out []string
	for _, sh := range shapesOf[u.Type] {
		if r.shapeOK(s, u, sh) == nil {
			out = append(out, sh)
		}
	}
	if u.Shape != "" && !slices.Contains(out, u.Shape) {
		out = append([]string{u.Shape}, out...)
	}
	return out
}

// entered reports whether the reserve that division div belongs to came on
// this turn.
func (r *Rules) entered(x *game.Tx, div *Formation) bool {
	for f := range st(x).lineage(div) {
		if f.Entered == x.S.Turn {
			return true
		}
	}
	return false
}

// attach joins a general to a unit or to another general (NB-13).
func (r *Rules) attach(c cmd, x *game.Tx) error {
	g, err := r.general(c, x, c.General)
	if err != nil {
		return err
	}
	if !g.Active() {
		return game.Reject("", "general %s is not on the table", g.ID)
	}
	if g.Attached != "" {
		return game.Reject("NB-13", "general %s is already attached to %s", g.ID, g.Attached)
	}
	var at = g.At
	switch {
	case st(x).Unit(c.To) != nil:
		u, err := r.unit(c, x, c.To)
		if err != nil {
			return err
		}
		at = u.At
	case st(x).General(c.To) != nil:
		h, err := r.general(c, x, c.To)
		if err != nil {
			return err
		}
		if h.ID == g.ID || !h.Active() || h.Attached == g.ID {
			return game.Reject("NB-13", "general %s cannot attach to %s", g.ID, h.ID)
		}
		at = h.At
	default:
		return unknown("unit or general", c.To, append(x.Sc.IDs("unit"), x.Sc.IDs("general")...))
	}
	return emit(x, game.Event{Type: Attached, Side: g.Side, See: game.All, Rule: "NB-13"}, &Data{General: g.ID, To: c.To, At: st(x).pt(at)})
}

// detach frees a general from what he is attached to (NB-13). An on-board
// reserve of his that an order reached while he was with a unit acts on
// it now (NB-9): on the newest such order, the others being overtaken.
func (r *Rules) detach(c cmd, x *game.Tx) error {
	g, err := r.general(c, x, c.General)
	if err != nil {
		return err
	}
	if g.Attached == "" {
		return game.Reject("NB-13", "general %s is not attached", g.ID)
	}
	type held struct {
		o   *OrderState
		fid string
	}
	var waiting []held
	for _, o := range st(x).Open() {
		for _, rd := range o.Readers {
			if rd.General == g.ID && rd.Held && !rd.Finished() && r.inReserve(x, rd.Formation) {
				waiting = append(waiting, held{o, rd.Formation})
			}
		}
	}
	if err := emit(x, game.Event{Type: Detached, Side: g.Side, See: game.All, Rule: "NB-13"}, &Data{General: g.ID, To: g.Attached}); err != nil {
		return err
	}
	// The events of a command are applied together at its end, so the
	// newest order for each formation is picked here, not by activateFor.
	newest := map[string]int{}
	for i, h := range waiting {
		if j, ok := newest[h.fid]; !ok || newer(&h.o.Order, &waiting[j].o.Order, h.fid) {
			newest[h.fid] = i
		}
	}
	for i, h := range waiting {
		if newest[h.fid] != i {
			if err := emit(x, game.Event{Type: OrderSuperseded, Side: h.o.Side, See: h.o.Side, Rule: "NB-13"}, &Data{OrderID: h.o.ID, Formation: h.fid, Text: "a newer order reached the reserve while its general was attached"}); err != nil {
				return err
			}
			continue
		}
		if err := r.activateFor(x, h.o, h.fid, "reserve", "NB-13"); err != nil {
			return err
		}
	}
	return nil
}

// redirect sends a messenger to another general who may receive its order
// (NB-11): the player may switch it at any time in the movement phase,
// after the messengers ride (the move step) or before (the write step,
// the last in which a player acts before they ride; nothing moves between
// it and the messengers step).
func (r *Rules) redirect(c cmd, x *game.Tx) error {
	m := st(x).Messenger(c.Messenger)
	if m == nil || m.Side != c.Side {
		var all []string
		for _, m := range st(x).Messengers {
			if m.Side == c.Side {
				all = append(all, m.ID)
			}
		}
		return unknown("messenger", c.Messenger, all)
	}
	o := st(x).OrderByID(m.Order)
	var fs []*Formation
	for _, id := range o.For {
		fs = append(fs, st(x).Formation(id))
	}
	allowed, err := recipients(st(x), fs)
	if err != nil {
		return err
	}
	if !slices.Contains(allowed, c.To) {
		return game.Reject("NB-11", "the order %s carries is for %s and goes to %s, not %s", m.ID, names(o.For), strings.Join(allowed, " or "), c.To)
	}
	if g := st(x).General(c.To); !g.Active() {
		return game.Reject("NB-11", "general %s is not on the table to receive the order", c.To)
	}
	if c.To == m.To {
		return game.Reject("", "messenger %s already rides to %s", m.ID, c.To)
	}
	return emit(x, game.Event{Type: MessengerRedirect, Side: c.Side, See: c.Side, Rule: "NB-11"}, &Data{Messenger: m.ID, To: c.To, General: m.To})
}

// complete records that a formation has carried out its attack order; it
// now defends (NB-8).
func (r *Rules) complete(c cmd, x *game.Tx) error {
	f, err := r.formation(c, x, c.Formation)
	if err != nil {
		return err
	}
	if err := completable(f); err != nil {
		return err
	}
	o := *f.Order
	o.Kind, o.For, o.Direct, o.Written, o.Via = "defend", []string{f.ID}, true, x.S.Turn, ""
	var divs []string
	for _, d := range st(x).Formations {
		if d.ID != f.ID && d.Order != nil && d.Order.ID == f.Order.ID && r.under(x, d.ID, f.ID) {
			divs = append(divs, d.ID)
		}
	}
	return emit(x, game.Event{Type: OrderComplete, Side: f.Side, See: f.Side, Rule: "NB-8"}, &Data{Formation: f.ID, Order: &o, Divisions: divs})
}

// react lets cavalry react only when its division is engaged or on defend
// (NB-14), or an engaged reserve defends itself (NB-9). With fog of war the
// reaction is its side's news (ownNews).
func (r *Rules) react(c cmd, x *game.Tx) error {
	for _, id := range c.Units {
		u, err := r.unit(c, x, id)
		if err != nil {
			return err
		}
		if err := reactable(st(x), u); err != nil {
			return err
		}
	}
	return emit(x, game.Event{Type: Reacted, Side: c.Side, See: ownNews(x, c.Side), Rule: "NB-14"}, &Data{Units: c.Units})
}

// ownNews is who is told of a side's news that comes from pieces the
// enemy may not spot: what its units do by what they spot (their
// division's engagement, NB-6), or where its messengers end their rides
// (at a general's side, NB-3, NB-13). Everyone without fog of war; with it
// the side alone (and the umpire).
func ownNews(x *game.Tx, side string) string {
	if x.S.Fogged() {
		return side
	}
	return game.All
}

// combat records units that start combat this turn with an enemy unit or
// division: each unit's division must be engaged with the target's, since
// engaged units respond only to the formations they are engaged with
// (NB-6), the rule the declaration cites. Units that start combat are
// exempt from the command range check (NB-12), and may not be units that
// entered from off the table this turn (NB-10). With fog of war the declaration is its side's news (ownNews);
// the enemy learns of the combat as the umpire plays it out.
func (r *Rules) combat(c cmd, x *game.Tx) error {
	target, err := r.target(x, c.Target)
	if err != nil {
		return err
	}
	for _, id := range c.Units {
		u, err := r.unit(c, x, id)
		if err != nil {
			return err
		}
		if err := combatant(st(x), x.S.Turn, u); err != nil {
			return err
		}
		if target.Side == u.Side {
			return game.Reject("", "target %s is on %s's own side; name an enemy unit or division", c.Target, u.ID)
		}
		d := st(x).division(u)
		switch {
		case slices.Contains(d.With, target.ID):
		case len(d.With) == 0:
			return game.Reject("NB-6", "unit %s cannot start combat with %s: its division %s is engaged with no enemy, and units respond only to the formations they are engaged with", u.ID, c.Target, d.ID)
		default:
			return game.Reject("NB-6", "unit %s cannot start combat with %s: its division %s is engaged only with %s, and engaged units respond only to those", u.ID, c.Target, d.ID, names(d.With))
		}
	}
	return emit(x, game.Event{Type: CombatDeclared, Side: c.Side, See: ownNews(x, c.Side), Rule: "NB-6"}, &Data{Units: c.Units, To: c.Target, Formation: target.ID})
}

// target is the division a combat is started with: the division named, or
// the division of the unit named (NB-6: divisions are engaged with
// divisions).
func (r *Rules) target(x *game.Tx, id string) (*Formation, error) {
	if u := st(x).Unit(id); u != nil {
		if !u.OnTable {
			return nil, game.Reject("NB-10", "unit %s is not on the table", id)
		}
		return st(x).division(u), nil
	}
	f := st(x).Formation(id)
	if f == nil {
		return nil, unknown("unit or division", id, append(x.Sc.IDs("unit"), x.Sc.IDs("formation")...))
	}
	if f.Kind != battle.Division {
		return nil, game.Reject("NB-6", "target %s is a %s; name an enemy unit or division, since divisions are engaged with divisions", id, f.Kind)
	}
	return f, nil
}

// status routs or rallies units, as combat and morale at the table decide.
func (r *Rules) status(c cmd, x *game.Tx) error {
	want := map[string]string{"rout": "routed", "rally": "formed"}[c.Verb]
	var evs []Data
	for _, id := range c.Units {
		u, err := r.unit(c, x, id)
		if err != nil {
			return err
		}
		if u.Status == want {
			return game.Reject("", "unit %s is already %s", u.ID, want)
		}
		evs = append(evs, Data{Unit: u.ID, Status: want})
	}
	for _, d := range evs {
		if err := emit(x, game.Event{Type: StatusChanged, Side: st(x).Unit(d.Unit).Side, See: game.All}, &d); err != nil {
			return err
		}
	}
	return nil
}

// remove takes out a killed or captured general (NB-15).
func (r *Rules) remove(c cmd, x *game.Tx) error {
	g, err := r.general(c, x, c.General)
	if err != nil {
		return err
	}
	if g.Fate != "" {
		return game.Reject("NB-15", "general %s is already %s", g.ID, g.Fate)
	}
	if !g.OnTable {
		return game.Reject("", "general %s is not on the table", g.ID)
	}
	return emit(x, game.Event{Type: GeneralRemoved, Side: g.Side, See: game.All, Rule: "NB-15"}, &Data{General: g.ID, Status: c.Fate, Formation: g.Commands})
}

// replace puts a new general in a fallen one's place (NB-15).
func (r *Rules) replace(c cmd, x *game.Tx) error {
	g, err := r.general(c, x, c.General)
	if err != nil {
		return err
	}
	n := c.New
	switch {
	case n == nil:
		return game.Reject("", "replace needs the new general: id, quality, range, at")
	case g.Fate == "":
		return game.Reject("NB-15", "general %s is still in command; remove him first", g.ID)
	case g.Replaced != "":
		return game.Reject("NB-15", "general %s was already replaced by %s", g.ID, g.Replaced)
	case x.Sc.What(n.ID) != "" || st(x).General(n.ID) != nil:
		return game.Reject("", "id %q is already used in this game", n.ID)
	case !slices.Contains(r.Vocab().Qualities, n.Quality):
		return game.Reject("", "quality %q is not one of %s", n.Quality, strings.Join(r.Vocab().Qualities, ", "))
	case !x.Sc.Field.Contains(n.At):
		return game.Reject("", "general %s cannot stand at %v: that is off the table", n.ID, n.At)
	}
	return emit(x, game.Event{Type: GeneralReplaced, Side: g.Side, See: game.All, Rule: "NB-15"}, &Data{General: g.ID, New: n, Formation: g.Commands})
}
