package game

import (
	"fmt"
	"strings"

	"orderly/geom"
)

// Event types. Each is a fact the engine recorded; the state of a game is
// the fold of its events.
const (
	StepBegun          = "step-begun"
	SideReady          = "side-ready"
	GameOver           = "game-over"
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
	// CommandRejected is never in a game's log (a rejected command changes
	// nothing); the script runner prints it in the timeline.
	CommandRejected = "command-rejected"
)

// Seen by everyone, or only by the umpire; any other value of Event.See is
// the id of the one side (besides the umpire) that may see the event.
const (
	All    = "all"
	Umpire = "umpire"
)

// Event is one entry of a game's log. Type says which of the optional fields
// it carries; See says who may see it (SPEC: every event carries its
// audience, and the per-side view is the only way out).
type Event struct {
	Seq   int    `json:"seq"`
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
	Step  string `json:"step,omitempty"`
	Type  string `json:"type"`
	Side  string `json:"side"`
	See   string `json:"see"`

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
	Roll      *Roll       `json:"roll,omitempty"`
	Acts      int         `json:"acts,omitempty"` // the turn an order is acted on
	How       string      `json:"how,omitempty"`
	With      []string    `json:"with,omitempty"`
	Divisions []string    `json:"divisions,omitempty"`
	Left      []string    `json:"left-out,omitempty"`
	Readers   []string    `json:"readers,omitempty"` // the formations whose generals will read an order
	Units     []string    `json:"units,omitempty"`
	Moves     []Move      `json:"moves,omitempty"`
	Status    string      `json:"status,omitempty"`
	Square    string      `json:"square,omitempty"`
	Edge      string      `json:"edge,omitempty"`
	Entry     int         `json:"entry,omitempty"`   // earliest entry turn of an off-board reserve
	Arrival   int         `json:"arrival,omitempty"` // the turn it comes on
	New       *NewGeneral `json:"new,omitempty"`
	Distance  float64     `json:"distance,omitempty"`
	Range     float64     `json:"range,omitempty"`
	Rule      string      `json:"rule,omitempty"`
	Text      string      `json:"text,omitempty"`
	Command   *Command    `json:"command,omitempty"` // the command a command-rejected entry refused

	// Hash links the event to the log before it (see Chain): 64 lowercase
	// hex digits, or empty in a game played without a chain.
	Hash string `json:"hash,omitempty"`
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

func (o *Order) String() string {
	s := o.Kind
	if o.Objective != nil {
		s += " " + o.Objective.String()
	}
	if o.Note != "" {
		s += fmt.Sprintf(" %q", o.Note)
	}
	return s
}

// Roll is a table roll as recorded in the log: enough to show how the result
// was reached and to check it, without rolling again. Subject, Index and
// Params are what a verifier needs to draw it again (RollLabel) and to
// read the table again for its faces.
type Roll struct {
	Table   string            `json:"table"`
	Subject string            `json:"subject,omitempty"` // the formation or general rolled for
	Index   int               `json:"index,omitempty"`   // the rolls drawn before it for its event
	Params  map[string]string `json:"params,omitempty"`  // the table's parameters as bound, defaults included; shared by rolls alike, never changed
	Dice    string            `json:"dice"`
	Faces   []int             `json:"faces,omitempty"`
	Natural int               `json:"natural"`
	Mods    []Mod             `json:"mods,omitempty"`
	Total   int               `json:"total"`
	Result  string            `json:"result"`

	drawn int // the event it was drawn for (Tx.RollBound); 0 once recorded
}

// Mod is one modifier of a roll.
type Mod struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Amount int    `json:"amount"`
}

func (r *Roll) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s rolled %d", r.Dice, r.Natural)
	for _, m := range r.Mods {
		if m.Amount != 0 {
			fmt.Fprintf(&b, " %+d %s", m.Amount, m.Value)
		}
	}
	fmt.Fprintf(&b, " = %d: %s", r.Total, r.Result)
	return b.String()
}

// Move is one piece's move: a unit or a general to a point, perhaps
// changing formation or facing.
type Move struct {
	Unit    string      `json:"unit,omitempty"`
	General string      `json:"general,omitempty"`
	To      geom.Point  `json:"to"`
	From    *geom.Point `json:"from,omitempty"`
	Shape   string      `json:"formation,omitempty"`
	Facing  *float64    `json:"facing,omitempty"`
}

// ID is the id of the piece that moves.
func (m Move) ID() string {
	if m.Unit != "" {
		return m.Unit
	}
	return m.General
}

// NewGeneral describes a general who replaces a fallen one (SPEC NB-15).
type NewGeneral struct {
	ID      string     `json:"id"`
	Name    string     `json:"name,omitempty"`
	Quality string     `json:"quality"`
	Range   float64    `json:"range"`
	At      geom.Point `json:"at"`
}

// Visible reports whether a seat may see the event: side is a side id, or
// Umpire for the umpire, who sees everything.
func (e *Event) Visible(side string) bool {
	return side == Umpire || e.See == All || e.See == side
}
