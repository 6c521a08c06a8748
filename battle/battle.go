// Package battle holds the order of battle and the field of a scenario: the
// sides, their chain of command from army commander down to combat units,
// where every piece stands, and the space they stand on: a table with its
// base edges and the grid of squares used for off-board entry (SPEC NB-1,
// NB-9, NB-10), or a hex map (geom/hex).
package battle

import (
	"fmt"

	"orderly/geom"
	"orderly/geom/hex"
	"orderly/terrain"
)

// Kind is the level of a formation in the chain of command.
type Kind string

// The levels of command, top down.
const (
	Army     Kind = "army"
	Wing     Kind = "wing"
	Corps    Kind = "corps"
	Division Kind = "division"
	// Brigade is a command of combat units directly under the army (BP).
	Brigade Kind = "brigade"
)

// Edges are the sides of the table.
var Edges = []string{"north", "south", "east", "west"}

// Scenario is a battle ready to play: the field, the sides and their orders
// at the start.
type Scenario struct {
	Name  string
	Title string
	Rules string // the rule set that runs it, e.g. nb
	Turns int    // the last turn
	// Field is the table the scenario is played on; it is zero on a hex
	// map.
	Field Field
	// Map is the hex map the scenario is played on, or nil for a table.
	// Positions on it are its hexes' printed column and row (hex.Map).
	Map *hex.Map
	// Terrain is the map's terrain, elevation, hexsides and roads, or
	// nil (no map, or a rule set whose maps have none).
	Terrain *terrain.Map
	// Evening lists the evening turns (SPEC NES-3).
	Evening []int
	// Speeds is the move of each unit type per turn in the space's unit
	// (inches on a table, hexes on a hex map), used for the attack
	// order's minimum move (SPEC NB-7).
	Speeds map[string]float64
	Sides  []*Side
	// Image is the backdrop drawn under the table or the hex map, or nil.
	Image *Image
	// Result is how the battle is won, or nil when the scenario defines
	// no result.
	Result *Result

	File string // where it was read from, for messages
	// Speedless says the rule set reads no speeds (Spec.Parts without
	// PartSpeeds): Finish then asks none of the units.
	Speedless bool

	gens  map[string]*General
	units map[string]*Unit
	forms map[string]*Formation
	ids   map[string]string // id -> what kind of thing uses it
}

// Space is what the scenario is played on: its hex map, or else its
// table. The engine, the loader and the server measure through it.
func (sc *Scenario) Space() geom.Space {
	if sc.Map != nil {
		return *sc.Map
	}
	return sc.Field.Table()
}

// Field is a table as the playing surface: its size, and the entry grid
// for off-board reserves.
type Field struct {
	Width, Depth  float64 // inches
	Columns, Rows int     // the entry grid: columns lettered from A at the west edge, rows numbered from 1 at the north edge
	// Features is the terrain on the table, in the scenario's order.
	Features []*Feature
}

// Empty reports whether the field is the zero field: no table at all (a
// scenario on a hex map).
func (f Field) Empty() bool {
	return f.Width == 0 && f.Depth == 0 && f.Columns == 0 && f.Rows == 0 && len(f.Features) == 0
}

// Table is the field as a space, measured in inches.
func (f Field) Table() geom.Table { return geom.Table{Width: f.Width, Depth: f.Depth} }

// Bounds is the table as a rectangle.
func (f Field) Bounds() geom.Rect { return geom.Rect{Max: geom.Pt(f.Width, f.Depth)} }

// Side is one army.
type Side struct {
	ID     string
	Name   string
	Nation string
	Edge   string // its base edge
	// HQ is where the army's headquarters starts, if the rule set has
	// one apart from the army commander (SPEC NES-1); nil: with him.
	HQ *geom.Point
	// Points is the side's command points a turn, if the rule set reads
	// them (NES); nil if the scenario leaves them out.
	Points *int
	// Formations lists the side's formations top down: the army first, then
	// each wing, corps and division in the order written.
	Formations []*Formation
	Generals   []*General
	Units      []*Unit
	Line       int
}

// Army is the side's top formation.
func (s *Side) Army() *Formation { return s.Formations[0] }

