package lob

import (
	"slices"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/terrain"
)

// The stages of an order's life (LOB-4, LOB-6, LOB-7), as the page shows
// them.
const (
	Issued     = "issued"              // the command roll passed this turn
	Delivering = "in-delivery"         // on its way
	Awaiting   = "awaiting-acceptance" // arrived: an acceptance roll each turn
	Accepted   = "accepted"            // accepted, waiting for a condition or the corps
	Executing  = "executing"           // the Command acts on it
	Fluked     = "fluked"              // an attack stopped by fluke stoppage
	Recovering = "recovering"          // its Command is in attack recovery
	Fulfilled  = "fulfilled"           // ended at the end of a player turn
	Futile     = "futile"              // an attack ended as futile
	Superseded = "superseded"          // a later order took its place
	Done       = "done"                // ended, and any recovery after it is over
)

// Stages lists the stages in order of life.
var Stages = []string{Issued, Delivering, Awaiting, Accepted, Executing, Fluked, Recovering, Fulfilled, Futile, Superseded, Done}

// The steps of attack recovery (LOB-7).
const (
	First  = "first"
	Second = "second"
)

// State is LOB's part of a game's state (game.State.Ext).
type State struct {
	Sides      []Side      `json:"sides"`
	Formations []Formation `json:"formations"`
	Leaders    []Leader    `json:"leaders"`
	Units      []Unit      `json:"units"`
	Orders     []Order     `json:"orders"`

	sc     *battle.Scenario
	sides  []string
	seq    []game.Step
	form   map[string]int
	leader map[string]int
	unit   map[string]int
	search *terrain.Search
}

// Side is a side's army commander, army HQ and the turn's command roll.
type Side struct {
	ID     string     `json:"id"`
	Nation string     `json:"nation"`
	Army   string     `json:"army"` // the army commander's id
	HQ     geom.Point `json:"hq"`
	// Aware is the army commander's awareness (LOB-4), and UnawareUntil
	// the turn he becomes aware by the scenario.
	Aware        bool `json:"aware"`
	UnawareUntil int  `json:"unaware-until,omitempty"`
	// Rolled says the army commander has made his command roll this turn.
	Rolled bool `json:"rolled,omitempty"`
	// Skedaddle says the army HQ is skedaddled: no orders until it ends.
	Skedaddle bool `json:"skedaddle,omitempty"`
	// Goal is the destination of an order to move the army HQ.
	Goal   *geom.Point `json:"hq-goal,omitempty"`
	HQUsed int         `json:"hq-used,omitempty"`
	Issued int         `json:"issued"` // orders numbered so far
	// Unseen says, in a side's view under fog of war, that it does not
	// spot this enemy army HQ (HQ is then left empty).
	Unseen bool `json:"hq-unseen,omitempty"`
}

// armyHQ and commandHQ are the ids of the HQ counters fog of war spots.
func armyHQ(side string) string   { return "army-hq:" + side }
func commandHQ(cmd string) string { return "hq:" + cmd }

