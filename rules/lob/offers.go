package lob

import (
	"fmt"
	"slices"
	"strconv"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/terrain"
)

// checker is a command checked without being carried out: what a page is
// offered, and what it is told before a roll, is what Command would do on
// what seat knows.
func (r *Rules) checker(s *game.State, sc *battle.Scenario, seat, side string, a *Args) *cmd {
	return &cmd{r: r, s: s, st: ext(s), sc: sc, side: side, seat: seat, a: a}
}

// Offers says which of the step's commands seat may give for each id
// (game.Offerer). In the orders step: issue for the army commander before
// his command roll and for corps leaders (to their divisions), release
// for a reserve under a Command, initiative for every leader, futile for
// a Command executing an attack, fulfil for one executing an order,
// skedaddle for a Command, condition for a Command whose conditional
// order awaits its condition, designate for a Command whose leader has an
// order to establish a reserve that left the reserve to him (LOB-5) and
// for each formation under it that he may name, post
// for batteries, and to the umpire alone aware for each army HQ
// ("hq:SIDE") whose commander is unaware, and in every player step enter
// for each Command still to come, of either side, when the map has road
// hexes on its edges (Board.Exits). In
// movement: move for pieces with movement left, form for combat units,
// move for a Command's HQ on the map ("hq:COMMAND") and for the army HQ
// under a move order ("hq:SIDE"). In combat: loss for any unit on the
// map.
func (r *Rules) Offers(s *game.State, step game.Step, seat string) map[string][]string {
	st := ext(s)
	out := map[string][]string{}
	if st.sc == nil {
		return out
	}
	side := game.SeatSide(seat, st.phasing(s.Phase))
	if !slices.Contains(step.Actors, side) {
		return out
	}
	of := game.NewOffered(step)
	sd := st.Side(side)
	if sd == nil {
		return of.Out
	}
	if seat == game.Umpire {
		umpireOffers(st, of)
	}
	if step.Name == StepMove && sd.Goal != nil && sd.HQUsed < r.allow["leader"] {
		of.Add("hq:"+side, "move")
	}
	r.leaderOffers(st, sd, step, of)
	for i := range st.Formations {
		f := &st.Formations[i]
		if f.Side != side || !f.Entered && !st.present(f) {
			continue
		}
		if f.IsCommand() {
			r.commandOffers(st, f, step, of)
		}
		if p := st.Formation(f.Parent); f.Reserve && p != nil {
			if l := st.Leader(p.Leader); l != nil && !slices.Contains(l.Rolled, "release-order") {
				of.Add(f.ID, "release")
			}
		}
	}
	r.unitOffers(st, side, step, of)
	return of.Out
}

// umpireOffers adds what the umpire alone is offered: aware for each army
// HQ whose commander is unaware, and enter for each Command still to come
// when the map has road hexes on its edges.
func umpireOffers(st *State, of *game.Offered) {
	for _, o := range st.Sides {
		if !o.Aware {
			of.Add("hq:"+o.ID, "aware")
		}
	}
	if len(RoadExits(st.sc.Terrain)) > 0 {
		for i := range st.Formations {
			if f := &st.Formations[i]; f.IsCommand() && f.toArrive() {
				of.Add(f.ID, "enter")
			}
		}
	}
}

// leaderOffers adds the offers for side sd's leaders on the map: issue
// (the army commander before his command roll, corps leaders) and
// initiative in the orders step; move with movement left, and
// initiative, in movement.
func (r *Rules) leaderOffers(st *State, sd *Side, step game.Step, of *game.Offered) {
	for i := range st.Leaders {
		l := &st.Leaders[i]
		if l.Side != sd.ID || !l.OnTable {
			continue
		}
		switch step.Name {
		case StepOrders:
			if l.Army && !sd.Rolled && !sd.Skedaddle {
				of.Add(l.ID, "issue")
			}
			if f := st.Formation(l.Formation); f != nil && f.Kind == KindCorps {
				of.Add(l.ID, "issue")
			}
			of.Add(l.ID, "initiative")
		case StepMove:
			if l.Used < r.allow["leader"] {
				of.Add(l.ID, "move")
			}
			of.Add(l.ID, "initiative")
		}
	}
}

