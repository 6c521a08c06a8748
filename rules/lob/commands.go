package lob

import (
	"fmt"
	"slices"
	"strconv"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// Command checks an LOB command against the state and emits its events.
func (r *Rules) Command(c *game.Command, x *game.Tx) error {
	a, ok := c.Args.(*Args)
	if !ok || a == nil {
		return fmt.Errorf("lob: the arguments of %s are %T, not LOB's", c.Verb, c.Args)
	}
	st := ext(x.S)
	side := c.Side
	if side == game.Umpire {
		side = st.phasing(x.S.Phase)
	}
	k := &cmd{r: r, x: x, s: x.S, st: st, sc: x.Sc, side: side, seat: c.Side, a: a, umpire: c.Side == game.Umpire}
	switch c.Verb {
	case "issue":
		return k.issue()
	case "release":
		return k.release()
	case "initiative":
		return k.initiative()
	case "skedaddle":
		return k.skedaddle()
	case "condition":
		return k.condition()
	case "designate":
		return k.designate()
	case "post":
		return k.move(true)
	case "aware":
		return k.aware()
	case "futile":
		return k.futile()
	case "fulfil":
		return k.fulfil()
	case "move":
		return k.move(false)
	case "form":
		return k.form()
	case "loss":
		return k.loss()
	case "enter":
		return k.enter()
	}
	return game.Reject("", "lob has no command %s", c.Verb)
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
	seat   string
	a      *Args
	umpire bool
}

// hidden reports whether the seat giving the command does not spot the
// enemy piece id (fog of war): for the command's legality, paths and
// costs it is not there. The umpire knows every piece.
func (k *cmd) hidden(id string) bool { return k.s.Hidden(k.seat, id) }

// formation finds a formation of the acting side, by its id or its
// leader's.
func (k *cmd) formation(id, what string) (*Formation, error) {
	f := k.st.Formation(id)
	if f == nil {
		if l := k.st.Leader(id); l != nil {
			f = k.st.Formation(l.Formation)
		}
	}
	if f == nil || f.Side != k.side {
		return nil, game.Reject("", "%s: there is no formation %s of %s; name one of your corps, divisions, artillery battalions or brigades", what, id, k.side)
	}
	return f, nil
}

// command finds a Command of the acting side that is on the map.
func (k *cmd) command(id, what string) (*Formation, error) {
	f, err := k.formation(id, what)
	if err != nil {
		return nil, err
	}
	if !f.IsCommand() {
		return nil, game.Reject("LOB-1", "%s: %s is a brigade; orders go to Commands (corps, divisions, artillery battalions)", what, f.ID)
	}
	if _, _, ok := k.st.Centre(f); !ok {
		return nil, game.Reject("LOB-1", "%s: %s has not entered the map yet", what, f.ID)
	}
	return f, nil
}

// leader finds a leader of the acting side on the map, by his id or the
// id of his formation (the side's id names the army commander).
func (k *cmd) leader(id, what string) (*Leader, error) {
	l := k.st.Leader(id)
	if l == nil {
		if f := k.st.Formation(id); f != nil {
			l = k.st.Leader(f.Leader)
		} else if sd := k.st.Side(id); sd != nil {
			l = k.st.Leader(sd.Army)
		}
	}
	if l == nil || l.Side != k.side {
		return nil, game.Reject("", "%s: there is no leader %s of %s; name one of your generals", what, id, k.side)
	}
	if !l.OnTable {
		return nil, game.Reject("", "%s: %s has not entered the map yet", what, l.ID)
	}
	return l, nil
}

// unit finds a combat unit of the acting side on the map.
func (k *cmd) unit(id string) (*Unit, error) {
	u := k.st.Unit(id)
	if u == nil || u.Side != k.side {
		return nil, game.Reject("", "there is no combat unit %s of %s; name one of your units", id, k.side)
	}
	if !u.alive() {
		return nil, game.Reject("", "%s is not on the map", id)
	}
	return u, nil
}

// hex reads a label against the map.
func (k *cmd) hex(label, what string) (geom.Point, error) {
	p, err := k.sc.Map.Parse(label)
	if err != nil {
		return geom.Point{}, game.Reject("", "%s: %v", what, err)
	}
	return p, nil
}

// emit emits an event of the acting side.
func (k *cmd) emit(typ, rule string, rolls []game.Roll, moves []game.Move, data any) error {
	return k.x.Emit(game.Event{Type: typ, Side: k.side, See: k.side, Rule: rule, Rolls: rolls, Moves: moves, Data: data})
}

// Draft is an order checked and worked out, before its command roll: what
// issue would emit on a roll of issued, and the roll's parameters.
type Draft struct {
	By     *Leader
	Issue  Issue
	Params map[string]string
	// Roll says a command roll is made (the army commander's, or a
	// release); a Command's order to its own division needs none.
	Roll bool
}

// draft checks an issue command and works out the order (LOB-3, LOB-4):
// the army commander, once a turn and not while the army HQ is
// skedaddled, issues to any Command on the map (or orders the army HQ to
// move, only when he stands stacked with it: 9.2a); a corps leader
// issues to his own divisions without a command roll (our reading of
// 10.8c). An artillery battalion takes move orders only; a
// move order names its destination; an order to establish a reserve names
// the formation (the Command itself, a division of a corps or a brigade
// of a division), or to a corps may leave it to the corps leader, who
// names it once the order reaches his HQ (designate). Embedded artillery
// battalions move with the order. An order sent to a Command in reserve
// releases it, and its rolls get the +2 of the user's tables; an order to
// the Command above a reserve does not (LOB-5, 10.4c).
func (k *cmd) draft() (*Draft, error) {
	sd := k.st.Side(k.side)
	by, sender, err := k.issuer(sd)
	if err != nil {
		return nil, err
	}
	d := &Draft{By: by, Roll: by.Army}
	var obj *geom.Point
	if k.a.Objective != "" {
		p, err := k.hex(k.a.Objective, "objective")
		if err != nil {
			return nil, err
		}
		obj = &p
	}
	if k.a.To == "hq" || k.a.To == "army-hq" {
		return k.draftArmyHQ(d, sd, obj)
	}
	o, f, err := k.order(sd, sender, obj)
	if err != nil {
		return nil, err
	}
	if err := k.route(d, sd, sender, f, o); err != nil {
		return nil, err
	}
	if err := k.embed(d, sd, obj); err != nil {
		return nil, err
	}
	d.Params = map[string]string{"value": strconv.Itoa(by.Value), "release": strconv.FormatBool(o.Release)}
	return d, nil
}

// issuer is the leader who issues an order (LOB-4): the army commander,
// once a turn and not while the army HQ is skedaddled, or a corps leader,
// whose corps is sender (nil for the army commander).
func (k *cmd) issuer(sd *Side) (by *Leader, sender *Formation, err error) {
	from := k.a.From
	if from == "" {
		from = sd.Army
	}
	by, err = k.leader(from, "from")
	if err != nil {
		return nil, nil, err
	}
	if by.Army {
		if sd.Rolled {
			return nil, nil, game.Reject("LOB-4", "%s has made his command roll this turn; the army commander makes one a turn", by.ID)
		}
		if sd.Skedaddle {
			return nil, nil, game.Reject("LOB-8", "the army HQ of %s is skedaddled and issues no orders until the skedaddle ends", k.side)
		}
		return by, nil, nil
	}
	sender = k.st.Formation(by.Formation)
	if sender == nil || sender.Kind != KindCorps {
		return nil, nil, game.Reject("LOB-4", "%s leads no corps; orders come from the army commander, or from a corps leader to his divisions", by.ID)
	}
	return by, sender, nil
}

// draftArmyHQ works out the army commander's order to move the army HQ to
// obj (LOB-4): a move order, given only when he stands stacked with it
// (9.2a, checked before the command roll: a refusal spends none).
func (k *cmd) draftArmyHQ(d *Draft, sd *Side, obj *geom.Point) (*Draft, error) {
	by, a := d.By, k.a
	if !by.Army {
		return nil, game.Reject("LOB-4", "only the army commander orders the army HQ to move")
	}
	if a.Kind != "" && a.Kind != Move {
		return nil, game.Reject("LOB-4", "the army HQ takes a move order, not %s", a.Kind)
	}
	if obj == nil {
		return nil, game.Reject("LOB-3", "an order to move the army HQ needs its destination hex as objective")
	}
	if by.At != sd.HQ {
		return nil, game.Reject("LOB-4", "%s stands at %s and the army HQ at %s: the army commander orders the army HQ to move only when stacked with it (9.2a); move him into hex %s first",
			by.ID, k.sc.Map.Format(by.At), k.sc.Map.Format(sd.HQ), k.sc.Map.Format(sd.HQ))
	}
	turn := k.s.Turn
	d.Issue = Issue{By: by.ID, Roll: true, HQ: true, Order: Order{Side: k.side, Kind: Move, Objective: obj, Note: a.Note, From: "army", To: "hq", Issued: turn, Arrives: turn, Stage: Executing}}
	d.Params = map[string]string{"value": strconv.Itoa(by.Value), "release": "false"}
	return d, nil
}

// order checks the order's Command and kind and makes the order (LOB-3,
// LOB-5): a corps leader orders his own divisions; an artillery battalion
// takes move orders only; a move order names its objective; only an
// order to establish a reserve names one, and one to a corps may leave it
// to the corps leader. An order to a Command in reserve releases it.
func (k *cmd) order(sd *Side, sender *Formation, obj *geom.Point) (*Order, *Formation, error) {
	a := k.a
	f, err := k.command(a.To, "to")
	if err != nil {
		return nil, nil, err
	}
	if sender != nil && f.Parent != sender.ID {
		return nil, nil, game.Reject("LOB-4", "%s is not a division of %s; a corps leader orders his own divisions", f.ID, sender.ID)
	}
	kind := a.Kind
	switch {
	case kind == "":
		return nil, nil, game.Reject("LOB-3", "an order has a kind; allowed: %s", join(Orders))
	case f.Kind == KindBattalion && kind != Move:
		return nil, nil, game.Reject("LOB-3", "%s is an artillery battalion and takes move orders only", f.ID)
	case kind == Move && obj == nil:
		return nil, nil, game.Reject("LOB-3", "a move order needs its destination hex as objective")
	}
	o := &Order{ID: orderID(k.side, sd.Issued+1), Side: k.side, Kind: kind, Objective: obj, Note: a.Note, Condition: a.Condition,
		From: "army", To: f.ID, Issued: k.s.Turn, Stage: Issued}
	if sender != nil {
		o.From = sender.ID
	}
	if kind == Reserve {
		if a.Reserve != "" || f.Kind != KindCorps {
			target, err := k.reserveOf(f, a.Reserve, "reserve")
			if err != nil {
				return nil, nil, err
			}
			o.Reserve = target.ID
		}
	} else if a.Reserve != "" {
		return nil, nil, game.Reject("LOB-5", "only an order of kind reserve names a reserve")
	}
	o.Release = f.Reserve && kind != Reserve
	return o, f, nil
}

// route works out order o's delivery from the sender's HQ (the army
// commander's, or the corps') to Command f's (LOB-4), and puts the order,
// with its arrival, in d.
func (k *cmd) route(d *Draft, sd *Side, sender, f *Formation, o *Order) error {
	from, radius := d.By.At, d.By.Radius
	who := "army"
	if sender != nil {
		at, l, _ := k.st.Centre(sender)
		from, radius = at, l.Radius
		who = senderOf(sender)
	}
	to, _, _ := k.st.Centre(f)
	rt, err := k.r.delivery(who, sd.Aware, from, radius, to, o.Release, k.st)
	if err != nil {
		return fmt.Errorf("lob: %w", err)
	}
	o.Arrives = k.s.Turn + rt.turns
	d.Issue = Issue{By: d.By.ID, Roll: d.Roll, Order: *o, Dist: rt.dist, Radius: radius, Turns: rt.turns}
	return nil
}

// embed adds to d the move orders of the artillery battalions embedded in
// its order (LOB-4): each moves to the order's objective obj, and
// arrives with it.
func (k *cmd) embed(d *Draft, sd *Side, obj *geom.Point) error {
	o := &d.Issue.Order
	n := sd.Issued + 1
	for _, id := range k.a.With {
		b, err := k.command(id, "with")
		if err != nil {
			return err
		}
		if b.Kind != KindBattalion {
			return game.Reject("LOB-4", "%s is not an artillery battalion; only battalions' orders are embedded in a Command's", b.ID)
		}
		if o.Kind == Reserve || obj == nil {
			return game.Reject("LOB-3", "an artillery battalion's embedded order is a move order, and needs the order's objective as its destination")
		}
		n++
		d.Issue.With = append(d.Issue.With, Order{ID: orderID(k.side, n), Side: k.side, Kind: Move, Objective: obj, Note: o.Note, From: o.From, To: b.ID,
			Parent: o.ID, Embedded: true, Issued: k.s.Turn, Arrives: o.Arrives, Stage: Delivering})
	}
	return nil
}

// reserveOf checks the formation an order to Command f places in reserve
// (LOB-5): f itself when id is "", or a formation under it; a division or
// a brigade, not in reserve already.
func (k *cmd) reserveOf(f *Formation, id, what string) (*Formation, error) {
	target := f
	if id != "" {
		var err error
		if target, err = k.formation(id, what); err != nil {
			return nil, err
		}
		if target.ID != f.ID && !k.st.within(target.ID, f.ID) {
			return nil, game.Reject("LOB-5", "%s is not under %s; a reserve is the Command itself or one of its formations", target.ID, f.ID)
		}
		// A relay to a formation off the map has nowhere to go (10.4c), so
		// one still to enter is not named; its Command's leader may name
		// it once it has entered (designate).
		if target.ID != f.ID && !k.st.present(target) {
			when := ""
			if target.Arrives > k.s.Turn {
				when = fmt.Sprintf(" (it arrives on turn %d)", target.Arrives)
			}
			return nil, game.Reject("LOB-5", "%s is not on the map%s; a reserve under %s is named among its formations on the map, or left to its leader to name once it is", target.ID, when, f.ID)
		}
	}
	if target.Kind != KindDivision && target.Kind != "brigade" {
		return nil, game.Reject("LOB-5", "a reserve is a division or a brigade; %s is a %s", target.ID, target.Kind)
	}
	if target.Reserve {
		return nil, game.Reject("LOB-5", "%s is in reserve already", target.ID)
	}
	return target, nil
}

func join(xs []string) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += x
	}
	return s
}

