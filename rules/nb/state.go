package nb

import (
	"fmt"
	"iter"
	"orderly/geom"
	"slices"
	"strconv"

	"orderly/battle"
	"orderly/game"
)

// State is NB's part of a game's state (game.State.Ext): the command state
// of every formation, the generals and units as NB sees them, the
// messengers on the table and every order from writing to action. Its
// units and generals hold the engine's pieces, which say where they stand.
type State struct {
	Sides      []SideState   `json:"sides"`
	Formations []*Formation  `json:"formations"`
	Generals   []*General    `json:"generals"`
	Units      []*Unit       `json:"units"`
	Messengers []*Messenger  `json:"messengers"`
	Orders     []*OrderState `json:"orders"`

	// touched lists the units that moved or changed status since the last
	// engagement check; touchedAll says to check every division.
	touched    []int32
	touchedAll bool
	sharedGen  bool // gen is shared with the start of the game and must be copied before a change

	open []int // indices of the orders still on their way to action
	// carried[i] == carry marks order i as carried by a messenger, as of
	// the last markCarried.
	carried []int
	carry   int
	msg     map[string]int

	gen     map[string]int
	unit    map[string]int
	byPiece []int // a piece's index (game.Move.Piece) -> its unit's, or -1
	form    map[string]int
	ord     map[string]int

	eng      *engager // what the engagement check keeps between calls (NB-6)
	engReach float64

	// Memory for the payloads and points of the events this game makes,
	// and for its orders and messengers (game.Slab).
	pay         []slab // by event type, as in kinds (newPayload)
	lastKind    int    // the place in kinds of the type of the last payload made
	pts         game.Slab[geom.Point]
	ords        game.Slab[OrderState]
	msgs        game.Slab[Messenger]
	strs        game.Slab[string]
	orders      game.Slab[Order]
	opens       game.Slab[*OrderState]
	follow, out []string     // scratch for split
	enemy       []geom.Point // scratch for enemies
	rd          []string     // scratch for readers
	rc          []string     // scratch for recipients
	// names keeps the ids made from a prefix and a serial number (orders,
	// messengers): the same in every game of a scenario.
	names map[[2]string][]string
	// scratch: the units of a division on an attack order out of column,
	// by formation (attackLimits)
	shaped [][]string
	// moveMark[piece] == moveRound marks a piece the move command being
	// checked has named already.
	moveMark  []int
	moveRound int
}

// SideState is what the state keeps per side.
type SideState struct {
	ID      string `json:"id"`
	Written int    `json:"written"` // orders written this turn (SPEC NB-2)
	// Serial numbers for the ids of the side's orders and messengers.
	Orders     int `json:"orders"`
	Messengers int `json:"messengers"`

	nation string // for its orders per turn (NB-2)
}

// Formation is a formation's command state.
type Formation struct {
	ID     string      `json:"id"`
	Side   string      `json:"side"`
	Kind   battle.Kind `json:"kind"`
	Parent string      `json:"parent,omitempty"`
	// General commands it now (a replacement takes over, SPEC NB-15).
	General string `json:"general"`
	// Order is the order it acts on; nil while it follows none of its own.
	Order *Order `json:"order,omitempty"`
	// Reserve is on-board or off-board while it is held back (SPEC NB-9,
	// NB-10), and "" once it has taken an order or entered.
	Reserve string   `json:"reserve,omitempty"`
	Engaged bool     `json:"engaged,omitempty"`
	With    []string `json:"with,omitempty"` // the enemy divisions it is engaged with
	// Off-board reserves (SPEC NB-10).
	Square  string      `json:"square,omitempty"`
	Edge    string      `json:"edge,omitempty"`
	Entry   int         `json:"entry,omitempty"`   // earliest entry turn, secret
	Arrival int         `json:"arrival,omitempty"` // the turn it comes on, once rolled
	Placed  bool        `json:"placed,omitempty"`  // its general is at the edge
	EnterAt *geom.Point `json:"enter-at,omitempty"`
	Entered int         `json:"entered,omitempty"` // the turn it came on
	Then    *Order      `json:"then,omitempty"`    // the order it follows on entry

	units []int // a division's combat units, as indices into State.Units
	up    int   // the index of its parent in State.Formations, -1 for none
	gi    int   // the index of General in State.Generals, -1 for none
}

