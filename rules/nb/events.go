package nb

import (
	"fmt"
	"iter"
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

// kinds lists NB's event types once, each with its payload type; the
// registry the engine's calls on events loop over (events) and the names
// (Types) are made from it.
var kinds = []kind{
	kindOf[orderWritten](OrderWritten),
	kindOf[messengerSent](MessengerSent),
	kindOf[messengerMoved](MessengerMoved),
	kindOf[messengerHeld](MessengerHeld),
	kindOf[messengerRedirected](MessengerRedirect),
	kindOf[messengerWithdrawn](MessengerWithdrawn),
	kindOf[orderDelivered](OrderDelivered),
	kindOf[orderRead](OrderRead),
	kindOf[orderWaiting](OrderWaiting),
	kindOf[orderNotRead](OrderNotRead),
	kindOf[orderActive](OrderActive),
	kindOf[orderSuperseded](OrderSuperseded),
	kindOf[orderComplete](OrderComplete),
	kindOf[engaged](Engaged),
	kindOf[disengaged](Disengaged),
	kindOf[reserveScheduled](ReserveScheduled),
	kindOf[generalPlaced](GeneralPlaced),
	kindOf[reserveArrivalRoll](ReserveArrivalRoll),
	kindOf[reserveEntered](ReserveEntered),
	kindOf[entryBlocked](EntryBlocked),
	kindOf[moved](Moved),
	kindOf[statusChanged](StatusChanged),
	kindOf[attached](Attached),
	kindOf[detached](Detached),
	kindOf[generalRemoved](GeneralRemoved),
	kindOf[generalReplaced](GeneralReplaced),
	kindOf[combatDeclared](CombatDeclared),
	kindOf[reacted](Reacted),
	kindOf[rangeViolation](RangeViolation),
	kindOf[restriction](Restriction),
}

// events is the registry of NB's event types (game.Events).
var events = registry(kinds)

// Types lists NB's event types.
var Types = events.Types()

// EventTypes lists NB's event types, for the conformance suite and the
// test that every type is described.
func (r *Rules) EventTypes() []string { return events.Types() }

// payload is what the payload of every NB event is: its type's, carrying
// the fields of Data, which it embeds.
type payload interface {
	game.Payload[*Rules]
	data() *Data
}

// kind is one of NB's event types: its registry entry, and a maker of the
// slab its payloads are taken from (emit).
type kind struct {
	game.EventType[*Rules]
	slab func() slab
}

// slab hands out empty payloads of one type from a game's memory
// (game.Slab); Reset hands out the same memory again.
type slab interface {
	Reset()
	next() payload
}

// slabOf is a slab of *P payloads.
type slabOf[P any, PP interface {
	*P
	payload
}] struct{ game.Slab[P] }

func (s *slabOf[P, PP]) next() payload { return PP(&s.Take(1)[0]) }

// kindOf is the event type called name whose payload is a *P.
func kindOf[P any, PP interface {
	*P
	payload
}](name string) kind {
	return kind{EventType: game.Type[*Rules, P, PP](name), slab: func() slab { return new(slabOf[P, PP]) }}
}

// newPayload is an empty payload of the event type typ from s's memory,
// and false if NB has no such type. It remembers the last type's place in
// kinds, as a game often emits several events of a type in a row.
func (s *State) newPayload(typ string) (payload, bool) {
	i := s.lastKind
	if i >= len(kinds) || kinds[i].Name != typ {
		var ok bool
		if i, ok = kindIndex[typ]; !ok {
			return nil, false
		}
		s.lastKind = i
	}
	if i >= len(s.pay) {
		s.pay = append(s.pay, make([]slab, i+1-len(s.pay))...)
	}
	if s.pay[i] == nil {
		s.pay[i] = kinds[i].slab()
	}
	return s.pay[i].next(), true
}

// registry makes the engine's registry of the kinds.
func registry(ks []kind) game.Events[*Rules] {
	out := make(game.Events[*Rules], len(ks))
	for i, k := range ks {
		out[i] = k.EventType
	}
	return out
}

// kindIndex is the place of each event type in kinds, by name.
var kindIndex = func() map[string]int {
	m := make(map[string]int, len(kinds))
	for i, k := range kinds {
		m[k.Name] = i
	}
	return m
}()

// Data is the fields of an NB event's payload: the payload type of each
// event type embeds it, and the type says which of them it carries.
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
func (r *Rules) Payload(typ string) (any, bool) { return events.Payload(typ) }

// PayloadOf is the payload of an event of type typ carrying the fields of
// d, for an event made by hand (a test's); nil if NB has no type typ.
func PayloadOf(typ string, d *Data) any {
	i, ok := kindIndex[typ]
	if !ok {
		return nil
	}
	p := kinds[i].New().(payload)
	*p.data() = *d
	return p
}

// DataOf is the fields of an NB event's payload, or nil if e's payload is
// none of NB's.
func DataOf(e *game.Event) *Data {
	if p, ok := e.Data.(interface{ data() *Data }); ok {
		return p.data()
	}
	return nil
}

// data is the payload of an NB event (an empty one if it has none).
func data(e *game.Event) *Data {
	if d := DataOf(e); d != nil {
		return d
	}
	return &Data{}
}

// data is the fields every NB payload carries; each payload type has it by
// embedding Data.
func (d *Data) data() *Data { return d }

// emit records an NB event: the envelope and its payload, the payload of
// e's type holding the fields of d.
func emit(x *game.Tx, e game.Event, d *Data) error {
	p, ok := st(x).newPayload(e.Type)
	if !ok {
		return fmt.Errorf("nb has no event type %q", e.Type)
	}
	*p.data() = *d
	e.Data = p
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

// Apply folds one of NB's events into NB's part of the state with its
// payload's Fold. It trusts the event: validation happened before the
// event was made. The engine moves the pieces of the event's moves
// afterwards.
func (r *Rules) Apply(gs *game.State, e *game.Event) error { return events.Apply(r, gs, e) }

// Describe says in a line what one of NB's events records, for people;
// name shows a general's id by his name.
func (r *Rules) Describe(e *game.Event, name func(string) string) string {
	return events.Describe(r, e, name)
}

// filled is a copy of d with every pointer set, so that an event short of
// a field (one made by hand) still gets a sentence and never a panic.
func (d *Data) filled() *Data {
	c := *d
	if c.Order == nil {
		c.Order = &Order{}
	}
	if c.New == nil {
		c.New = &NewGeneral{}
	}
	if c.At == nil {
		c.At = &geom.Point{}
	}
	if c.From == nil {
		c.From = &geom.Point{}
	}
	return &c
}

// shown is ids as name shows them to people, joined by commas.
func shown(name func(string) string, ids []string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = name(id)
	}
	return strings.Join(out, ", ")
}

// firstRoll is the first roll e records, or an empty one.
func firstRoll(e *game.Event) *game.Roll {
	if r := e.FirstRoll(); r != nil {
		return r
	}
	return &game.Roll{}
}

// Fields lists the fields a script's expectation may name for NB events,
// the engine's among them, in the order they are shown (game.Fielder).
func (r *Rules) Fields() []string {
	return []string{"turn", "phase", "step", "type", "side", "formation", "general", "unit", "messenger",
		"order", "to", "result", "natural", "total", "acts", "arrival", "entry", "how", "rule", "status", "verb"}
}

// Match reports whether NB field name of e is want (Data.Field).
func (r *Rules) Match(e *game.Event, name, want string) bool { return events.Match(r, e, name, want) }

// Field gives the values of field name of an NB event, whatever its type,
// for a script's expectations (Rules.Fields): a unit is the unit the event
// is about or any of the units it lists; a number is "" when it is zero.
func (d *Data) Field(_ *Rules, _ *game.Event, name string) []string {
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
		return append(slices.Clip(d.Units), d.Unit)
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
		return nil
	}
	return []string{got}
}