// issue makes the army commander's command roll (LOB-4) and, if it
// passes, sends the order on its way; a corps leader's order to his
// division goes without one.
func (k *cmd) issue() error {
	d, err := k.draft()
	if err != nil {
		return err
	}
	is := d.Issue
	var rolls []game.Roll
	if d.Roll {
		ro, _, err := k.x.Roll(k.r.command.ID, d.By.ID, d.Params)
		if err != nil {
			return err
		}
		rolls = append(rolls, *ro)
		is.Result = ro.Result
	} else {
		is.Result = "issued"
	}
	return k.emit(EvIssued, "LOB-4", rolls, nil, &is)
}

// release makes a command roll to release a reserve (LOB-5: +2 by the
// user's table): the leader of the Command above it rolls and, if it
// passes, relays the release, which frees the reserve when it arrives.
// The army commander releases a reserve Command by an order (issue).
func (k *cmd) release() error {
	f, p, by, err := k.releaser()
	if err != nil {
		return err
	}
	ro, _, err := k.x.Roll(k.r.command.ID, by.ID, releaseParams(by))
	if err != nil {
		return err
	}
	rel := &Release{By: by.ID, Formation: f.ID, Result: ro.Result}
	if ro.Result == "issued" {
		at, l, _ := k.st.Centre(p)
		to, _, _ := k.st.Centre(f)
		if fl := k.st.Leader(f.Leader); fl != nil && fl.OnTable && !f.IsCommand() {
			to = fl.At
		}
		rt, err := k.r.delivery(senderOf(p), true, at, l.Radius, to, true, k.st)
		if err != nil {
			return fmt.Errorf("lob: %w", err)
		}
		sd := k.st.Side(k.side)
		turn := k.s.Turn
		rel.Order = &Order{ID: orderID(k.side, sd.Issued+1), Side: k.side, From: p.ID, To: f.ID, Release: true, Issued: turn, Arrives: turn + rt.turns, Stage: Issued}
		rel.Dist, rel.Turns = rt.dist, rt.turns
	}
	return k.emit(EvRelease, "LOB-5", []game.Roll{*ro}, nil, rel)
}