// Formation is a Command (corps, division, artillery battalion) or a
// brigade under a division, with what LOB keeps of it.
type Formation struct {
	ID     string `json:"id"`
	Name   string `json:"name,omitempty"`
	Side   string `json:"side"`
	Kind   string `json:"kind"` // corps, division, battalion or brigade
	Parent string `json:"parent,omitempty"`
	Leader string `json:"leader"`
	// Command is the Command it is, or (a brigade) belongs to.
	Command string   `json:"command"`
	Units   []string `json:"units,omitempty"`
	// Arrives is the turn a reinforcement enters; Entered that it has.
	Arrives int  `json:"arrives,omitempty"`
	Entered bool `json:"entered"`
	Reserve bool `json:"reserve,omitempty"`

	// A Command's HQ: where it stands, whether it is on the map, and the
	// turn it arrives.
	HQ        geom.Point `json:"hq"`
	HQOn      bool       `json:"hq-on,omitempty"`
	HQArrives int        `json:"hq-arrives,omitempty"`
	HasHQ     bool       `json:"has-hq,omitempty"` // the scenario gives it an HQ
	HQUsed    int        `json:"hq-used,omitempty"`
	// HQUnseen says, in a side's view under fog of war, that it does not
	// spot this enemy Command's HQ (HQ is then left empty, HQOn false).
	HQUnseen bool `json:"hq-unseen,omitempty"`
	// Order is the id of the order it executes; "" is no-orders status.
	Order string `json:"order,omitempty"`
	// Fluked: its attack was stopped and it cannot advance until it has
	// recovered (LOB-7).
	Fluked bool `json:"fluked,omitempty"`
	// Futile: it withdrew because its attack was ended as futile, not by
	// a fluke stoppage check; it is held as if fluked.
	Futile bool `json:"futile,omitempty"`
	// Recovery is the step of attack recovery it rolls next, from turn
	// RecoverFrom; "" when it needs none.
	Recovery    string `json:"recovery,omitempty"`
	RecoverFrom int    `json:"recover-from,omitempty"`
	// Attacked says it has executed an attack order since its last
	// recovery.
	Attacked bool `json:"attacked,omitempty"`
	// FlukeFrom is the first turn of its fluke stoppage checks under its
	// attack order (0: none), Losses the strength lost since.
	FlukeFrom int `json:"fluke-from,omitempty"`
	Losses    int `json:"losses,omitempty"`
	// Skedaddle: it has skedaddled (LOB-8); Held lists its formations
	// that were within command radius then.
	Skedaddle bool     `json:"skedaddle,omitempty"`
	Held      []string `json:"held,omitempty"`
	// Deployed: it gained initiative to deploy early.
	Deployed   bool   `json:"deployed,omitempty"`
	Associated string `json:"associated,omitempty"`
	// Declared: its order is declared fulfilled, to end with the player
	// turn.
	Declared bool `json:"declared,omitempty"`
	// Last is the attack order it recovers from.
	Last string `json:"last,omitempty"`
	// Rejoin: a reinforcement with no order of its own, which takes up
	// its corps' order when it comes within the corps' radius (10.3f).
	Rejoin bool `json:"rejoin,omitempty"`
	// Road is the road hex leading off a map edge the umpire named for
	// it to enter at, should its entry area be blocked (3.7a).
	Road *geom.Point `json:"road-entry,omitempty"`
}

// IsCommand reports whether the formation is a Command.
func (f *Formation) IsCommand() bool { return f.Kind != "brigade" }

// Leader is a general: his command value and radius.
type Leader struct {
	*game.Piece
	Name      string `json:"name,omitempty"`
	Formation string `json:"formation"`
	Army      bool   `json:"army,omitempty"`
	Value     int    `json:"value"`
	Radius    int    `json:"radius"`
	Used      int    `json:"used,omitempty"`
	// Rolled lists what he has rolled initiative for this turn.
	Rolled []string `json:"rolled,omitempty"`
	pi     int
}

// Unit is a combat unit.
type Unit struct {
	*game.Piece
	Name      string `json:"name,omitempty"`
	Type      string `json:"type"`
	Formation string `json:"brigade"` // its brigade or division (its formation in line or column is the piece's)
	Command   string `json:"command"` // the Command it traces radius to
	Strength  int    `json:"strength"`
	Status    string `json:"status"`
	Used      int    `json:"used,omitempty"`
	Posted    bool   `json:"posted,omitempty"`
	Gone      bool   `json:"gone,omitempty"`
	// Start is where it began its movement this turn (LOB-2: a stack
	// that starts in radius may move out of it), when it has moved.
	Start geom.Point `json:"start,omitempty"`
	pi    int
}

