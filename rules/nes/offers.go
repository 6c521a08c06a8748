package nes

import (
	"fmt"
	"slices"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/table"
)

// seatSide is the side a seat acts for: its own, or for the umpire the
// side whose turn it is.
func seatSide(st *State, s *game.State, seat string) string {
	return game.SeatSide(seat, st.phasing(s.Phase))
}

// checker is a command checked without being carried out: what a page is
// offered is what Command would accept, on what seat knows.
func (r *Rules) checker(s *game.State, sc *battle.Scenario, seat, side string, a *Args) *cmd {
	return &cmd{r: r, s: s, st: ext(s), sc: sc, side: side, seat: seat, a: a}
}

// Offers says which of the step's commands seat may give for each of its
// command and combat units (game.Offerer): send and cp for a command unit
// with command units under it while the side has the points; move for any
// piece with movement left, form for a unit that can pay for it;
// loss for any unit on the map (its own or the enemy's), bombard for class
// 1 artillery of strength 4 or more, charge for cavalry.
func (r *Rules) Offers(s *game.State, step game.Step, seat string) map[string][]string {
	st := ext(s)
	out := map[string][]string{}
	if st.sc == nil {
		return out
	}
	side := seatSide(st, s, seat)
	if !slices.Contains(step.Actors, side) {
		return out
	}
	of := game.NewOffered(step)
	out, add := of.Out, of.Add
	sd := st.Side(side)
	if step.Name == StepMove && sd.Used+Sixths <= r.allow["command"] {
		add("hq:"+side, "move") // the army's headquarters
	}
	for i := range st.Leaders {
		l := &st.Leaders[i]
		if l.Side != side {
			continue
		}
		switch step.Name {
		case StepOrders:
			if len(st.subs[i]) > 0 && sd.Points >= r.cost(false) {
				add(l.ID, "send")
			}
			if !l.CP && sd.Points >= r.play["cp-cost"] {
				add(l.ID, "cp")
			}
		case StepMove:
			if l.Used+Sixths <= r.allow["command"] {
				add(l.ID, "move")
			}
			if l.Role == RoleBrigade {
				add(l.ID, "retire")
			}
		}
	}
	for i := range st.Units {
		u := &st.Units[i]
		if u.Side != side && u.alive() && step.Name == StepCombat {
			add(u.ID, "loss") // the enemy's losses from the side's fire and shock
		}
		if u.Side != side || !u.alive() {
			continue
		}
		switch step.Name {
		case StepMove:
			left := r.allowance(st, u, u.Used > 0 && u.GT) - u.Used
			if left > 0 {
				add(u.ID, "move")
			}
			if left >= r.play["formation-mp"]*Sixths {
				add(u.ID, "form")
			}
		case StepCombat:
			add(u.ID, "loss")
			if u.Type == "artillery" && u.Class == 1 && u.Strength >= 4 {
				add(u.ID, "bombard")
			}
			if strings.HasSuffix(u.Type, "-cavalry") {
				add(u.ID, "charge")
			}
		}
	}
	return out
}

// Board is what a page needs, beside the state, to draw an NES game and
// offer its commands without working out a rule (game.Annotator).
type Board struct {
	// Leaders holds each command unit's radius and the hexes within it
	// (the page shades them when he is selected), its state and, for the
	// seat's own, its marker and orders in words.
	Leaders map[string]LeaderBox `json:"leaders"`
	// Units holds each of the seat's combat units' movement left and,
	// in its movement step, the hexes it can reach with their costs.
	Units map[string]UnitBox `json:"units"`
	// Points is the seat's side's command points left this turn, and
	// Costs what an order, an urgent one and a stacked CP cost.
	Points int            `json:"points"`
	Costs  map[string]int `json:"costs"`
	// HQ is each side's headquarters hex.
	HQ map[string]geom.Point `json:"hq"`
	// Odds are the exact odds of the rolls the seat's side will make in
	// its next command segment: continuation checks of its mobilized
	// commanders (NES-3) and the delivery rolls of orders at delay 1
	// (NES-1), each as the log would name it.
	Odds []Odds `json:"odds,omitempty"`
	// Shapes lists the formations each unit type may take (NES-7).
	Shapes map[string][]string `json:"shapes"`
	// Orders lists the kinds of order.
	Orders []string `json:"orders"`
}