// releaser checks a release: the reserve, the Command above it and the
// leader who rolls (LOB-5).
func (k *cmd) releaser() (f, p *Formation, by *Leader, err error) {
	if f, err = k.formation(k.a.Formation, "formation"); err != nil {
		return nil, nil, nil, err
	}
	if !f.Reserve {
		return nil, nil, nil, game.Reject("LOB-5", "%s is not in reserve", f.ID)
	}
	if p = k.st.Formation(f.Parent); p == nil {
		return nil, nil, nil, game.Reject("LOB-5", "%s answers to the army commander; release it with an order (issue)", f.ID)
	}
	if by, err = k.leader(p.Leader, "by"); err != nil {
		return nil, nil, nil, err
	}
	if k.a.By != "" && k.a.By != by.ID && k.a.By != p.ID {
		return nil, nil, nil, game.Reject("LOB-5", "the release of %s is ordered by %s, the leader of %s", f.ID, by.ID, p.ID)
	}
	if slices.Contains(by.Rolled, "release-order") {
		return nil, nil, nil, game.Reject("LOB-5", "%s has rolled to release a reserve this turn", by.ID)
	}
	return f, p, by, nil
}

// releaseParams are the command roll's parameters for a release.
func releaseParams(by *Leader) map[string]string {
	return map[string]string{"value": strconv.Itoa(by.Value), "release": "true"}
}