// Order is an order, from the army commander or relayed down from a
// corps, and where it stands in its life.
type Order struct {
	ID        string      `json:"id"`
	Side      string      `json:"side"`
	Kind      string      `json:"kind"`
	Objective *geom.Point `json:"objective,omitempty"`
	Note      string      `json:"note,omitempty"`
	// Condition is the condition of a conditional order (LOB-6), and Met
	// whether the side has declared it fulfilled.
	Condition string `json:"condition,omitempty"`
	Met       bool   `json:"met,omitempty"`
	// From is the army, or the Command that relays or sends it; To the
	// Command (or, releasing a reserve, the formation) it goes to.
	From string `json:"from"`
	To   string `json:"to"`
	// Reserve names the formation an order to establish a reserve puts
	// in reserve; Release says the order goes to a reserve and frees it.
	Reserve string `json:"reserve,omitempty"`
	Release bool   `json:"release,omitempty"`
	// Parent is the order it relays, or embeds it (an artillery
	// battalion's); Embedded says it is accepted with the parent.
	Parent   string `json:"parent,omitempty"`
	Embedded bool   `json:"embedded,omitempty"`
	Issued   int    `json:"issued"`
	Arrives  int    `json:"arrives"`
	Stage    string `json:"stage"`
	Failed   int    `json:"failed,omitempty"` // acceptance rolls failed
	Taken    int    `json:"accepted,omitempty"`
	// Start says it was in force at the start or on entry (11.0: relayed
	// already): fluke checks wait for the grace period.
	Start bool `json:"start,omitempty"`
	// Kept says it is a relay that reached its formation in reserve: not
	// an order the reserve accepts, but its existing orders, taken up
	// with no acceptance roll and followed once it is released (10.4c).
	Kept bool `json:"kept,omitempty"`
}

// Live reports whether an order is still to act on: not ended.
func (o *Order) Live() bool {
	switch o.Stage {
	case Issued, Delivering, Awaiting, Accepted, Executing:
		return true
	}
	return false
}

// Init makes LOB's state for a game of sc, holding the pieces of s.
// The orders of the scenario are executing at the start (11.0: relayed
// down the chain already); a reinforcement's are adopted when it enters.
func (r *Rules) Init(sc *battle.Scenario, s *game.State) (game.Ext, error) {
	st := &State{sc: sc}
	for _, sd := range sc.Sides {
		st.addSide(sc, s, sd)
	}
	st.index()
	st.offMap()
	grace := r.play["grace-turns"]
	st.scenarioOrders(sc, grace)
	st.relayStart(grace)
	st.seq = sequence(st.sides)
	return st, nil
}

// addSide adds side sd of sc to the state: its army, with its HQ and the
// army commander's awareness; its leaders, formations and units, whose
// pieces are in s.
func (st *State) addSide(sc *battle.Scenario, s *game.State, sd *battle.Side) {
	st.sides = append(st.sides, sd.ID)
	army := sc.General(sd.Army().General)
	hq := army.At
	if sd.HQ != nil {
		hq = *sd.HQ
	}
	side := Side{ID: sd.ID, Nation: sd.Nation, Army: army.ID, HQ: hq, Aware: true}
	if n, ok := army.Attrs["unaware-until"].(int); ok && n > 1 {
		side.Aware, side.UnawareUntil = false, n
	}
	for _, f := range sd.Formations {
		g := sc.General(f.General)
		l := Leader{Name: g.Name, Formation: f.ID, Army: f.Kind == battle.Army, Value: attr(g.Attrs, "value", 0), Radius: int(g.Range)}
		l.pi, _ = s.PieceIndex(g.ID)
		l.Piece = s.Pieces[l.pi]
		st.Leaders = append(st.Leaders, l)
		if f.Kind != battle.Army {
			st.Formations = append(st.Formations, newFormation(sc, sd.ID, g.ID, f))
		}
	}
	for _, u := range sd.Units {
		us := Unit{Name: u.Name, Type: u.Type, Formation: u.Division, Strength: attr(u.Attrs, "strength", 1), Status: u.Status}
		us.pi, _ = s.PieceIndex(u.ID)
		us.Piece = s.Pieces[us.pi]
		st.Units = append(st.Units, us)
	}
	st.Sides = append(st.Sides, side)
}