// General is a general: his piece, and what NB knows of him.
type General struct {
	*game.Piece
	Name     string  `json:"name,omitempty"`
	Commands string  `json:"commands"`
	Quality  string  `json:"quality"`
	Range    float64 `json:"range"`
	Attached string  `json:"attached,omitempty"` // a unit or general he is with (SPEC NB-13)
	Fate     string  `json:"fate,omitempty"`     // killed or captured (SPEC NB-15)
	Replaced string  `json:"replaced,omitempty"` // the general who took over

	pi int // the index of his piece in the game's pieces (game.Move.Piece)
}

// Active reports whether the general is in the game and on the table.
func (g *General) Active() bool { return g.OnTable && g.Fate == "" }

// WithUnit reports whether general g is attached to a combat unit, not to
// another general (SPEC NB-13: only the first keeps him from issuing or
// reading orders).
func (s *State) WithUnit(g *General) bool {
	return g != nil && g.Attached != "" && s.Unit(g.Attached) != nil
}

// Unit is a combat unit: its piece, and what NB knows of it.
type Unit struct {
	*game.Piece
	Division   string  `json:"division"`
	Type       string  `json:"type"`
	Status     string  `json:"status"`
	Speed      float64 `json:"speed"`
	Detachment bool    `json:"detachment,omitempty"`
	Moved      float64 `json:"moved,omitempty"`  // inches moved this turn
	Combat     bool    `json:"combat,omitempty"` // started combat this turn (SPEC NB-12)
	// Start is where it stood when it first moved this turn: it may end a
	// move no farther from there than its speed (SPEC NB-16).
	Start *geom.Point `json:"start,omitempty"`

	div int // the index of its division in State.Formations, -1 for none
	pi  int // the index of its piece in the game's pieces (game.Move.Piece)
}

// Cavalry reports whether the unit is light or heavy cavalry.
func (u *Unit) Cavalry() bool { return u.Type == "light-cavalry" || u.Type == "heavy-cavalry" }

// Messenger is a messenger model carrying an order (SPEC NB-3).
type Messenger struct {
	ID    string     `json:"id"`
	Side  string     `json:"side"`
	Order string     `json:"order"`
	To    string     `json:"to"` // the general it rides to
	At    geom.Point `json:"at"`
	Speed float64    `json:"speed"`
}

// OrderState follows one order from writing to action.
type OrderState struct {
	Order
	// Status sums up the readers: carried until delivered; delivered;
	// read once any reader has read it; active once any reader acts on
	// it; superseded when every reader has a newer order.
	Side      string `json:"side"`
	Status    string `json:"status"`
	Delivered int    `json:"delivered,omitempty"`
	// Readers are the generals who read it and the turn each acts on it.
	// Each reads, rolls and acts on his own (SPEC NB-11).
	Readers []Reader `json:"readers,omitempty"`
}

// Reader is one general's reading of an order.
type Reader struct {
	General   string `json:"general"`
	Formation string `json:"formation"`
	Read      bool   `json:"read,omitempty"`
	Acts      int    `json:"acts,omitempty"`
	Active    bool   `json:"active,omitempty"`
	// Superseded: a newer order had reached this formation when it came to
	// act on this one (NB-5), so it never will.
	Superseded bool `json:"superseded,omitempty"`
	// Held: the order came while his general was attached to a combat
	// unit, so he reads it (or his reserve acts on it) only once he
	// detaches (NB-13).
	Held bool `json:"held,omitempty"`
}

// Finished reports whether the reader has nothing more to do with the
// order: he acts on it, or a newer order overtook it.
func (r *Reader) Finished() bool { return r.Active || r.Superseded }

// Reader returns the reading of formation id, or nil.
func (o *OrderState) Reader(id string) *Reader {
	for i := range o.Readers {
		if o.Readers[i].Formation == id {
			return &o.Readers[i]
		}
	}
	return nil
}

// Order statuses.
const (
	Carried    = "carried"
	Delivered  = "delivered"
	Read       = "read"
	Active     = "active"
	Superseded = "superseded"
)