// Attempt is an initiative roll checked: its leader, target and the
// roll's parameters.
type Attempt struct {
	Leader *Leader
	Target *Formation // nil: the army HQ
	With   string
	Params map[string]string
}

// attempt checks an initiative command (LOB-5, LOB-8): a purpose the
// leader has not rolled for this turn, and a target it may be rolled for.
func (k *cmd) attempt() (*Attempt, error) {
	a := k.a
	if !slices.Contains(Purposes, a.Purpose) {
		return nil, game.Reject("LOB-8", "initiative is rolled for one of %s, not %q", join(Purposes), a.Purpose)
	}
	l, err := k.leader(a.Leader, "leader")
	if err != nil {
		return nil, err
	}
	if slices.Contains(l.Rolled, a.Purpose) {
		return nil, game.Reject("LOB-8", "%s has rolled initiative to %s this turn", l.ID, words(a.Purpose))
	}
	at := &Attempt{Leader: l, Params: map[string]string{"value": strconv.Itoa(l.Value), "purpose": a.Purpose, "army": strconv.FormatBool(l.Army)}}
	if a.Purpose == "end-skedaddle" && (a.Formation == k.side || a.Formation == "army") {
		if err := k.mayEndArmySkedaddle(l); err != nil {
			return nil, err
		}
		return at, nil
	}
	f, err := k.formation(a.Formation, "formation")
	if err != nil {
		return nil, err
	}
	at.Target = f
	chain := k.chain(f, l)
	switch a.Purpose {
	case "end-skedaddle":
		err = k.mayEndSkedaddle(f, l)
	case "deploy-early":
		err = mayDeployEarly(f, l, chain)
	case "establish-reserve":
		err = k.mayEstablish(f, l, chain)
	case "release-reserve":
		err = k.mayRelease(f, l, chain)
	case "associate-artillery":
		at.With, err = k.mayAssociate(f, l)
	}
	if err != nil {
		return nil, err
	}
	return at, nil
}