// newFormation is formation f of side, led by general leader: its Command (a brigade's is its
// division), when it enters, whether it is to rejoin its corps on
// entering with no orders (10.3f), and its HQ, if it has one.
func newFormation(sc *battle.Scenario, side, leader string, f *battle.Formation) Formation {
	fm := Formation{ID: f.ID, Name: f.Name, Side: side, Kind: kindOf(f), Leader: leader, Units: slices.Clone(f.Units),
		Reserve: f.Attrs["reserve"] == true, Arrives: arrives(sc, f)}
	if p := sc.Formation(f.Parent); p != nil && p.Kind != battle.Army {
		fm.Parent = p.ID
	}
	fm.Command = fm.ID
	if fm.Kind == "brigade" {
		fm.Command = fm.Parent
	}
	fm.Entered = fm.Arrives <= 1
	fm.Associated, _ = f.Attrs["associated"].(string)
	fm.Rejoin = fm.Arrives > 1 && fm.IsCommand() && fm.Parent != "" && f.Order == nil
	if lbl, ok := f.Attrs["hq"].(string); ok {
		fm.HQ, _ = sc.Map.Parse(lbl)
		fm.HQArrives = attr(f.Attrs, "hq-arrives", 0)
		fm.HQOn, fm.HasHQ = fm.HQArrives <= 1 && fm.Entered, true
	}
	return fm
}

// offMap gives each unit its Command, and takes off the map the units and
// leaders of reinforcements still to enter.
func (st *State) offMap() {
	for i := range st.Units {
		u := &st.Units[i]
		f := st.Formation(u.Formation)
		u.Command = f.Command
		if !f.Entered {
			u.OnTable = false
		}
	}
	for i := range st.Leaders {
		l := &st.Leaders[i]
		if f := st.Formation(l.Formation); f != nil && !f.Entered {
			l.OnTable = false
		}
	}
}

// scenarioOrders adds the orders the scenario gives its Commands: those
// on the map at the start execute them, a division under attack orders
// checking fluke stoppage after grace turns; a reinforcement's wait for
// it to enter.
func (st *State) scenarioOrders(sc *battle.Scenario, grace int) {
	for _, sd := range sc.Sides {
		for _, f := range sd.Formations {
			fm := st.Formation(f.ID)
			if fm == nil || !fm.IsCommand() || f.Order == nil {
				continue
			}
			side := st.Side(sd.ID)
			side.Issued++
			o := Order{ID: orderID(sd.ID, side.Issued), Side: sd.ID, Kind: f.Order.Kind, Objective: f.Order.Objective, Note: f.Order.Note,
				From: "army", To: f.ID, Stage: Accepted, Start: true}
			if fm.Entered {
				o.Stage = Executing
				fm.Order = o.ID
				if o.Kind == Attack && fm.Kind == KindDivision && !fm.Reserve {
					fm.FlukeFrom, fm.Attacked = grace+1, true
				}
			}
			st.Orders = append(st.Orders, o)
		}
	}
}

// relayStart has the Commands below one with an order at the start
// execute it too, as relayed already (11.0); an artillery battalion only
// a move order. A division in reserve holds the order as its existing
// orders: no fluke checks, nor attack recovery, until it is released to
// attack (10.4c, 10.7b).
func (st *State) relayStart(grace int) {
	for i := range st.Formations {
		f := &st.Formations[i]
		if !f.IsCommand() || !f.Entered || f.Order != "" {
			continue
		}
		for p := st.Formation(f.Parent); p != nil; p = st.Formation(p.Parent) {
			po := st.Executing(p)
			if po == nil {
				continue
			}
			if f.Kind != KindBattalion || po.Kind == Move {
				c := child(po, p, f, 0)
				c.Start = true
				st.Orders = append(st.Orders, c)
				f.Order = c.ID
				if c.Kind == Attack && f.Kind == KindDivision && !f.Reserve {
					f.FlukeFrom, f.Attacked = grace+1, true
				}
			}
			break
		}
	}
}

