// Package bp plays a staff-rating command phase with shooting and combat
// (SPEC BP-1..BP-7) on the game engine: its tables as embedded data (the
// numbers the sources do not give are example values there, replaced by a
// house-rules file), and the procedures of a phasing player's turn.
package bp

import (
	_ "embed"
	"fmt"
	"math"
	"slices"
	"strconv"

	"orderly/battle"
	"orderly/geom"
	"orderly/sight"
	"orderly/table"
)

//go:embed sight.yaml
var sightYAML []byte

//go:embed tables.yaml
var tables []byte

// Sight is the rule set's spotting data, for fog of war (game.Spotter).
func (r *Rules) Sight() *sight.Rules { return r.sight }

// Tables returns the rule set's tables file.
func Tables() table.Source { return table.Source{Name: "rules/bp/tables.yaml", Data: tables} }

// Facts of the source that are not tables.
const (
	// Proximity is the distance within which a unit is near the enemy
	// (BP-3, BP-7), measured between the closest parts, 12" included.
	Proximity = 12.0
	// Half is how far the front and rear arcs open outward from the
	// edges' ends, in degrees (our reading of BP-5 and BP-7).
	Half = 45.0
	// CommanderMoves is how many moves' distance a commander goes in his
	// one move of the turn (BP-4).
	CommanderMoves = 3
	// Reach is how near a commander must be to the unit he joins with
	// follow me or rally (BP-4: in proximity).
	Reach = 12.0
	// NotClear is the share of a target's area in the shooter's front arc
	// at or below which it is a not-clear target: "50%+ out of front arc"
	// (BP-5), so a unit exactly half out is not clear.
	NotClear = 0.5
)

// Rules runs BP games. It implements game.Rules.
type Rules struct {
	sight    *sight.Rules // fog of war (sight.yaml)
	tables   *table.Set
	command  *table.Table
	shooting *table.Table
	blunder  *table.Table
	brk      *table.Table

	move    map[string]float64    // inches per move, by type (and commander)
	rng     map[string]float64    // range by type
	foot    map[string][2]float64 // frontage and depth by formation
	orders  []string              // the kinds of order
	allowed map[[2]string]bool    // order, kind of unit
	traits  map[string]int
	types   []string
	shapes  []string
	// margin is the combat-margin house rule of bp/options: the loser of
	// a combat tests at minus the margin (BP-6; off in our source).
	margin bool
}

// New makes the rule set from a loaded table set (the built-in tables with
// any house rules), refusing one the procedures cannot use (Uses).
func New(set *table.Set) (*Rules, error) {
	r := &Rules{tables: set, move: map[string]float64{}, rng: map[string]float64{},
		foot: map[string][2]float64{}, allowed: map[[2]string]bool{}, traits: map[string]int{}}
	var err error
	for _, t := range []struct {
		p  **table.Table
		id string
	}{{&r.command, "bp/command"}, {&r.shooting, "bp/shooting"}, {&r.blunder, "bp/blunder"}, {&r.brk, "bp/break-test"}} {
		if *t.p, err = set.Table(t.id); err != nil {
			return nil, fmt.Errorf("bp: %w", err)
		}
	}
	for _, id := range []string{"bp/move", "bp/range", "bp/footprint", "bp/orders", "bp/traits", "bp/options"} {
		if _, err := set.FindLookup(id); err != nil {
			return nil, fmt.Errorf("bp: %w", err)
		}
	}
	if err := set.Check("BP", r.Uses()); err != nil {
		return nil, err
	}
	for _, read := range []func(*table.Set) error{r.readMoves, r.readRanges, r.readFootprints, r.readOrders, r.readTraits, r.readOptions} {
		if err := read(set); err != nil {
			return nil, err
		}
	}
	if r.sight, err = sight.Parse("rules/bp/sight.yaml", sightYAML); err != nil {
		return nil, err
	}
	return r, nil
}

// cell is the cell of lookup id for the inputs in.
func cell(set *table.Set, id string, in map[string]string) (table.Cell, error) {
	c, err := set.Lookup(id).Get(in)
	if err != nil {
		return c, fmt.Errorf("bp: %w", err)
	}
	return c, nil
}