// Init makes NB's state for a game of sc beside the core state s, whose
// pieces its generals and units hold.
func (r *Rules) Init(sc *battle.Scenario, s *game.State) (game.Ext, error) {
	n := &State{}
	for _, side := range sc.Sides {
		n.Sides = append(n.Sides, SideState{ID: side.ID, nation: side.Nation})
	}
	for _, f := range sc.Formations() {
		fs := &Formation{ID: f.ID, Side: f.Side, Kind: f.Kind, Parent: f.Parent, General: f.General}
		if f.Entry != nil {
			fs.Reserve, fs.Square, fs.Edge = "off-board", f.Entry.Square, f.Entry.Edge
		} else if f.Order != nil && f.Order.Kind == "reserve" {
			fs.Reserve = "on-board"
		}
		n.Formations = append(n.Formations, fs)
	}
	for _, g := range sc.Generals() {
		p := s.Piece(g.ID)
		if p == nil {
			return nil, fmt.Errorf("nb: general %s has no piece", g.ID)
		}
		pi, _ := s.PieceIndex(g.ID)
		n.Generals = append(n.Generals, &General{Piece: p, Name: g.Name, Commands: g.Commands, Quality: g.Quality, Range: g.Range, pi: pi})
	}
	for _, u := range sc.Units() {
		p := s.Piece(u.ID)
		if p == nil {
			return nil, fmt.Errorf("nb: unit %s has no piece", u.ID)
		}
		pi, _ := s.PieceIndex(u.ID)
		n.Units = append(n.Units, &Unit{Piece: p, Division: u.Division, Type: u.Type, Status: u.Status, Speed: u.Speed, Detachment: u.Detachment, pi: pi})
	}
	n.index()
	n.touchedAll = true
	return n, nil
}

// of is NB's part of s.
func of(s *game.State) *State { return s.Ext.(*State) }

// st is NB's part of the state a Tx acts on.
func st(x *game.Tx) *State { return x.S.Ext.(*State) }

// Clone copies a state that has no orders, messengers or replacements yet
// (a game's start), sharing the maps from id to position, which do not
// change until a general is replaced. Its generals and units hold the
// pieces of c. It makes a handful of allocations whatever the size of the
// armies.
func (s *State) Clone(c *game.State) game.Ext {
	n := &State{touchedAll: true, gen: s.gen, unit: s.unit, byPiece: s.byPiece, form: s.form, sharedGen: true, open: make([]int, 0, 16)}
	n.Sides = slices.Clone(s.Sides)
	fs := make([]Formation, len(s.Formations))
	n.Formations = make([]*Formation, len(s.Formations))
	for i, f := range s.Formations {
		fs[i] = *f
		n.Formations[i] = &fs[i]
	}
	gs := make([]General, len(s.Generals))
	n.Generals = make([]*General, len(s.Generals))
	for i, g := range s.Generals {
		gs[i] = *g
		gs[i].Piece = c.PieceAt(g.pi, g.ID)
		n.Generals[i] = &gs[i]
	}
	us := make([]Unit, len(s.Units))
	n.Units = make([]*Unit, len(s.Units))
	for i, u := range s.Units {
		us[i] = *u
		us[i].Piece = c.PieceAt(u.pi, u.ID)
		n.Units[i] = &us[i]
	}
	n.ord = map[string]int{}
	n.msg = map[string]int{}
	return n
}

// Reset puts the state back to from, the start it was cloned from, in the
// same memory; its generals and units keep their pieces (c's, reset).
func (s *State) Reset(from game.Ext, _ *game.State) {
	t := from.(*State)
	s.touchedAll = true
	s.touched = s.touched[:0]
	copy(s.Sides, t.Sides)
	for i, f := range t.Formations {
		units := s.Formations[i].units
		*s.Formations[i] = *f
		s.Formations[i].units = units
	}
	s.Generals = s.Generals[:len(t.Generals)]
	for i, g := range t.Generals {
		p := s.Generals[i].Piece
		*s.Generals[i] = *g
		s.Generals[i].Piece = p
	}
	for i, u := range t.Units {
		p := s.Units[i].Piece
		*s.Units[i] = *u
		s.Units[i].Piece = p
	}
	clear(s.Messengers)
	s.Messengers = s.Messengers[:0]
	clear(s.Orders)
	s.Orders = s.Orders[:0]
	s.open = s.open[:0]
	clear(s.ord)
	clear(s.msg)
	s.gen, s.sharedGen = t.gen, true
	for _, sl := range s.pay {
		if sl != nil {
			sl.Reset()
		}
	}
	s.pts.Reset()
	s.ords.Reset()
	s.msgs.Reset()
	s.strs.Reset()
	s.orders.Reset()
	s.opens.Reset()
}