func kindOf(f *battle.Formation) string {
	switch f.Kind {
	case battle.Corps, battle.Wing:
		return KindCorps
	case battle.Division:
		if f.Attrs["battalion"] == true {
			return KindBattalion
		}
		return KindDivision
	}
	return "brigade"
}

// arrives is the turn formation f enters: its own arrives, or the nearest
// formation above it that has one; 0 for one on the map at the start.
func arrives(sc *battle.Scenario, f *battle.Formation) int {
	for ; f != nil && f.Kind != battle.Army; f = sc.Formation(f.Parent) {
		if n, ok := f.Attrs["arrives"].(int); ok {
			return n
		}
	}
	return 0
}

func attr(m map[string]any, name string, def int) int {
	if v, ok := m[name].(int); ok {
		return v
	}
	return def
}

func orderID(side string, n int) string { return side + "-" + itoa(n) }

func (st *State) index() {
	st.form = make(map[string]int, len(st.Formations))
	for i, f := range st.Formations {
		st.form[f.ID] = i
	}
	st.leader = make(map[string]int, len(st.Leaders))
	for i, l := range st.Leaders {
		st.leader[l.ID] = i
	}
	st.unit = make(map[string]int, len(st.Units))
	for i, u := range st.Units {
		st.unit[u.ID] = i
	}
}

// Formation returns a formation's state, or nil.
func (st *State) Formation(id string) *Formation {
	if i, ok := st.form[id]; ok {
		return &st.Formations[i]
	}
	return nil
}

// Leader returns a general's state, or nil.
func (st *State) Leader(id string) *Leader {
	if i, ok := st.leader[id]; ok {
		return &st.Leaders[i]
	}
	return nil
}

// Unit returns a combat unit's state, or nil.
func (st *State) Unit(id string) *Unit {
	if i, ok := st.unit[id]; ok {
		return &st.Units[i]
	}
	return nil
}

// Side returns a side's state, or nil.
func (st *State) Side(id string) *Side {
	for i := range st.Sides {
		if st.Sides[i].ID == id {
			return &st.Sides[i]
		}
	}
	return nil
}

// Order returns an order, or nil.
func (st *State) Order(id string) *Order {
	for i := range st.Orders {
		if st.Orders[i].ID == id {
			return &st.Orders[i]
		}
	}
	return nil
}

// Executing is the order a Command acts on, or nil (no-orders status).
func (st *State) Executing(f *Formation) *Order {
	if f.Order == "" {
		return nil
	}
	return st.Order(f.Order)
}

// hold points the state's pieces at those of c.
func (st *State) hold(c *game.State) {
	for i := range st.Leaders {
		st.Leaders[i].Piece = c.PieceAt(st.Leaders[i].pi, st.Leaders[i].ID)
	}
	for i := range st.Units {
		st.Units[i].Piece = c.PieceAt(st.Units[i].pi, st.Units[i].ID)
	}
}

func (st *State) clone() *State {
	c := *st
	c.Sides = slices.Clone(st.Sides)
	for i := range c.Sides {
		if g := c.Sides[i].Goal; g != nil {
			p := *g
			c.Sides[i].Goal = &p
		}
	}
	c.Formations = slices.Clone(st.Formations)
	for i := range c.Formations {
		c.Formations[i].Held = slices.Clone(c.Formations[i].Held)
	}
	c.Leaders = slices.Clone(st.Leaders)
	for i := range c.Leaders {
		c.Leaders[i].Rolled = slices.Clone(c.Leaders[i].Rolled)
	}
	c.Units = slices.Clone(st.Units)
	c.Orders = slices.Clone(st.Orders)
	c.search = nil
	return &c
}

// Clone copies the state for a game that starts where it stands.
func (st *State) Clone(c *game.State) game.Ext {
	out := st.clone()
	out.hold(c)
	return out
}

// Reset puts the state back to from.
func (st *State) Reset(from game.Ext, c *game.State) {
	search := st.search
	*st = *from.(*State).clone()
	st.search = search
	st.hold(c)
}