// Formation is a level of command with its general: the army, a wing, a
// corps, a division or a brigade.
type Formation struct {
	ID      string
	Name    string
	Side    string
	Kind    Kind
	Parent  string // "" for the army
	General string
	// Order is the formation's order at the start (SPEC NB-1); nil for a
	// formation that follows its parent's.
	Order *Order
	// Entry is set for an off-board reserve (SPEC NB-10).
	Entry    *Entry
	Children []string
	Units    []string // a division's or brigade's combat units
	// Attrs holds the values of the rule set's own attributes of
	// formations given in the scenario (Spec.Attrs), by name.
	Attrs map[string]any
	Path  string // where it is in the scenario, e.g. sides[0].corps[2]
	Line  int
}

// Independent reports whether a division answers to no corps.
func (f *Formation) Independent(sc *Scenario) bool {
	if f.Kind != Division {
		return false
	}
	p := sc.Formation(f.Parent)
	return p == nil || p.Kind != Corps
}

// Order is what a formation is told to do.
type Order struct {
	Kind      string // attack, defend or reserve (SPEC NB-1)
	Objective *geom.Point
	Note      string
}

// String words the order, its objective written as on a table: attack
// (36, 8) "take the farm".
func (o Order) String() string { return o.Format(nil) }

// Format words the order with its objective written as space sp writes
// positions (a hex map's label: attack 0412); a nil space writes it as on
// a table.
func (o Order) Format(sp geom.Space) string {
	s := o.Kind
	if o.Objective != nil && sp != nil {
		s += " " + sp.Format(*o.Objective)
	} else if o.Objective != nil {
		s += " " + o.Objective.String()
	}
	if o.Note != "" {
		s += fmt.Sprintf(" %q", o.Note)
	}
	return s
}

// Entry is where and how an off-board reserve comes on (SPEC NB-10).
type Entry struct {
	Square string // e.g. B9
	Edge   string // the table edge the square lies on
	Then   Order  // the order it follows once on the table
}

// General is a commander model.
type General struct {
	ID       string
	Name     string
	Side     string
	Commands string // the formation he commands
	Quality  string
	Range    float64 // command range in the space's unit
	At       geom.Point
	OffBoard bool // with an off-board reserve until placed at the edge
	// Attrs holds the values of the rule set's own attributes of generals
	// given in the scenario (Spec.Attrs), by name.
	Attrs map[string]any
	Path  string
	Line  int
}

// Unit is a combat unit.
type Unit struct {
	ID         string
	Name       string
	Side       string
	Division   string // the formation the unit belongs to: its division, or its brigade
	Type       string
	Shape      string
	Status     string
	At         geom.Point
	Facing     float64 // degrees clockwise from north
	Speed      float64 // in the space's unit per turn
	Detachment bool
	OffBoard   bool // with an off-board reserve until it enters
	// Attrs holds the values of the rule set's own attributes of units
	// given in the scenario (Spec.Attrs), by name: an int, float64,
	// string or bool by the attribute's type.
	Attrs map[string]any
	Path  string
	Line  int
}

// Side returns the side with the given id, or nil.
func (sc *Scenario) Side(id string) *Side {
	for _, s := range sc.Sides {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// General returns the general with the given id, or nil.
func (sc *Scenario) General(id string) *General { return sc.gens[id] }

// Unit returns the unit with the given id, or nil.
func (sc *Scenario) Unit(id string) *Unit { return sc.units[id] }

// Formation returns the formation with the given id, or nil.
func (sc *Scenario) Formation(id string) *Formation { return sc.forms[id] }

// Generals lists every general, side by side in scenario order.
func (sc *Scenario) Generals() []*General {
	var out []*General
	for _, s := range sc.Sides {
		out = append(out, s.Generals...)
	}
	return out
}

// Units lists every unit, side by side in scenario order.
func (sc *Scenario) Units() []*Unit {
	var out []*Unit
	for _, s := range sc.Sides {
		out = append(out, s.Units...)
	}
	return out
}

// Formations lists every formation, side by side in scenario order.
func (sc *Scenario) Formations() []*Formation {
	var out []*Formation
	for _, s := range sc.Sides {
		out = append(out, s.Formations...)
	}
	return out
}

// Enemy returns the other side's id (a battle has two sides).
func (sc *Scenario) Enemy(side string) string {
	for _, s := range sc.Sides {
		if s.ID != side {
			return s.ID
		}
	}
	return ""
}
