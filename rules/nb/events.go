package nb

import (
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// NB's event types. Each is a fact the game recorded; NB's part of the
// state is the fold of them (Apply).
const (
	OrderWritten       = "order-written"
	MessengerSent      = "messenger-sent"
	MessengerMoved     = "messenger-moved"
	MessengerHeld      = "messenger-held"
	MessengerRedirect  = "messenger-redirected"
	MessengerWithdrawn = "messenger-withdrawn"
	OrderDelivered     = "order-delivered"
	OrderRead          = "order-read"
	OrderWaiting       = "order-waiting"
	OrderNotRead       = "order-not-read"
	OrderActive        = "order-active"
	OrderSuperseded    = "order-superseded"
	OrderComplete      = "order-complete"
	Engaged            = "engaged"
	Disengaged         = "disengaged"
	ReserveScheduled   = "reserve-scheduled"
	GeneralPlaced      = "general-placed"
	ReserveArrivalRoll = "reserve-arrival-roll"
	ReserveEntered     = "reserve-entered"
	EntryBlocked       = "entry-blocked"
	Moved              = "moved"
	StatusChanged      = "status-changed"
	Attached           = "attached"
	Detached           = "detached"
	GeneralRemoved     = "general-removed"
	GeneralReplaced    = "general-replaced"
	CombatDeclared     = "combat-declared"
	Reacted            = "reacted"
	RangeViolation     = "command-range-violation"
	Restriction        = "order-restriction"
)

// Types lists NB's event types.
var Types = []string{OrderWritten, MessengerSent, MessengerMoved, MessengerHeld, MessengerRedirect,
	MessengerWithdrawn, OrderDelivered, OrderRead, OrderWaiting, OrderNotRead, OrderActive,
	OrderSuperseded, OrderComplete, Engaged, Disengaged, ReserveScheduled, GeneralPlaced,
	ReserveArrivalRoll, ReserveEntered, EntryBlocked, Moved, StatusChanged, Attached, Detached,
	GeneralRemoved, GeneralReplaced, CombatDeclared, Reacted, RangeViolation, Restriction}

// EventTypes lists NB's event types, for the conformance suite and the
// test that every type is described.
func (r *Rules) EventTypes() []string { return slices.Clone(Types) }

// Data is the payload of an NB event; the type says which fields it
// carries.
type Data struct {
	Formation string      `json:"formation,omitempty"`
	General   string      `json:"general,omitempty"`
	Unit      string      `json:"unit,omitempty"`
	Messenger string      `json:"messenger,omitempty"`
	Order     *Order      `json:"order,omitempty"`
	OrderID   string      `json:"order-id,omitempty"`
	To        string      `json:"to,omitempty"` // a general or unit the event points at
	At        *geom.Point `json:"at,omitempty"`
	From      *geom.Point `json:"from,omitempty"`
	Arrived   bool        `json:"arrived,omitempty"`
	Acts      int         `json:"acts,omitempty"` // the turn an order is acted on
	How       string      `json:"how,omitempty"`
	With      []string    `json:"with,omitempty"`
	Divisions []string    `json:"divisions,omitempty"`
	Left      []string    `json:"left-out,omitempty"`
	Readers   []string    `json:"readers,omitempty"` // the formations whose generals will read an order
	Held      []string    `json:"held,omitempty"`    // those of them whose generals are attached to a unit (NB-13)
	Units     []string    `json:"units,omitempty"`
	Status    string      `json:"status,omitempty"`
	Square    string      `json:"square,omitempty"`
	Edge      string      `json:"edge,omitempty"`
	Entry     int         `json:"entry,omitempty"`   // earliest entry turn of an off-board reserve
	Arrival   int         `json:"arrival,omitempty"` // the turn it comes on
	New       *NewGeneral `json:"new,omitempty"`
	Distance  float64     `json:"distance,omitempty"`
	Range     float64     `json:"range,omitempty"`
	Text      string      `json:"text,omitempty"`
}

// Order is an order as written: who it is for, what to do, where.
type Order struct {
	ID        string      `json:"id"`
	For       []string    `json:"for"`
	Kind      string      `json:"kind"`
	Objective *geom.Point `json:"objective,omitempty"`
	Note      string      `json:"note,omitempty"`
	Written   int         `json:"written"` // the turn it was written; 0 before the game
	Via       string      `json:"via,omitempty"`
	Direct    bool        `json:"direct,omitempty"` // given without a messenger
}

// String words the order as the scenario would (battle.Order).
func (o *Order) String() string {
	return battle.Order{Kind: o.Kind, Objective: o.Objective, Note: o.Note}.String()
}

// NewGeneral describes a general who replaces a fallen one (SPEC NB-15).
type NewGeneral struct {
	ID      string     `json:"id"`
	Name    string     `json:"name,omitempty"`
	Quality string     `json:"quality"`
	Range   float64    `json:"range"`
	At      geom.Point `json:"at"`
}

// Payload makes an empty payload for one of NB's event types.
func (r *Rules) Payload(typ string) (any, bool) {
	if slices.Contains(Types, typ) {
		return &Data{}, true
	}
	return nil, false
}

// data is the payload of an NB event (an empty one if it has none).
func data(e *game.Event) *Data {
	if d, ok := e.Data.(*Data); ok && d != nil {
		return d
	}
	return &Data{}
}

// emit records an NB event: the envelope and its payload.
func emit(x *game.Tx, e game.Event, d *Data) error {
	e.Data = st(x).pay.Copy(d)
	return x.Emit(e)
}

// formations yields the formation an event is about and then its
// divisions.
func (d *Data) formations() iter.Seq[string] {
	return func(yield func(string) bool) {
		if !yield(d.Formation) {
			return
		}
		for _, id := range d.Divisions {
			if !yield(id) {
				return
			}
		}
	}
}

// Apply folds one of NB's events into NB's part of the state. It trusts
// the event: validation happened before the event was made. The engine
// moves the pieces of the event's moves afterwards.
func (r *Rules) Apply(gs *game.State, e *game.Event) error {
	s := of(gs)
	d := data(e)
	switch e.Type {
	case OrderWritten:
		o := s.ords.One(OrderState{Order: *d.Order, Side: e.Side, Status: Carried})
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
		if d.How == "entry" {
			// An off-board reserve's order for its entry (SPEC NB-10).
			for _, id := range o.For {
				if f := s.Formation(id); f != nil && f.Reserve == "off-board" {
					f.Then = &o.Order
				}
			}
		}
		if d.Messenger != "" {
			// The messenger's order and recipient are only in the owner's event.
			if m := s.Messenger(d.Messenger); m != nil {
				m.Order, m.To = d.Order.ID, d.To
			}
		}
	case MessengerSent:
		s.msg[d.Messenger] = len(s.Messengers)
		s.Messengers = append(s.Messengers, s.msgs.One(Messenger{ID: d.Messenger, Side: e.Side, At: *d.At, Speed: d.Range}))
		if side := s.Side(e.Side); side != nil {
			side.Messengers++
		}
	case MessengerMoved:
		m := s.Messenger(d.Messenger)
		if m == nil {
			return fmt.Errorf("messenger %s is not in flight", d.Messenger)
		}
		m.At = *d.At
		if d.Arrived {
			s.removeMessenger(d.Messenger)
		}
	case MessengerWithdrawn:
		s.removeMessenger(d.Messenger)
	case MessengerRedirect:
		if m := s.Messenger(d.Messenger); m != nil {
			m.To = d.To
		}
	case OrderDelivered:
		if o := s.OrderByID(d.OrderID); o != nil {
			o.Delivered, o.Via = e.Turn, d.General
			if o.Status != Active {
				o.Status = Delivered
			}
			// A reader who already acts on it (the army commander joined
			// him, NB-13) keeps his reading; the others start theirs.
			for _, f := range d.Readers {
				if o.Reader(f) == nil {
					o.Readers = append(o.Readers, Reader{Formation: f, General: s.generalOf(f), Held: slices.Contains(d.Held, f)})
				}
			}
		}
	case OrderRead:
		if o := s.OrderByID(d.OrderID); o != nil {
			if o.Status != Active {
				o.Status = Read
			}
			if rd := o.Reader(d.Formation); rd != nil {
				rd.Read, rd.Acts, rd.General = true, d.Acts, d.General
			}
		}
	case OrderNotRead:
		if o := s.OrderByID(d.OrderID); o != nil {
			o.Readers = slices.DeleteFunc(o.Readers, func(r Reader) bool { return r.Formation == d.Formation })
		}
	case OrderActive:
		o := d.Order
		if st := s.OrderByID(o.ID); st != nil {
			st.Status = Active
			if rd := st.Reader(d.Formation); rd != nil {
				rd.Active = true
			} else if d.How == "messenger" || d.How == "army-commander" {
				st.Readers = append(st.Readers, Reader{Formation: d.Formation, Active: true})
			}
			o = &st.Order
		}
		for id := range d.formations() {
			f := s.Formation(id)
			if f == nil {
				return fmt.Errorf("formation %s is not in the scenario", id)
			}
			if f.Reserve == "off-board" && d.How != "initial" {
				f.Then = o // it follows this order once it enters (SPEC NB-10)
				continue
			}
			f.Order = o
			if f.Reserve == "on-board" && o.Kind != "reserve" {
				f.Reserve = ""
			}
		}
	case OrderSuperseded:
		// Only this formation's reading ends; the other readers go on
		// (NB-11). The order is superseded once every reader's is.
		if o := s.OrderByID(d.OrderID); o != nil {
			if rd := o.Reader(d.Formation); rd != nil {
				rd.Superseded = true
			} else {
				o.Readers = append(o.Readers, Reader{Formation: d.Formation, General: s.generalOf(d.Formation), Superseded: true})
			}
			if o.Status != Active && !slices.ContainsFunc(o.Readers, func(r Reader) bool { return !r.Superseded }) {
				o.Status = Superseded
			}
		}
	case OrderComplete:
		for id := range d.formations() {
			if f := s.Formation(id); f != nil {
				f.Order = d.Order
			}
		}
	case Engaged, Disengaged:
		f := s.Formation(d.Formation)
		if f == nil {
			return fmt.Errorf("formation %s is not in the scenario", d.Formation)
		}
		f.Engaged, f.With = e.Type == Engaged, d.With // events are never changed, so their lists can be shared
	case ReserveScheduled:
		if f := s.Formation(d.Formation); f != nil {
			f.Entry = d.Entry
		}
	case GeneralPlaced:
		if g := s.General(d.General); g != nil {
			g.At, g.OnTable = *d.At, true
		}
		if f := s.Formation(d.Formation); f != nil {
			f.Placed = true
		}
	case ReserveArrivalRoll:
		if f := s.Formation(d.Formation); f != nil {
			f.Arrival = d.Arrival
		}
	case ReserveEntered:
		for _, id := range d.Divisions {
			if f := s.Formation(id); f != nil {
				f.Reserve, f.Entered = "", e.Turn
			}
		}
		if f := s.Formation(d.Formation); f != nil {
			f.Reserve, f.Entered, f.EnterAt = "", e.Turn, d.At
		}
		return s.move(e.Moves, false)
	case EntryBlocked:
	case Moved:
		return s.move(e.Moves, true)
	case StatusChanged:
		u := s.Unit(d.Unit)
		if u == nil {
			return fmt.Errorf("unit %s is not in the scenario", d.Unit)
		}
		u.Status = d.Status
		s.touched = append(s.touched, int32(s.unit[d.Unit]))
	case Attached:
		g := s.General(d.General)
		if g == nil {
			return fmt.Errorf("general %s is not in the scenario", d.General)
		}
		g.Attached = d.To
		if d.At != nil {
			g.At = *d.At
		}
	case Detached:
		if g := s.General(d.General); g != nil {
			g.Attached = ""
		}
		// The orders that came while he was with a unit may now be read
		// (NB-13).
		for _, o := range s.Open() {
			for i := range o.Readers {
				if o.Readers[i].General == d.General {
					o.Readers[i].Held = false
				}
			}
		}
	case GeneralRemoved:
		g := s.General(d.General)
		if g == nil {
			return fmt.Errorf("general %s is not in the scenario", d.General)
		}
		g.Fate, g.Attached = d.Status, ""
		for _, o := range s.Generals {
			if o.Attached == g.ID {
				o.Attached = ""
			}
		}
	case GeneralReplaced:
		old := s.General(d.General)
		if old == nil || d.New == nil {
			return fmt.Errorf("general %s is not in the scenario", d.General)
		}
		p, err := gs.AddPiece(game.Piece{ID: d.New.ID, Side: old.Side, At: d.New.At, OnTable: true})
		if err != nil {
			return err
		}
		pi, _ := gs.PieceIndex(p.ID)
		n := &General{Piece: p, Name: d.New.Name, Commands: old.Commands, Quality: d.New.Quality, Range: d.New.Range, pi: pi}
		old.Replaced = n.ID
		if s.sharedGen {
			s.gen = maps.Clone(s.gen)
			s.sharedGen = false
		}
		s.gen[n.ID] = len(s.Generals)
		s.Generals = append(s.Generals, n)
		if f := s.Formation(old.Commands); f != nil {
			f.General, f.gi = n.ID, s.gen[n.ID]
		}
		for _, m := range s.Messengers {
			if m.To == old.ID {
				m.To = n.ID
			}
		}
		for _, o := range s.Open() {
			for i := range o.Readers {
				if o.Readers[i].General == old.ID {
					o.Readers[i].General, o.Readers[i].Held = n.ID, false
				}
			}
		}
	case CombatDeclared:
		for _, id := range d.Units {
			if u := s.Unit(id); u != nil {
				u.Combat = true
			}
		}
	case Reacted, RangeViolation, Restriction, OrderWaiting, MessengerHeld:
	default:
		return fmt.Errorf("nb has no event type %q", e.Type)
	}
	return nil
}

func (s *State) generalOf(formation string) string {
	if f := s.Formation(formation); f != nil {
		return f.General
	}
	return ""
}

// move counts the inches each unit moves (NB-7: count says the move is
// one the units make, not an entry), notes where it stood when it first
// moved this turn (NB-16), and takes attached generals along (NB-13).
// The engine then moves the pieces themselves.
func (s *State) move(moves []game.Move, count bool) error {
	anyAttached := slices.ContainsFunc(s.Generals, func(g *General) bool { return g.Attached != "" })
	var starts []geom.Point // where the units first moving now stood
	for _, m := range moves {
		if m.Unit != "" {
			i, ok := s.unitAt(m)
			if !ok {
				return fmt.Errorf("unit %s is not in the scenario", m.Unit)
			}
			u := s.Units[i]
			s.touched = append(s.touched, int32(i))
			if count && u.OnTable {
				u.Moved += u.At.Dist(m.To)
				if u.Start == nil {
					if starts == nil {
						starts = s.pts.Take(len(moves))[:0]
					}
					starts = append(starts, u.At)
					u.Start = &starts[len(starts)-1]
				}
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
		for _, o := range s.Generals {
			if o.Attached == g.ID {
				o.At = m.To
			}
		}
	}
	return nil
}

// Describe says in a line what one of NB's events records, for people;
// name shows a general's id by his name.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	// A copy with every pointer set, so that an event short of a field
	// (one made by hand) still gets a sentence and never a panic.
	dd := *data(e)
	d := &dd
	if d.Order == nil {
		d.Order = &Order{}
	}
	if d.New == nil {
		d.New = &NewGeneral{}
	}
	if d.At == nil {
		d.At = &geom.Point{}
	}
	if d.From == nil {
		d.From = &geom.Point{}
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	g := name
	gs := func(ids []string) string {
		out := make([]string, len(ids))
		for i, id := range ids {
			out[i] = name(id)
		}
		return strings.Join(out, ", ")
	}
	roll := func() *game.Roll {
		if r := e.FirstRoll(); r != nil {
			return r
		}
		return &game.Roll{}
	}
	switch e.Type {
	case OrderWritten:
		switch {
		case d.How == "initial":
			w("%s: %s for %s before the game", d.Order.ID, d.Order, gs(d.Order.For))
		case d.How == "entry":
			w("%s: %s for %s, given to %s at the table edge", d.Order.ID, d.Order, gs(d.Order.For), g(d.To))
		default:
			w("%s: %s for %s, by %s, carried by %s to %s", d.Order.ID, d.Order, gs(d.Order.For), g(d.General), d.Messenger, g(d.To))
		}
	case MessengerSent:
		w("%s leaves %v, riding %g\" a turn", d.Messenger, *d.At, d.Range)
	case MessengerMoved:
		w("%s rides %v -> %v", d.Messenger, *d.From, *d.At)
		if d.Arrived {
			b.WriteString(", arrived")
		}
	case MessengerHeld, OrderWaiting, EntryBlocked:
		w("%s", d.Text)
	case MessengerRedirect:
		w("%s now rides to %s instead of %s", d.Messenger, g(d.To), g(d.General))
	case MessengerWithdrawn:
		w("%s is recalled", d.Messenger)
	case OrderDelivered:
		w("%s delivered to %s, for %s", d.OrderID, g(d.General), gs(d.Readers))
		if len(d.Held) > 0 {
			w("; %s waits until its general detaches from the unit he is with", strings.Join(d.Held, " and "))
		}
	case OrderRead:
		w("%s reads %s for %s: %s; acts on turn %d", g(d.General), d.OrderID, g(d.Formation), roll(), d.Acts)
	case OrderNotRead:
		w("%s is not read for %s: %s", d.OrderID, g(d.Formation), d.Text)
	case OrderActive:
		if d.How == "for-entry" {
			w("%s will act on %s (%s) once it enters", g(d.Formation), d.Order.ID, d.Order)
			break
		}
		w("%s acts on %s (%s)", g(d.Formation), d.Order.ID, d.Order)
		if len(d.Divisions) > 0 {
			w(", with %s", gs(d.Divisions))
		}
		if len(d.Left) > 0 {
			w("; keeping their own orders (out of range or without a general): %s", gs(d.Left))
		}
		if d.How != "" {
			w(" [%s]", d.How)
		}
	case OrderSuperseded:
		w("%s is not acted on by %s: %s", d.OrderID, g(d.Formation), d.Text)
	case OrderComplete:
		w("%s completed its order; now %s", g(d.Formation), d.Order)
	case Engaged:
		w("%s is engaged with %s", g(d.Formation), gs(d.With))
	case Disengaged:
		w("%s is no longer engaged", g(d.Formation))
	case ReserveScheduled:
		w("%s will enter at %s (%s edge) from turn %d: %s", g(d.Formation), d.Square, d.Edge, d.Entry, roll())
	case GeneralPlaced:
		w("%s of %s placed at %v on the %s edge", g(d.General), g(d.Formation), *d.At, d.Edge)
	case ReserveArrivalRoll:
		w("%s arrival: %s; enters on turn %d", g(d.Formation), roll(), d.Arrival)
	case ReserveEntered:
		w("%s enters at %v with %s", g(d.Formation), *d.At, game.Count(len(e.Moves), "piece", "pieces"))
		if d.Text != "" {
			w("; %s", d.Text)
		}
	case Moved:
		for i, m := range e.Moves {
			if i > 0 {
				b.WriteString("; ")
			}
			id := g(m.Unit)
			if m.Unit == "" {
				id = g(m.General)
			}
			from := geom.Point{}
			if m.From != nil {
				from = *m.From
			}
			w("%s %v -> %v", id, from, m.To)
			if m.Shape != "" {
				w(" %s", game.Formed(m.Shape))
			}
		}
		if d.How == "umpire" {
			w("; past its speed on the umpire's word (%s)", d.Text)
		}
	case StatusChanged:
		w("%s is %s", g(d.Unit), d.Status)
	case Attached:
		w("%s attaches to %s", g(d.General), g(d.To))
	case Detached:
		w("%s detaches from %s", g(d.General), g(d.To))
	case GeneralRemoved:
		w("%s is %s", g(d.General), d.Status)
	case GeneralReplaced:
		who := g(d.New.ID)
		if d.New.Name != "" {
			who = d.New.Name
		}
		w("%s replaces %s in command of %s (%s, %g\")", who, g(d.General), g(d.Formation), d.New.Quality, d.New.Range)
	case CombatDeclared:
		w("%s start combat", gs(d.Units))
		if d.To != "" {
			w(" with %s", g(d.To))
		}
	case Reacted:
		w("%s react", gs(d.Units))
	case RangeViolation:
		w("%s is %g\" from %s, beyond his %g\" range", g(d.Unit), d.Distance, g(d.General), d.Range)
	case Restriction:
		units := gs(d.Units)
		switch d.Status {
		case "in-line", "out-of-column":
			// in-line: the report of logs written before every formation
			// but column counted (NB-7).
			verb, shape := "are", d.Text
			if len(d.Units) == 1 {
				verb = "is"
			}
			if d.Status == "in-line" || shape == "" {
				shape = "line"
			}
			w("%s %s %s; under an attack order units keep to column until engaged", units, verb, game.Formed(shape))
		case "short-move":
			w("%s moved less than %g\"; under an attack order the division moves at least half its slowest unit's speed", units, d.Distance)
		default:
			w("%s: %s", units, d.Text)
		}
	default:
		w("%s", d.Text)
	}
	return b.String()
}

// Fields lists the fields a script's expectation may name for NB events,
// the engine's among them, in the order they are shown (game.Fielder).
func (r *Rules) Fields() []string {
	return []string{"turn", "phase", "step", "type", "side", "formation", "general", "unit", "messenger",
		"order", "to", "result", "natural", "total", "acts", "arrival", "entry", "how", "rule", "status", "verb"}
}

// Match reports whether NB field name of e is want; a unit matches the
// unit an event is about or any of the units it lists.
func (r *Rules) Match(e *game.Event, name, want string) bool {
	d := data(e)
	itoa := func(v int) string {
		if v == 0 {
			return ""
		}
		return strconv.Itoa(v)
	}
	var got string
	switch name {
	case "formation":
		got = d.Formation
	case "general":
		got = d.General
	case "unit":
		if slices.Contains(d.Units, want) {
			return true
		}
		got = d.Unit
	case "messenger":
		got = d.Messenger
	case "order":
		got = d.OrderID
		if d.Order != nil {
			got = d.Order.ID
		}
	case "to":
		got = d.To
	case "how":
		got = d.How
	case "status":
		got = d.Status
	case "acts":
		got = itoa(d.Acts)
	case "arrival":
		got = itoa(d.Arrival)
	case "entry":
		got = itoa(d.Entry)
	default:
		return false
	}
	return got == want
}

// Measures is what orderly sim measures for NB (game.Measurer).
func (r *Rules) Measures() game.Measure {
	return game.Measure{What: "first turn each formation acts on an order written during the game",
		Subject: "formation", Subjects: "formations", First: "first-active-turn",
		Label: "order", Labels: "orders", Plot: "first turn acting on an order"}
}

// Planned lists the formations an order of the plan is for; a wing's
// corps act on its orders, so a wing is left out.
func (r *Rules) Planned(sc *battle.Scenario, c *game.Command) []string {
	a, ok := c.Args.(*Args)
	if !ok || a.Write == nil {
		return nil
	}
	var out []string
	for _, f := range a.Write.For {
		if fm := sc.Formation(f); fm != nil && fm.Kind != battle.Wing {
			out = append(out, f)
		}
	}
	return out
}

// Measure notes the turn a formation (and the divisions with it) acts on
// an order written in the game, labelled by the order (Label).
func (r *Rules) Measure(e *game.Event, note func(subject, label string, turn int)) {
	if e.Type != OrderActive {
		return
	}
	d := data(e)
	if d.Order == nil || d.How == "initial" || d.How == "for-entry" {
		return
	}
	label := Label(d.Order)
	note(d.Formation, label, e.Turn)
	for _, f := range d.Divisions {
		note(f, label, e.Turn)
	}
}

// Label names an order the same way in every run (ids can differ from run
// to run, as orders given at the table edge take their number when a
// reserve's general is placed): the turn it was written and its kind, or
// "on entry" for an off-board reserve's order given at the edge.
func Label(o *Order) string {
	if o.Direct && o.Written > 0 {
		return "on entry " + o.Kind
	}
	return "turn " + strconv.Itoa(o.Written) + " " + o.Kind
}