// commandOffers adds the offers for Command f on the map or entered:
// skedaddle; fulfil, and futile for an attack, while it executes a live
// order not declared fulfilled; condition while a conditional order to it
// awaits its condition; designate for it and the formations under it its
// leader may name (LOB-5); and move for its HQ on the map in movement.
func (r *Rules) commandOffers(st *State, f *Formation, step game.Step, of *game.Offered) {
	of.Add(f.ID, "skedaddle")
	if o := st.Order(f.Order); o != nil && o.Live() && !f.Declared {
		of.Add(f.ID, "fulfil")
		if o.Kind == Attack {
			of.Add(f.ID, "futile")
		}
	}
	for j := range st.Orders {
		o := &st.Orders[j]
		if o.To != f.ID || o.Parent != "" || !o.Live() {
			continue
		}
		if o.Condition != "" && !o.Met {
			of.Add(f.ID, "condition")
		}
		if o.Kind == Reserve && o.Reserve == "" && (o.Stage == Awaiting || o.Stage == Accepted) {
			of.Add(f.ID, "designate")
			// and the formations he may name: on the map, not in
			// reserve already (reserveOf).
			for _, i := range st.below(f.ID) {
				if t := &st.Formations[i]; (t.Kind == KindDivision || t.Kind == "brigade") && !t.Reserve && st.present(t) {
					of.Add(t.ID, "designate")
				}
			}
		}
	}
	if step.Name == StepMove && f.HQOn && f.HQUsed < r.allow["leader"] {
		of.Add("hq:"+f.ID, "move")
	}
}

// unitOffers adds the offers for combat units: loss for any unit on the
// map in combat; for side's own, post for batteries in the orders step,
// and move with movement left, and form, in movement.
func (r *Rules) unitOffers(st *State, side string, step game.Step, of *game.Offered) {
	for i := range st.Units {
		u := &st.Units[i]
		if !u.alive() {
			continue
		}
		if step.Name == StepCombat {
			of.Add(u.ID, "loss") // losses from the side's fire, its own or the enemy's
		}
		if u.Side != side {
			continue
		}
		switch step.Name {
		case StepOrders:
			if u.Type == "artillery" {
				of.Add(u.ID, "post")
			}
		case StepMove:
			if u.Used < r.allow[u.Type] {
				of.Add(u.ID, "move")
			}
			of.Add(u.ID, "form")
		}
	}
}

// Board is what a page needs, beside the state, to draw an LOB game and
// offer its commands without working out a rule (game.Annotator).
type Board struct {
	// Side is the side the seat acts for now.
	Side string `json:"side"`
	// Rolled says the side's army commander has made his command roll
	// this turn (LOB-4); Aware is his awareness.
	Rolled bool `json:"rolled"`
	Aware  bool `json:"aware"`
	// HQ is each side's army HQ hex, a counter open to both sides, and
	// HQOrder the seat's side's army HQ's move order in words: where it
	// goes, or that it moves only under one (LOB-4).
	HQ      map[string]geom.Point `json:"hq"`
	HQOrder string                `json:"hq-order,omitempty"`
	// Formations holds every formation on the map or to come: its kind,
	// Command, HQ, radius, and for the seat's own its order and status.
	Formations map[string]FormationBox `json:"formations"`
	// Units holds each of the seat's combat units' movement left and,
	// in its movement step, the hexes it can reach with their costs.
	Units map[string]UnitBox `json:"units"`
	// Movers holds the same for the side's leaders, its Commands' HQs on
	// the map ("hq:COMMAND") and its army HQ under a move order
	// ("hq:SIDE"), in its movement step.
	Movers map[string]UnitBox `json:"movers"`
	// Recipients are the Commands the army commander may order, and "hq"
	// for his army HQ while he stands stacked with it (9.2a).
	Recipients []string `json:"recipients"`
	// Orders are the seat's side's orders, in the order of issue, with
	// their stage (LOB-4, LOB-6, LOB-7) in words.
	Orders []OrderBox `json:"orders"`
	// Odds are the exact odds of the rolls the side's next command phase
	// will make as things stand: acceptance (LOB-4), fluke stoppage and
	// attack recovery (LOB-7), each as the log names it.
	Odds []Odds `json:"odds,omitempty"`
	// Kinds, Purposes, Shapes and Stages are the words a page offers and
	// shows: kinds of order, purposes of initiative, formations, stages.
	Kinds    []string `json:"kinds"`
	Purposes []string `json:"purposes"`
	Shapes   []string `json:"shapes"`
	Stages   []string `json:"stages"`
	// Armies lists, for each army commander on the map, the hexes within
	// his radius of him, for the page to shade when he is selected.
	Armies map[string][]geom.Point `json:"armies,omitempty"`
	// Exits are, for the umpire, the road hexes on the map's edges: those
	// enter accepts as where a reinforcement enters when its entry area
	// is blocked (3.7a).
	Exits []geom.Point `json:"exits,omitempty"`
}

