package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"orderly/battle"
	"orderly/geom"
)

// State is where a game stands: the fold of its events over its scenario.
// The engine keeps the core (the turn and step, who is ready, every piece
// and where it stands); the rule set keeps the rest in Ext, which it folds
// from its own events (Rules.Apply). Slices are in scenario order, so the
// same events always give the same state (and the same Hash).
type State struct {
	Turn  int    `json:"turn"`
	Phase string `json:"phase"`
	Step  string `json:"step"`
	Over  bool   `json:"over,omitempty"`
	// Ready lists the sides that have finished the current step; it ends
	// when every side that acts in it is ready, or when the umpire ends it.
	Ready []string `json:"ready,omitempty"`
	// Pieces are the units and generals of the game, in scenario order,
	// then those that joined it (a replacement general). Moves in events
	// move them.
	Pieces []*Piece `json:"-"`
	// Ext is the rule set's own state (Rules.Init); its JSON fields are
	// written beside the core's.
	Ext Ext `json:"-"`
	// Fog is the game's fog mode, in a view of a game played with fog of
	// war, and Lost where the seat last saw the enemy pieces it no longer
	// spots (Game.Sees fills them in).
	Fog  string  `json:"fog,omitempty"`
	Lost []Ghost `json:"lost,omitempty"`

	piece  map[string]int
	fog    *fog // what each side sees, in a game played with fog of war
	shared bool // piece is shared with the start of the game and must be copied before a change
}

// Piece is a unit or general on the field: the engine moves it; what else
// it is (arm, quality, order) is the rule set's.
type Piece struct {
	ID   string `json:"id"`
	Side string `json:"side"`
	// At is where it stands, a position of the scenario's space
	// (battle.Scenario.Space): inches on a table, a hex's printed column
	// and row on a hex map.
	At geom.Point `json:"at"`
	// OnTable says the piece stands on the table or hex map; it is false
	// while it waits off the board with an off-board reserve.
	OnTable bool    `json:"on-table"`
	Facing  float64 `json:"facing,omitempty"`
	Shape   string  `json:"formation,omitempty"`
}

// Ext is a rule set's own part of the state.
type Ext interface {
	// Clone copies it for a game that starts where s stands; the copy
	// holds the pieces of c, the core state it belongs to (a copy of s's).
	Clone(c *State) Ext
	// Reset puts it back to from, the start it was cloned from, in the
	// same memory; c is its core state, already reset.
	Reset(from Ext, c *State)
}

// Turner is an Ext that keeps something per turn: NewTurn clears it when
// the game (or a replay) enters a new turn.
type Turner interface{ NewTurn() }

// NewState is the core state of a game of sc before it starts: a piece for
// every general and unit, where the scenario puts it. The rule set adds
// its own part (Rules.Init).
func NewState(sc *battle.Scenario) *State {
	s := &State{Phase: "setup", Step: "setup"}
	gens, units := sc.Generals(), sc.Units()
	ps := make([]Piece, 0, len(gens)+len(units))
	for _, g := range gens {
		ps = append(ps, Piece{ID: g.ID, Side: g.Side, At: g.At, OnTable: !g.OffBoard})
	}
	for _, u := range units {
		ps = append(ps, Piece{ID: u.ID, Side: u.Side, At: u.At, OnTable: !u.OffBoard, Facing: u.Facing, Shape: u.Shape})
	}
	s.Pieces = make([]*Piece, len(ps))
	s.piece = make(map[string]int, len(ps))
	for i := range ps {
		s.Pieces[i] = &ps[i]
		s.piece[ps[i].ID] = i
	}
	return s
}

// Piece returns the piece with id, or nil.
func (s *State) Piece(id string) *Piece {
	if i, ok := s.piece[id]; ok {
		return s.Pieces[i]
	}
	return nil
}

// moved is the piece a move moves, found by its hint if that is right.
func (s *State) moved(m Move) *Piece {
	id := m.ID()
	if k := m.Piece - 1; k >= 0 && k < len(s.Pieces) && s.Pieces[k].ID == id {
		return s.Pieces[k]
	}
	return s.Piece(id)
}

// PieceAt is the piece with id, looked for first at index i of Pieces (a
// rule set keeps the index it found a piece at, so that a copy of the
// state finds its pieces without a lookup by id).
func (s *State) PieceAt(i int, id string) *Piece {
	if i >= 0 && i < len(s.Pieces) && s.Pieces[i].ID == id {
		return s.Pieces[i]
	}
	return s.Piece(id)
}

// PieceIndex is the index in Pieces of the piece with id.
func (s *State) PieceIndex(id string) (int, bool) {
	i, ok := s.piece[id]
	return i, ok
}

// AddPiece adds a piece that joins the game (a replacement general) and
// returns it. Its id must be new.
func (s *State) AddPiece(p Piece) (*Piece, error) {
	if _, ok := s.piece[p.ID]; ok {
		return nil, fmt.Errorf("a piece %s is already in the game", p.ID)
	}
	if s.shared || s.piece == nil {
		s.piece = maps.Clone(s.piece)
		if s.piece == nil {
			s.piece = map[string]int{}
		}
		s.shared = false
	}
	np := &p
	s.piece[p.ID] = len(s.Pieces)
	s.Pieces = append(s.Pieces, np)
	return np, nil
}

