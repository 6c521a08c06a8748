package nes

import (
	"slices"
	"sync"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/terrain"
)

// State is NES's part of a game's state (game.State.Ext): every command
// unit's command state, order and marker, every combat unit's strength
// and state, each side's command points and headquarters.
type State struct {
	Leaders []Leader `json:"leaders"`
	Units   []Unit   `json:"units"`
	Sides   []Side   `json:"sides"`

	sc     *battle.Scenario
	search *terrain.Search
	sides  []string
	seq    []game.Step
	leader map[string]int
	unit   map[string]int
	steps  *stepCache     // step tables of the game's map, shared by its copies
	subs   [][]int        // the indices of the command units directly under each
	army   map[string]int // the index of each side's army commander
	occ    *occupancy
}

// stepCache holds the step costs of each mode of movement over a game's
// map, worked out when first needed (the map never changes). The copies
// of a game's state (views, Monte Carlo runs, which may run at once) share
// it; it goes with the game.
type stepCache struct {
	mu    sync.Mutex
	moves map[Mode]*moves
}

// moves is what the searches need of a piece that sets out in one mode:
// the step costs in every mode its way may bring it to (NES-7), and the
// least a step costs in any of them.
type moves struct {
	layers terrain.Layers
	floor  int
}

// moves is the step costs over the game's map of a piece that sets out
// in mode md (sixths, -1 prohibited), in each mode the chart's effects
// may bring it to on the way.
func (st *State) moves(r *Rules, md Mode) *moves {
	md = r.state(md)
	c := st.steps
	c.mu.Lock()
	defer c.mu.Unlock()
	if mv, ok := c.moves[md]; ok {
		return mv
	}
	ls, _ := r.Layers(st.sc.Terrain, md)
	mv := &moves{layers: ls, floor: r.Floor(md)}
	c.moves[md] = mv
	return mv
}

// occupancy is where each side's pieces stand, hex by hex, for blocking
// and stacking: worked out when first needed and kept up as events move
// pieces (it is not part of the saved state).
type occupancy struct {
	units   [][]int16 // by side, by hex: combat units on the map
	pieces  [][]int16 // by side, by hex: combat and command units
	present [][]bool  // by side, by hex: any piece
}

// sideIndex is the index of a side in the scenario's order.
func (st *State) sideIndex(side string) int {
	for i, s := range st.sides {
		if s == side {
			return i
		}
	}
	return -1
}

// occupied is the occupancy, worked out if it is not yet.
func (st *State) occupied() *occupancy {
	if st.occ != nil {
		return st.occ
	}
	t := st.sc.Terrain
	o := &occupancy{}
	for range st.sides {
		o.units = append(o.units, make([]int16, t.Len()))
		o.pieces = append(o.pieces, make([]int16, t.Len()))
		o.present = append(o.present, make([]bool, t.Len()))
	}
	for i := range st.Units {
		if u := &st.Units[i]; u.alive() {
			o.add(st, u.Side, u.At, true, 1)
		}
	}
	for i := range st.Leaders {
		if l := &st.Leaders[i]; l.OnTable {
			o.add(st, l.Side, l.At, false, 1)
		}
	}
	st.occ = o
	return o
}

// add counts a piece of side at p in (n = 1) or out (n = -1).
func (o *occupancy) add(st *State, side string, p geom.Point, unit bool, n int16) {
	si := st.sideIndex(side)
	i, ok := st.sc.Terrain.At(p)
	if si < 0 || !ok {
		return
	}
	if unit {
		o.units[si][i] += n
	}
	o.pieces[si][i] += n
	o.present[si][i] = o.pieces[si][i] > 0
}

// moved keeps the occupancy up as a piece goes from one hex to another
// (or off the map: to nil).
func (st *State) moved(side string, unit bool, from geom.Point, to *geom.Point) {
	if st.occ == nil {
		return
	}
	st.occ.add(st, side, from, unit, -1)
	if to != nil {
		st.occ.add(st, side, *to, unit, 1)
	}
}

// Side is a side's command points and headquarters.
type Side struct {
	ID     string     `json:"id"`
	Nation string     `json:"nation"`
	HQ     geom.Point `json:"hq"`
	Points int        `json:"points"`            // command points left this turn
	Each   int        `json:"each"`              // command points a turn
	Used   int        `json:"hq-used,omitempty"` // sixths the HQ has moved this turn
	// Unseen says, in a side's view under fog of war, that it does not
	// spot this enemy headquarters (HQ is then left empty).
	Unseen bool `json:"hq-unseen,omitempty"`
}

// hqMark is the id of a side's headquarters as fog of war spots it.
func hqMark(side string) string { return "hq-" + side }