// FormationBox is a formation as a page draws it.
type FormationBox struct {
	Kind    string `json:"kind"`
	Parent  string `json:"parent,omitempty"`
	Command string `json:"command"`
	Leader  string `json:"leader"`
	// Centre is where its command radius is traced from (its HQ, or the
	// leader acting as its HQ, LOB-1), and Radius that radius in hexes;
	// absent when nobody of it is on the map.
	Centre *geom.Point `json:"centre,omitempty"`
	Radius int         `json:"radius,omitempty"`
	// Within lists the hexes of the map within that radius of Centre,
	// counted as the rules count them (LOB-2), for the page to shade.
	Within []geom.Point `json:"within,omitempty"`
	HQ     *geom.Point  `json:"hq,omitempty"` // its HQ counter, when on the map
	Acting bool         `json:"acting,omitempty"`
	// Arrives is the turn a reinforcement enters; Entered that it has.
	Arrives int  `json:"arrives,omitempty"`
	Entered bool `json:"entered"`
	// Status in words: no orders, executing, fluked, recovering,
	// skedaddled, reserve; the seat's own only, but for what shows on
	// the map (fluked, skedaddled).
	Status   []string `json:"status,omitempty"`
	Order    string   `json:"order,omitempty"` // the order it executes
	Recovery string   `json:"recovery,omitempty"`
	// Subordinates are the Commands an order from its leader may go to
	// (a corps' divisions); for the army commander's Command see Orders.
	Subordinates []string `json:"subordinates,omitempty"`
}

// UnitBox is a combat unit as a page draws it.
type UnitBox struct {
	Left string `json:"left,omitempty"` // movement points left this turn
	// Out says it stands outside its Command's radius (LOB-2).
	Out   bool        `json:"out,omitempty"`
	Reach []ReachCell `json:"reach,omitempty"`
}

// ReachCell is a hex a piece can reach this turn and what it costs; Why
// says why a move there would be refused (command radius, LOB-2, LOB-7,
// LOB-8), "" when it would not.
type ReachCell struct {
	At   geom.Point `json:"at"`
	Cost string     `json:"cost"`
	Why  string     `json:"why,omitempty"`
}

// OrderBox is an order as a page lists and draws it.
type OrderBox struct {
	ID        string      `json:"id"`
	Kind      string      `json:"kind,omitempty"`
	From      string      `json:"from"`
	To        string      `json:"to"`
	Objective *geom.Point `json:"objective,omitempty"`
	Stage     string      `json:"stage"`
	Issued    int         `json:"issued"`
	Arrives   int         `json:"arrives"`
	Failed    int         `json:"failed,omitempty"`
	Condition string      `json:"condition,omitempty"`
	Met       bool        `json:"met,omitempty"`
	Parent    string      `json:"parent,omitempty"`
	// Reserve is the formation an order to establish a reserve places;
	// "" for one that leaves it to its Command's leader (designate).
	Reserve string `json:"reserve,omitempty"`
	// Kept says it is a reserve's existing orders, kept with no
	// acceptance roll and followed once the reserve is released (LOB-5).
	Kept  bool   `json:"kept,omitempty"`
	Words string `json:"words"`
	// Live says it is still to act on, not ended (fulfilled, futile,
	// superseded, fluked and recovered).
	Live bool `json:"live"`
}

// Odds is a roll coming and the exact chance of each result.
type Odds struct {
	Subject string            `json:"subject"` // the order or Command rolled for
	Table   string            `json:"table"`
	Why     string            `json:"why"`
	Params  map[string]string `json:"params"`
	Chance  map[string]string `json:"chance"` // result: "3/10 (30.0%)"
}

