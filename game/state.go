package game

import (
	"fmt"
	"iter"
	"maps"
	"slices"

	"orderly/battle"
	"orderly/geom"
)

// State is where a game stands: the fold of its events over its scenario.
// Slices are in scenario order, so the same events always give the same
// state (and the same Hash).
type State struct {
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
	Step  string `json:"step"`
	Over  bool   `json:"over,omitempty"`
	// Ready lists the sides that have finished the current step; it ends
	// when every side is ready, or when the umpire ends it.
	Ready []string `json:"ready,omitempty"`

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
	msg  map[string]int

	gen  map[string]int
	unit map[string]int
	form map[string]int
	ord  map[string]int
}

// SideState is what the state keeps per side.
type SideState struct {
	ID      string `json:"id"`
	Written int    `json:"written"` // orders written this turn (SPEC NB-2)
	// Serial numbers for the ids of the side's orders and messengers.
	Orders     int `json:"orders"`
	Messengers int `json:"messengers"`
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
}

// General is a general's state.
type General struct {
	ID       string     `json:"id"`
	Name     string     `json:"name,omitempty"`
	Side     string     `json:"side"`
	Commands string     `json:"commands"`
	Quality  string     `json:"quality"`
	Range    float64    `json:"range"`
	At       geom.Point `json:"at"`
	OnTable  bool       `json:"on-table"`
	Attached string     `json:"attached,omitempty"` // a unit or general he is with (SPEC NB-13)
	Fate     string     `json:"fate,omitempty"`     // killed or captured (SPEC NB-15)
	Replaced string     `json:"replaced,omitempty"` // the general who took over
}

// Active reports whether the general is in the game and on the table.
func (g *General) Active() bool { return g.OnTable && g.Fate == "" }

// Unit is a combat unit's state.
type Unit struct {
	ID         string     `json:"id"`
	Side       string     `json:"side"`
	Division   string     `json:"division"`
	Type       string     `json:"type"`
	Shape      string     `json:"formation"`
	Status     string     `json:"status"`
	At         geom.Point `json:"at"`
	Facing     float64    `json:"facing"`
	Speed      float64    `json:"speed"`
	Detachment bool       `json:"detachment,omitempty"`
	OnTable    bool       `json:"on-table"`
	Moved      float64    `json:"moved,omitempty"`  // inches moved this turn
	Combat     bool       `json:"combat,omitempty"` // started combat this turn (SPEC NB-12)
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
	Side      string `json:"side"`
	Status    string `json:"status"` // carried, delivered, read, active, superseded, done
	Delivered int    `json:"delivered,omitempty"`
	// Readers are the generals who read it and the turn each acts on it.
	Readers []Reader `json:"readers,omitempty"`
}

// Reader is one general's reading of an order.
type Reader struct {
	General   string `json:"general"`
	Formation string `json:"formation"`
	Read      bool   `json:"read,omitempty"`
	Acts      int    `json:"acts,omitempty"`
	Active    bool   `json:"active,omitempty"`
}

// Order statuses.
const (
	Carried    = "carried"
	Delivered  = "delivered"
	Read       = "read"
	Active     = "active"
	Superseded = "superseded"
)

func newState(sc *battle.Scenario) *State {
	s := &State{}
	for _, side := range sc.Sides {
		s.Sides = append(s.Sides, SideState{ID: side.ID})
	}
	for _, f := range sc.Formations() {
		fs := &Formation{ID: f.ID, Side: f.Side, Kind: f.Kind, Parent: f.Parent, General: f.General}
		if f.Entry != nil {
			fs.Reserve, fs.Square, fs.Edge = "off-board", f.Entry.Square, f.Entry.Edge
		} else if f.Order != nil && f.Order.Kind == "reserve" {
			fs.Reserve = "on-board"
		}
		s.Formations = append(s.Formations, fs)
	}
	for _, g := range sc.Generals() {
		s.Generals = append(s.Generals, &General{
			ID: g.ID, Name: g.Name, Side: g.Side, Commands: g.Commands, Quality: g.Quality,
			Range: g.Range, At: g.At, OnTable: !g.OffBoard,
		})
	}
	for _, u := range sc.Units() {
		s.Units = append(s.Units, &Unit{
			ID: u.ID, Side: u.Side, Division: u.Division, Type: u.Type, Shape: u.Shape,
			Status: u.Status, At: u.At, Facing: u.Facing, Speed: u.Speed,
			Detachment: u.Detachment, OnTable: !u.OffBoard,
		})
	}
	s.index()
	s.touchedAll = true
	return s
}