// Order is an order: its kind and objective, who sent it, and what rides
// with it to later delivery rolls (NES-1's accrued modifiers).
type Order struct {
	Kind      string      `json:"kind"`
	Objective *geom.Point `json:"objective,omitempty"`
	Note      string      `json:"note,omitempty"`
	Sender    string      `json:"sender,omitempty"`
	Urgent    bool        `json:"urgent,omitempty"`
	FromHQ    bool        `json:"from-hq,omitempty"`
	// Delay is the delay level of an order on its way (1..3), and
	// AtDelay1 the turns it has already stayed at delay 1.
	Delay    int `json:"delay,omitempty"`
	AtDelay1 int `json:"at-delay-1,omitempty"`
}

// Leader is a command unit's state (NES: corps and wing commanders,
// division and brigade leaders; the army commander gives orders only).
type Leader struct {
	*game.Piece
	Name      string `json:"name,omitempty"`
	Role      string `json:"role"`
	Formation string `json:"formation"`
	Superior  string `json:"superior,omitempty"` // the command unit above, "" for the army commander
	// Independent says a division answers to no corps or wing.
	Independent bool `json:"independent,omitempty"`
	LightCav    bool `json:"light-cavalry,omitempty"`

	Bonus   int  `json:"bonus"`
	Rating  int  `json:"rating"`
	Radius  int  `json:"radius"`
	Reduced bool `json:"reduced,omitempty"`
	// Full and Low are the two sides of the counter: bonus, rating, radius.
	Full [3]int `json:"full"`
	Low  [3]int `json:"low"`

	State string `json:"state"` // standing or mobilized (NES-3)
	// Order is the order it acts under, received; Pending the one on its
	// way under a delay marker.
	Order   *Order `json:"order,omitempty"`
	Pending *Order `json:"pending,omitempty"`
	// Marker is the marker on it: received, delay-1..delay-3, or none.
	Marker string `json:"marker,omitempty"`
	// CP says a command point is stacked with it this turn (NES-3).
	CP bool `json:"cp,omitempty"`
	// Fresh says it was mobilized this command segment, so it makes no
	// continuation check until its next one (our reading).
	Fresh bool `json:"fresh,omitempty"`
	// Retired says it is retired or on the BC/FD (NES-3 counts it
	// outside every radius).
	Retired bool     `json:"retired,omitempty"`
	Used    int      `json:"used,omitempty"` // sixths of a movement point spent this turn
	GT      bool     `json:"gt,omitempty"`   // its moves this turn are grand tactical
	Units   []string `json:"units,omitempty"`
	pi      int
}

// Unit is a combat unit's state.
type Unit struct {
	*game.Piece
	Name     string `json:"name,omitempty"`
	Type     string `json:"type"`
	Leader   string `json:"leader"` // the command unit it answers to
	Strength int    `json:"strength"`
	Class    int    `json:"class,omitempty"`
	Cavalry  string `json:"cavalry,omitempty"`
	Status   string `json:"status"`
	Used     int    `json:"used,omitempty"` // sixths spent this turn
	// GT says its moves this turn are grand tactical movement: a unit
	// moves the whole turn that way or not at all (NES-7's +2).
	GT   bool `json:"gt,omitempty"`
	Gone bool `json:"gone,omitempty"`
	pi   int
	li   int // the index of its command unit
}

// Init makes NES's state for a game of sc, holding the pieces of s.
// A formation given an order at the start has it received and is
// mobilized, and so is every formation under it without an order of its
// own (the format: it follows the order of the formation above it); any
// other starts standing with no order (our reading).
func (r *Rules) Init(sc *battle.Scenario, s *game.State) (game.Ext, error) {
	st := &State{sc: sc, steps: &stepCache{moves: map[Mode]*moves{}}}
	for _, sd := range sc.Sides {
		st.sides = append(st.sides, sd.ID)
		army := sc.General(sd.Army().General)
		hq := army.At
		if sd.HQ != nil {
			hq = *sd.HQ
		}
		each := 0
		if sd.Points != nil {
			each = *sd.Points
		}
		st.Sides = append(st.Sides, Side{ID: sd.ID, Nation: sd.Nation, HQ: hq, Points: each, Each: each})
		for _, f := range sd.Formations {
			g := sc.General(f.General)
			l := Leader{Name: g.Name, Role: role(f.Kind), Formation: f.ID, State: Standing, Independent: f.Independent(sc),
				LightCav: flag(f.Attrs, "light-cavalry"), Units: slices.Clone(f.Units)}
			if p := sc.Formation(f.Parent); p != nil {
				l.Superior = p.General
			}
			bonus, rating, radius := attr(g.Attrs, "bonus", 0), attr(g.Attrs, "rating", 0), int(g.Range)
			l.Full = [3]int{bonus, rating, radius}
			l.Low = [3]int{attr(g.Attrs, "reduced-bonus", max(bonus-1, 0)), attr(g.Attrs, "reduced-rating", max(rating-1, 0)), attr(g.Attrs, "reduced-range", radius)}
			l.Reduced = flag(g.Attrs, "reduced")
			l.side()
			o := f.Order
			for p := sc.Formation(f.Parent); o == nil && p != nil && p.Kind != battle.Army; p = sc.Formation(p.Parent) {
				o = p.Order // a formation starts under the order of the one above it
			}
			if o != nil {
				l.Order = &Order{Kind: o.Kind, Objective: o.Objective, Note: o.Note}
				l.Marker, l.State = Received, Mobilized
			}
			l.pi, _ = s.PieceIndex(g.ID)
			l.Piece = s.Pieces[l.pi]
			st.Leaders = append(st.Leaders, l)
		}
		for _, u := range sd.Units {
			us := Unit{Name: u.Name, Type: u.Type, Leader: sc.Formation(u.Division).General, Strength: attr(u.Attrs, "strength", 1),
				Class: attr(u.Attrs, "class", 0), Status: u.Status}
			us.Cavalry, _ = u.Attrs["cavalry"].(string)
			us.pi, _ = s.PieceIndex(u.ID)
			us.Piece = s.Pieces[us.pi]
			st.Units = append(st.Units, us)
		}
	}
	st.seq = sequence(st.sides)
	st.index()
	return st, nil
}