// inches is the number of inches in the cell of lookup id for in.
func inches(set *table.Set, id string, in map[string]string) (float64, error) {
	c, err := cell(set, id, in)
	if err != nil {
		return 0, err
	}
	if c.Num == nil {
		return 0, fmt.Errorf("bp: %s %v: %q is not a number of inches", id, in, c.Text)
	}
	f, _ := c.Num.Float64()
	return f, nil
}

// readMoves reads the inches of a move of each type of unit and of a
// commander from bp/move (BP-4): each more than 0, the commander's given.
func (r *Rules) readMoves(set *table.Set) error {
	for _, ty := range set.Lookup("bp/move").Param("type").Names() {
		f, err := inches(set, "bp/move", map[string]string{"type": ty})
		if err != nil {
			return err
		}
		if r.move[ty] = f; f <= 0 {
			return fmt.Errorf("bp: bp/move type=%s: a move must be more than 0 inches", ty)
		}
		if ty != "commander" {
			r.types = append(r.types, ty)
		}
	}
	if _, ok := r.move["commander"]; !ok {
		return fmt.Errorf("bp: bp/move has no row for commander, whose move BP-4 needs")
	}
	return nil
}

// readRanges reads the range of each type of unit that moves from
// bp/range (BP-5).
func (r *Rules) readRanges(set *table.Set) error {
	for _, ty := range r.types {
		if !slices.Contains(set.Lookup("bp/range").Param("type").Names(), ty) {
			return fmt.Errorf("bp: bp/range has no row for type %s, which bp/move gives", ty)
		}
		f, err := inches(set, "bp/range", map[string]string{"type": ty})
		if err != nil {
			return err
		}
		r.rng[ty] = f
	}
	return nil
}

// readFootprints reads each formation's frontage and depth from
// bp/footprint, each more than 0.
func (r *Rules) readFootprints(set *table.Set) error {
	for _, sh := range set.Lookup("bp/footprint").Param("formation").Names() {
		var fd [2]float64
		for i, size := range []string{"frontage", "depth"} {
			f, err := inches(set, "bp/footprint", map[string]string{"formation": sh, "size": size})
			if err != nil {
				return err
			}
			if fd[i] = f; f <= 0 {
				return fmt.Errorf("bp: bp/footprint formation=%s: the %s must be more than 0 inches", sh, size)
			}
		}
		r.foot[sh] = fd
		r.shapes = append(r.shapes, sh)
	}
	return nil
}

// readOrders reads the kinds of order and which kinds of unit may take
// each from bp/orders (BP-4).
func (r *Rules) readOrders(set *table.Set) error {
	r.orders = set.Lookup("bp/orders").Param("order").Names()
	for _, o := range r.orders {
		for _, k := range []string{"formed", "artillery", "lacking-initiative"} {
			c, err := cell(set, "bp/orders", map[string]string{"order": o, "unit": k})
			if err != nil {
				return err
			}
			r.allowed[[2]string{o, k}] = c.Text == "yes"
		}
	}
	return nil
}

// readTraits reads each commander's trait's whole-number modifier from
// bp/traits (BP-1).
func (r *Rules) readTraits(set *table.Set) error {
	for _, tr := range set.Lookup("bp/traits").Param("trait").Names() {
		c, err := cell(set, "bp/traits", map[string]string{"trait": tr})
		if err != nil {
			return err
		}
		if c.Num == nil || !c.Num.IsInt() {
			return fmt.Errorf("bp: bp/traits trait=%s: %q is not a whole number", tr, c.Text)
		}
		r.traits[tr] = int(c.Num.Num().Int64())
	}
	return nil
}

// readOptions reads the house rules of bp/options the procedures read,
// each yes or no: the combat margin (BP-6).
func (r *Rules) readOptions(set *table.Set) error {
	opts := map[string]bool{}
	for _, o := range []string{"combat-margin"} {
		if !slices.Contains(set.Lookup("bp/options").Param("option").Names(), o) {
			return fmt.Errorf("bp: bp/options has no row for %s, which the procedures read; allowed values of a row: yes, no", o)
		}
		c, err := cell(set, "bp/options", map[string]string{"option": o})
		if err != nil {
			return err
		}
		if c.Text != "yes" && c.Text != "no" {
			return fmt.Errorf("bp: bp/options option=%s: %q is neither yes nor no", o, c.Text)
		}
		opts[o] = c.Text == "yes"
	}
	r.margin = opts["combat-margin"]
	return nil
}