// clone copies a state that has no orders, messengers or replacements yet
// (a game's start), sharing the maps from id to position, which do not
// change until a general is replaced. It makes a handful of allocations
// whatever the size of the armies.
func (s *State) clone() *State {
	c := &State{Turn: s.Turn, Phase: s.Phase, Step: s.Step, touchedAll: true,
		gen: s.gen, unit: s.unit, form: s.form, sharedGen: true, open: make([]int, 0, 16)}
	c.Sides = slices.Clone(s.Sides)
	fs := make([]Formation, len(s.Formations))
	c.Formations = make([]*Formation, len(s.Formations))
	for i, f := range s.Formations {
		fs[i] = *f
		c.Formations[i] = &fs[i]
	}
	gs := make([]General, len(s.Generals))
	c.Generals = make([]*General, len(s.Generals))
	for i, g := range s.Generals {
		gs[i] = *g
		c.Generals[i] = &gs[i]
	}
	us := make([]Unit, len(s.Units))
	c.Units = make([]*Unit, len(s.Units))
	for i, u := range s.Units {
		us[i] = *u
		c.Units[i] = &us[i]
	}
	c.ord = map[string]int{}
	c.msg = map[string]int{}
	return c
}

// reset puts the state back to t, the start it was cloned from, in the
// same memory.
func (s *State) reset(t *State) {
	s.Turn, s.Phase, s.Step, s.Over, s.touchedAll = t.Turn, t.Phase, t.Step, false, true
	s.Ready = nil
	s.touched = s.touched[:0]
	copy(s.Sides, t.Sides)
	for i, f := range t.Formations {
		units := s.Formations[i].units
		*s.Formations[i] = *f
		s.Formations[i].units = units
	}
	s.Generals = s.Generals[:len(t.Generals)]
	for i, g := range t.Generals {
		*s.Generals[i] = *g
	}
	for i, u := range t.Units {
		*s.Units[i] = *u
	}
	clear(s.Messengers)
	s.Messengers = s.Messengers[:0]
	clear(s.Orders)
	s.Orders = s.Orders[:0]
	s.open = s.open[:0]
	clear(s.ord)
	clear(s.msg)
	s.gen, s.sharedGen = t.gen, true
}