// mayEndArmySkedaddle checks an initiative roll to end the army HQ's
// skedaddle (LOB-8): the army commander's, within his radius of it.
func (k *cmd) mayEndArmySkedaddle(l *Leader) error {
	sd := k.st.Side(k.side)
	if !sd.Skedaddle {
		return game.Reject("LOB-8", "the army HQ of %s is not skedaddled", k.side)
	}
	if !l.Army {
		return game.Reject("LOB-8", "the army commander ends the army HQ's skedaddle")
	}
	if d := k.st.dist(l.At, sd.HQ); d > l.Radius {
		return game.Reject("LOB-8", "%s is %d hexes from the army HQ, beyond his radius of %d; he must be within it to end the skedaddle", l.ID, d, l.Radius)
	}
	return nil
}

// mayEndSkedaddle checks an initiative roll by l to end Command f's
// skedaddle (LOB-8): its leader's, or the army commander's within its
// command radius, once the formations it held are back within it.
func (k *cmd) mayEndSkedaddle(f *Formation, l *Leader) error {
	if !f.IsCommand() || !f.Skedaddle {
		return game.Reject("LOB-8", "%s is not a skedaddled Command", f.ID)
	}
	if l.ID != f.Leader {
		in, _ := k.st.InRadius(f, l.At)
		if !l.Army || !in {
			return game.Reject("LOB-8", "the skedaddle of %s is ended by its leader, or by the army commander within its command radius", f.ID)
		}
	}
	for _, id := range f.Held {
		if !k.st.formationIn(id) {
			return game.Reject("LOB-8", "%s was within command radius when %s skedaddled and is not back within it", id, f.ID)
		}
	}
	return nil
}

// mayDeployEarly checks an initiative roll by l to deploy f early (LOB-8):
// a leader in its chain of command (chain), once.
func mayDeployEarly(f *Formation, l *Leader, chain bool) error {
	if !chain {
		return game.Reject("LOB-8", "%s is not in the chain of command of %s", l.ID, f.ID)
	}
	if f.Deployed {
		return game.Reject("LOB-8", "%s has gained initiative to deploy already", f.ID)
	}
	return nil
}

// mayEstablish checks an initiative roll by l to place f in reserve
// (LOB-5): a division of a corps or a brigade of a division, not in
// reserve, by the leader of a Command above it (chain, not the army
// commander), its own leader within its parent's command radius.
func (k *cmd) mayEstablish(f *Formation, l *Leader, chain bool) error {
	p := k.st.Formation(f.Parent)
	if f.Kind != KindDivision && f.Kind != "brigade" || p == nil {
		return game.Reject("LOB-5", "%s is not a division of a corps or a brigade of a division; those are the reserves initiative may establish", f.ID)
	}
	if f.Reserve {
		return game.Reject("LOB-5", "%s is in reserve already", f.ID)
	}
	if l.Army || !chain || l.ID == f.Leader {
		return game.Reject("LOB-5", "a reserve is established by the leader of a Command above it; %s is not one of %s", l.ID, f.ID)
	}
	fl := k.st.Leader(f.Leader)
	if in, _ := k.st.InRadius(p, fl.At); fl == nil || !fl.OnTable || !in {
		return game.Reject("LOB-5", "%s's leader is not within the command radius of %s", f.ID, p.ID)
	}
	return nil
}

// mayRelease checks an initiative roll by l to release reserve f (LOB-5):
// not the army commander's; the leader of its Command, or a higher leader
// of the Command (chain) stacked with its leader.
func (k *cmd) mayRelease(f *Formation, l *Leader, chain bool) error {
	if !f.Reserve {
		return game.Reject("LOB-5", "%s is not in reserve", f.ID)
	}
	if l.Army {
		return game.Reject("LOB-5", "the army commander cannot release a reserve by initiative")
	}
	p := k.st.Formation(f.Parent)
	fl := k.st.Leader(f.Leader)
	ok := p != nil && l.ID == p.Leader || chain && l.ID != f.Leader && fl != nil && fl.At == l.At
	if !ok {
		return game.Reject("LOB-5", "a reserve is released by the leader of its Command, or by a higher leader of the Command stacked with its leader")
	}
	return nil
}