// Uses says what the procedures pass to each table and read from it.
func (r *Rules) Uses() []table.Use {
	zero := 0
	return []table.Use{
		{Table: "bp/command", Rule: "BP-1", Params: []table.Pass{{Name: "rating", Kind: table.Int, Values: table.Ints(2, 12), From: "staff ratings"}, {Name: "modifier", Kind: table.Int, Values: table.Ints(-6, 6), From: "traits and declared modifiers"}}},
		{Table: "bp/shooting", Rule: "BP-5", Params: []table.Pass{{Name: "dice", Kind: table.Int, Values: table.Ints(0, 12), From: "shooting and combat scores"},
			{Name: "modifier", Kind: table.Int, Values: table.Ints(-3, 3), From: "declared modifiers"}, {Name: "save", Kind: table.Int, Values: table.Ints(2, 7), From: "morale saves"},
			{Name: "enfilade", Kind: table.Bool, Values: []string{"false", "true"}, From: "enfilade"}}},
		{Table: "bp/blunder", Rule: "BP-2", Number: &table.Number{What: "the moves of the forced move", Min: &zero}},
		{Table: "bp/break-test", Rule: "BP-5", Params: []table.Pass{{Name: "modifier", Kind: table.Int, Values: table.Ints(-12, 0), From: "casualties beyond stamina and margins of defeat"},
			{Name: "shaken", Kind: table.Bool, Values: []string{"false", "true"}, From: "shaken units"}}},
	}
}

// ID is "bp".
func (r *Rules) ID() string { return "bp" }

// Table returns one of the rule set's tables.
func (r *Rules) Table(id string) (*table.Table, error) { return r.tables.Table(id) }

// Vocab allows any nation; the unit types are those of bp/move, the
// formations those of bp/footprint.
func (r *Rules) Vocab() battle.Vocab {
	return battle.Vocab{UnitTypes: slices.Clone(r.types), Shapes: slices.Clone(r.shapes), Statuses: []string{"formed", "disordered"}}
}

func bound(v float64) *float64 { return &v }

// Spec is BP's part of the scenario format: a table in inches, brigades
// under the army, and the staff rating and unit statistics of BP-1, BP-5
// and BP-6.
func (r *Rules) Spec() battle.Spec {
	var traits []string
	for t := range r.traits {
		traits = append(traits, t)
	}
	slices.Sort(traits)
	return battle.Spec{ID: "bp", Title: "BP: a staff-rating game", Vocab: r.Vocab(), Spaces: []string{geom.KindTable}, Parts: []string{battle.PartBrigades},
		Attrs: []battle.Attr{
			{On: battle.OnGeneral, Name: "staff", Type: battle.AttrInteger, Min: bound(2), Max: bound(12), Doc: "Staff rating of the commander: a command roll of 2d6 must not exceed it (BP-1); 8 when left out."},
			{On: battle.OnGeneral, Name: "trait", Type: battle.AttrWord, Values: traits, Doc: "A personality trait that changes the staff rating (bp/traits)."},
			{On: battle.OnUnit, Name: "shooting", Type: battle.AttrInteger, Min: bound(0), Max: bound(12), Doc: "Shooting score: the dice the unit shoots with (BP-5); 0 when left out."},
			{On: battle.OnUnit, Name: "combat", Type: battle.AttrInteger, Min: bound(0), Max: bound(12), Required: true, Doc: "Hand-to-hand combat score: the dice the unit fights with (BP-6)."},
			{On: battle.OnUnit, Name: "morale", Type: battle.AttrInteger, Min: bound(2), Max: bound(7), Required: true, Doc: "Morale save: each hit is saved on a die of this or more; 7 for no save (BP-5)."},
			{On: battle.OnUnit, Name: "stamina", Type: battle.AttrInteger, Min: bound(1), Max: bound(12), Required: true, Doc: "Stamina: casualties equal to it shake the unit, more call a break test (BP-5)."},
			{On: battle.OnUnit, Name: "move", Type: battle.AttrNumber, Min: bound(0.5), Max: bound(100), Unit: "inches", Doc: "Distance of one move in inches, in place of bp/move for its type."},
			{On: battle.OnUnit, Name: "frontage", Type: battle.AttrNumber, Min: bound(0.5), Max: bound(48), Unit: "inches", Doc: "Frontage of the unit in line, in inches: every formation's frontage in bp/footprint is scaled by it against the line's."},
			{On: battle.OnUnit, Name: "range", Type: battle.AttrNumber, Min: bound(0), Max: bound(200), Unit: "inches", Doc: "Shooting range in inches, in place of bp/range for its type."},
			{On: battle.OnUnit, Name: "lacking-initiative", Type: battle.AttrBool, Doc: "The unit lacks initiative: it makes no initiative moves and takes only the orders bp/orders allows it (BP-3, BP-4)."},
			{On: battle.OnUnit, Name: "hidden", Type: battle.AttrBool, Doc: "The enemy does not see the unit until it moves, shoots or fights, or an enemy unit comes within 12 inches of it."},
		}}
}

