package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"orderly/geom"
	"orderly/strict"
)

// The engine's own event types; every other type is a rule set's
// (Rules.Payload).
const (
	StepBegun = "step-begun"
	SideReady = "side-ready"
	GameOver  = "game-over"
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

// Event is one entry of a game's log: the engine's envelope (where in the
// game it happened, who may see it, the rule behind it, the dice rolled
// for it and the pieces it moves) and the rule set's own payload in Data.
// See says who may see it (SPEC: every event carries its audience, and the
// per-side view is the only way out).
type Event struct {
	Seq   int    `json:"seq"`
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
	Step  string `json:"step,omitempty"`
	Type  string `json:"type"`
	Side  string `json:"side"`
	See   string `json:"see"`
	Rule  string `json:"rule,omitempty"`
	Rolls []Roll `json:"rolls,omitempty"`
	Moves []Move `json:"moves,omitempty"`
	// Data is the payload: a pointer to the struct the rule set (or, for
	// its own types, the engine) declares for Type; nil for none. Decoded
	// from JSON it is a json.RawMessage until Decode gives it its type.
	Data any `json:"data,omitempty"`
	// Cmd marks an event appended by a side's command (Origin): which
	// events a take-back withdraws.
	Cmd Origin `json:"cmd,omitzero"`

	// Hash links the event to the log before it (see Chain): 64 lowercase
	// hex digits, or empty in a game played without a chain.
	Hash string `json:"hash,omitempty"`
}

// Begun is the payload of a step-begun event: who acts in the step and the
// commands it takes, so that a replayed log knows the step it stops at.
type Begun struct {
	Actors []string `json:"actors,omitempty"`
	Verbs  []string `json:"verbs,omitempty"`
}

// Over is the payload of a game-over event.
type Over struct {
	Why string `json:"why"`
}

// Rejected is the payload of a command-rejected timeline entry.
type Rejected struct {
	Why     string   `json:"why"`
	Command *Command `json:"command,omitempty"`
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
	// Stages are the dice of a pool table (one die per point of a score,
	// each taken through stages such as hit and save), and Marks what
	// natural faces set (a 6 that disorders); both empty for other tables.
	Stages []Stage  `json:"stages,omitempty"`
	Marks  []string `json:"marks,omitempty"`
	// From is FromTable for dice thrown at the table and given with a
	// command, empty for dice the server drew. A pool thrown at the table
	// keeps its dice in Faces, in the order thrown.
	From string `json:"from,omitempty"`

	drawn int // the event it was drawn for (Tx.RollBound); 0 once recorded
}

// Stage is one stage of a pool roll: the number each die needs, the
// faces of the dice that took it, the faces of dice rolled again, and how
// many went on. Certain says no face could change its outcome, so no die
// was rolled.
type Stage struct {
	Name    string `json:"name"`
	Need    int    `json:"need"`
	Faces   []int  `json:"faces,omitempty"`
	Rerolls []int  `json:"rerolls,omitempty"`
	Kept    int    `json:"kept"`
	Certain bool   `json:"certain,omitempty"`
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
	if r.From == FromTable {
		b.WriteString(" at the table")
	}
	for _, m := range r.Mods {
		if m.Amount != 0 {
			fmt.Fprintf(&b, " %+d %s", m.Amount, m.Value)
		}
	}
	fmt.Fprintf(&b, " = %d: %s", r.Total, r.Result)
	return b.String()
}

// FirstRoll is the event's first roll, or nil.
func (e *Event) FirstRoll() *Roll {
	if len(e.Rolls) == 0 {
		return nil
	}
	return &e.Rolls[0]
}

// Move is one piece's move: a unit or a general to a position of the
// scenario's space (a point on a table, a hex on a hex map), perhaps
// changing formation or facing. The engine applies it to the piece
// (State.Piece) after the rule set has folded the event.
type Move struct {
	Unit    string      `json:"unit,omitempty"`
	General string      `json:"general,omitempty"`
	To      geom.Point  `json:"to"`
	From    *geom.Point `json:"from,omitempty"`
	Shape   string      `json:"formation,omitempty"`
	Facing  *float64    `json:"facing,omitempty"`
	// Piece is 1 + the index of the piece in State.Pieces, when the rule
	// set knows it: a hint that spares a lookup by id, which the engine
	// checks against the id; 0 when not known. It is not recorded.
	Piece int `json:"-"`
}

// ID is the id of the piece that moves.
func (m Move) ID() string {
	if m.Unit != "" {
		return m.Unit
	}
	return m.General
}

// Visible reports whether a seat may see the event: side is a side id, or
// Umpire for the umpire, who sees everything.
func (e *Event) Visible(side string) bool {
	return side == Umpire || e.See == All || e.See == side
}

// Shown is e as seat (a side, or Umpire) is shown it. In a game played
// with fog of war (fogged), a side's copy carries no audience (See is
// empty): whether the other side may see an event depends on what that
// side spots, which is none of this side's business (an event shown to all
// would tell it that a hidden enemy watches its piece). The umpire's copy,
// and every copy without fog, is the event as logged.
//
// A side's copy never carries the game's numbering beyond its own seq,
// which the server renumbers: no Origin (Event.Cmd), and a taken-back
// event without the seqs it withdraws (a server fills in the side's own
// numbers of those it saw).
func (e Event) Shown(seat string, fogged bool) Event {
	if fogged && seat != Umpire {
		e.See = ""
	}
	if seat != Umpire {
		e.Cmd = Origin{}
		if t, ok := e.Data.(*Taken); ok && t.Of != nil {
			c := *t
			c.Of = nil
			e.Data = &c
		}
	}
	return e
}

// Payloads makes an empty payload for an event type: a rule set's
// Rules.Payload, or the engine's for its own types.
type Payloads func(typ string) (any, bool)

// payload is the engine's payload for its own event types.
func payload(typ string) (any, bool) {
	switch typ {
	case StepBegun:
		return &Begun{}, true
	case GameOver:
		return &Over{}, true
	case CommandRejected:
		return &Rejected{}, true
	case SideReady, SideUnready:
		return nil, true
	case TakenBack:
		return &Taken{}, true
	case StepEnded:
		return &Ended{}, true
	case Placed:
		return &PlaceData{}, true
	case Contacted:
		return &Contact{}, true
	}
	return nil, false
}

// Decode gives each event's Data its type: events read from JSON hold
// their payload as raw JSON until then. Unknown fields and event types are
// refused.
func Decode(r Rules, events []Event) error {
	for i := range events {
		if err := decodeData(r, &events[i]); err != nil {
			return err
		}
	}
	return nil
}

func decodeData(r Rules, e *Event) error {
	raw, ok := e.Data.(json.RawMessage)
	if !ok && e.Data != nil {
		return nil // typed already
	}
	p, known := payload(e.Type)
	if !known {
		p, known = r.Payload(e.Type)
	}
	if !known {
		return fmt.Errorf("event %d: type %s is not an event of the engine or of rule set %s", e.Seq, strict.Quote(e.Type, 40), r.ID())
	}
	if p == nil {
		if len(raw) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return fmt.Errorf("event %d (%s) carries data; this type has none", e.Seq, e.Type)
		}
		e.Data = nil
		return nil
	}
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(p); err != nil {
		return fmt.Errorf("event %d (%s): data: %w", e.Seq, e.Type, err)
	}
	e.Data = p
	return nil
}

// UnmarshalJSON reads an event, keeping its payload as raw JSON for Decode.
func (e *Event) UnmarshalJSON(b []byte) error {
	type plain Event
	var v struct {
		plain
		Data json.RawMessage `json:"data,omitempty"`
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&v); err != nil {
		return err
	}
	*e = Event(v.plain)
	if v.Data != nil {
		e.Data = v.Data
	} else {
		e.Data = nil
	}
	return nil
}
