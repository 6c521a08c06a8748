package tiny

import (
	"fmt"
	"slices"

	"orderly/battle"
	"orderly/game"
)

// State is the rule set's part of a game's state (game.State.Ext): each
// side's unit and whether it has moved this turn, and the commanders, who
// stand by.
type State struct {
	Units    []Unit    `json:"units"`
	Generals []General `json:"generals"`

	seq []game.Step // the turn's steps (Sequence)
}

// Unit is a side's unit: its piece and whether it has moved this turn.
type Unit struct {
	*game.Piece
	Name  string `json:"name,omitempty"`
	Type  string `json:"type"`
	Moved bool   `json:"moved,omitempty"`
}

// General is a commander: he stands by, and nothing moves him.
type General struct {
	*game.Piece
	Name     string `json:"name,omitempty"`
	Commands string `json:"commands"`
}

// Init makes the state of a game of sc over the core state c.
func (r *Rules) Init(sc *battle.Scenario, c *game.State) (game.Ext, error) {
	st := &State{seq: r.Sequence(sc)}
	for _, u := range sc.Units() {
		st.Units = append(st.Units, Unit{Name: u.Name, Type: u.Type})
		st.Units[len(st.Units)-1].Piece = c.Piece(u.ID)
	}
	for _, g := range sc.Generals() {
		st.Generals = append(st.Generals, General{Piece: c.Piece(g.ID), Name: g.Name, Commands: g.Commands})
	}
	if err := st.bind(c); err != nil {
		return nil, err
	}
	return st, nil
}

// bind points every unit and general at its piece in c.
func (st *State) bind(c *game.State) error {
	for i := range st.Units {
		if st.Units[i].Piece = c.Piece(st.Units[i].pieceID()); st.Units[i].Piece == nil {
			return fmt.Errorf("tiny: no piece for unit %d", i)
		}
	}
	for i := range st.Generals {
		if st.Generals[i].Piece = c.Piece(st.Generals[i].pieceID()); st.Generals[i].Piece == nil {
			return fmt.Errorf("tiny: no piece for general %d", i)
		}
	}
	return nil
}

func (u Unit) pieceID() string {
	if u.Piece == nil {
		return ""
	}
	return u.ID
}

func (g General) pieceID() string {
	if g.Piece == nil {
		return ""
	}
	return g.ID
}

// Clone copies the state for the core state c.
func (st *State) Clone(c *game.State) game.Ext {
	out := &State{Units: slices.Clone(st.Units), Generals: slices.Clone(st.Generals), seq: st.seq}
	_ = out.bind(c) // c is a copy of the state st belongs to: it has every piece
	return out
}

// Reset puts the state back to from, the start it was cloned from.
func (st *State) Reset(from game.Ext, c *game.State) {
	f := from.(*State)
	st.Units = append(st.Units[:0], f.Units...)
	st.Generals = append(st.Generals[:0], f.Generals...)
	st.seq = f.seq
	_ = st.bind(c)
}

// NewTurn clears the moves: every unit may move again (TINY-1).
func (st *State) NewTurn() {
	for i := range st.Units {
		st.Units[i].Moved = false
	}
}

// ext is the rule set's part of s.
func ext(s *game.State) *State { return s.Ext.(*State) }

// unit is the unit called id, or nil.
func (st *State) unit(id string) *Unit {
	for i := range st.Units {
		if st.Units[i].ID == id {
			return &st.Units[i]
		}
	}
	return nil
}

// sideUnit is the unit of side, or nil.
func (st *State) sideUnit(side string) *Unit {
	for i := range st.Units {
		if st.Units[i].Side == side {
			return &st.Units[i]
		}
	}
	return nil
}

// View is the state as seat sees it: everything at a tiny table is open
// to both sides (no fog: Sight is nil).
func (r *Rules) View(s *game.State, _ string) *game.State {
	out := s.Copy(func(*game.Piece) bool { return true })
	out.Ext = ext(s).Clone(out)
	return out
}

// Unseen refuses nothing: every piece is seen.
func (r *Rules) Unseen(*game.State, string, *game.Command) error { return nil }

// Seen lists the pieces on the table.
func (r *Rules) Seen(s *game.State) []string {
	var out []string
	for _, p := range s.Pieces {
		if p.OnTable {
			out = append(out, p.ID)
		}
	}
	return out
}

// Shapes is the one formation of the one unit type.
func (r *Rules) Shapes() map[string][]string { return map[string][]string{"infantry": {"line"}} }