// NewTurn clears what is counted per turn: orders written (NB-2), inches
// moved (NB-7), combat started (NB-12) and where each unit began to move
// (NB-16).
func (s *State) NewTurn() {
	for i := range s.Sides {
		s.Sides[i].Written = 0
	}
	for _, u := range s.Units {
		u.Moved, u.Combat, u.Start = 0, false, nil
	}
}

func (s *State) index() {
	s.sharedGen = false
	s.gen = make(map[string]int, len(s.Generals))
	for i, g := range s.Generals {
		s.gen[g.ID] = i
	}
	s.unit = make(map[string]int, len(s.Units))
	n := 0
	for i, u := range s.Units {
		s.unit[u.ID] = i
		n = max(n, u.pi+1)
	}
	s.byPiece = make([]int, n)
	for i := range s.byPiece {
		s.byPiece[i] = -1
	}
	for i, u := range s.Units {
		s.byPiece[u.pi] = i
	}
	s.form = make(map[string]int, len(s.Formations))
	for i, f := range s.Formations {
		s.form[f.ID] = i
		f.units = nil // not [:0]: a view's copy shares the array with the state it was made from
	}
	for _, f := range s.Formations {
		f.up, f.gi = -1, -1
		if i, ok := s.form[f.Parent]; ok {
			f.up = i
		}
		if i, ok := s.gen[f.General]; ok {
			f.gi = i
		}
	}
	for i, u := range s.Units {
		u.div = -1
		if d, ok := s.form[u.Division]; ok {
			u.div = d
			s.Formations[d].units = append(s.Formations[d].units, i)
		}
	}
	s.msg = make(map[string]int, len(s.Messengers))
	for i, m := range s.Messengers {
		s.msg[m.ID] = i
	}
	s.ord = make(map[string]int, len(s.Orders))
	s.open = s.open[:0]
	s.markCarried()
	for i, o := range s.Orders {
		s.ord[o.ID] = i
		if !s.finished(i, o) {
			s.open = append(s.open, i)
		}
	}
}

// General returns the general with id, or nil.
func (s *State) General(id string) *General {
	if i, ok := s.gen[id]; ok {
		return s.Generals[i]
	}
	return nil
}

// Unit returns the unit with id, or nil.
func (s *State) Unit(id string) *Unit {
	if i, ok := s.unit[id]; ok {
		return s.Units[i]
	}
	return nil
}

// Formation returns the formation with id, or nil.
func (s *State) Formation(id string) *Formation {
	if i, ok := s.form[id]; ok {
		return s.Formations[i]
	}
	return nil
}

// OrderByID returns the order with id, or nil.
func (s *State) OrderByID(id string) *OrderState {
	if i, ok := s.ord[id]; ok {
		return s.Orders[i]
	}
	return nil
}

// Messenger returns the messenger with id, or nil.
func (s *State) Messenger(id string) *Messenger {
	if i, ok := s.msg[id]; ok {
		return s.Messengers[i]
	}
	return nil
}

// removeMessenger takes a messenger off the table; the last messenger
// takes its place in the list.
func (s *State) removeMessenger(id string) {
	i, ok := s.msg[id]
	if !ok {
		return
	}
	last := len(s.Messengers) - 1
	s.Messengers[i] = s.Messengers[last]
	s.msg[s.Messengers[i].ID] = i
	s.Messengers[last] = nil
	s.Messengers = s.Messengers[:last]
	delete(s.msg, id)
}

// Lineage yields formation id and the formations above it, up to but not
// including the army.
func (s *State) Lineage(id string) iter.Seq[*Formation] { return s.lineage(s.Formation(id)) }

// lineage yields f (if not nil) and the formations above it, up to but
// not including the army.
func (s *State) lineage(f *Formation) iter.Seq[*Formation] {
	return func(yield func(*Formation) bool) {
		for ; f != nil && f.Kind != battle.Army; f = s.parent(f) {
			if !yield(f) {
				return
			}
		}
	}
}