// mayAssociate checks an initiative roll by l to associate artillery
// battalion f with the Command the command names (LOB-8): a corps or a
// division, by the battalion's leader or the Command's. It returns the
// Command.
func (k *cmd) mayAssociate(f *Formation, l *Leader) (string, error) {
	if f.Kind != KindBattalion {
		return "", game.Reject("LOB-8", "%s is not an artillery battalion", f.ID)
	}
	with := ""
	if len(k.a.With) > 0 {
		with = k.a.With[0]
	}
	w, err := k.command(with, "with")
	if err != nil {
		return "", err
	}
	if w.ID == f.ID || w.Kind == KindBattalion {
		return "", game.Reject("LOB-8", "a battalion is associated with a corps or a division, not %s", w.ID)
	}
	if l.ID != f.Leader && l.ID != w.Leader {
		return "", game.Reject("LOB-8", "the battalion's leader or the Command's leader rolls to associate it")
	}
	return w.ID, nil
}

// chain reports whether leader l is in the chain of command of formation
// f: its own leader, a leader of a formation above it, or the army
// commander.
func (k *cmd) chain(f *Formation, l *Leader) bool {
	if l.Army || l.ID == f.Leader {
		return true
	}
	lf := k.st.Formation(l.Formation)
	return lf != nil && k.st.within(f.ID, lf.ID)
}

// initiative rolls a leader's initiative (LOB-8): to end a skedaddle,
// deploy early, establish or release a reserve without a relay (LOB-5),
// or associate an artillery battalion.
func (k *cmd) initiative() error {
	at, err := k.attempt()
	if err != nil {
		return err
	}
	ro, _, err := k.x.Roll(k.r.initiative.ID, at.Leader.ID, at.Params)
	if err != nil {
		return err
	}
	in := &Initiative{Leader: at.Leader.ID, Purpose: k.a.Purpose, Formation: k.side, With: at.With, Result: ro.Result}
	if at.Target != nil {
		in.Formation = at.Target.ID
		if k.a.Purpose == "release-reserve" && ro.Result == "initiative" {
			in.Follows = at.Target.Order // its existing orders (10.4c)
		}
	}
	rule := "LOB-8"
	if k.a.Purpose == "establish-reserve" || k.a.Purpose == "release-reserve" {
		rule = "LOB-5"
	}
	return k.emit(EvInitiative, rule, []game.Roll{*ro}, nil, in)
}

// skedaddle makes a Command skedaddle by choice (LOB-8).
func (k *cmd) skedaddle() error {
	if k.a.Formation == k.side || k.a.Formation == "army" {
		if k.st.Side(k.side).Skedaddle {
			return game.Reject("LOB-8", "the army HQ of %s is skedaddled already", k.side)
		}
		return k.emit(EvSkedaddle, "LOB-8", nil, nil, &Skedaddle{Side: k.side})
	}
	f, err := k.command(k.a.Formation, "formation")
	if err != nil {
		return err
	}
	if f.Skedaddle {
		return game.Reject("LOB-8", "%s is skedaddled already", f.ID)
	}
	sk, moves := k.st.skedaddle(f, "")
	return k.emit(EvSkedaddle, "LOB-8", nil, moves, sk)
}

// skedaddle works out a Command's skedaddle (LOB-8): it and, for a corps,
// its divisions (not artillery battalions) skedaddle; the formations
// within command radius now are recorded; reserves lose their status;
// the posted batteries of a skedaddled battalion limber.
func (st *State) skedaddle(f *Formation, cause string) (*Skedaddle, []game.Move) {
	sk := &Skedaddle{Command: f.ID, Side: f.Side, Cause: cause, Commands: []string{f.ID}}
	all := append([]int{st.form[f.ID]}, st.below(f.ID)...)
	for _, i := range all[1:] {
		// Reinforcements still to enter are not caught (10.9c).
		if g := &st.Formations[i]; g.IsCommand() && g.Kind != KindBattalion && !g.Skedaddle && g.Entered {
			sk.Commands = append(sk.Commands, g.ID)
		}
	}
	var moves []game.Move
	for _, i := range all {
		g := &st.Formations[i]
		if g.Kind == KindBattalion && g.ID != f.ID || !g.Entered {
			continue
		}
		if st.formationIn(g.ID) {
			sk.Held = append(sk.Held, g.ID)
		}
		if g.Reserve {
			sk.Lost = append(sk.Lost, g.ID)
		}
	}
	if f.Kind == KindBattalion {
		for _, u := range st.unitsOf(f.ID) {
			if u.alive() && u.Posted {
				sk.Limbered = append(sk.Limbered, u.ID)
				moves = append(moves, game.Move{Unit: u.ID, To: u.At, Shape: "limbered", Piece: u.pi + 1})
			}
		}
	}
	return sk, moves
}

