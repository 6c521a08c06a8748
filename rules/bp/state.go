package bp

import (
	"fmt"
	"slices"

	"orderly/battle"
	"orderly/game"
)

// State is BP's part of a game's state (game.State.Ext): every unit's
// casualties and marks, what each unit, commander and brigade has done in
// the side's turn, and a charge waiting for its reply.
type State struct {
	// Formations is the chain of command: each army and its brigades,
	// with the commander of each (for pages; it does not change).
	Formations []Formation `json:"formations"`
	Units      []Unit      `json:"units"`
	Generals   []General   `json:"generals"`
	Brigades   []Brigade   `json:"brigades"`
	// Charge is a charge waiting for the charged side's reply (BP-4).
	Charge *Charge `json:"charge,omitempty"`
	// Traverse is a move across the front of enemy units, waiting for
	// their traversing fire (BP-5).
	Traverse *Traverse `json:"traverse,omitempty"`

	sc    *battle.Scenario
	sides []string    // the sides in the order they play
	seq   []game.Step // the steps of a turn
	unit  map[string]int
	gen   map[string]int
	brig  map[string]int
}

// Unit is a unit's state: its piece (where it stands, its facing and
// formation), its statistics from the scenario, and what has befallen it.
type Unit struct {
	*game.Piece
	Brigade  string  `json:"brigade"`
	Type     string  `json:"type"`
	Shooting int     `json:"shooting"`
	Combat   int     `json:"combat"`
	Morale   int     `json:"morale"`
	Stamina  int     `json:"stamina"`
	Range    float64 `json:"range"`
	Move     float64 `json:"move"`
	// Frontage is the unit's own frontage in line, when the scenario
	// gives one: every formation's frontage (bp/footprint) is scaled by
	// it against the line's.
	Frontage float64 `json:"frontage,omitempty"`
	// LacksInitiative is the unit's special rule (BP-3, BP-4).
	LacksInitiative bool `json:"lacking-initiative,omitempty"`

	Casualties int  `json:"casualties,omitempty"`
	Disordered bool `json:"disordered,omitempty"`
	// Gone says the unit broke and left the table.
	Gone bool `json:"gone,omitempty"`
	// Engaged lists the enemy units it is in combat with (BP-6).
	Engaged []string `json:"engaged,omitempty"`
	// Hidden says the enemy does not see it yet.
	Hidden bool `json:"hidden,omitempty"`

	// What it has done in its side's turn.
	Order      string  `json:"order,omitempty"`  // the order it moves under: a kind, initiative, or blunder
	Forced     string  `json:"forced,omitempty"` // a blunder's direction, or away for a disordered unit's initiative retreat
	Allow      float64 `json:"allow,omitempty"`  // inches it may move this turn
	Used       float64 `json:"used,omitempty"`   // inches used
	Ordered    bool    `json:"ordered,omitempty"`
	Initiative bool    `json:"initiative,omitempty"`
	Shot       bool    `json:"shot,omitempty"`
	Fought     bool    `json:"fought,omitempty"`
	// KeepDisorder says a disordered unit retreated on its initiative,
	// so its disorder stays at the end of the turn (BP-3).
	KeepDisorder bool `json:"keep-disorder,omitempty"`
	// Fired says it has used its closing or traversing fire this turn.
	Fired bool `json:"fired,omitempty"`
	// Shaken is casualties at stamina (BP-5), for people.
	Shaken bool `json:"shaken,omitempty"`

	pi int // the index of its piece in the game's pieces
}

// General is a commander's state.
type General struct {
	*game.Piece
	Name    string `json:"name,omitempty"`
	Staff   int    `json:"staff"`
	Trait   string `json:"trait,omitempty"`
	Brigade string `json:"brigade,omitempty"` // "" for the army commander
	Joined  string `json:"joined,omitempty"`  // the unit he has joined (follow me, rally)
	Moved   bool   `json:"moved,omitempty"`

	pi int
}

// Formation is an army or brigade in the chain of command.
type Formation struct {
	ID      string      `json:"id"`
	Side    string      `json:"side"`
	Kind    battle.Kind `json:"kind"`
	Parent  string      `json:"parent,omitempty"`
	General string      `json:"general"`
}