func (s *State) index() {
	s.sharedGen = false
	s.gen = make(map[string]int, len(s.Generals))
	for i, g := range s.Generals {
		s.gen[g.ID] = i
	}
	s.unit = make(map[string]int, len(s.Units))
	for i, u := range s.Units {
		s.unit[u.ID] = i
	}
	s.form = make(map[string]int, len(s.Formations))
	for i, f := range s.Formations {
		s.form[f.ID] = i
		f.units = f.units[:0]
	}
	for i, u := range s.Units {
		if f := s.Formation(u.Division); f != nil {
			f.units = append(f.units, i)
		}
	}
	s.ord = make(map[string]int, len(s.Orders))
	s.open = s.open[:0]
	for i, o := range s.Orders {
		s.ord[o.ID] = i
		if !o.done() {
			s.open = append(s.open, i)
		}
	}
	s.msg = make(map[string]int, len(s.Messengers))
	for i, m := range s.Messengers {
		s.msg[m.ID] = i
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
func (s *State) Lineage(id string) iter.Seq[*Formation] {
	return func(yield func(*Formation) bool) {
		for f := s.Formation(id); f != nil && f.Kind != battle.Army; f = s.Formation(f.Parent) {
			if !yield(f) {
				return
			}
		}
	}
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
// delivered, read, or active for some of their readers but not all. The
// procedures look only at these, so a long game does not slow them down.
func (s *State) Open() []*OrderState {
	out := make([]*OrderState, 0, len(s.open))
	keep := s.open[:0]
	for _, i := range s.open {
		if o := s.Orders[i]; !o.done() {
			keep = append(keep, i)
			out = append(out, o)
		}
	}
	s.open = keep
	return out
}

// done reports whether an order has nothing more to happen to it.
func (o *OrderState) done() bool {
	switch o.Status {
	case Superseded:
		return true
	case Active:
		for _, r := range o.Readers {
			if !r.Active {
				return false
			}
		}
		return true
	}
	return false
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

// Pos returns where a unit or general stands and whether it is on the table.
func (s *State) Pos(id string) (geom.Point, bool) {
	if g := s.General(id); g != nil {
		return g.At, g.OnTable
	}
	if u := s.Unit(id); u != nil {
		return u.At, u.OnTable
	}
	return geom.Point{}, false
}

// apply folds one event into the state. It trusts the event: validation
// happened before the event was made.
func (s *State) apply(e *Event) error {
	s.enter(e.Turn, e.Phase, e.Step)
	switch e.Type {
	case StepBegun:
	case SideReady:
		s.Ready = append(s.Ready, e.Side)
	case GameOver:
		s.Over = true
	case OrderWritten:
		o := &OrderState{Order: *e.Order, Side: e.Side, Status: Carried}
		if o.Direct {
			o.Status = Delivered
			o.Delivered = e.Turn
		}
		s.ord[o.ID] = len(s.Orders)
		s.open = append(s.open, len(s.Orders))
		s.Orders = append(s.Orders, o)
		if side := s.Side(e.Side); side != nil {
			side.Orders++
			if !o.Direct {
				side.Written++
			}
		}
		if e.How == "entry" {
			// An off-board reserve's order for its entry (SPEC NB-10).
			for _, id := range o.For {
				if f := s.Formation(id); f != nil && f.Reserve == "off-board" {
					f.Then = &o.Order
				}
			}
		}
	case MessengerSent:
		s.msg[e.Messenger] = len(s.Messengers)
		s.Messengers = append(s.Messengers, &Messenger{ID: e.Messenger, Side: e.Side, At: *e.At, Speed: e.Range})
		if side := s.Side(e.Side); side != nil {
			side.Messengers++
		}
	case MessengerMoved:
		m := s.Messenger(e.Messenger)
		if m == nil {
			return fmt.Errorf("messenger %s is not in flight", e.Messenger)
		}
		m.At = *e.At
		if e.Arrived {
			s.removeMessenger(e.Messenger)
		}
	case MessengerWithdrawn:
		s.removeMessenger(e.Messenger)
	case MessengerRedirect:
		if m := s.Messenger(e.Messenger); m != nil {
			m.To = e.To
		}
	case OrderDelivered:
		if o := s.OrderByID(e.OrderID); o != nil {
			o.Status, o.Delivered, o.Via = Delivered, e.Turn, e.General
			o.Readers = nil
			for _, f := range e.Readers {
				o.Readers = append(o.Readers, Reader{Formation: f, General: s.generalOf(f)})
			}
		}
	case OrderRead:
		if o := s.OrderByID(e.OrderID); o != nil {
			o.Status = Read
			for i := range o.Readers {
				if o.Readers[i].Formation == e.Formation {
					o.Readers[i].Read, o.Readers[i].Acts, o.Readers[i].General = true, e.Acts, e.General
				}
			}
		}
	case OrderNotRead:
		if o := s.OrderByID(e.OrderID); o != nil {
			o.Readers = slices.DeleteFunc(o.Readers, func(r Reader) bool { return r.Formation == e.Formation })
		}
	case OrderActive:
		o := e.Order
		if st := s.OrderByID(o.ID); st != nil {
			st.Status = Active
			for i := range st.Readers {
				if st.Readers[i].Formation == e.Formation {
					st.Readers[i].Active = true
				}
			}
			if e.How == "messenger" || e.How == "army-commander" {
				st.Readers = append(st.Readers, Reader{Formation: e.Formation, Active: true})
			}
			o = &st.Order
		}
		for _, id := range append([]string{e.Formation}, e.Divisions...) {
			f := s.Formation(id)
			if f == nil {
				return fmt.Errorf("formation %s is not in the scenario", id)
			}
			if f.Reserve == "off-board" && e.How != "initial" {
				f.Then = o // it follows this order once it enters (SPEC NB-10)
				continue
			}
			f.Order = o
			if f.Reserve == "on-board" && o.Kind != "reserve" {
				f.Reserve = ""
			}
		}
	case OrderSuperseded:
		if o := s.OrderByID(e.OrderID); o != nil {
			o.Status = Superseded
		}
	case OrderComplete:
		for _, id := range append([]string{e.Formation}, e.Divisions...) {
			if f := s.Formation(id); f != nil {
				f.Order = e.Order
			}
		}
	case Engaged, Disengaged:
		f := s.Formation(e.Formation)
		if f == nil {
			return fmt.Errorf("formation %s is not in the scenario", e.Formation)
		}
		f.Engaged, f.With = e.Type == Engaged, e.With // events are never changed, so their lists can be shared
	case ReserveScheduled:
		if f := s.Formation(e.Formation); f != nil {
			f.Entry = e.Entry
		}
	case GeneralPlaced:
		if g := s.General(e.General); g != nil {
			g.At, g.OnTable = *e.At, true
		}
		if f := s.Formation(e.Formation); f != nil {
			f.Placed = true
		}
	case ReserveArrivalRoll:
		if f := s.Formation(e.Formation); f != nil {
			f.Arrival = e.Arrival
		}
	case ReserveEntered:
		for _, id := range e.Divisions {
			if f := s.Formation(id); f != nil {
				f.Reserve, f.Entered = "", e.Turn
			}
		}
		if f := s.Formation(e.Formation); f != nil {
			f.Reserve, f.Entered, f.EnterAt = "", e.Turn, e.At
		}
		if err := s.move(e.Moves, false); err != nil {
			return err
		}
	case EntryBlocked:
	case Moved:
		return s.move(e.Moves, true)
	case StatusChanged:
		u := s.Unit(e.Unit)
		if u == nil {
			return fmt.Errorf("unit %s is not in the scenario", e.Unit)
		}
		u.Status = e.Status
		s.touched = append(s.touched, int32(s.unit[e.Unit]))
	case Attached:
		g := s.General(e.General)
		if g == nil {
			return fmt.Errorf("general %s is not in the scenario", e.General)
		}
		g.Attached = e.To
		if e.At != nil {
			g.At = *e.At
		}
	case Detached:
		if g := s.General(e.General); g != nil {
			g.Attached = ""
		}
	case GeneralRemoved:
		g := s.General(e.General)
		if g == nil {
			return fmt.Errorf("general %s is not in the scenario", e.General)
		}
		g.Fate, g.Attached = e.Status, ""
		for _, o := range s.Generals {
			if o.Attached == g.ID {
				o.Attached = ""
			}
		}
	case GeneralReplaced:
		old := s.General(e.General)
		if old == nil || e.New == nil {
			return fmt.Errorf("general %s is not in the scenario", e.General)
		}
		n := &General{ID: e.New.ID, Name: e.New.Name, Side: old.Side, Commands: old.Commands,
			Quality: e.New.Quality, Range: e.New.Range, At: e.New.At, OnTable: true}
		old.Replaced = n.ID
		if s.sharedGen {
			s.gen = maps.Clone(s.gen)
			s.sharedGen = false
		}
		s.gen[n.ID] = len(s.Generals)
		s.Generals = append(s.Generals, n)
		if f := s.Formation(old.Commands); f != nil {
			f.General = n.ID
		}
		for _, m := range s.Messengers {
			if m.To == old.ID {
				m.To = n.ID
			}
		}
		for _, o := range s.Open() {
			for i := range o.Readers {
				if o.Readers[i].General == old.ID {
					o.Readers[i].General = n.ID
				}
			}
		}
	case CombatDeclared:
		for _, id := range e.Units {
			if u := s.Unit(id); u != nil {
				u.Combat = true
			}
		}
	case Reacted, RangeViolation, Restriction, OrderWaiting, MessengerHeld:
	default:
		return fmt.Errorf("unknown event type %q", e.Type)
	}
	if e.Type == OrderWritten && e.Messenger != "" {
		// The messenger's order and recipient are only in the owner's event.
		for _, m := range s.Messengers {
			if m.ID == e.Messenger {
				m.Order, m.To = e.Order.ID, e.To
			}
		}
	}
	return nil
}

// enter moves the state to a step of a turn; a new turn clears what is
// counted per turn. Every event carries its step, so the fold and the
// engine (which enters automatic steps without an event unless something
// happens in them) agree wherever the game waits for the players.
func (s *State) enter(turn int, phase, step string) {
	if turn != s.Turn || phase != s.Phase || step != s.Step {
		s.Ready = nil
	}
	if turn != s.Turn {
		for i := range s.Sides {
			s.Sides[i].Written = 0
		}
		for _, u := range s.Units {
			u.Moved, u.Combat = 0, false
		}
	}
	s.Turn, s.Phase, s.Step = turn, phase, step
}

func (s *State) generalOf(formation string) string {
	if f := s.Formation(formation); f != nil {
		return f.General
	}
	return ""
}

// move applies moves; attached generals go with their unit.
func (s *State) move(moves []Move, count bool) error {
	anyAttached := slices.ContainsFunc(s.Generals, func(g *General) bool { return g.Attached != "" })
	for _, m := range moves {
		if m.Unit != "" {
			i, ok := s.unit[m.Unit]
			if !ok {
				return fmt.Errorf("unit %s is not in the scenario", m.Unit)
			}
			u := s.Units[i]
			s.touched = append(s.touched, int32(i))
			if count && u.OnTable {
				u.Moved += u.At.Dist(m.To)
			}
			u.At, u.OnTable = m.To, true
			if m.Shape != "" {
				u.Shape = m.Shape
			}
			if m.Facing != nil {
				u.Facing = *m.Facing
			}
			if anyAttached {
				for _, g := range s.Generals {
					if g.Attached == u.ID {
						g.At = m.To
					}
				}
			}
			continue
		}
		g := s.General(m.General)
		if g == nil {
			return fmt.Errorf("general %s is not in the scenario", m.General)
		}
		g.At, g.OnTable = m.To, true
		for _, o := range s.Generals {
			if o.Attached == g.ID {
				o.At = m.To
			}
		}
	}
	return nil
}
