package lob

import (
	"strconv"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// The steps of a side's player turn: its command phase (arrivals and
// deliveries, acceptance rolls, fluke stoppage and attack recovery, then
// the player's orders), its movement and its combat, and the end of the
// player turn, when orders are fulfilled.
const (
	StepBegin      = "begin"
	StepAcceptance = "acceptance"
	StepChecks     = "checks"
	StepOrders     = "orders"
	StepMove       = "move"
	StepCombat     = "combat"
	StepEnd        = "end"
)

// Verbs of each player step. futile, fulfil and skedaddle may come at any
// point of the player turn (10.7a, 10.9); so may the umpire's enter, which
// names where a reinforcement enters if its entry area is blocked (3.7a).
var (
	ordersVerbs = []string{"issue", "release", "initiative", "skedaddle", "condition", "designate", "post", "aware", "futile", "fulfil", "enter"}
	moveVerbs   = []string{"move", "form", "initiative", "skedaddle", "futile", "fulfil", "enter"}
	combatVerbs = []string{"loss", "skedaddle", "futile", "fulfil", "enter"}
)

func phaseOf(side, what string) string { return side + "-" + what }

// sequence is the steps of a turn with sides playing in the given order.
func sequence(sides []string) []game.Step {
	var out []game.Step
	for _, s := range sides {
		c, m, b := phaseOf(s, "command"), phaseOf(s, "movement"), phaseOf(s, "combat")
		out = append(out,
			game.Step{Phase: c, Name: StepBegin},
			game.Step{Phase: c, Name: StepAcceptance},
			game.Step{Phase: c, Name: StepChecks},
			game.Step{Phase: c, Name: StepOrders, Actors: []string{s}, Verbs: ordersVerbs},
			game.Step{Phase: m, Name: StepMove, Actors: []string{s}, Verbs: moveVerbs},
			game.Step{Phase: b, Name: StepCombat, Actors: []string{s}, Verbs: combatVerbs},
			game.Step{Phase: b, Name: StepEnd},
		)
	}
	return out
}

// Sequence is the steps of a turn of sc.
func (r *Rules) Sequence(sc *battle.Scenario) []game.Step {
	var sides []string
	for _, s := range sc.Sides {
		sides = append(sides, s.ID)
	}
	return sequence(sides)
}

// Next is the step after the one s stands in.
func (r *Rules) Next(s *game.State) (game.Step, int) { return game.Cycle(ext(s).seq).Next(s) }

// Setup does nothing: the orders at the start are in the state.
func (r *Rules) Setup(*game.Tx) error { return nil }

// Run carries out the automatic steps.
func (r *Rules) Run(step game.Step, x *game.Tx) error {
	st := ext(x.S)
	side := st.phasing(step.Phase)
	switch step.Name {
	case StepBegin:
		return r.begin(x, st, side)
	case StepAcceptance:
		return r.acceptance(x, st, side)
	case StepChecks:
		return r.checks(x, st, side)
	case StepEnd:
		return r.end(x, st, side)
	}
	return nil
}

// route is a delivery worked out: the distance, whether within the
// sender's radius, and the turns from the user's chart (LOB-4).
type route struct {
	dist   int
	within bool
	turns  int
	params map[string]string
}

// delivery looks up an order's delivery time on lob/delivery: sender is
// army, corps or division; from and radius the sender's position and
// command radius; to where the receiver stands; reserve whether it goes
// to a formation in reserve. Awareness is the army commander's only; a
// relay is read as aware (10.6a).
func (r *Rules) delivery(sender string, aware bool, from geom.Point, radius int, to geom.Point, reserve bool, st *State) (route, error) {
	d := st.dist(from, to)
	rt := route{dist: d, within: d <= radius}
	aw := "aware"
	if sender == "army" && !aware {
		aw = "unaware"
	}
	in, recv := "beyond", "hq"
	if rt.within {
		in = "within"
	}
	if reserve {
		recv = "reserve"
	}
	rt.params = map[string]string{"sender": sender, "awareness": aw, "radius": in, "receiver": recv, "distance": strconv.Itoa(min(d, MaxDistance))}
	c, err := r.chart.Get(rt.params)
	if err != nil {
		return rt, err
	}
	n, _ := c.Int()
	rt.turns = max(n, 1) // always at least one turn (10.6a)
	return rt, nil
}

// relay works out the order a Command (the corps from) relays to one
// under it (to), from where its HQ stands to the receiver's (LOB-4, LOB-6):
// its own delivery time, no command roll. A relay to a formation in
// reserve reads the chart's reserve row (10.6a) but never releases it:
// it becomes the reserve's existing orders (LOB-5, 10.4c).
func (r *Rules) relay(st *State, o *Order, from, to *Formation, turn int) (Order, bool) {
	at, by, ok := st.Centre(from)
	dest, _, ok2 := st.Centre(to)
	if !ok || !ok2 || by == nil {
		return Order{}, false
	}
	rt, err := r.delivery(senderOf(from), true, at, by.Radius, dest, to.Reserve, st)
	if err != nil {
		return Order{}, false
	}
	c := *o
	c.ID, c.From, c.To, c.Parent, c.Issued, c.Arrives, c.Stage, c.Failed, c.Taken, c.Start = o.ID+"/"+to.ID, from.ID, to.ID, o.ID, turn, turn+rt.turns, Delivering, 0, 0, false
	c.Release = false
	return c, true
}

// reserveRelay is the relay of order o, which names the formation its
// Command is to place in reserve, to that formation (LOB-5, 10.4c): only a
// corps under attack orders relays it, and only to a formation under it;
// ok is false when no relay is needed. The relay starts when the formation
// is identified: when the order reaches the corps HQ if it names it, else
// when the corps leader names it (designate).
func (r *Rules) reserveRelay(st *State, o *Order, turn int) (Order, bool) {
	f, target := st.Formation(o.To), st.Formation(o.Reserve)
	if f == nil || target == nil || f.Kind != KindCorps || target.ID == f.ID {
		return Order{}, false
	}
	if cur := st.Executing(f); cur == nil || cur.Kind != Attack {
		return Order{}, false
	}
	return r.relay(st, o, f, target, turn)
}

// kept reports whether order o, arriving now, is a relay that reaches a
// formation in reserve: the reserve keeps it as its existing orders, with
// no acceptance roll (LOB-5, 10.4c). An order sent to the reserve itself
// releases it and is rolled for.
func (st *State) kept(o *Order) bool {
	if o.Parent == "" || o.Embedded || o.Release || o.Kind == Reserve {
		return false
	}
	f := st.Formation(o.To)
	return f != nil && f.Reserve
}

// senderOf is how lob/delivery names a Command that sends or relays.
func senderOf(f *Formation) string {
	if f.Kind == KindCorps {
		return "corps"
	}
	return "division"
}

// relays are the orders a corps relays to its divisions on order o: every
// division on the map that the order reaches (an artillery battalion only
// a move order); none for an order that establishes a reserve, whose
// relay depends on the corps' orders (LOB-5).
func (r *Rules) relays(st *State, o *Order, turn int) []Order {
	f := st.Formation(o.To)
	if f == nil || f.Kind != KindCorps || o.Kind == Reserve || o.Parent != "" {
		return nil
	}
	var out []Order
	for i := range st.Formations {
		d := &st.Formations[i]
		if d.Parent != f.ID || !d.IsCommand() || !d.Entered || d.Kind == KindBattalion && o.Kind != Move {
			continue
		}
		if c, ok := r.relay(st, o, f, d, turn); ok {
			out = append(out, c)
		}
	}
	return out
}

// begin starts a side's player turn: per-turn counts are cleared; the
// army commander becomes aware when the scenario says; reinforcements and
// HQs due enter, taking up their orders; reinforcements that rejoin
// their corps adopt its order; orders due arrive (a release frees its
// reserve, which follows its existing orders at once; a relay that
// places a reserve does so once its Command has accepted the order); a
// relay that reaches a formation in reserve is kept as its existing
// orders, with no acceptance roll (LOB-5, 10.4c); a corps relays each
// order that reaches its HQ, and an order naming the reserve it is to
// establish, when one is needed, to that formation (LOB-4, LOB-5, LOB-6:
// from arrival, independent of its acceptance, unless lob/play's
// relay-after-acceptance says otherwise).
func (r *Rules) begin(x *game.Tx, st *State, side string) error {
	turn := x.S.Turn
	b, in, entering := st.due(side, turn)
	// Reinforcements and HQs never enter on the enemy (3.7a): a piece
	// whose hex is held enters nearby (arrive).
	moves, diverted, contacts := r.arrive(x.S, st, side, in)
	b.Diverted = diverted
	b.Adopted = st.startOrders(side, turn, entering)
	// Arrivals: releases first, so that an order relayed this turn to a
	// Command they free is relayed to it out of reserve.
	if freed := st.releases(side, turn, entering); len(freed) > 0 {
		if err := x.Emit(game.Event{Type: EvBegun, Side: side, See: side, Rule: "LOB-5", Data: &Begun{Side: side, Effects: freed}}); err != nil {
			return err
		}
	}
	r.deliver(st, b, turn, entering)
	if err := x.Emit(game.Event{Type: EvBegun, Side: side, See: side, Rule: "LOB-4", Moves: moves, Data: b}); err != nil {
		return err
	}
	// The enemy units a piece came upon where it would have entered,
	// which its side did not spot: it knows of them now (fog of war).
	for _, c := range contacts {
		if err := x.Contact(side, c.piece, c.unit, c.at, "LOB-1"); err != nil {
			return err
		}
	}
	ad := st.rejoin(side, turn)
	if len(ad.Rejoined) == 0 {
		return nil
	}
	return x.Emit(game.Event{Type: EvBegun, Side: side, See: side, Rule: "LOB-1", Data: ad})
}

// due starts the turn-begun event of side on turn: the army commander
// becomes aware when the scenario says (LOB-4), and the reinforcements
// and HQs due enter (LOB-1). It returns the pieces that enter, and the
// formations entering now.
func (st *State) due(side string, turn int) (b *Begun, in []arrival, entering map[string]bool) {
	b = &Begun{Side: side}
	sd := st.Side(side)
	if !sd.Aware && sd.UnawareUntil > 0 && turn >= sd.UnawareUntil {
		b.Aware = true
	}
	entering = map[string]bool{}
	for i := range st.Formations {
		f := &st.Formations[i]
		if f.Side != side {
			continue
		}
		if !f.Entered && f.Arrives > 0 && turn >= f.Arrives {
			b.Entered = append(b.Entered, f.ID)
			entering[f.ID] = true
			in = append(in, st.piecesOf(f)...)
		}
		if f.IsCommand() && f.HasHQ && !f.HQOn && turn >= f.HQArrives && (f.Entered || entering[f.ID]) {
			b.HQs = append(b.HQs, f.ID)
			in = append(in, arrival{hq: f})
		}
	}
	return b, in, entering
}

// piecesOf are the leader and combat units of formation f still off the
// map, which enter with it.
func (st *State) piecesOf(f *Formation) []arrival {
	var in []arrival
	if l := st.Leader(f.Leader); l != nil && !l.OnTable {
		in = append(in, arrival{leader: l})
	}
	for _, id := range f.Units {
		if u := st.Unit(id); u != nil && !u.OnTable && !u.Gone {
			in = append(in, arrival{unit: u})
		}
	}
	return in
}

// startOrders are the orders the scenario gives the reinforcements of side
// entering on turn, which they take up, executing, as they enter.
func (st *State) startOrders(side string, turn int, entering map[string]bool) []Order {
	var out []Order
	for i := range st.Orders {
		o := &st.Orders[i]
		if o.Side == side && o.Start && o.Stage == Accepted && entering[o.To] {
			a := *o
			a.Stage, a.Taken = Executing, turn
			out = append(out, a)
		}
	}
	return out
}

// arrived reports whether order o of side, issued and not embedded,
// arrives on turn: it is due, and someone of its Command is on the map or
// entering (else it waits for one to enter, LOB-1).
func (st *State) arrived(o *Order, side string, turn int, entering map[string]bool) bool {
	if o.Side != side || (o.Stage != Issued && o.Stage != Delivering) || o.Arrives > turn || o.Embedded {
		return false
	}
	f := st.Formation(o.To)
	return f != nil && (st.present(f) || entering[f.ID])
}

// releases are the reserves freed by releases relayed down from their
// Commands that arrive on turn: each is free and follows its existing
// orders (LOB-5, 10.4c).
func (st *State) releases(side string, turn int, entering map[string]bool) []Effect {
	var freed []Effect
	for i := range st.Orders {
		if o := &st.Orders[i]; o.Release && o.Kind == "" && st.arrived(o, side, turn, entering) {
			ef := Effect{Formation: o.To, Reserve: false, Order: o.ID}
			if f := st.Formation(o.To); f != nil {
				ef.Follows = f.Order
			}
			freed = append(freed, ef)
		}
	}
	return freed
}

// deliver adds to b the orders of its side, other than releases, that
// arrive on turn: a relayed order to establish a reserve places it if its
// Command has accepted the order and waits for that otherwise (LOB-5); a
// relay to a formation in reserve is kept as its existing orders, followed
// once released (10.4c); any other awaits acceptance, and a corps relays
// it on arrival unless lob/play's relay-after-acceptance says to wait
// (LOB-4, LOB-5, LOB-6).
func (r *Rules) deliver(st *State, b *Begun, turn int, entering map[string]bool) {
	for i := range st.Orders {
		o := &st.Orders[i]
		if !st.arrived(o, b.Side, turn, entering) || o.Release && o.Kind == "" {
			continue
		}
		switch {
		case o.Kind == Reserve && o.Parent != "":
			if p := st.Order(o.Parent); p == nil || p.Stage == Accepted || p.Stage == Done {
				b.Effects = append(b.Effects, Effect{Formation: o.To, Reserve: true, Order: o.ID})
			} else {
				b.Pending = append(b.Pending, o.ID)
			}
		case st.kept(o):
			b.Kept = append(b.Kept, o.ID)
		default:
			b.Arrived = append(b.Arrived, o.ID)
			if r.play["relay-after-acceptance"] == 0 {
				b.Relays = append(b.Relays, r.relays(st, o, turn)...)
				if o.Kind == Reserve && o.Parent == "" {
					if c, ok := r.reserveRelay(st, o, turn); ok {
						b.Relays = append(b.Relays, c)
					}
				}
			}
		}
	}
}

// rejoin is the turn-begun event of the reinforcements of side with no
// orders of their own that stand within their corps' radius on turn: they
// take up its orders (10.3f).
func (st *State) rejoin(side string, turn int) *Begun {
	ad := &Begun{Side: side}
	for i := range st.Formations {
		f := &st.Formations[i]
		if f.Side != side || !f.Rejoin || !f.Entered {
			continue
		}
		p := st.Formation(f.Parent)
		at, _, ok := st.Centre(f)
		if p == nil || !ok {
			continue
		}
		if in, _ := st.InRadius(p, at); !in {
			continue
		}
		if po := st.Executing(p); po != nil && (f.Kind != KindBattalion || po.Kind == Move) {
			ad.Adopted = append(ad.Adopted, child(po, p, f, turn))
		}
		ad.Rejoined = append(ad.Rejoined, f.ID)
	}
	return ad
}

// child is the copy of order po of Command p that Command f under it
// executes: relayed at the start (11.0) or adopted on rejoining (10.3f).
func child(po *Order, p, f *Formation, turn int) Order {
	a := *po
	a.ID, a.From, a.To, a.Parent, a.Stage, a.Taken, a.Issued, a.Arrives, a.Start, a.Failed = po.ID+"/"+f.ID, p.ID, f.ID, po.ID, Executing, turn, turn, turn, false, 0
	return a
}

// acceptance rolls for every order of side that awaits acceptance and may
// be rolled for: a conditional order only once its condition is met (and
// a division's only once its relay has arrived, LOB-6); an attack order
// not while its Command is in attack recovery (10.8c). Then accepted
// orders take effect: embedded artillery orders are accepted with their
// Command's; an order to establish a reserve sets it, or (a corps under
// attack orders naming a division) relays it; an accepted order executes
// once its condition is met and, for a relayed one, its corps has
// accepted too (LOB-6), superseding the Command's older orders. A
// formation in reserve executes no order but takes the one its Command
// executes as its existing orders (LOB-5).
func (r *Rules) acceptance(x *game.Tx, st *State, side string) error {
	a, rolls, err := r.accepts(x, st, side, "")
	if err != nil || a == nil {
		return err
	}
	return x.Emit(game.Event{Type: EvAccepted, Side: side, See: side, Rule: "LOB-4", Rolls: rolls, Data: a})
}

// accepts works out the acceptance rolls and what follows from them
// (acceptance); nil when nothing happens. met, when not "", is a
// conditional order whose condition is declared fulfilled now, in the
// orders step after this phase's rolls: the rolls and effects are only
// those of it and its relays, which count as met (LOB-6: they start their
// rolls at once, as if declared before the phase's acceptance rolls).
func (r *Rules) accepts(x *game.Tx, st *State, side, met string) (*Acceptance, []game.Roll, error) {
	a := &Acceptance{Side: side}
	rolls, accepted, err := r.rollAcceptance(x, st, a, met)
	if err != nil {
		return nil, nil, err
	}
	st.embedAccepted(a, met, accepted)
	exec := r.executeAccepted(st, a, met, x.S.Turn, accepted)
	st.superseded(a, exec)
	if len(rolls) == 0 && len(a.Executing) == 0 && len(a.Existing) == 0 && len(a.Embedded) == 0 && len(a.Effects) == 0 && len(a.Relays) == 0 && len(a.Done) == 0 {
		return nil, nil, nil
	}
	return a, rolls, nil
}

// inScope reports whether order o is one acceptance looks at: any, or
// when met is not "", the order met and its relays.
func inScope(o *Order, met string) bool { return met == "" || o.ID == met || o.Parent == met }

// rollAcceptance makes the acceptance roll of each order of a's side that
// awaits acceptance and may be rolled for now (LOB-4), putting each
// result in a. It returns the rolls and the orders accepted.
func (r *Rules) rollAcceptance(x *game.Tx, st *State, a *Acceptance, met string) ([]game.Roll, map[string]bool, error) {
	var rolls []game.Roll
	accepted := map[string]bool{}
	for i := range st.Orders {
		o := &st.Orders[i]
		if o.Side != a.Side || o.Stage != Awaiting || !inScope(o, met) || !r.mayRoll(st, o, met) {
			continue
		}
		f := st.Formation(o.To)
		l := st.Leader(f.Leader)
		ro, _, err := x.Roll(r.accept.ID, o.ID, map[string]string{"value": strconv.Itoa(l.Value), "order": o.Kind,
			"release": strconv.FormatBool(o.Release), "turns": strconv.Itoa(min(o.Failed, 50))})
		if err != nil {
			return nil, nil, err
		}
		rolls = append(rolls, *ro)
		a.Rolls = append(a.Rolls, Take{Order: o.ID, Command: o.To, Result: ro.Result})
		if ro.Result == "accepted" {
			accepted[o.ID] = true
		}
	}
	return rolls, accepted, nil
}

// embedAccepted accepts the embedded artillery orders of the orders
// accepted now with them (LOB-4), adding them to a and to accepted.
func (st *State) embedAccepted(a *Acceptance, met string, accepted map[string]bool) {
	for i := range st.Orders {
		o := &st.Orders[i]
		if o.Side == a.Side && o.Embedded && o.Stage != Accepted && o.Live() && inScope(o, met) {
			if p := st.Order(o.Parent); p != nil && accepted[p.ID] {
				a.Embedded = append(a.Embedded, o.ID)
				accepted[o.ID] = true
			}
		}
	}
}

// stageOf is order o's stage once the orders accepted now are.
func stageOf(o *Order, accepted map[string]bool) string {
	if accepted[o.ID] {
		return Accepted
	}
	return o.Stage
}

// executeAccepted puts in a what the accepted orders of its side do on
// turn: an order to establish a reserve accepted now sets it (establish);
// any other executes once its condition is met and, for a relayed one,
// its corps has accepted too (LOB-6), or, for a formation in reserve it
// does not release, is kept as its existing orders (LOB-5). With lob/play's
// relay-after-acceptance, a corps relays an order it accepts now. It
// returns the orders that execute or are kept.
func (r *Rules) executeAccepted(st *State, a *Acceptance, met string, turn int, accepted map[string]bool) map[string]bool {
	exec := map[string]bool{}
	for i := range st.Orders {
		o := &st.Orders[i]
		if o.Side != a.Side || stageOf(o, accepted) != Accepted || !inScope(o, met) {
			continue
		}
		f := st.Formation(o.To)
		if f == nil || !st.present(f) {
			continue
		}
		if o.Kind == Reserve {
			if accepted[o.ID] {
				r.establish(st, o, f, turn, a)
			}
			continue
		}
		if o.Condition != "" && !o.Met && met == "" {
			continue
		}
		if p := st.Order(o.Parent); p != nil && !o.Embedded && stageOf(p, accepted) != Accepted && p.Stage != Executing {
			continue
		}
		exec[o.ID] = true
		if f.Reserve && !o.Release {
			a.Existing = append(a.Existing, o.ID)
			continue
		}
		a.Executing, a.Acting = append(a.Executing, o.ID), append(a.Acting, o.To)
		if accepted[o.ID] && r.play["relay-after-acceptance"] != 0 {
			a.Relays = append(a.Relays, r.relays(st, o, turn)...)
		}
	}
	return exec
}

// superseded adds to a the older live orders of its side to a Command that
// now executes a newer one, or, in reserve, keeps it as its existing
// orders: they give way. exec are the orders that execute or are kept.
func (st *State) superseded(a *Acceptance, exec map[string]bool) {
	newer := func(o *Order, ids []string) bool {
		for _, id := range ids {
			if n := st.Order(id); n.To == o.To && olderThan(st, o, n) {
				return true
			}
		}
		return false
	}
	for i := range st.Orders {
		o := &st.Orders[i]
		if o.Side != a.Side || !o.Live() || exec[o.ID] || o.Kind == Reserve || o.Release && o.Kind == "" {
			continue
		}
		if newer(o, a.Executing) || newer(o, a.Existing) {
			a.Superseded = append(a.Superseded, o.ID)
		}
	}
}

// olderThan reports whether order o came before order n (by its place in
// the state's list, which is the order of issue).
func olderThan(st *State, o, n *Order) bool {
	for i := range st.Orders {
		switch st.Orders[i].ID {
		case o.ID:
			return true
		case n.ID:
			return false
		}
	}
	return false
}

// mayRoll reports whether an order that awaits acceptance is rolled for
// this turn; met, when not "", is an order whose condition (and its
// relays') counts as fulfilled.
func (r *Rules) mayRoll(st *State, o *Order, met string) bool {
	f := st.Formation(o.To)
	if f == nil || !st.present(f) || o.Embedded {
		return false
	}
	if o.Condition != "" && !o.Met && (met == "" || o.ID != met && o.Parent != met) {
		return false
	}
	if o.Kind == Attack && f.Recovery != "" {
		return false
	}
	if l := st.Leader(f.Leader); l == nil {
		return false
	}
	return true
}

// establish sets up the reserve an order accepted now names (LOB-5): at
// once, unless it was relayed (a corps under attack orders naming a
// formation under it, 10.4c): the relay, which left when the formation was
// identified, places it if it has arrived, else on arrival. An order that
// left the choice to the Command's leader waits for him to name it
// (designate). With lob/play's relay-after-acceptance the relay leaves
// now.
func (r *Rules) establish(st *State, o *Order, f *Formation, turn int, a *Acceptance) {
	for i := range st.Orders {
		c := &st.Orders[i]
		if c.Parent != o.ID || c.Kind != Reserve || !c.Live() {
			continue
		}
		a.Done = append(a.Done, o.ID)
		if c.Stage == Accepted {
			// Arrived already, it waited for the Command's acceptance.
			a.Effects = append(a.Effects, Effect{Formation: c.To, Reserve: true, Order: c.ID})
		}
		return
	}
	if o.Reserve == "" {
		return
	}
	if r.play["relay-after-acceptance"] != 0 {
		if c, ok := r.reserveRelay(st, o, turn); ok {
			a.Relays = append(a.Relays, c)
			a.Done = append(a.Done, o.ID)
			return
		}
	}
	target := st.Formation(o.Reserve)
	if target == nil {
		target = f
	}
	a.Effects = append(a.Effects, Effect{Formation: target.ID, Reserve: true, Order: o.ID})
}

// hasReserve reports whether a division has a reserve of its own for
// fluke stoppage (10.7c): a brigade of it in reserve with a unit left, or
// one of its reinforcements still to enter.
func (st *State) hasReserve(f *Formation) bool {
	for _, i := range st.below(f.ID) {
		b := &st.Formations[i]
		if !b.Entered || b.Reserve && st.alive(b.ID) {
			return true
		}
	}
	return false
}

// alive reports whether a formation has a unit left on the map.
func (st *State) alive(id string) bool {
	for _, u := range st.unitsOf(id) {
		if u.alive() {
			return true
		}
	}
	return false
}

// checks makes the fluke stoppage checks of every division of side whose
// attack order is accepted, from the turn they are due (LOB-7: the
// command phase after acceptance by lob/play's fluke-delay, after entry
// for a reinforcement, after the grace period for the orders at the
// start), and the attack recovery rolls of every Command recovering.
func (r *Rules) checks(x *game.Tx, st *State, side string) error {
	turn := x.S.Turn
	c := &Checks{Side: side}
	var rolls []game.Roll
	for i := range st.Formations {
		f := &st.Formations[i]
		// A division in reserve makes none until released to attack
		// (10.4c, 10.7b).
		if f.Side != side || f.Kind != KindDivision || !f.Entered || f.Reserve || f.FlukeFrom == 0 || turn < f.FlukeFrom || st.liveAttack(f) == nil {
			continue
		}
		l := st.Leader(f.Leader)
		if l == nil || !l.OnTable {
			continue
		}
		ro, _, err := x.Roll(r.fluke.ID, f.ID, map[string]string{"value": strconv.Itoa(l.Value), "losses": strconv.Itoa(min(f.Losses, 99)),
			"reserve": strconv.FormatBool(st.hasReserve(f))})
		if err != nil {
			return err
		}
		rolls = append(rolls, *ro)
		ck := Check{Command: f.ID, Result: ro.Result}
		if ro.Result == "fluke" {
			for _, j := range append([]int{i}, st.below(f.ID)...) {
				if g := &st.Formations[j]; g.Reserve {
					ck.Lost = append(ck.Lost, g.ID)
				}
			}
		}
		c.Fluke = append(c.Fluke, ck)
	}
	for i := range st.Formations {
		f := &st.Formations[i]
		if f.Side != side || f.Recovery == "" || turn < f.RecoverFrom {
			continue
		}
		if fl := slicesIndex(c.Fluke, f.ID); fl >= 0 && c.Fluke[fl].Result == "fluke" {
			continue
		}
		l := st.Leader(f.Leader)
		if l == nil {
			continue
		}
		ro, _, err := x.Roll(r.recovery.ID, f.ID, map[string]string{"value": strconv.Itoa(l.Value), "step": f.Recovery})
		if err != nil {
			return err
		}
		rolls = append(rolls, *ro)
		c.Recovery = append(c.Recovery, Check{Command: f.ID, Step: f.Recovery, Result: ro.Result})
	}
	if len(rolls) == 0 {
		return nil
	}
	return x.Emit(game.Event{Type: EvChecked, Side: side, See: side, Rule: "LOB-7", Rolls: rolls, Data: c})
}

func slicesIndex(cs []Check, id string) int {
	for i, c := range cs {
		if c.Command == id {
			return i
		}
	}
	return -1
}

// end ends the player turn (LOB-7): every order declared fulfilled, and
// every move order whose Command's HQ stands at its destination, is
// fulfilled, with the orders relayed from it; the Commands go to
// no-orders status, and those that executed an attack order begin attack
// recovery. The army HQ's move order ends when it has arrived.
func (r *Rules) end(x *game.Tx, st *State, side string) error {
	e := &Ended{Side: side}
	for i := range st.Formations {
		f := &st.Formations[i]
		if f.Side != side || !f.IsCommand() {
			continue
		}
		o := st.Executing(f)
		if o == nil || !f.Declared && !r.arrived(st, f, o) {
			continue
		}
		orders, cmds, rec := st.reach(o)
		e.Fulfilled = append(e.Fulfilled, orders...)
		e.Commands = append(e.Commands, cmds...)
		e.Recover = append(e.Recover, rec...)
	}
	e.Fulfilled, e.Commands, e.Recover = unique(e.Fulfilled), unique(e.Commands), unique(e.Recover)
	sd := st.Side(side)
	if sd.Goal != nil && *sd.Goal == sd.HQ {
		e.Goal = true
	}
	if len(e.Fulfilled) == 0 && !e.Goal {
		return nil
	}
	return x.Emit(game.Event{Type: EvEnded, Side: side, See: side, Rule: "LOB-7", Data: e})
}

// arrived reports whether a Command executing a move order has its HQ at
// the destination.
func (r *Rules) arrived(st *State, f *Formation, o *Order) bool {
	if o.Kind != Move || o.Objective == nil {
		return false
	}
	at, _, ok := st.Centre(f)
	return ok && at == *o.Objective
}

// reach lists what ending order o reaches: it and the live orders relayed
// from it, the Commands executing them (to no-orders status), and of
// those the ones that executed an attack (to attack recovery).
func (st *State) reach(o *Order) (orders, cmds, recover []string) {
	add := func(x *Order) {
		orders = append(orders, x.ID)
		f := st.Formation(x.To)
		if f == nil || f.Order != x.ID {
			return
		}
		cmds = append(cmds, f.ID)
		if x.Kind == Attack && f.Attacked && f.Kind != KindBattalion {
			recover = append(recover, f.ID)
		}
	}
	add(o)
	for i := range st.Orders {
		if c := &st.Orders[i]; c.Parent == o.ID && c.Live() {
			add(c)
		}
	}
	return
}

func unique(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