// Check tests a scenario against BP: every side has brigades, every unit
// stands on the table in a formation its type can take (BP-4), and every
// commander stands on the table.
func (r *Rules) Check(sc *battle.Scenario) error {
	for _, s := range sc.Sides {
		if len(s.Formations) < 2 {
			return &battle.PathError{Path: s.Army().Path, Line: s.Line, Msg: "brigades is missing: a side plays with at least one brigade under its army commander (BP-4)"}
		}
		for _, u := range s.Units {
			if u.OffBoard {
				return &battle.PathError{Path: u.Path, Line: u.Line, Msg: "at is missing: every unit starts on the table"}
			}
			if !r.takes(u.Type, u.Shape) {
				return &battle.PathError{Path: u.Path + ".formation", Line: u.Line,
					Msg: fmt.Sprintf("%s is %s, which cannot take formation %s (BP-4); allowed for %s: %s", u.ID, u.Type, u.Shape, u.Type, join(r.Shapes()[u.Type]))}
			}
		}
		for _, g := range s.Generals {
			if g.OffBoard {
				return &battle.PathError{Path: g.Path, Line: g.Line, Msg: "at is missing: every commander starts on the table"}
			}
		}
	}
	return nil
}

// takes reports whether a unit of type ty can stand in formation shape:
// artillery is limbered or unlimbered, and only artillery is (BP-4; the
// formations are those of bp/footprint).
func (r *Rules) takes(ty, shape string) bool {
	if _, ok := r.foot[shape]; !ok {
		return false
	}
	return (ty == "artillery" || ty == "horse-artillery") == (shape == "limbered" || shape == "unlimbered")
}

// moveOf is the distance of one move of a unit: its own, or its type's.
func (r *Rules) moveOf(u *battle.Unit) float64 {
	if v, ok := u.Attrs["move"].(float64); ok {
		return v
	}
	return r.move[u.Type]
}

// rangeOf is a unit's shooting range.
func (r *Rules) rangeOf(u *battle.Unit) float64 {
	if v, ok := u.Attrs["range"].(float64); ok {
		return v
	}
	return r.rng[u.Type]
}

// attr reads an integer attribute, or def.
func attr(m map[string]any, name string, def int) int {
	if v, ok := m[name].(int); ok {
		return v
	}
	return def
}

// number reads a number attribute, or 0.
func number(m map[string]any, name string) float64 {
	v, _ := m[name].(float64)
	return v
}

// flag reads a boolean attribute.
func flag(m map[string]any, name string) bool {
	v, _ := m[name].(bool)
	return v
}

// rating is a commander's staff rating and his trait's change to it.
func (r *Rules) rating(g *battle.General) (int, int) {
	tr, _ := g.Attrs["trait"].(string)
	if tr == "" {
		tr = "none"
	}
	return attr(g.Attrs, "staff", 8), r.traits[tr]
}

// inch writes a distance in inches to the hundredth.
func inch(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }
