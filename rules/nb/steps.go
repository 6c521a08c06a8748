package nb

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// arrival places the general of each off-board reserve at the middle of its
// entry square's edge, the set number of turns before its earliest entry,
// gives him the reserve's order without a messenger, and rolls the arrival
// in the open (NB-10).
func (r *Rules) arrival(x *game.Tx) error {
	for _, f := range st(x).Formations {
		if f.Reserve != "off-board" || f.Placed || f.Entry == 0 || x.S.Turn < f.Entry-r.p.entryLead {
			continue
		}
		sf := x.Sc.Formation(f.ID)
		sq, err := x.Sc.Field.Square(f.Square)
		if err != nil {
			return err
		}
		at := x.Sc.Field.EdgeMid(sq, f.Edge)
		g := st(x).commander(f)
		if err := emit(x, game.Event{Type: GeneralPlaced, Side: f.Side, See: game.All, Rule: "NB-10"}, &Data{Formation: f.ID, General: g.ID, At: st(x).pt(at), Square: f.Square, Edge: f.Edge}); err != nil {
			return err
		}
		then := sf.Entry.Then
		o := st(x).orders.One(Order{ID: r.orderID(x, f.Side), For: st(x).keep([]string{f.ID}), Kind: then.Kind, Objective: then.Objective,
			Note: then.Note, Written: x.S.Turn, Via: g.ID, Direct: true})
		if err := emit(x, game.Event{Type: OrderWritten, Side: f.Side, See: f.Side, Rule: "NB-10"}, &Data{Order: o, To: g.ID, How: "entry"}); err != nil {
			return err
		}
		roll, t, err := x.Roll("nb/reserve-arrival", f.ID, map[string]string{"quality": g.Quality})
		if err != nil {
			return err
		}
		if err := emit(x, game.Event{Type: ReserveArrivalRoll, Side: f.Side, See: game.All, Rolls: x.Recorded(roll), Rule: "NB-10"}, &Data{Formation: f.ID, General: g.ID, Arrival: f.Entry + game.Value(t, roll.Result)}); err != nil {
			return err
		}
	}
	return nil
}