// LeaderBox is a command unit as a page draws it.
type LeaderBox struct {
	Role   string `json:"role"`
	Radius int    `json:"radius"`
	// Within lists the hexes of the map within his radius of him, counted
	// as the rules count them (NES-2, NES-3); none while he is off the map.
	Within   []geom.Point `json:"within,omitempty"`
	State    string       `json:"state"`
	Reduced  bool         `json:"reduced,omitempty"`
	Marker   string       `json:"marker,omitempty"`
	Order    string       `json:"order,omitempty"`   // the order in force, in words
	Pending  string       `json:"pending,omitempty"` // the order on its way, in words
	CP       bool         `json:"cp,omitempty"`
	Superior string       `json:"superior,omitempty"`
	// Subordinates are the command units an order from it may go to.
	Subordinates []string `json:"subordinates,omitempty"`
	Left         string   `json:"left,omitempty"` // movement points left, in its movement step
}

// UnitBox is a combat unit as a page draws it.
type UnitBox struct {
	Left  string      `json:"left,omitempty"` // movement points left this turn
	Reach []ReachCell `json:"reach,omitempty"`
}

// ReachCell is a hex a piece can reach this turn and what it costs.
type ReachCell struct {
	At   geom.Point `json:"at"`
	Cost string     `json:"cost"`
}

// Odds is a roll coming and the exact chance of each result.
type Odds struct {
	Leader string            `json:"leader"`
	Table  string            `json:"table"`
	Why    string            `json:"why"`
	Params map[string]string `json:"params"`
	Chance map[string]string `json:"chance"` // result: "3/10 (30.0%)"
}

// Annotate is the page's board (game.Annotator), built from the view s.
func (r *Rules) Annotate(s *game.State, step game.Step, seat string) any {
	st := ext(s)
	b := Board{Leaders: map[string]LeaderBox{}, Units: map[string]UnitBox{}, HQ: map[string]geom.Point{},
		Costs:  map[string]int{"order": r.play["order-cost"], "urgent": r.play["urgent-cost"], "cp": r.play["cp-cost"]},
		Shapes: r.Shapes(), Orders: slices.Clone(Orders)}
	if st.sc == nil {
		return b
	}
	side := seatSide(st, s, seat)
	if sd := st.Side(side); sd != nil {
		b.Points = sd.Points
	}
	for _, sd := range st.Sides {
		if !sd.Unseen {
			b.HQ[sd.ID] = sd.HQ // a counter on the map, open unless fog hides it
		}
	}
	sp := st.sc.Map
	moving := step.Name == StepMove && slices.Contains(step.Actors, side)
	for i := range st.Leaders {
		l := &st.Leaders[i]
		box := LeaderBox{Role: l.Role, Radius: l.Radius, State: l.State, Reduced: l.Reduced, Superior: l.Superior}
		if l.OnTable && sp != nil {
			box.Within = sp.Within(l.At, l.Radius)
		}
		if seat == game.Umpire || l.Side == seat {
			// The enemy's orders and markers are his secret, even in a
			// state that has not been through View.
			box.Marker, box.CP = l.Marker, l.CP
			if l.Order != nil {
				box.Order = orderWords(l.Order, sp)
			}
			if l.Pending != nil {
				box.Pending = orderWords(l.Pending, sp) + fmt.Sprintf(" (delay %d)", l.Pending.Delay)
			}
		}
		if l.Side == side {
			for _, j := range st.subs[i] {
				box.Subordinates = append(box.Subordinates, st.Leaders[j].ID)
			}
			for _, j := range st.subs[i] {
				for _, k := range st.subs[j] {
					box.Subordinates = append(box.Subordinates, st.Leaders[k].ID)
					for _, m := range st.subs[k] {
						box.Subordinates = append(box.Subordinates, st.Leaders[m].ID)
					}
				}
			}
			if moving {
				box.Left = MP(max(r.allow["command"]-l.Used, 0))
			}
		}
		b.Leaders[l.ID] = box
	}
	for i := range st.Units {
		u := &st.Units[i]
		if u.Side != side || !u.alive() {
			continue
		}
		left := max(r.allowance(st, u, u.Used > 0 && u.GT)-u.Used, 0)
		box := UnitBox{Left: MP(left)}
		if moving && left > 0 && st.sc.Terrain != nil {
			box.Reach = r.reachOf(st, u, left)
		}
		b.Units[u.ID] = box
	}
	if st.sc.Terrain != nil {
		b.Odds = r.coming(st, s, side)
	}
	return b
}

// orderWords words an order: attack 2511 "carry the ridge".
func orderWords(o *Order, sp geom.Space) string {
	return battle.Order{Kind: o.Kind, Objective: o.Objective, Note: o.Note}.Format(sp)
}

