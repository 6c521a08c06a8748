package cd

import (
	"fmt"
	"slices"

	"orderly/battle"
	"orderly/game"
)

// State is CD's part of a game's state (game.State.Ext): the chain of
// command with who commands each formation now, every unit's marks, and
// what the side whose turn it is has activated.
type State struct {
	Formations []Formation `json:"formations"`
	Units      []Unit      `json:"units"`
	Generals   []General   `json:"generals"`
	Sides      []Side      `json:"sides"`
	// Acts are the activations of the side whose turn it is, in order.
	Acts []Act `json:"acts,omitempty"`

	sc   *battle.Scenario
	seq  []game.Step
	unit map[string]int
	gen  map[string]int
	form map[string]int
}

// Side is an army's command style and its activation rolls this turn
// (CD-5).
type Side struct {
	ID    string `json:"id"`
	Style string `json:"style"`
	Rolls int    `json:"rolls,omitempty"`
}

// Formation is a level of command with whoever commands it now: its own
// general, or his successor (CD-8). General is "" when the one in command
// is a stand-in with no figure on the table (a promoted colonel).
type Formation struct {
	ID      string      `json:"id"`
	Side    string      `json:"side"`
	Kind    battle.Kind `json:"kind"`
	Parent  string      `json:"parent,omitempty"`
	General string      `json:"general,omitempty"`
	Rating  string      `json:"rating"`
	Bonus   int         `json:"bonus,omitempty"`
	// Screen is the castings a division's skirmish-capable units have
	// added to its screen (CD-8).
	Screen int `json:"screen,omitempty"`
}

// Unit is a unit's state: its piece, its statistics from the scenario and
// what has befallen it, and what it has done in its side's turn.
type Unit struct {
	*game.Piece
	Formation  string  `json:"brigade"` // its brigade, or its division
	Division   string  `json:"division"`
	Type       string  `json:"type"`
	Gun        string  `json:"gun,omitempty"`
	Dice       string  `json:"dice"`
	CW         *int    `json:"cw,omitempty"`
	Stands     int     `json:"stands"`
	Frontage   float64 `json:"frontage,omitempty"`
	Skirmish   bool    `json:"skirmish,omitempty"`
	OpenOrder  bool    `json:"open-order,omitempty"`
	Casualties int     `json:"casualties,omitempty"`
	// Steps are casualty steps lost to disruptive terrain (CD-6).
	Steps      int  `json:"steps,omitempty"`
	Shaken     bool `json:"shaken,omitempty"`
	Disordered bool `json:"disordered,omitempty"`
	Smoke      bool `json:"smoke,omitempty"`
	// Screened says the unit is off the table, in its division's
	// skirmish screen (CD-8).
	Screened bool `json:"screened,omitempty"`
	// MovedLast says it moved in its side's last turn (+1, CD-1).
	MovedLast bool `json:"moved-last-turn,omitempty"`

	// What it has done in its side's turn.
	Act    int     `json:"act,omitempty"`    // 1 + the index of its activation in Acts; 0 for none
	From   string  `json:"from,omitempty"`   // its formation when it activated: an artillery move's mode starts from it
	Factor float64 `json:"factor,omitempty"` // the activation's factor (CD-1)
	Used   float64 `json:"used,omitempty"`   // the share of its rate used, against Factor
	Moved  bool    `json:"moved,omitempty"`
	// Relieving says it relieved a front-line unit this turn: its fire
	// this segment is at -5 (CD-7).
	Relieving bool `json:"relieving,omitempty"`

	pi int
}

// General is a commander's figure.
type General struct {
	*game.Piece
	Name     string `json:"name,omitempty"`
	Rating   string `json:"rating"`
	Bonus    int    `json:"bonus,omitempty"`
	Promoted string `json:"promoted,omitempty"`
	Commands string `json:"commands"`
	Lost     bool   `json:"lost,omitempty"`

	pi int
}

// Act is one activation of the turn: what rolled, on whose rating, and
// the factor it gave (CD-1, CD-4).
type Act struct {
	Kind      string   `json:"kind"` // unit, brigade or division
	Formation string   `json:"formation"`
	Units     []string `json:"units"`
	Result    string   `json:"result"`
	Factor    float64  `json:"factor"`
	Local     bool     `json:"local,omitempty"`
	Vacate    bool     `json:"vacate,omitempty"`
}