// Annotate is the page's board (game.Annotator), built from the view s.
func (r *Rules) Annotate(s *game.State, step game.Step, seat string) any {
	st := ext(s)
	b := Board{HQ: map[string]geom.Point{}, Formations: map[string]FormationBox{}, Units: map[string]UnitBox{}, Movers: map[string]UnitBox{}, Orders: []OrderBox{}, Recipients: []string{},
		Kinds: slices.Clone(Orders), Purposes: slices.Clone(Purposes), Shapes: slices.Clone(Shapes), Stages: slices.Clone(Stages)}
	if st.sc == nil {
		return b
	}
	side := game.SeatSide(seat, st.phasing(s.Phase))
	b.Side = side
	st.sideBoard(&b, side)
	own := func(sideOf string) bool { return seat == game.Umpire || sideOf == seat }
	for i := range st.Formations {
		f := &st.Formations[i]
		b.Formations[f.ID] = st.formationBox(f, own(f.Side))
	}
	for i := range st.Orders {
		o := &st.Orders[i]
		if !own(o.Side) || o.Side != side && seat != game.Umpire {
			continue
		}
		b.Orders = append(b.Orders, st.orderBox(o))
	}
	moving := step.Name == StepMove && slices.Contains(step.Actors, side) && st.sc.Terrain != nil
	var blocked []bool
	if moving {
		blocked = st.blocked(side, nil)
	}
	r.unitBoxes(st, side, moving, blocked, b.Units)
	b.Recipients = st.recipients(side)
	if moving {
		r.movers(st, side, blocked, b.Movers)
	}
	b.Odds = r.coming(st, s, side)
	for i := range st.Leaders {
		if l := &st.Leaders[i]; l.Army && l.OnTable {
			if b.Armies == nil {
				b.Armies = map[string][]geom.Point{}
			}
			b.Armies[l.ID] = st.sc.Map.Within(l.At, l.Radius)
		}
	}
	if seat == game.Umpire {
		for _, j := range RoadExits(st.sc.Terrain) {
			b.Exits = append(b.Exits, st.sc.Terrain.Point(j))
		}
	}
	return b
}

// sideBoard fills each side's army HQ hex that is seen, and side's
// command roll, awareness and army HQ's move order in words (LOB-4).
func (st *State) sideBoard(b *Board, side string) {
	for _, sd := range st.Sides {
		if !sd.Unseen {
			b.HQ[sd.ID] = sd.HQ // a counter on the map, open unless fog hides it
		}
		if sd.ID == side {
			b.Rolled, b.Aware = sd.Rolled, sd.Aware
			b.HQOrder = "no move order: the army HQ moves only under an order the army commander issues with his command roll"
			if sd.Goal != nil {
				b.HQOrder = "moving toward " + st.sc.Map.Format(*sd.Goal) + " under the army commander's order"
			}
		}
	}
}

// formationBox is formation f as a page draws it: a Command's radius
// traced from its centre (LOB-2) and its HQ, what shows on the map, and,
// when own (the seat's side's, or any for the umpire), its order and
// status in words and a corps' subordinate Commands.
func (st *State) formationBox(f *Formation, own bool) FormationBox {
	box := FormationBox{Kind: f.Kind, Parent: f.Parent, Command: f.Command, Leader: f.Leader, Arrives: f.Arrives, Entered: f.Entered}
	if f.IsCommand() {
		if at, by, ok := st.Centre(f); ok && by != nil && !f.HQUnseen {
			box.Centre, box.Radius, box.Acting = &at, by.Radius, !f.HQOn
			box.Within = st.sc.Map.Within(at, by.Radius)
		}
		if f.HQOn {
			hq := f.HQ
			box.HQ = &hq
		}
	}
	switch {
	case f.Futile:
		box.Status = append(box.Status, Futile)
	case f.Fluked:
		box.Status = append(box.Status, Fluked)
	}
	if f.Skedaddle {
		box.Status = append(box.Status, "skedaddled")
	}
	if own {
		box.Order, box.Recovery = f.Order, f.Recovery
		box.Status = append(box.Status, st.ownStatus(f)...)
		if f.Kind == KindCorps {
			for _, j := range st.below(f.ID) {
				if g := &st.Formations[j]; g.Parent == f.ID && g.IsCommand() {
					box.Subordinates = append(box.Subordinates, g.ID)
				}
			}
		}
	}
	return box
}