// Brigade is a brigade's orders this turn.
type Brigade struct {
	ID      string `json:"id"`
	Side    string `json:"side"`
	General string `json:"general"`
	Orders  int    `json:"orders,omitempty"` // orders given this turn
	Done    bool   `json:"done,omitempty"`   // its commander gives no more orders this turn
}

// Charge is a charge made, waiting for the reply.
type Charge struct {
	Unit   string `json:"unit"`
	Target string `json:"target"`
}

// Traverse is a unit that crossed the front of enemy units that may give
// traversing fire at it.
type Traverse struct {
	Unit   string   `json:"unit"`
	Firers []string `json:"firers"`
}

// Init makes BP's state for a game of sc, holding the pieces of s.
func (r *Rules) Init(sc *battle.Scenario, s *game.State) (game.Ext, error) {
	st := &State{sc: sc}
	for _, sd := range sc.Sides {
		st.sides = append(st.sides, sd.ID)
		for _, f := range sd.Formations {
			st.Formations = append(st.Formations, Formation{ID: f.ID, Side: sd.ID, Kind: f.Kind, Parent: f.Parent, General: f.General})
			g := sc.General(f.General)
			staff, _ := r.rating(g)
			trait, _ := g.Attrs["trait"].(string)
			gs := General{Name: g.Name, Staff: staff, Trait: trait}
			gs.pi, _ = s.PieceIndex(g.ID)
			gs.Piece = s.Pieces[gs.pi]
			if f.Kind == battle.Brigade {
				gs.Brigade = f.ID
				st.Brigades = append(st.Brigades, Brigade{ID: f.ID, Side: sd.ID, General: g.ID})
			}
			st.Generals = append(st.Generals, gs)
		}
		for _, u := range sd.Units {
			us := Unit{Brigade: u.Division, Type: u.Type, Shooting: attr(u.Attrs, "shooting", 0), Combat: attr(u.Attrs, "combat", 0),
				Morale: attr(u.Attrs, "morale", 4), Stamina: attr(u.Attrs, "stamina", 1), Range: r.rangeOf(u), Move: r.moveOf(u),
				LacksInitiative: flag(u.Attrs, "lacking-initiative"), Frontage: number(u.Attrs, "frontage"), Hidden: flag(u.Attrs, "hidden"), Disordered: u.Status == "disordered"}
			us.pi, _ = s.PieceIndex(u.ID)
			us.Piece = s.Pieces[us.pi]
			st.Units = append(st.Units, us)
		}
	}
	st.seq = sequence(st.sides)
	st.index()
	return st, nil
}

// hold points the state's units and commanders at the pieces of c.
func (s *State) hold(c *game.State) {
	for i := range s.Units {
		s.Units[i].Piece = c.PieceAt(s.Units[i].pi, s.Units[i].ID)
	}
	for i := range s.Generals {
		s.Generals[i].Piece = c.PieceAt(s.Generals[i].pi, s.Generals[i].ID)
	}
}

func (s *State) index() {
	s.unit = make(map[string]int, len(s.Units))
	for i, u := range s.Units {
		s.unit[u.ID] = i
	}
	s.gen = make(map[string]int, len(s.Generals))
	for i, g := range s.Generals {
		s.gen[g.ID] = i
	}
	s.brig = make(map[string]int, len(s.Brigades))
	for i, b := range s.Brigades {
		s.brig[b.ID] = i
	}
}

// Unit returns a unit's state, or nil.
func (s *State) Unit(id string) *Unit {
	if i, ok := s.unit[id]; ok {
		return &s.Units[i]
	}
	return nil
}

// General returns a commander's state, or nil.
func (s *State) General(id string) *General {
	if i, ok := s.gen[id]; ok {
		return &s.Generals[i]
	}
	return nil
}

// Brigade returns a brigade's state, or nil.
func (s *State) Brigade(id string) *Brigade {
	if i, ok := s.brig[id]; ok {
		return &s.Brigades[i]
	}
	return nil
}