// split parts a skedaddle into what everyone who sees it may be told
// (open) and what its side alone may (own): which of its formations stood
// within command radius says where units stand that the enemy may not
// spot, and which lose reserve status speaks of reserves, which the enemy
// is not told of. own is nil when it holds neither.
func (sk *Skedaddle) split() (open, own *Skedaddle) {
	o := *sk
	o.Held, o.Lost = nil, nil
	if len(sk.Held) == 0 && len(sk.Lost) == 0 {
		return &o, nil
	}
	return &o, &Skedaddle{Command: sk.Command, Side: sk.Side, Held: sk.Held, Lost: sk.Lost}
}

// condition declares a conditional order's condition fulfilled (LOB-6),
// for it and its relays.
func (k *cmd) condition() error {
	o := k.st.Order(k.a.Order)
	if o == nil || o.Side != k.side {
		return game.Reject("LOB-6", "there is no order %s of %s", k.a.Order, k.side)
	}
	if o.Condition == "" {
		return game.Reject("LOB-6", "order %s has no condition", o.ID)
	}
	if o.Parent != "" {
		return game.Reject("LOB-6", "order %s is a relay of %s; declare the condition of %s, which reaches its relays", o.ID, o.Parent, o.Parent)
	}
	if o.Met {
		return game.Reject("LOB-6", "the condition of order %s is fulfilled already", o.ID)
	}
	if !o.Live() {
		return game.Reject("LOB-6", "order %s is %s", o.ID, words(o.Stage))
	}
	if err := k.emit(EvCondition, "LOB-6", nil, nil, &Condition{Order: o.ID}); err != nil {
		return err
	}
	// Declared in the command phase, it counts as declared before the
	// phase's acceptance rolls: the corps, if the order has reached its
	// HQ, and each division whose relay has arrived roll now (10.4d).
	a, rolls, err := k.r.accepts(k.x, k.st, k.side, o.ID)
	if err != nil || a == nil {
		return err
	}
	return k.emit(EvAccepted, "LOB-6", rolls, nil, a)
}

// designate names the formation an order to establish a reserve left to
// the leader of the Command it went to (LOB-5, 10.4c): once the order has
// reached the Command's HQ, a division or brigade under it. The reserve
// is identified now, so a relay that is needed (a corps under attack
// orders) leaves now; one that is not places the reserve at once if the
// order is accepted, else when it is.
func (k *cmd) designate() error {
	o := k.st.Order(k.a.Order)
	if o == nil || o.Side != k.side || o.Parent != "" {
		return game.Reject("LOB-5", "there is no order %s of %s", k.a.Order, k.side)
	}
	if o.Kind != Reserve {
		return game.Reject("LOB-5", "order %s is an %s order; only an order to establish a reserve leaves the reserve to be named", o.ID, o.Kind)
	}
	if o.Reserve != "" {
		return game.Reject("LOB-5", "order %s names its reserve already: %s", o.ID, o.Reserve)
	}
	switch o.Stage {
	case Issued, Delivering:
		return game.Reject("LOB-5", "order %s has not reached the HQ of %s yet (it arrives on turn %d); its leader names the reserve once he has it", o.ID, o.To, o.Arrives)
	case Awaiting, Accepted:
	default:
		return game.Reject("LOB-5", "order %s is %s", o.ID, words(o.Stage))
	}
	f, err := k.command(o.To, "order")
	if err != nil {
		return err
	}
	target, err := k.reserveOf(f, k.a.Formation, "formation")
	if err != nil {
		return err
	}
	if target.ID == f.ID {
		return game.Reject("LOB-5", "the reserve of order %s is a formation under %s", o.ID, f.ID)
	}
	_, by, _ := k.st.Centre(f)
	d := &Designation{Order: o.ID, Command: f.ID, Formation: target.ID}
	if by != nil {
		d.By = by.ID
	}
	named := *o
	named.Reserve = target.ID
	if c, ok := k.r.reserveRelay(k.st, &named, k.s.Turn); ok && (o.Stage == Accepted || k.r.play["relay-after-acceptance"] == 0) {
		d.Relay = &c
	} else if !ok && o.Stage == Accepted {
		d.Placed = true
	}
	return k.emit(EvDesignated, "LOB-5", nil, nil, d)
}

// aware makes an army commander aware (LOB-4). Our source says only that
// awareness is the army commander's; when he becomes aware is the
// scenario's (unaware-until, or what it says shall make him aware), so it
// is the scenario's turn or the umpire's call. A side may name no other
// side's army commander, and is refused in words that say nothing of the
// enemy's awareness (which its view does not hold); for its own, it is
// refused too, before unaware-until (the umpire may declare him aware
// sooner), and aware already after it. The event goes to his side alone.
func (k *cmd) aware() error {
	side := k.side
	if k.a.Side != "" {
		side = k.a.Side
	}
	if !k.umpire && side != k.side {
		return game.Reject("LOB-4", "a side may declare only its own army commander aware; the umpire may declare any side's")
	}
	sd := k.st.Side(side)
	if sd == nil {
		return game.Reject("", "there is no side %s", side)
	}
	if sd.Aware {
		return game.Reject("LOB-4", "the army commander of %s is aware already", side)
	}
	if !k.umpire {
		return game.Reject("LOB-4", "the army commander of %s is unaware until turn %d (the scenario's unaware-until); only the umpire may declare him aware sooner", side, sd.UnawareUntil)
	}
	// The enemy is not told (its view does not hold his awareness).
	return k.x.Emit(game.Event{Type: EvAware, Side: side, See: side, Rule: "LOB-4", Data: &Aware{Side: side}})
}