// unitAt is the index of the unit move m moves, found by the move's piece
// hint if that is right, and whether there is one.
func (s *State) unitAt(m game.Move) (int, bool) {
	if k := m.Piece - 1; k >= 0 && k < len(s.byPiece) {
		if i := s.byPiece[k]; i >= 0 && s.Units[i].ID == m.Unit {
			return i, true
		}
	}
	i, ok := s.unit[m.Unit]
	return i, ok
}

// firstMove reports whether the move command being checked names the
// piece with index pi for the first time, and marks it named.
func (s *State) firstMove(pi int) bool {
	for len(s.moveMark) <= pi {
		s.moveMark = append(s.moveMark, 0)
	}
	if s.moveMark[pi] == s.moveRound {
		return false
	}
	s.moveMark[pi] = s.moveRound
	return true
}

// commander is the general who commands formation f now, or nil.
func (s *State) commander(f *Formation) *General {
	if f.gi < 0 {
		return nil
	}
	return s.Generals[f.gi]
}

// parent is the formation above f, or nil.
func (s *State) parent(f *Formation) *Formation {
	if f.up < 0 {
		return nil
	}
	return s.Formations[f.up]
}

// division is the division of unit u, or nil.
func (s *State) division(u *Unit) *Formation {
	if u.div < 0 {
		return nil
	}
	return s.Formations[u.div]
}

// Members yields the combat units of a division.
func (s *State) Members(f *Formation) iter.Seq[*Unit] {
	return func(yield func(*Unit) bool) {
		for _, i := range f.units {
			if !yield(s.Units[i]) {
				return
			}
		}
	}
}

// Open returns the orders that are still on their way to action: carried,
// delivered, read, or finished for some of their readers but not all. The
// procedures look only at these, so a long game does not slow them down.
func (s *State) Open() []*OrderState {
	s.markCarried()
	out := s.opens.Take(len(s.open))[:0]
	keep := s.open[:0]
	for _, i := range s.open {
		if o := s.Orders[i]; !s.finished(i, o) {
			keep = append(keep, i)
			out = append(out, o)
		}
	}
	s.open = keep
	return out
}

// finished reports whether an order has nothing more to happen to it: no
// messenger carries it, and each of its readers has acted on it or had it
// overtaken by a newer order (NB-11: each on his own). An order given
// without a messenger is finished once acted on. i is the order's index;
// markCarried must have marked the orders messengers carry.
func (s *State) finished(i int, o *OrderState) bool {
	switch {
	case o.Status == Superseded:
		return true
	case o.Direct && o.Status != Active:
		return false
	case o.Status == Carried && len(o.Readers) == 0:
		return false
	}
	if s.carried[i] == s.carry {
		return false
	}
	for i := range o.Readers {
		if !o.Readers[i].Finished() {
			return false
		}
	}
	return true
}

// markCarried marks the orders a messenger carries now, once for a pass
// over the open orders, so that the pass looks at each messenger once
// rather than once an order.
func (s *State) markCarried() {
	s.carry++
	if n := len(s.Orders); len(s.carried) < n {
		s.carried = append(s.carried, make([]int, n-len(s.carried))...)
	}
	for _, m := range s.Messengers {
		if i, ok := s.ord[m.Order]; ok {
			s.carried[i] = s.carry
		}
	}
}

// Side returns the state of side id, or nil.
func (s *State) Side(id string) *SideState {
	for i := range s.Sides {
		if s.Sides[i].ID == id {
			return &s.Sides[i]
		}
	}
	return nil
}

// serial is kind, side, a dash and n ("french-3", "m-french-3"), made once.
func (s *State) serial(kind, side string, n int) string {
	if s.names == nil {
		s.names = map[[2]string][]string{}
	}
	k := [2]string{kind, side}
	l := s.names[k]
	for len(l) <= n {
		l = append(l, kind+side+"-"+strconv.Itoa(len(l)))
	}
	s.names[k] = l
	return l[n]
}

// keep is a copy of ids held with the game's events, or nil for none.
func (s *State) keep(ids []string) []string {
	out := s.strs.Take(len(ids))
	copy(out, ids)
	return out
}

// pt is a copy of p held with the game's events.
func (s *State) pt(p geom.Point) *geom.Point { return s.pts.One(p) }

// StateOf is NB's part of the state of an NB game.
func StateOf(s *game.State) *State { return of(s) }