// Pos returns where a piece stands and whether it is on the table.
func (s *State) Pos(id string) (geom.Point, bool) {
	if p := s.Piece(id); p != nil {
		return p.At, p.OnTable
	}
	return geom.Point{}, false
}

// Copy is a copy of the core state without the rule set's part, for a
// rule set's view (Rules.View): every piece for which keep is true, copied.
func (s *State) Copy(keep func(*Piece) bool) *State {
	out := &State{Turn: s.Turn, Phase: s.Phase, Step: s.Step, Over: s.Over, Ready: slices.Clone(s.Ready),
		piece: map[string]int{}}
	for _, p := range s.Pieces {
		if keep(p) {
			c := *p
			out.piece[c.ID] = len(out.Pieces)
			out.Pieces = append(out.Pieces, &c)
		}
	}
	return out
}

// clone copies the state at a game's start: the pieces in one block, the
// map from id to piece shared until a piece joins.
func (s *State) clone() *State {
	c := &State{Turn: s.Turn, Phase: s.Phase, Step: s.Step, piece: s.piece, shared: true}
	ps := make([]Piece, len(s.Pieces))
	c.Pieces = make([]*Piece, len(s.Pieces))
	for i, p := range s.Pieces {
		ps[i] = *p
		c.Pieces[i] = &ps[i]
	}
	if s.Ext != nil {
		c.Ext = s.Ext.Clone(c)
	}
	if s.fog != nil {
		c.fog = s.fog.fresh()
		c.fog.update(c)
	}
	return c
}

// reset puts the state back to t, the start it was cloned from, in the
// same memory.
func (s *State) reset(t *State) {
	s.Turn, s.Phase, s.Step, s.Over, s.Ready = t.Turn, t.Phase, t.Step, false, nil
	s.Pieces = s.Pieces[:len(t.Pieces)]
	for i, p := range t.Pieces {
		*s.Pieces[i] = *p
	}
	s.piece, s.shared = t.piece, true
	if s.Ext != nil {
		s.Ext.Reset(t.Ext, s)
	}
	if s.fog != nil {
		s.fog = s.fog.fresh()
		s.fog.update(s)
	}
}

// enter moves the state to a step of a turn; a new turn clears what the
// rule set counts per turn (Turner). Every event carries its step, so the
// fold and the engine (which enters automatic steps without an event
// unless something happens in them) agree wherever the game waits.
func (s *State) enter(turn int, phase, step string) {
	if turn != s.Turn || phase != s.Phase || step != s.Step {
		s.Ready = nil
	}
	if turn != s.Turn {
		if t, ok := s.Ext.(Turner); ok {
			t.NewTurn()
		}
	}
	s.Turn, s.Phase, s.Step = turn, phase, step
}

// apply folds one event into the state: the rule set's part, then the
// pieces it moves. It trusts the event: validation happened before the
// event was made.
func (s *State) apply(r Rules, e *Event) error {
	s.enter(e.Turn, e.Phase, e.Step)
	switch e.Type {
	case StepBegun:
		// A step begins with nobody ready, even one of the same name as the
		// step before it (the next commander's, in a loop over commanders).
		s.Ready = nil
	case SideReady:
		s.Ready = append(s.Ready, e.Side)
	case SideUnready:
		s.Ready = slices.DeleteFunc(s.Ready, func(id string) bool { return id == e.Side })
	case TakenBack, StepEnded:
		// A take-back's fold is the game's (Game.refold); the umpire's
		// end is told by the events that follow it.
	case GameOver:
		s.Over = true
	case Placed:
		// The umpire's hand: only the move it carries.
	case Contacted:
		if d, ok := e.Data.(*Contact); ok && s.fog != nil {
			s.fog.contact(s, d)
		}
	default:
		if err := r.Apply(s, e); err != nil {
			return err
		}
	}
	for _, m := range e.Moves {
		p := s.moved(m)
		if p == nil {
			return fmt.Errorf("piece %s is not in the game", m.ID())
		}
		p.At, p.OnTable = m.To, true
		if m.Shape != "" {
			p.Shape = m.Shape
		}
		if m.Facing != nil {
			p.Facing = *m.Facing
		}
	}
	if pl, ok := r.(Placer); ok && e.Type == Placed {
		for _, m := range e.Moves {
			pl.Placed(s, m.ID())
		}
	}
	return nil
}

// MarshalJSON writes the core's fields and then the rule set's.
func (s *State) MarshalJSON() ([]byte, error) {
	type core State
	b, err := json.Marshal((*core)(s))
	if err != nil || s.Ext == nil {
		return b, err
	}
	x, err := json.Marshal(s.Ext)
	if err != nil {
		return nil, err
	}
	return splice(b, x)
}

// splice joins two JSON objects into one.
func splice(a, b []byte) ([]byte, error) {
	a, b = bytes.TrimSpace(a), bytes.TrimSpace(b)
	if len(a) < 2 || len(b) < 2 || a[0] != '{' || b[0] != '{' {
		return nil, fmt.Errorf("cannot join %.20s and %.20s: not JSON objects", a, b)
	}
	if len(b) == 2 {
		return a, nil
	}
	out := make([]byte, 0, len(a)+len(b))
	out = append(out, a[:len(a)-1]...)
	if len(a) > 2 {
		out = append(out, ',')
	}
	return append(out, b[1:]...), nil
}