// reachOf lists the hexes a unit can reach with left sixths, by the
// least-cost path from its formation and state as the chart's effects
// change them on the way (NES-7), the enemy's hexes closed: the hexes a
// move there would be accepted for. A unit that has moved by grand
// tactical movement this turn goes on by it; a hex that holds as many of
// the side's combat units as may stack is passed through, not offered.
func (r *Rules) reachOf(st *State, u *Unit, left int) []ReachCell {
	t := st.sc.Terrain
	from, ok := t.At(u.At)
	if !ok {
		return nil
	}
	md := Mode{Column: column(u.Type, u.Shape), Road: u.Shape == "road-column", Disordered: u.Status != "formed",
		General: u.Shape == "general-order", GT: u.Used > 0 && u.GT}
	var out []ReachCell
	mv := st.moves(r, md)
	own := st.occupied().units[st.sideIndex(u.Side)]
	for _, x := range st.searcher().ReachLayers(from, &mv.layers, st.blocked(u.Side), left, nil)[1:] {
		if int(own[x.I])+1 > r.play["stack"] {
			continue
		}
		out = append(out, ReachCell{At: t.Point(x.I), Cost: MP(x.Cost)})
	}
	return out
}

// coming lists the rolls side's next command segment will make as things
// stand, with their exact odds: continuation checks (NES-3) and orders at
// delay 1 (NES-1). The segment is this turn's if its step is still to
// come, else next turn's, when a command point stacked now is gone, the
// evening may have come, and a commander mobilized now checks too.
func (r *Rules) coming(st *State, s *game.State, side string) []Odds {
	var out []Odds
	cur := slices.IndexFunc(st.seq, func(x game.Step) bool { return x.Phase == s.Phase && x.Name == s.Step })
	at := func(name string) int {
		return slices.IndexFunc(st.seq, func(x game.Step) bool { return x.Phase == phaseOf(side, "command") && x.Name == name })
	}
	turn := func(step int) int {
		if s.Turn == 0 || cur < 0 {
			return max(s.Turn, 1)
		}
		if cur <= step {
			return s.Turn
		}
		return s.Turn + 1
	}
	markTurn, checkTurn := turn(at(StepMarkers)), turn(at(StepContinuation))
	later := checkTurn > s.Turn
	evening := slices.Contains(st.sc.Evening, checkTurn)
	for i := range st.Leaders {
		l := &st.Leaders[i]
		if l.Side != side {
			continue
		}
		if l.Pending != nil && l.Pending.Delay == 1 {
			d := r.delivery(st, st.Leader(l.Pending.Sender), l, l.Pending.Urgent, l.Pending.FromHQ, l.Pending.AtDelay1+1)
			if o, err := r.odds(r.deliver, d.params); err == nil {
				out = append(out, Odds{Leader: l.ID, Table: r.deliver.ID, Why: fmt.Sprintf("the order at delay 1 rolls again on turn %d (NES-2)", markTurn), Params: d.params, Chance: o})
			}
		}
		if checks(l, later) {
			p := r.checkParams(st, l, evening, later, nil)
			if o, err := r.odds(r.cont, p); err == nil {
				out = append(out, Odds{Leader: l.ID, Table: r.cont.ID, Why: fmt.Sprintf("continuation check on turn %d (NES-3)", checkTurn), Params: p, Chance: o})
			}
		}
	}
	return out
}

// odds is the exact chance of each result of t with params, in words.
func (r *Rules) odds(t *table.Table, params map[string]string) (map[string]string, error) {
	a, err := t.Bind(params)
	if err != nil {
		return nil, err
	}
	o, err := t.Odds(a)
	if err != nil {
		return nil, err
	}
	return o.Words(), nil
}

// Kinds lists the kinds of order (game.Forecaster).
func (r *Rules) Kinds() []string { return slices.Clone(Orders) }

// Writes is the verb that sends an order.
func (r *Rules) Writes() string { return "send" }

// Forecasts lists every verb a page may ask about before giving it: an
// order's delivery, a move's path and cost, extended-range fire, a charge,
// and a look along a line of sight (sight, a question, never a command).
func (r *Rules) Forecasts() []string { return []string{"send", "move", "bombard", "charge", "sight"} }

// Forecast says what a command would meet, for a page to show before it is
// given: an order's delivery (NES-2: received at once, the NES-1 roll and
// its parameters, or the delay marker), a move's least-cost path, its cost
// and effects (NES-7), extended-range fire's line of sight and deviation
// roll (NES-5), a charge's morale checks (NES-6), a line of sight. It
// refuses what Command would refuse, with the same words.
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
	if verb == "" { // arguments made in Go, not read: the verb from what they give
		switch {
		case a.Kind != "":
			verb = "send"
		case a.Sight:
			verb = "sight"
		case a.To != "":
			verb = "move"
		case a.Target != "" && st.Unit(a.Unit) != nil && st.Unit(a.Unit).Type == "artillery":
			verb = "bombard"
		case a.Target != "":
			verb = "charge"
		}
	}
	switch verb {
	case "send":
		return k.forecastSend()
	case "sight":
		return k.forecastSight()
	case "move":
		return k.forecastMove()
	case "bombard":
		return k.forecastBombard()
	case "charge":
		return k.forecastCharge(seat)
	}
	return nil, game.Reject("", "give the command to forecast: send, move, bombard, charge or sight")
}