// Sides lists the sides in the order they play.
func (s *State) Sides() []string { return s.sides }

// wound sets a unit's casualties, and whether it is shaken: casualties at
// its stamina (BP-5).
func (u *Unit) wound(n int) {
	u.Casualties, u.Shaken = n, n >= u.Stamina
}

// Clone copies the state for a game whose core state is c.
func (s *State) Clone(c *game.State) game.Ext {
	n := s.clone()
	n.hold(c)
	return n
}

func (s *State) clone() *State {
	c := &State{Formations: s.Formations, Units: slices.Clone(s.Units), Generals: slices.Clone(s.Generals), Brigades: slices.Clone(s.Brigades),
		sc: s.sc, sides: s.sides, seq: s.seq, unit: s.unit, gen: s.gen, brig: s.brig}
	for i := range c.Units {
		c.Units[i].Engaged = slices.Clone(c.Units[i].Engaged)
	}
	if s.Charge != nil {
		ch := *s.Charge
		c.Charge = &ch
	}
	if s.Traverse != nil {
		tr := Traverse{Unit: s.Traverse.Unit, Firers: slices.Clone(s.Traverse.Firers)}
		c.Traverse = &tr
	}
	return c
}

// Reset puts the state back to from; c is its core state, already reset.
func (s *State) Reset(from game.Ext, c *game.State) {
	f := from.(*State)
	s.Units = append(s.Units[:0], f.Units...)
	for i := range s.Units {
		s.Units[i].Engaged = slices.Clone(f.Units[i].Engaged)
	}
	s.Formations = f.Formations
	s.Generals = append(s.Generals[:0], f.Generals...)
	s.Brigades = append(s.Brigades[:0], f.Brigades...)
	s.Charge, s.Traverse = nil, nil
	if f.Charge != nil {
		ch := *f.Charge
		s.Charge = &ch
	}
	if f.Traverse != nil {
		tr := Traverse{Unit: f.Traverse.Unit, Firers: slices.Clone(f.Traverse.Firers)}
		s.Traverse = &tr
	}
	s.sc, s.sides, s.seq, s.unit, s.gen, s.brig = f.sc, f.sides, f.seq, f.unit, f.gen, f.brig
	s.hold(c)
}

// NewTurn clears what counts once per game turn: closing and traversing
// fire (BP-5).
func (s *State) NewTurn() {
	for i := range s.Units {
		s.Units[i].Fired = false
	}
}

// ext is the BP state of a game state.
func ext(s *game.State) *State {
	st, ok := s.Ext.(*State)
	if !ok {
		panic(fmt.Sprintf("bp: the state's rule set part is %T", s.Ext))
	}
	return st
}

// engage puts a and b in combat with each other.
func (s *State) engage(a, b string) {
	ua, ub := s.Unit(a), s.Unit(b)
	if !slices.Contains(ua.Engaged, b) {
		ua.Engaged = append(ua.Engaged, b)
	}
	if !slices.Contains(ub.Engaged, a) {
		ub.Engaged = append(ub.Engaged, a)
	}
}

// disengage takes a out of every combat.
func (s *State) disengage(a string) {
	u := s.Unit(a)
	for _, e := range u.Engaged {
		if eu := s.Unit(e); eu != nil {
			eu.Engaged = slices.DeleteFunc(eu.Engaged, func(x string) bool { return x == a })
		}
	}
	u.Engaged = nil
}

// group is the engagement a unit is in: every unit linked to it through
// combat, in scenario order.
func (s *State) group(id string) []string {
	seen := map[string]bool{id: true}
	todo := []string{id}
	for len(todo) > 0 {
		u := s.Unit(todo[0])
		todo = todo[1:]
		for _, e := range u.Engaged {
			if !seen[e] {
				seen[e] = true
				todo = append(todo, e)
			}
		}
	}
	var out []string
	for _, u := range s.Units {
		if seen[u.ID] {
			out = append(out, u.ID)
		}
	}
	return out
}

// StateOf is the BP state of a game state.
func StateOf(s *game.State) *State { return ext(s) }