// futile ends a Command's attack order as futile (LOB-7): every formation
// the order controls (a corps order's relays) goes to no-orders status,
// and every Command that executed it begins attack recovery.
func (k *cmd) futile() error {
	f, err := k.command(k.a.Formation, "formation")
	if err != nil {
		return err
	}
	o := k.st.Executing(f)
	if o == nil || o.Kind != Attack {
		return game.Reject("LOB-7", "only attack orders are ended as futile; %s is not executing one", f.ID)
	}
	orders, cmds, rec := k.st.reach(o)
	return k.emit(EvFutile, "LOB-7", nil, nil, &Ending{Command: f.ID, Order: o.ID, Orders: orders, Commands: cmds, Recover: rec})
}

// fulfil declares a Command's order fulfilled; it ends at the end of the
// player turn (LOB-7).
func (k *cmd) fulfil() error {
	f, err := k.command(k.a.Formation, "formation")
	if err != nil {
		return err
	}
	o := k.st.Executing(f)
	if o == nil {
		return game.Reject("LOB-7", "%s has no order to fulfil", f.ID)
	}
	if f.Declared {
		return game.Reject("LOB-7", "the order of %s is declared fulfilled already", f.ID)
	}
	return k.emit(EvDeclared, "LOB-7", nil, nil, &Ending{Command: f.ID, Order: o.ID})
}

// shapes are the formations each arm takes (game.Shaper gives a copy).
var shapes = map[string][]string{
	"infantry":  {"line", "column", "open-order"},
	"cavalry":   {"mounted", "dismounted", "column"},
	"artillery": {"limbered", "unlimbered"},
}

// form changes a combat unit's formation. A Command in transit under a
// move order cannot deploy out of column (or, artillery, limber) before
// its HQ reaches the destination, unless it gains initiative to deploy
// early (10.4b, 10.8e); a unit out of command radius changes formation
// only at the end of a move back toward it (LOB-2).
func (k *cmd) form() error {
	u, err := k.unit(k.a.Unit)
	if err != nil {
		return err
	}
	sh := k.a.Shape
	if !slices.Contains(shapes[u.Type], sh) {
		return game.Reject("", "%s is %s, which forms %s, not %s", u.ID, u.Type, join(shapes[u.Type]), sh)
	}
	if u.Shape == sh {
		return game.Reject("", "%s is %s already", u.ID, game.Formed(sh))
	}
	f := k.st.Formation(u.Command)
	if o := k.st.Executing(f); o != nil && o.Kind == Move && !f.Deployed && !k.r.arrived(k.st, f, o) && (u.Shape == "column" || u.Shape == "limbered") && !k.umpire {
		return game.Overridable(u.ID, "LOB-3", "%s is in transit under a move order and cannot deploy until its HQ reaches the destination, or it gains initiative to deploy early", f.ID)
	}
	if in, _ := k.st.InRadius(f, u.At); !in && u.Used == 0 && !k.umpire {
		return game.Overridable(u.ID, "LOB-2", "%s is out of command radius; it changes formation only at the end of a move back toward it", u.ID)
	}
	return k.x.Emit(game.Event{Type: EvFormed, Side: k.side, See: game.All, Rule: "LOB-2",
		Moves: []game.Move{{Unit: u.ID, To: u.At, Shape: sh, Piece: u.pi + 1}}, Data: &Formed{Unit: u.ID, Formation: sh}})
}

// loss records strength a combat unit lost; it counts towards its
// division's fluke stoppage while an attack order is accepted (LOB-7).
func (k *cmd) loss() error {
	u := k.st.Unit(k.a.Unit)
	if u == nil || !u.alive() {
		return game.Reject("", "there is no combat unit %s on the map", k.a.Unit)
	}
	if k.a.Points < 1 || k.a.Points > 99 {
		return game.Reject("", "a unit loses 1..99 strength points, not %d", k.a.Points)
	}
	// Whether the loss counts toward a fluke stoppage check is the unit's
	// side's secret (its orders): Apply works it out, the event (seen by
	// both sides) does not say.
	l := &Lost{Unit: u.ID, Points: min(k.a.Points, u.Strength)}
	l.Left = u.Strength - l.Points
	return k.x.Emit(game.Event{Type: EvLost, Side: k.side, See: game.All, Data: l})
}