// read has every general with a delivered order read it, a turn after
// delivery, and roll its delay (NB-4, NB-5): the order is acted on from the
// maneuver phase of the turn of reading plus the delay. Each reader reads
// on his own: another's acting on the order, at once as a reserve or after
// his delay, or having it overtaken by a newer order, changes nothing for
// him (NB-11). A wing commander's corps commanders read only within his
// range (NB-11); an attached general waits until he detaches (NB-13); a
// fallen one's replacement reads what he had not (NB-15).
func (r *Rules) read(x *game.Tx) error {
	for _, o := range st(x).Open() {
		if o.Direct || o.Delivered == 0 || o.Delivered >= x.S.Turn {
			continue
		}
		var buf [8]Reader // reading may change o.Readers
		for _, rd := range append(buf[:0], o.Readers...) {
			if rd.Read || rd.Finished() {
				continue
			}
			if err := r.readOne(x, o, rd); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Rules) readOne(x *game.Tx, o *OrderState, rd Reader) error {
	g := generalOf(x, rd.Formation)
	base := game.Event{Side: o.Side, See: o.Side}
	d := Data{OrderID: o.ID, Formation: rd.Formation, General: g.ID}
	wait := func(rule, text string) error {
		e, d := base, d
		e.Type, e.Rule, d.Text = OrderWaiting, rule, text
		return emit(x, e, &d)
	}
	reserve := r.inReserve(x, rd.Formation)
	switch {
	case g.Fate != "":
		return wait("NB-15", fmt.Sprintf("general %s is %s; the order waits for his replacement", g.ID, g.Fate))
	case rd.Held && reserve:
		return wait("NB-13", fmt.Sprintf("general %s was attached to %s when the order came; his reserve acts on it once he detaches", g.ID, g.Attached))
	case rd.Held:
		return wait("NB-13", fmt.Sprintf("general %s was attached to %s when the order came and reads it once he detaches", g.ID, g.Attached))
	case reserve:
		// A reserve never rolls (NB-9); one that did not act on delivery
		// (its general had fallen, and is now replaced) acts now.
		return r.activateFor(x, o, rd.Formation, "reserve", "NB-9")
	}
	via := st(x).General(o.Via)
	for via != nil && via.Replaced != "" {
		via = st(x).General(via.Replaced) // the wing commander now (NB-15)
	}
	if via != nil && via.ID != g.ID && st(x).Formation(via.Commands).Kind == battle.Wing {
		if far := via.At.Dist(g.At); far > via.Range+1e-9 {
			e, dd := base, d
			e.Type, e.Rule = OrderNotRead, "NB-11"
			dd.Text = fmt.Sprintf("corps commander %s is %s\" from wing commander %s, beyond his %s\" range", g.ID, inch(far), via.ID, inch(via.Range))
			return emit(x, e, &dd)
		}
	}
	nation := x.Sc.Side(o.Side).Nation
	t := r.delay
	a, ok := r.delayArgs[[2]string{nation, g.Quality}]
	if !ok {
		var err error
		if a, err = t.Bind(map[string]string{"nation": nation, "quality": g.Quality}); err != nil {
			return fmt.Errorf("%s for %s: %w", t.ID, rd.Formation, err)
		}
	}
	roll, err := x.RollBound(t, a, rd.Formation)
	if err != nil {
		return err
	}
	e := base
	e.Type, e.Rule, e.Rolls = OrderRead, "NB-5", x.Recorded(roll)
	d.Acts = x.S.Turn + game.Value(t, roll.Result)
	return emit(x, e, &d)
}

// command activates, with no roll, the orders for a formation whose general
// the army commander has joined (NB-13): those written for it, and those it
// would read or has yet to read as one of several readers (a corps of a
// wing given an order, NB-11). The messenger is recalled only if the order
// is for that formation alone; the other readers of an order for several
// still get it (NB-11).
func (r *Rules) command(x *game.Tx) error {
	for _, s := range x.Sc.Sides {
		a := r.army(x, s.ID)
		if a == nil || a.Fate != "" || a.Attached == "" {
			continue
		}
		host := st(x).General(a.Attached)
		if host == nil || host.Fate != "" {
			continue
		}
		fid := host.Commands
		wing := ""
		if p := st(x).Formation(st(x).Formation(fid).Parent); p != nil && p.Kind == battle.Wing {
			wing = p.ID
		}
		for _, o := range st(x).Open() {
			rd := o.Reader(fid)
			mine := rd != nil || slices.Contains(o.For, fid) || wing != "" && slices.Contains(o.For, wing)
			if o.Side != s.ID || !mine || rd != nil && rd.Finished() {
				continue
			}
			for _, m := range st(x).Messengers {
				if m.Order == o.ID && len(o.For) == 1 && o.For[0] == fid {
					// A recall tells that the army commander joined the
					// general it rides to, whom the enemy may not spot:
					// with fog of war, its side's news alone. An enemy
					// who spotted it sees it leave the field, as an
					// arriving one.
					if err := emit(x, game.Event{Type: MessengerWithdrawn, Side: s.ID, See: ownNews(x, s.ID), Rule: "NB-13"}, &Data{Messenger: m.ID}); err != nil {
						return err
					}
					break
				}
			}
			if err := r.activateFor(x, o, fid, "army-commander", "NB-13"); err != nil {
				return err
			}
		}
	}
	return nil
}

// activate puts into effect each reading of an order whose delay has run
// out (NB-5), unless a newer order has reached that reader's formation;
// each reader on his own (NB-11).
func (r *Rules) activate(x *game.Tx) error {
	for _, o := range st(x).Open() {
		var buf [8]Reader // activation changes o.Readers
		for _, rd := range append(buf[:0], o.Readers...) {
			if !rd.Read || rd.Finished() || rd.Acts > x.S.Turn {
				continue
			}
			if err := r.activateFor(x, o, rd.Formation, "read", "NB-5"); err != nil {
				return err
			}
		}
	}
	return nil
}

// activateFor makes order o active for formation fid and the divisions
// that follow it; a division beyond its corps commander's range keeps its
// order (NB-12).
func (r *Rules) activateFor(x *game.Tx, o *OrderState, fid, how, rule string) error {
	f := st(x).Formation(fid)
	cur := f.Order
	if f.Reserve == "off-board" {
		cur = f.Then
	}
	if cur != nil && cur.ID != o.ID && newer(cur, &o.Order, fid) && cur.Kind != "reserve" {
		return emit(x, game.Event{Type: OrderSuperseded, Side: o.Side, See: o.Side, Rule: rule}, &Data{OrderID: o.ID, Formation: fid, Text: fmt.Sprintf("order %s, written on turn %d, is newer", cur.ID, cur.Written)})
	}
	ord := st(x).orders.One(o.Order)
	if f.Reserve == "off-board" {
		how = "for-entry" // it acts on the order once it enters (NB-10)
	}
	follow, out := r.split(x, fid, ord, f.Reserve != "off-board")
	return emit(x, game.Event{Type: OrderActive, Side: o.Side, See: o.Side, Rule: rule}, &Data{Formation: fid, Order: ord, Divisions: follow, Left: out, How: how})
}

// messengers moves every messenger straight toward its recipient's present
// position by the army commander's range (NB-3), and delivers on arrival.
// An order for one division carried to its corps commander goes on to the
// division general if he is beyond the corps commander's range (NB-11). An
// on-board reserve acts on its order at once (NB-9), unless its general is
// attached to a combat unit: then it waits until he detaches (NB-13), as
// does the reading of any other reader whose general is.
func (r *Rules) messengers(x *game.Tx) error {
	var buf [32]*Messenger // delivery takes messengers off the list
	for _, m := range append(buf[:0], st(x).Messengers...) {
		if err := r.ride(x, m); err != nil {
			return err
		}
	}
	return nil
}

func (r *Rules) ride(x *game.Tx, m *Messenger) error {
	o := st(x).OrderByID(m.Order)
	to := st(x).General(m.To)
	if o == nil || to == nil {
		return fmt.Errorf("messenger %s carries an unknown order or rides to an unknown general", m.ID)
	}
	if to.Fate != "" {
		return emit(x, game.Event{Type: MessengerHeld, Side: m.Side, See: m.Side, Rule: "NB-15"}, &Data{Messenger: m.ID, General: to.ID, Text: fmt.Sprintf("general %s is %s; the messenger waits for his replacement", to.ID, to.Fate)})
	}
	from, at, left := m.At, m.At, m.Speed
	for {
		p, reached := r.toward(at, to.At, left)
		left = max(0, left-at.Dist(p))
		at = p
		if !reached {
			break
		}
		next := r.onward(x, o, to)
		if next == nil {
			break
		}
		if err := emit(x, game.Event{Type: MessengerRedirect, Side: m.Side, See: m.Side, Rule: "NB-11"}, &Data{Messenger: m.ID, To: next.ID, General: to.ID, Text: fmt.Sprintf("division general %s is beyond corps commander %s's range", next.ID, to.ID)}); err != nil {
			return err
		}
		to = next
	}
	arrived := at == to.At
	// A ride that ends in the messenger's arrival ends where the general
	// it rides to stands: with fog of war, its side's news alone (the
	// enemy may not spot him). An enemy who spotted the messenger sees it
	// leave the field, as it sees a recalled one go.
	see := game.All
	if arrived {
		see = ownNews(x, m.Side)
	}
	if err := emit(x, game.Event{Type: MessengerMoved, Side: m.Side, See: see, Rule: "NB-3"}, &Data{Messenger: m.ID, From: st(x).pt(from), At: st(x).pt(at.Round()), Arrived: arrived}); err != nil {
		return err
	}
	if !arrived {
		return nil
	}
	readers := r.readers(x, o, to)
	var held []string
	for _, fid := range readers {
		if o.Reader(fid) == nil && st(x).WithUnit(generalOf(x, fid)) {
			held = append(held, fid) // read once he detaches (NB-13)
		}
	}
	if err := emit(x, game.Event{Type: OrderDelivered, Side: m.Side, See: m.Side, Rule: "NB-3"}, &Data{OrderID: o.ID, Messenger: m.ID, General: to.ID, Readers: readers, Held: held}); err != nil {
		return err
	}
	for _, fid := range readers {
		if rd := o.Reader(fid); !r.inReserve(x, fid) || rd != nil && (rd.Finished() || rd.Held) {
			continue
		}
		if err := r.activateFor(x, o, fid, "reserve", "NB-9"); err != nil {
			return err
		}
	}
	return nil
}

// toward moves from p straight toward q by at most d, and reports whether
// it reached q: a messenger reaches its recipient when he is within d plus
// the precision of positions (NB-3; procedure.yaml: a hundredth of an
// inch), so that one exactly a ride away, on a diagonal whose length the
// arithmetic rounds up, still receives the order that turn.
func (r *Rules) toward(p, q geom.Point, d float64) (geom.Point, bool) {
	if p.Dist(q) <= d+r.p.precision {
		return q, true
	}
	return p.Toward(q, d)
}

// onward returns the general a messenger must ride on to after reaching
// general at, or nil if it delivers there (NB-11).
func (r *Rules) onward(x *game.Tx, o *OrderState, at *General) *General {
	if len(o.For) != 1 {
		return nil
	}
	f := st(x).Formation(o.For[0])
	if f.Kind != battle.Division || f.General == at.ID {
		return nil
	}
	g := st(x).commander(f)
	if g.Active() && g.At.Dist(at.At) <= at.Range+1e-9 {
		return nil
	}
	return g
}

// readers lists the formations whose generals read order o once delivered
// to general at (NB-11).
func (r *Rules) readers(x *game.Tx, o *OrderState, at *General) []string {
	s := st(x)
	host := s.Formation(at.Commands)
	out := s.rd[:0]
	for _, id := range o.For {
		f := st(x).Formation(id)
		if f.Kind == battle.Wing && host.ID == f.ID {
			// A wing order: each of its corps commanders reads it.
			out = append(out, x.Sc.Formation(f.ID).Children...)
			continue
		}
		out = append(out, id)
	}
	s.rd = out
	return s.keep(out)
}

// inReserve reports whether formation id is, or is under, an on-board
// reserve.
func (r *Rules) inReserve(x *game.Tx, id string) bool {
	for f := range st(x).Lineage(id) {
		if f.Reserve == "on-board" {
			return true
		}
	}
	return false
}

// enter brings on each off-board reserve whose arrival turn has come (NB-10):
// at its general's marker, slid along the edge to the nearest place more
// than the clearance from every un-routed enemy unit (with fog of war,
// every one its side spots; see contact.go), its units set down within the
// entry radius; it acts on its order at once.
func (r *Rules) enter(x *game.Tx) error {
	for _, f := range st(x).Formations {
		if f.Reserve != "off-board" || !f.Placed || f.Arrival > x.S.Turn || f.Arrival == 0 {
			continue
		}
		if err := r.enterOne(x, f); err != nil {
			return err
		}
	}
	return nil
}

// enemies lists where the un-routed enemy units of a side stand on the
// table, those the side knows of (with fog of war, those it spots), in the
// state's scratch list: good until the next call.
func (r *Rules) enemies(x *game.Tx, side string) []geom.Point {
	s := st(x)
	out := s.enemy[:0]
	for _, u := range s.Units {
		if u.Side != side && u.OnTable && u.Status != "routed" && known(x, side, u) {
			out = append(out, u.At)
		}
	}
	s.enemy = out
	return out
}

// enterOne brings the off-board reserve f on at its general's place on
// the edge, slid along it clear of the enemy it knows of, or records that
// it waits (NB-10); it then acts on the order it was given for its entry.
func (r *Rules) enterOne(x *game.Tx, f *Formation) error {
	g := st(x).commander(f)
	enemy := r.enemies(x, f.Side)
	at, ok := r.slide(x, f.Edge, g.At, enemy)
	if !ok {
		// The side's own news with fog of war: it comes from what its
		// pieces spot, which may be pieces the enemy does not.
		see := game.All
		if x.S.Fogged() {
			see = f.Side
		}
		return emit(x, game.Event{Type: EntryBlocked, Side: f.Side, See: see, Rule: "NB-10"}, &Data{Formation: f.ID, At: st(x).pt(g.At), Text: fmt.Sprintf("no place on the %s edge is more than %s\" from the enemy; the reserve waits", f.Edge, inch(r.p.entryClear))})
	}
	units, gens, divs := st(x).offBoard(f)
	spots := r.spots(x, f.Edge, at, enemy, len(units))
	moves := x.Moves(1 + len(units) + len(gens))[:0]
	if at != g.At {
		moves = append(moves, game.Move{General: g.ID, To: at, From: st(x).pt(g.At)})
	}
	for i, u := range units {
		moves = append(moves, game.Move{Unit: u.ID, To: spots[i]})
	}
	for _, dg := range gens {
		moves = append(moves, game.Move{General: dg.ID, To: st(x).middle(dg, units, spots, at)})
	}
	text := ""
	if at != g.At {
		text = slidText(g.At, at)
	}
	met := r.entryContacts(x, f.Side, units, spots)
	if err := emit(x, game.Event{Type: ReserveEntered, Side: f.Side, See: game.All, Moves: moves, Rule: "NB-10"}, &Data{Formation: f.ID, At: st(x).pt(at), Divisions: divs, Text: text}); err != nil {
		return err
	}
	if err := contacts(x, f.Side, met); err != nil {
		return err
	}
	return r.actOnEntry(x, f)
}

// offBoard lists what of reserve f is off the table: its units and those
// of the formations under it, the generals of those formations, and the
// formations themselves.
func (s *State) offBoard(f *Formation) (units []*Unit, gens []*General, divs []string) {
	// Formations come parent first, so one pass finds all under f.
	in := map[string]bool{f.ID: true}
	for _, d := range s.Formations {
		if d.ID == f.ID || !in[d.Parent] {
			continue
		}
		in[d.ID] = true
		divs = append(divs, d.ID)
		if dg := s.commander(d); dg != nil && !dg.OnTable {
			gens = append(gens, dg)
		}
		for u := range s.Members(d) {
			if !u.OnTable {
				units = append(units, u)
			}
		}
	}
	for u := range s.Members(f) {
		if !u.OnTable {
			units = append(units, u)
		}
	}
	return units, gens, divs
}

// middle is where division general dg enters: in the middle of his units
// (units, set down at spots), or at the entry point at when none of them
// enters.
func (s *State) middle(dg *General, units []*Unit, spots []geom.Point, at geom.Point) geom.Point {
	var sum geom.Point
	n := 0
	for i, u := range units {
		if s.division(u).General == dg.ID {
			sum.X, sum.Y, n = sum.X+spots[i].X, sum.Y+spots[i].Y, n+1
		}
	}
	if n == 0 {
		return at
	}
	return geom.Pt(sum.X/float64(n), sum.Y/float64(n)).Round()
}

// entryContacts is, with fog of war, the contacts of units set down at
// spots within the clearance of an enemy unit their side did not spot
// (see contact.go): one for each such enemy, with the first unit set down
// near it.
func (r *Rules) entryContacts(x *game.Tx, side string, units []*Unit, spots []geom.Point) []contact {
	if !x.S.Fogged() {
		return nil
	}
	var met []contact
	for _, e := range st(x).Units {
		if e.Side == side || !e.OnTable || e.Status == "routed" || known(x, side, e) {
			continue
		}
		for i, u := range units {
			if spots[i].Within(e.At, r.p.entryClear) {
				met = append(met, contact{u.ID, e})
				break
			}
		}
	}
	return met
}

// actOnEntry has reserve f, just entered, act on the order it was given
// for its entry, with the divisions that follow it (NB-10).
func (r *Rules) actOnEntry(x *game.Tx, f *Formation) error {
	then := f.Then
	if then == nil {
		return nil
	}
	o := st(x).OrderByID(then.ID)
	ord := st(x).orders.One(o.Order)
	follow, _ := r.split(x, f.ID, ord, false)
	return emit(x, game.Event{Type: OrderActive, Side: f.Side, See: f.Side, Rule: "NB-10"}, &Data{Formation: f.ID, Order: ord, Divisions: follow, How: "entry"})
}

// slidText tells how far an off-board reserve's entry point slid along the
// edge to stand clear of the enemy (NB-10), and from where: the distance
// to the hundredth of an inch, since a slide to the nearest clear
// hundredth may be less than the tenth a position is written to, and
// "from (18, 48) to (18, 48)" would say it did not move. Where it went is
// the entry's own point.
func slidText(from, to geom.Point) string {
	return fmt.Sprintf("the entry point slid %s\" along the edge from %v, clear of the enemy", inch(from.Dist(to)), from)
}

// under reports whether formation id is top or under it.
func (r *Rules) under(x *game.Tx, id, top string) bool {
	for f := range st(x).Lineage(id) {
		if f.ID == top {
			return true
		}
	}
	return false
}

// slide finds the point of the edge nearest to mark that is more than the
// clearance from every enemy point, to the hundredth of an inch.
func (r *Rules) slide(x *game.Tx, edge string, mark geom.Point, enemy []geom.Point) (geom.Point, bool) {
	fd := x.Sc.Field
	length := fd.Width
	if edge == "east" || edge == "west" {
		length = fd.Depth
	}
	clear := r.p.entryClear
	type span struct{ lo, hi float64 }
	var spans []span
	for _, e := range enemy {
		d := fd.FromEdge(e, edge)
		if d >= clear {
			continue
		}
		half := math.Sqrt(clear*clear - d*d)
		a := battle.Along(edge, e)
		spans = append(spans, span{a - half, a + half})
	}
	s := battle.Along(edge, mark)
	free := func(v float64) bool {
		for _, sp := range spans {
			if v > sp.lo-1e-9 && v < sp.hi+1e-9 {
				return false
			}
		}
		return v >= 0 && v <= length
	}
	if free(s) {
		return mark, true
	}
	var cands []float64
	for _, sp := range spans {
		cands = append(cands, math.Floor(sp.lo*100-1)/100, math.Ceil(sp.hi*100+1)/100)
	}
	sort.Slice(cands, func(i, j int) bool {
		di, dj := math.Abs(cands[i]-s), math.Abs(cands[j]-s)
		if di != dj {
			return di < dj
		}
		return cands[i] < cands[j]
	})
	for _, c := range cands {
		if free(c) {
			return fd.OnEdge(edge, c), true
		}
	}
	return geom.Point{}, false
}

// spots picks n places for entering units within the entry radius of at,
// nearest first, clear of the enemy where possible.
func (r *Rules) spots(x *game.Tx, edge string, at geom.Point, enemy []geom.Point, n int) []geom.Point {
	in := battle.Inward(edge)
	var across geom.Point
	if in.X == 0 {
		across = geom.Pt(1, 0)
	} else {
		across = geom.Pt(0, 1)
	}
	const gap = 1.5
	var cands []geom.Point
	steps := int(r.p.entryRadius / gap)
	for row := 0; row <= steps; row++ {
		for col := -steps; col <= steps; col++ {
			p := geom.Pt(at.X+in.X*(float64(row)*gap+0.5)+across.X*float64(col)*gap,
				at.Y+in.Y*(float64(row)*gap+0.5)+across.Y*float64(col)*gap).Round()
			if !x.Sc.Field.Contains(p) || p.Dist(at) > r.p.entryRadius+1e-9 {
				continue
			}
			clear := true
			for _, e := range enemy {
				if e.Within(p, r.p.entryClear) {
					clear = false
					break
				}
			}
			if clear {
				cands = append(cands, p)
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b geom.Point) int { return cmp.Compare(a.Dist(at), b.Dist(at)) })
	out := make([]geom.Point, n)
	for i := range out {
		if len(cands) > 0 {
			out[i] = cands[i%len(cands)]
		} else {
			out[i] = at
		}
	}
	return out
}

// endOfMovement reports every combat unit outside its division general's
// range, except units that started combat, routed units and detachments
// (NB-12; the source sets no penalty), and the limits of an attack order on
// a division that is not engaged (NB-7): the findings of movementFindings,
// each as an event its side sees.
func (r *Rules) endOfMovement(x *game.Tx) error {
	return r.movementFindings(st(x), x.S.Turn, func(typ, rule, side string, d Data) error {
		return emit(x, game.Event{Type: typ, Side: side, See: side, Rule: rule}, &d)
	})
}

// movementFindings calls report with what the end of movement finds in s
// on turn (NB-12, NB-7): the event type, its rule, the side it concerns
// and its payload. The end-of-movement step records them; the advice
// (Advise) tells a side of them while it may still put them right.
func (r *Rules) movementFindings(s *State, turn int, report func(typ, rule, side string, d Data) error) error {
	for _, f := range s.Formations {
		if f.Kind != battle.Division {
			continue
		}
		g := s.commander(f)
		if g == nil || !g.Active() {
			continue
		}
		for u := range s.Members(f) {
			if !u.OnTable || u.Status == "routed" || u.Detachment || u.Combat {
				continue
			}
			if d2 := u.At.Dist2(g.At); d2 > g.Range*g.Range+1e-9 {
				d := math.Sqrt(d2)
				if err := report(RangeViolation, "NB-12", u.Side, Data{Unit: u.ID, General: g.ID, Formation: u.Division, Distance: math.Round(d*100) / 100, Range: g.Range}); err != nil {
					return err
				}
			}
		}
	}
	return r.attackLimits(s, turn, report)
}

// attackLimits reports the units of a division on an attack order, not
// engaged, that stand in a formation other than those the order allows
// (column, march column; one report per formation) or moved less than half
// the speed of the division's slowest unit (NB-7).
func (r *Rules) attackLimits(s *State, turn int, report func(typ, rule, side string, d Data) error) error {
	for _, f := range s.Formations {
		if f.Kind != battle.Division || f.Engaged || f.Order == nil || f.Order.Kind != "attack" || f.Entered == turn {
			continue
		}
		slow, n := math.Inf(1), 0
		for u := range s.Members(f) {
			if u.OnTable && u.Status != "routed" {
				slow, n = min(slow, u.Speed), n+1
			}
		}
		if n == 0 {
			continue
		}
		var short []string
		if len(s.shaped) != len(shapes)+1 {
			s.shaped = make([][]string, len(shapes)+1)
		}
		shaped := s.shaped
		clear(shaped)
		for u := range s.Members(f) {
			switch {
			case !u.OnTable || u.Status == "routed":
			case u.Shape != "" && !slices.Contains(r.p.attackShapes, u.Shape):
				i := slices.Index(shapes, u.Shape)
				if i < 0 {
					i = len(shapes)
				}
				if shaped[i] == nil {
					shaped[i] = s.strs.Take(n)[:0] // one piece of memory, however many
				}
				shaped[i] = append(shaped[i], u.ID)
			case u.Moved < slow/2-1e-9:
				if short == nil {
					short = s.strs.Take(n)[:0]
				}
				short = append(short, u.ID)
			}
		}
		for i, units := range shaped {
			if len(units) == 0 {
				continue
			}
			shape := "another formation"
			if i < len(shapes) {
				shape = shapes[i]
			}
			if err := report(Restriction, "NB-7", f.Side, Data{Formation: f.ID, Units: units, Status: "out-of-column", Text: shape}); err != nil {
				return err
			}
		}
		if len(short) > 0 {
			if err := report(Restriction, "NB-7", f.Side, Data{Formation: f.ID, Units: short, Status: "short-move", Distance: slow / 2}); err != nil {
				return err
			}
		}
	}
	return nil
}