func (k *cmd) forecastSend() ([]game.Forecast, error) {
	a := k.a
	from, err := k.leader(a.From, "from")
	if err != nil {
		return nil, err
	}
	to, err := k.leader(a.To, "to")
	if err != nil {
		return nil, err
	}
	if !k.st.subordinate(to.ID, from.ID) {
		return nil, game.Reject("NES-2", "%s is not under %s's command; an order goes to a command unit below its sender", a.To, a.From)
	}
	d := k.r.delivery(k.st, from, to, a.Urgent, k.st.fromHQ(from), 0)
	f := game.Forecast{Formation: to.Formation, General: to.ID}
	cost := k.r.cost(a.Urgent)
	switch {
	case d.same:
		f.Note = fmt.Sprintf("in the same hex: received at once (%d CP)", cost)
	case d.within:
		f.Table, f.Params = k.r.deliver.ID, d.params
		f.Note = fmt.Sprintf("%d hexes, within the radius of %d: rolled on %s (%d CP)", d.dist, from.Radius, k.r.deliver.ID, cost)
	default:
		f.Note = fmt.Sprintf("%d hexes, beyond the radius of %d: a delay-%d marker, no roll (%d CP)", d.dist, from.Radius, d.delay, cost)
	}
	f.Path = []geom.Point{from.At, to.At}
	return []game.Forecast{f}, nil
}

func (k *cmd) forecastMove() ([]game.Forecast, error) {
	m, err := k.mover()
	if err != nil {
		return nil, err
	}
	pl, err := k.plan(m)
	if err != nil {
		return nil, err
	}
	t := k.sc.Terrain
	f := game.Forecast{Formation: m.id, Path: []geom.Point{t.Point(pl.From)}}
	for _, j := range pl.Path {
		f.Path = append(f.Path, t.Point(j))
	}
	note := fmt.Sprintf("%d hexes for %s MP of %s left", len(pl.Path), MP(pl.Cost), MP(pl.Left))
	if m.unit != nil && pl.Disorder && m.unit.Status == "formed" {
		note += "; it disorders at " + t.Label(pl.DisorderAt)
	}
	if m.unit != nil && pl.General && takesGeneral(m.unit) {
		note += "; it takes general order at " + t.Label(pl.GeneralAt)
	}
	f.Note = note
	return []game.Forecast{f}, nil
}

func (k *cmd) forecastSight() ([]game.Forecast, error) {
	t := k.sc.Terrain
	a, _, err := k.hex(k.a.From, "from")
	if err != nil {
		return nil, err
	}
	b, _, err := k.hex(k.a.To, "to")
	if err != nil {
		return nil, err
	}
	clear, by := k.r.LineOfSight(t, a, b)
	f := game.Forecast{Path: []geom.Point{t.Point(a), t.Point(b)}, Note: fmt.Sprintf("%s to %s, %d hexes: in sight", t.Label(a), t.Label(b), t.Distance(a, b))}
	if !clear {
		f.Note = fmt.Sprintf("%s to %s, %d hexes: blocked by %s", t.Label(a), t.Label(b), t.Distance(a, b), by)
	}
	return []game.Forecast{f}, nil
}