// Init makes CD's state for a game of sc, holding the pieces of s.
func (r *Rules) Init(sc *battle.Scenario, s *game.State) (game.Ext, error) {
	st := &State{sc: sc}
	for _, sd := range sc.Sides {
		st.Sides = append(st.Sides, Side{ID: sd.ID, Style: word(sc.General(sd.Army().General).Attrs, "style", "established")})
		for _, f := range sd.Formations {
			g := sc.General(f.General)
			rating, bonus := word(g.Attrs, "rating", "average"), attr(g.Attrs, "bonus", 0)
			st.Formations = append(st.Formations, Formation{ID: f.ID, Side: sd.ID, Kind: f.Kind, Parent: f.Parent, General: g.ID, Rating: rating, Bonus: bonus})
			gs := General{Name: g.Name, Rating: rating, Bonus: bonus, Promoted: word(g.Attrs, "promoted", ""), Commands: f.ID}
			gs.pi, _ = s.PieceIndex(g.ID)
			gs.Piece = s.Pieces[gs.pi]
			st.Generals = append(st.Generals, gs)
		}
		for _, u := range sd.Units {
			us := Unit{Formation: u.Division, Division: divisionOf(sc, u.Division), Type: u.Type, Gun: word(u.Attrs, "gun", ""), Dice: word(u.Attrs, "dice", "2d6"),
				Stands: attr(u.Attrs, "stands", 4), Skirmish: flag(u.Attrs, "skirmish"), OpenOrder: flag(u.Attrs, "open-order"),
				Casualties: attr(u.Attrs, "casualties", 0), Shaken: u.Status == "shaken", Disordered: u.Status == "disordered", Smoke: flag(u.Attrs, "smoke")}
			if v, ok := u.Attrs["frontage"].(float64); ok {
				us.Frontage = v
			}
			if v, ok := u.Attrs["cw"].(int); ok {
				us.CW = &v
			}
			us.pi, _ = s.PieceIndex(u.ID)
			us.Piece = s.Pieces[us.pi]
			st.Units = append(st.Units, us)
		}
	}
	st.seq = sequence(st.sideIDs())
	st.index()
	return st, nil
}

// divisionOf is the division a formation is or belongs to.
func divisionOf(sc *battle.Scenario, id string) string {
	for f := sc.Formation(id); f != nil; f = sc.Formation(f.Parent) {
		if f.Kind == battle.Division {
			return f.ID
		}
	}
	return id
}

func (s *State) sideIDs() []string {
	out := make([]string, len(s.Sides))
	for i, sd := range s.Sides {
		out[i] = sd.ID
	}
	return out
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
	s.form = make(map[string]int, len(s.Formations))
	for i, f := range s.Formations {
		s.form[f.ID] = i
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

// Formation returns a formation's state, or nil.
func (s *State) Formation(id string) *Formation {
	if i, ok := s.form[id]; ok {
		return &s.Formations[i]
	}
	return nil
}

// Side returns a side's state, or nil.
func (s *State) Side(id string) *Side {
	for i := range s.Sides {
		if s.Sides[i].ID == id {
			return &s.Sides[i]
		}
	}
	return nil
}

// Clone copies the state for a game whose core state is c.
func (s *State) Clone(c *game.State) game.Ext {
	n := s.clone()
	n.hold(c)
	return n
}

func (s *State) clone() *State {
	c := &State{Formations: slices.Clone(s.Formations), Units: slices.Clone(s.Units), Generals: slices.Clone(s.Generals),
		Sides: slices.Clone(s.Sides), Acts: slices.Clone(s.Acts), sc: s.sc, seq: s.seq, unit: s.unit, gen: s.gen, form: s.form}
	for i := range c.Units {
		if v := c.Units[i].CW; v != nil {
			w := *v
			c.Units[i].CW = &w
		}
	}
	return c
}

// Reset puts the state back to from; c is its core state, already reset.
func (s *State) Reset(from game.Ext, c *game.State) {
	f := from.(*State).clone()
	*s = *f
	s.hold(c)
}

// ext is the CD state of a game state.
func ext(s *game.State) *State {
	st, ok := s.Ext.(*State)
	if !ok {
		panic(fmt.Sprintf("cd: the state's rule set part is %T", s.Ext))
	}
	return st
}

// StateOf is the CD state of a game state.
func StateOf(s *game.State) *State { return ext(s) }

// alive reports whether a unit is on the table and in the game.
func (s *State) alive(c *game.State, id string) bool {
	u := s.Unit(id)
	p := c.Piece(id)
	return u != nil && !u.Screened && p != nil && p.OnTable
}