// ownStatus is the status in words of a formation of the seat's own
// beyond what shows on the map: to enter, no orders or executing,
// declared fulfilled, recovering, in reserve.
func (st *State) ownStatus(f *Formation) []string {
	var out []string
	switch {
	case !f.IsCommand():
	case !f.Entered && !st.present(f):
		out = append(out, "to-enter")
	case f.Order == "" && !f.Rejoin:
		out = append(out, "no-orders")
	case f.Order != "" && !f.Reserve:
		out = append(out, Executing)
	}
	if f.Declared {
		out = append(out, "declared-fulfilled")
	}
	if f.Recovery != "" {
		out = append(out, Recovering)
	}
	if f.Reserve {
		out = append(out, Reserve)
	}
	return out
}

// orderBox is order o as a page lists and draws it, in words, with what
// its Command has made of it: declared fulfilled, or kept in reserve as
// its existing orders (LOB-5).
func (st *State) orderBox(o *Order) OrderBox {
	name := func(id string) string {
		if n := st.sc.NameOf(id); n != "" {
			return n
		}
		return id
	}
	box := OrderBox{ID: o.ID, Kind: o.Kind, From: o.From, To: o.To, Objective: o.Objective, Stage: o.Stage,
		Issued: o.Issued, Arrives: o.Arrives, Failed: o.Failed, Condition: o.Condition, Met: o.Met, Parent: o.Parent,
		Reserve: o.Reserve, Words: orderWords(o, st.sc.Map, name), Live: o.Live()}
	if f := st.Formation(o.To); f != nil && f.Order == o.ID && f.Declared {
		box.Words += ", declared fulfilled: it ends with the player turn"
	}
	if f := st.Formation(o.To); f != nil && f.Reserve && o.Live() && o.Kind != Reserve && !o.Release && (o.Kept || f.Order == o.ID) {
		box.Kept = true
		box.Words += ", kept by " + name(f.ID) + " in reserve as its existing orders: followed once it is released"
	}
	return box
}

// unitBoxes fills side's combat units' movement left, whether each stands
// outside its Command's radius (LOB-2) and, when moving, the hexes each
// with movement left can reach (blocked: the hexes no move may enter).
func (r *Rules) unitBoxes(st *State, side string, moving bool, blocked []bool, out map[string]UnitBox) {
	for i := range st.Units {
		u := &st.Units[i]
		if u.Side != side || !u.alive() {
			continue
		}
		box := UnitBox{Left: MP(max(r.allow[u.Type]-u.Used, 0))}
		_, _, box.Out = st.outOfRadius(u)
		if moving && u.Used < r.allow[u.Type] {
			box.Reach = r.reachFrom(st, u.At, u.Type, blocked, max(r.allow[u.Type]-u.Used, 0), func(at geom.Point) string {
				_, why := st.radiusRule(u, at, nil)
				return why
			})
		}
		out[u.ID] = box
	}
}

// recipients are side's Commands, which its army commander may order, and
// "hq" for its army HQ while he stands stacked with it (9.2a).
func (st *State) recipients(side string) []string {
	out := []string{}
	for i := range st.Formations {
		if f := &st.Formations[i]; f.Side == side && f.IsCommand() {
			out = append(out, f.ID)
		}
	}
	if sd := st.Side(side); sd != nil {
		if l := st.Leader(sd.Army); l != nil && l.OnTable && l.At == sd.HQ {
			out = append(out, "hq")
		}
	}
	return out
}

// movers fills the movement left and reach of side's leaders on the map,
// its Commands' HQs on the map and its army HQ under a move order, all
// moving as leaders (LOB-1, LOB-4).
func (r *Rules) movers(st *State, side string, blocked []bool, out map[string]UnitBox) {
	allow := r.allow["leader"]
	add := func(id string, at geom.Point, used int, why func(geom.Point) string) {
		left := max(allow-used, 0)
		box := UnitBox{Left: MP(left)}
		if left > 0 {
			box.Reach = r.reachFrom(st, at, "leader", blocked, left, why)
		}
		out[id] = box
	}
	for i := range st.Leaders {
		if l := &st.Leaders[i]; l.Side == side && l.OnTable {
			add(l.ID, l.At, l.Used, nil)
		}
	}
	for i := range st.Formations {
		if f := &st.Formations[i]; f.Side == side && f.HQOn {
			add("hq:"+f.ID, f.HQ, f.HQUsed, nil)
		}
	}
	if sd := st.Side(side); sd != nil && sd.Goal != nil {
		add("hq:"+side, sd.HQ, sd.HQUsed, func(at geom.Point) string { return st.towardGoal(sd, at) })
	}
}