// searcher is the state's own search over the map.
func (st *State) searcher() *terrain.Search {
	if st.search == nil {
		st.search = terrain.NewSearch(st.sc.Terrain)
	}
	return st.search
}

// StateOf is LOB's part of a game's state.
func StateOf(s *game.State) *State { return ext(s) }

func ext(s *game.State) *State { return s.Ext.(*State) }

// phasing is the side whose turn a phase is.
func (st *State) phasing(phase string) string {
	for _, s := range st.sides {
		if len(phase) > len(s) && phase[:len(s)+1] == s+"-" {
			return s
		}
	}
	return ""
}

// alive reports whether a combat unit is on the map and not gone.
func (u *Unit) alive() bool { return !u.Gone && u.OnTable }

// dist is the number of hexes between two positions.
func (st *State) dist(a, b geom.Point) int { return int(st.sc.Map.Dist(a, b)) }

// Centre is where a Command's command radius is traced from, and the
// leader whose radius it is (LOB-1): its HQ when on the map; before that
// its own leader, or the highest-ranking leader of its formations on the
// map. ok is false when nobody of the Command is on the map.
func (st *State) Centre(f *Formation) (at geom.Point, by *Leader, ok bool) {
	l := st.Leader(f.Leader)
	if f.HQOn {
		return f.HQ, l, true
	}
	if l != nil && l.OnTable {
		return l.At, l, true
	}
	for _, sub := range st.below(f.ID) {
		if m := st.Leader(st.Formations[sub].Leader); m != nil && m.OnTable {
			return m.At, m, true
		}
	}
	return geom.Point{}, l, false
}

// present reports whether a Command has anyone on the map to act for it:
// its HQ or a leader (LOB-1).
func (st *State) present(f *Formation) bool {
	_, _, ok := st.Centre(f)
	return ok
}

// ActingHQ reports whether a Command's HQ is not on the map and a leader
// acts as its HQ (LOB-1).
func (st *State) ActingHQ(f *Formation) bool {
	_, _, ok := st.Centre(f)
	return ok && !f.HQOn
}

// below lists the formations under formation id, top down (divisions of
// a corps before their brigades), by index.
func (st *State) below(id string) []int {
	var out []int
	for i := range st.Formations {
		if st.Formations[i].Parent == id {
			out = append(out, i)
		}
	}
	for _, i := range slices.Clone(out) {
		out = append(out, st.below(st.Formations[i].ID)...)
	}
	return out
}

// InRadius reports whether a position is within a Command's command
// radius (LOB-2), and the distance to its centre.
func (st *State) InRadius(f *Formation, p geom.Point) (bool, int) {
	c, by, ok := st.Centre(f)
	if !ok || by == nil {
		return false, -1
	}
	d := st.dist(c, p)
	return d <= by.Radius, d
}

// Units of a formation: its own and those of the formations under it.
func (st *State) unitsOf(id string) []*Unit {
	var out []*Unit
	for i := range st.Units {
		u := &st.Units[i]
		if u.Formation == id || st.within(u.Formation, id) {
			out = append(out, u)
		}
	}
	return out
}

// within reports whether formation id is under formation of.
func (st *State) within(id, of string) bool {
	for n := 0; n < 8; n++ {
		f := st.Formation(id)
		if f == nil || f.Parent == "" {
			return false
		}
		if f.Parent == of {
			return true
		}
		id = f.Parent
	}
	return false
}

// formationIn reports whether every unit of a formation on the map is
// within its Command's radius (a formation with none there is not).
func (st *State) formationIn(id string) bool {
	f := st.Formation(id)
	if f == nil {
		return false
	}
	cmd := st.Formation(f.Command)
	n := 0
	for _, u := range st.unitsOf(id) {
		if !u.alive() {
			continue
		}
		n++
		c := st.Formation(u.Command)
		if c == nil {
			c = cmd
		}
		if in, _ := st.InRadius(c, u.At); !in {
			return false
		}
	}
	return n > 0
}