// side puts the counter's values on the side it shows.
func (l *Leader) side() {
	v := l.Full
	if l.Reduced {
		v = l.Low
	}
	l.Bonus, l.Rating, l.Radius = v[0], v[1], v[2]
}

func role(k battle.Kind) string {
	switch k {
	case battle.Army:
		return RoleArmy
	case battle.Wing, battle.Corps:
		return RoleCorps
	case battle.Division:
		return RoleDivision
	}
	return RoleBrigade
}

func attr(m map[string]any, name string, def int) int {
	if v, ok := m[name].(int); ok {
		return v
	}
	return def
}

func flag(m map[string]any, name string) bool {
	v, _ := m[name].(bool)
	return v
}

func (st *State) index() {
	st.leader = make(map[string]int, len(st.Leaders))
	for i, l := range st.Leaders {
		st.leader[l.ID] = i
	}
	st.subs = make([][]int, len(st.Leaders))
	st.army = map[string]int{}
	for i, l := range st.Leaders {
		if l.Role == RoleArmy {
			st.army[l.Side] = i
		}
		if j, ok := st.leader[l.Superior]; ok {
			st.subs[j] = append(st.subs[j], i)
		}
	}
	st.unit = make(map[string]int, len(st.Units))
	for i, u := range st.Units {
		st.unit[u.ID] = i
		st.Units[i].li = st.leader[u.Leader]
	}
}

// Leader returns a command unit's state, or nil.
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
	c.Leaders = slices.Clone(st.Leaders)
	for i := range c.Leaders {
		l := &c.Leaders[i]
		l.Order, l.Pending = copyOrder(l.Order), copyOrder(l.Pending)
	}
	c.Units = slices.Clone(st.Units)
	c.Sides = slices.Clone(st.Sides)
	c.search = nil // made when a move first needs it
	c.occ = nil
	return &c
}

func copyOrder(o *Order) *Order {
	if o == nil {
		return nil
	}
	c := *o
	return &c
}

// Clone copies the state for a game that starts where it stands.
func (st *State) Clone(c *game.State) game.Ext {
	out := st.clone()
	out.hold(c)
	return out
}

// Reset puts the state back to from, in the same memory.
func (st *State) Reset(from game.Ext, c *game.State) {
	f := from.(*State)
	search := st.search
	leaders, units, sides := st.Leaders[:0], st.Units[:0], st.Sides[:0]
	*st = *f
	st.Leaders = append(leaders, f.Leaders...)
	for i := range st.Leaders {
		l := &st.Leaders[i]
		l.Order, l.Pending = copyOrder(l.Order), copyOrder(l.Pending)
	}
	st.Units = append(units, f.Units...)
	st.Sides = append(sides, f.Sides...)
	st.search = search
	st.occ = nil
	st.hold(c)
}

// searcher is the state's own search over the map, made when first
// needed (a clone makes its own: a search is not shared between games).
func (st *State) searcher() *terrain.Search {
	if st.search == nil {
		st.search = terrain.NewSearch(st.sc.Terrain)
	}
	return st.search
}

// StateOf is NES's part of a game's state.
func StateOf(s *game.State) *State { return ext(s) }

// ext is NES's state of s.
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

// subordinate reports whether command unit id is under command unit of
// (directly or further down).
func (st *State) subordinate(id, of string) bool {
	for n := 0; n < 16; n++ {
		l := st.Leader(id)
		if l == nil || l.Superior == "" {
			return false
		}
		if l.Superior == of {
			return true
		}
		id = l.Superior
	}
	return false
}

// alive reports whether a combat unit is on the map and not gone.
func (u *Unit) alive() bool { return !u.Gone && u.OnTable }