// orderWords words an order with its stage: "attack 0712 (awaiting
// acceptance since turn 2, 1 roll failed)".
func orderWords(o *Order, sp geom.Space, name func(string) string) string {
	s := o.Kind
	if o.Kind == "" {
		s = "release"
	}
	if o.Objective != nil {
		s += " " + sp.Format(*o.Objective)
	}
	s += " to " + name(o.To)
	if o.Kind == Reserve && o.Parent == "" {
		if o.Reserve == "" {
			s += ", its leader to name the reserve"
		} else if o.Reserve != o.To {
			s += ", placing " + name(o.Reserve)
		}
	}
	if o.Note != "" {
		s += fmt.Sprintf(" %q", o.Note)
	}
	if o.Condition != "" {
		s += fmt.Sprintf(" on condition %q", o.Condition)
		if o.Met {
			s += " (met)"
		}
	}
	s += ": " + words(o.Stage)
	switch o.Stage {
	case Issued, Delivering:
		s += fmt.Sprintf(", arrives turn %d", o.Arrives)
	case Awaiting:
		switch {
		case o.Condition != "" && !o.Met:
			s += ", rolled for once its condition is met"
		case o.Failed == 1:
			s += ", 1 roll failed"
		case o.Failed > 1:
			s += fmt.Sprintf(", %d rolls failed", o.Failed)
		}
	}
	return s
}

// stepper is the cost of one step for a mover of kind, the enemy's hexes
// closed: what plan and reach both use.
func (r *Rules) stepper(t *terrain.Map, kind string, blocked []bool) terrain.Step {
	return func(i, d int) (int, bool) {
		if j := t.Next(i, d); j < 0 || blocked[j] {
			return 0, false
		}
		return r.Price(t, kind, i, d)
	}
}

// reachFrom lists the hexes a mover of kind at p reaches with left, by
// the least-cost path, the hexes marked blocked (the enemy's) closed,
// each with why a move there would be refused (why may be nil).
func (r *Rules) reachFrom(st *State, p geom.Point, kind string, blocked []bool, left int, why func(geom.Point) string) []ReachCell {
	t := st.sc.Terrain
	from, ok := t.At(p)
	if !ok {
		return nil
	}
	got := st.searcher().Reach(from, r.stepper(t, kind, blocked), left, nil)[1:]
	out := make([]ReachCell, 0, len(got))
	costs := map[int]string{} // the same few costs, worded once
	for _, x := range got {
		at := t.Point(x.I)
		cost, ok := costs[x.Cost]
		if !ok {
			cost = MP(x.Cost)
			costs[x.Cost] = cost
		}
		c := ReachCell{At: at, Cost: cost}
		if why != nil {
			c.Why = why(at)
		}
		out = append(out, c)
	}
	return out
}

// coming lists the rolls side's next command phase will make as things
// stand, with their exact odds: acceptance of orders awaiting it or due
// to arrive by then (LOB-4), fluke stoppage checks and attack recovery
// (LOB-7). The phase is this turn's while its checks are still to come,
// else next turn's.
func (r *Rules) coming(st *State, s *game.State, side string) []Odds {
	turn := max(s.Turn, 1)
	cur := slices.IndexFunc(st.seq, func(x game.Step) bool { return x.Phase == s.Phase && x.Name == s.Step })
	checks := slices.IndexFunc(st.seq, func(x game.Step) bool { return x.Phase == phaseOf(side, "command") && x.Name == StepChecks })
	if s.Turn > 0 && cur > checks {
		turn++
	}
	var out []Odds
	add := func(subject, tab, why string, params map[string]string) {
		t, err := r.tables.Table(tab)
		if err != nil {
			return
		}
		a, err := t.Bind(params)
		if err != nil {
			return
		}
		o, err := t.Odds(a)
		if err != nil {
			return
		}
		out = append(out, Odds{Subject: subject, Table: tab, Why: why, Params: params, Chance: o.Words()})
	}
	for i := range st.Orders {
		o := &st.Orders[i]
		due := o.Stage == Awaiting || (o.Stage == Issued || o.Stage == Delivering) && o.Arrives <= turn && !st.kept(o) && (o.Kind != Reserve || o.Parent == "")
		if o.Side != side || !due || !r.mayRoll(st, o, "") {
			continue
		}
		l := st.Leader(st.Formation(o.To).Leader)
		add(o.ID, r.accept.ID, fmt.Sprintf("acceptance of %s by %s on turn %d (LOB-4)", o.ID, o.To, turn), map[string]string{"value": strconv.Itoa(l.Value),
			"order": o.Kind, "release": strconv.FormatBool(o.Release), "turns": strconv.Itoa(min(o.Failed, 50))})
	}
	for i := range st.Formations {
		f := &st.Formations[i]
		if f.Side != side || !f.Entered {
			continue
		}
		l := st.Leader(f.Leader)
		if l == nil || !l.OnTable {
			continue
		}
		if f.Kind == KindDivision && !f.Reserve && f.FlukeFrom > 0 && turn >= f.FlukeFrom && st.liveAttack(f) != nil {
			add(f.ID, r.fluke.ID, fmt.Sprintf("fluke stoppage check of %s on turn %d (LOB-7)", f.ID, turn), map[string]string{"value": strconv.Itoa(l.Value),
				"losses": strconv.Itoa(min(f.Losses, 99)), "reserve": strconv.FormatBool(st.hasReserve(f))})
		}
		if f.Recovery != "" && turn >= f.RecoverFrom {
			add(f.ID, r.recovery.ID, fmt.Sprintf("attack recovery of %s, %s step, on turn %d (LOB-7)", f.ID, f.Recovery, turn),
				map[string]string{"value": strconv.Itoa(l.Value), "step": f.Recovery})
		}
	}
	return out
}

// Shapes lists the formations each arm takes (game.Shaper).
func (r *Rules) Shapes() map[string][]string {
	out := make(map[string][]string, len(shapes))
	for k, v := range shapes {
		out[k] = slices.Clone(v)
	}
	return out
}

// Seen lists what a page names (game.Lister): the sides and every leader,
// formation and unit, all of them counters open on the map.
func (r *Rules) Seen(s *game.State) []string {
	st := ext(s)
	out := slices.Clone(st.sides)
	for i := range st.Leaders {
		out = append(out, st.Leaders[i].ID)
	}
	for i := range st.Formations {
		out = append(out, st.Formations[i].ID)
	}
	for i := range st.Units {
		out = append(out, st.Units[i].ID)
	}
	return out
}

// Kinds lists the kinds of order (game.Forecaster).
func (r *Rules) Kinds() []string { return slices.Clone(Orders) }

// Writes is the verb that issues an order.
func (r *Rules) Writes() string { return "issue" }

// Forecasts lists every verb a page may ask about before giving it: an
// order's command roll and delivery, a release, an initiative roll, and
// a move's path and cost.
func (r *Rules) Forecasts() []string {
	return []string{"issue", "release", "initiative", "move", "post"}
}

// Forecast says what a command would meet, for a page to show before it is
// given: an order's command roll (LOB-4; none for a corps leader's), its
// delivery time and the acceptance roll waiting at the other end; a
// release's command roll (LOB-5); an initiative roll (LOB-8); a move's
// path and cost (LOB-2). It refuses what Command would refuse, with the
// same words.
func (r *Rules) Forecast(sc *battle.Scenario, s *game.State, side string, args any) ([]game.Forecast, error) {
	a, ok := args.(*Args)
	if !ok || a == nil {
		return nil, game.Reject("", "give the command to forecast")
	}
	st := ext(s)
	seat := side
	if side == game.Umpire {
		side = st.phasing(s.Phase)
	}
	k := r.checker(s, sc, seat, side, a)
	verb := a.verb
	if verb == "" {
		switch {
		case a.Purpose != "":
			verb = "initiative"
		case a.Kind != "" || a.To == "hq":
			verb = "issue"
		case a.Unit != "" || a.Leader != "" || a.HQ != "" || a.Army:
			verb = "move"
		case a.Formation != "":
			verb = "release"
		}
	}
	switch verb {
	case "issue":
		return k.forecastIssue()
	case "release":
		return k.forecastRelease()
	case "initiative":
		return k.forecastInitiative()
	case "move", "post":
		return k.forecastMove(verb == "post")
	}
	return nil, game.Reject("", "give the command to forecast: issue, release, initiative, move or post")
}

func (k *cmd) forecastIssue() ([]game.Forecast, error) {
	d, err := k.draft()
	if err != nil {
		return nil, err
	}
	is := d.Issue
	f := game.Forecast{Formation: is.Order.To, General: d.By.ID}
	if d.Roll {
		f.Table, f.Params = k.r.command.ID, d.Params
	}
	if is.HQ {
		f.Note = "the army HQ moves toward its destination once the command roll passes"
		f.Path = []geom.Point{k.st.Side(k.side).HQ, *is.Order.Objective}
		return []game.Forecast{f}, nil
	}
	within := "within"
	if is.Dist > is.Radius {
		within = "beyond"
	}
	f.Note = fmt.Sprintf("%s, %s the radius of %d: delivered in %s, on turn %d; then rolled for on %s each turn until accepted",
		plural(is.Dist, "hex", "hexes"), within, is.Radius, plural(is.Turns, "turn", "turns"), is.Order.Arrives, k.r.accept.ID)
	if is.Order.Condition != "" {
		f.Note = fmt.Sprintf("%s, %s the radius of %d: delivered in %s, on turn %d; rolled for on %s once its condition is declared met",
			plural(is.Dist, "hex", "hexes"), within, is.Radius, plural(is.Turns, "turn", "turns"), is.Order.Arrives, k.r.accept.ID)
	}
	if !d.Roll {
		f.Note = "a corps leader's order to his division needs no command roll; " + f.Note
	}
	from := d.By.At
	if s := k.st.Formation(d.By.Formation); s != nil && !d.By.Army {
		from, _, _ = k.st.Centre(s)
	}
	to, _, _ := k.st.Centre(k.st.Formation(is.Order.To))
	f.Path = []geom.Point{from, to}
	return []game.Forecast{f}, nil
}

func (k *cmd) forecastRelease() ([]game.Forecast, error) {
	f, p, by, err := k.releaser()
	if err != nil {
		return nil, err
	}
	fc := game.Forecast{Formation: f.ID, General: by.ID, Table: k.r.command.ID, Params: releaseParams(by),
		Note: fmt.Sprintf("%s's leader rolls to release %s; if it passes, the release is relayed and frees the reserve on arrival", p.ID, f.ID)}
	return []game.Forecast{fc}, nil
}

func (k *cmd) forecastInitiative() ([]game.Forecast, error) {
	at, err := k.attempt()
	if err != nil {
		return nil, err
	}
	f := game.Forecast{Formation: k.side, General: at.Leader.ID, Table: k.r.initiative.ID, Params: at.Params,
		Note: fmt.Sprintf("%s rolls initiative to %s", at.Leader.ID, words(k.a.Purpose))}
	if at.Target != nil {
		f.Formation = at.Target.ID
	}
	return []game.Forecast{f}, nil
}

func (k *cmd) forecastMove(post bool) ([]game.Forecast, error) {
	m, err := k.mover(post)
	if err != nil {
		return nil, err
	}
	to, err := k.hex(k.a.To, "to")
	if err != nil {
		return nil, err
	}
	pl, err := k.plan(m, to)
	if err != nil {
		return nil, err
	}
	f := game.Forecast{Formation: m.id, General: m.id, Path: []geom.Point{m.at}}
	for _, j := range pl.Hexes {
		f.Path = append(f.Path, k.sc.Terrain.Point(j))
	}
	f.Note = fmt.Sprintf("costs %s MP of the %s left", MP(pl.Cost), MP(max(m.allow-m.used, 0)))
	if m.unit != nil {
		if _, why := k.st.radiusRule(m.unit, to, k.hidden); why != "" {
			f.Note += "; refused: " + why
		}
	}
	return []game.Forecast{f}, nil
}

// plural words a count: 1 hex, 2 hexes.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