// forecastBombard names extended-range fire's deviation roll and where
// the shot may land along the line of fire (NES-5).
func (k *cmd) forecastBombard() ([]game.Forecast, error) {
	u, err := k.unit(k.a.Unit)
	if err != nil {
		return nil, err
	}
	t := k.sc.Terrain
	ti, tp, err := k.hex(k.a.Target, "target")
	if err != nil {
		return nil, err
	}
	if u.Type != "artillery" || u.Class != 1 || u.Strength < 4 {
		return nil, game.Reject("NES-5", "only class 1 artillery of strength 4 or more fires at extended range; %s is %s of class %d and strength %d", u.ID, u.Type, u.Class, u.Strength)
	}
	fi, _ := t.At(u.At)
	nation := k.st.Side(k.side).Nation
	f := game.Forecast{Formation: u.ID, Path: []geom.Point{u.At, tp}}
	d := t.Distance(fi, ti)
	if lo, hi := k.r.play["extended-min"], k.r.play["extended-max"]; d < lo || d > hi {
		return nil, game.Reject("NES-5", "hex %s is %d hexes away; extended range is %d..%d hexes (nes/play)", t.Label(ti), d, lo, hi)
	}
	if clear, by := k.r.LineOfSight(t, fi, ti); !clear {
		return nil, game.Reject("NES-5", "hex %s is out of %s's line of sight: %s", t.Label(ti), u.ID, by)
	}
	if nation != "french" && nation != "russian" {
		return nil, game.Reject("NES-5", "NES-5 gives the deviation of french and russian artillery only; %s is %s", k.side, nation)
	}
	f.Table, f.Params = k.r.deviation.ID, map[string]string{"nation": nation}
	var lands []string
	for _, dev := range []int{-1, 1, 2, 3} {
		if p, on := k.st.Impact(u.At, tp, dev); on {
			lands = append(lands, fmt.Sprintf("%+d: %s", dev, k.sc.Map.Format(p)))
		} else {
			lands = append(lands, fmt.Sprintf("%+d: off the map", dev))
		}
	}
	f.Note = fmt.Sprintf("%d hexes, in sight; the shot lands along the line (%s), then rolls %s", d, strings.Join(lands, ", "), k.r.extended.ID)
	return []game.Forecast{f}, nil
}

// forecastCharge names each enemy unit's morale check in the zones of a
// charge, with its modifier (NES-6): those seat sees (fog of war).
func (k *cmd) forecastCharge(seat string) ([]game.Forecast, error) {
	u, err := k.unit(k.a.Unit)
	if err != nil {
		return nil, err
	}
	t := k.sc.Terrain
	ti, _, err := k.hex(k.a.Target, "target")
	if err != nil {
		return nil, err
	}
	class := Cavalry[u.Cavalry]
	if class == "" {
		class = strings.TrimSuffix(u.Type, "-cavalry")
	}
	if class != "heavy" && class != "light" {
		return nil, game.Reject("NES-6", "only cavalry charges; %s is %s", u.ID, u.Type)
	}
	fi, _ := t.At(u.At)
	d := t.Dir(fi, ti)
	if d < 0 {
		return nil, game.Reject("NES-6", "hex %s is not next to %s; cavalry charges an adjacent hex", t.Label(ti), u.ID)
	}
	eff := k.r.chargeEffect(t, class, fi, d)
	if eff == "P" {
		return nil, game.Reject("NES-7", "%s cavalry may not charge into hex %s (%s) or across its hexside", class, t.Label(ti), t.TerrainName(ti))
	}
	var out []game.Forecast
	for i := range k.st.Units {
		v := &k.st.Units[i]
		if v.Side == k.side || !v.alive() || k.s.Hidden(seat, v.ID) {
			continue
		}
		j, _ := t.At(v.At)
		zone := ""
		switch {
		case j == ti:
			zone = "primary"
		case t.Dir(ti, j) >= 0 && j != fi:
			zone = "secondary"
		default:
			continue
		}
		mod, err := k.r.chargeModifier(class, u.Strength, zone)
		if err != nil {
			return nil, err
		}
		out = append(out, game.Forecast{Formation: v.ID, Table: k.r.morale.ID, Params: map[string]string{"modifier": itoa(mod)},
			Note: fmt.Sprintf("%s zone: %+d (NES-6)", zone, mod), Path: []geom.Point{u.At, v.At}})
	}
	if len(out) == 0 {
		out = append(out, game.Forecast{Formation: u.ID, Note: "no enemy unit stands in the charge zones"})
	}
	if eff != "" && eff != "none" {
		out[0].Note += "; the charging cavalry: " + eff + " (NES-7)"
	}
	return out, nil
}

// Shapes lists the formations of each unit type (game.Shaper): skirmish is
// infantry's only, general order infantry's and light cavalry's.
func (r *Rules) Shapes() map[string][]string {
	return map[string][]string{
		"infantry":      slices.Clone(Shapes),
		"light-cavalry": {"line", "column", "road-column", "general-order"},
		"heavy-cavalry": {"line", "column", "road-column"},
		"artillery":     {"line", "column", "road-column"},
	}
}

// Seen lists the ids of the command and combat units in a view
// (game.Lister), for the names a page shows.
func (r *Rules) Seen(s *game.State) []string {
	st := ext(s)
	var out []string
	for _, l := range st.Leaders {
		out = append(out, l.ID, l.Formation)
	}
	for _, u := range st.Units {
		out = append(out, u.ID)
	}
	return out
}
