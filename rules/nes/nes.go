// Package nes plays the command layer of the NES hex game (SPEC
// NES-1..NES-7) on the game engine: orders sent down the chain of command
// and delivered by distance and die roll, delay markers that count down,
// command states that lapse, command units lost in combat, artillery that
// falls short or long along the line of sight, and moves priced by the
// terrain effects chart over a hex map. Its tables are embedded data; the
// numbers the source does not give (movement allowances, command point
// costs, stacking) are example values there, which a house-rules file
// replaces.
package nes

import (
	_ "embed"
	"fmt"
	"slices"

	"orderly/battle"
	"orderly/geom"
	"orderly/sight"
	"orderly/table"
	"orderly/terrain"
)

//go:embed sight.yaml
var sightYAML []byte

//go:embed tables.yaml
var tables []byte

// Sight is the rule set's spotting data, for fog of war (game.Spotter).
func (r *Rules) Sight() *sight.Rules { return r.sight }

// Tables returns the rule set's tables file.
func Tables() table.Source { return table.Source{Name: "rules/nes/tables.yaml", Data: tables} }

// Facts of the source that are not tables.
const (
	// MaxDelay is the most delay levels distance adds (NES-2).
	MaxDelay = 3
	// GrandTactical is what grand tactical movement adds to the
	// allowance, in movement points (NES-7).
	GrandTactical = 2
	// Sixths: movement is counted in sixths of a point, so that road
	// column's 1/2 and 2/3 of a point a hex are whole numbers.
	Sixths = 6
)

// The roles of command units, top down.
const (
	RoleArmy     = "army"
	RoleCorps    = "corps" // a corps or wing commander
	RoleDivision = "division"
	RoleBrigade  = "brigade"
)

// The command states (NES-3).
const (
	Standing  = "standing"
	Mobilized = "mobilized"
)

// The markers on a command unit (NES-2).
const (
	Received = "received"
	Delay1   = "delay-1"
)

// Orders are the kinds of order a command unit may be given; attack
// matters to NES-1 and NES-3.
var Orders = []string{"attack", "move", "defend", "reserve"}

// Shapes are the formations of combat units (NES-7's columns).
var Shapes = []string{"line", "column", "road-column", "general-order", "skirmish"}

// Cavalry are the kinds of cavalry by class (NES-6).
var Cavalry = map[string]string{
	"cuirassiers": "heavy", "grenadiers": "heavy", "dragoons": "heavy", "gendarmes": "heavy",
	"hussars": "light", "chasseurs": "light", "uhlans": "light", "cossacks": "light",
}

// Kinds is what an NES map holds: the terrain rows of the chart (NES-7)
// with their letters, its hexside rows, and its two roads. Slopes come
// from the elevation grid; a steep slope is a hexside feature.
func Kinds() terrain.Kinds {
	return terrain.Kinds{
		Hexes: []terrain.Kind{{Name: "clear", Letter: '.'}, {Name: "light-cover", Letter: 'l'}, {Name: "farmette", Letter: 'f'},
			{Name: "woods", Letter: 'w'}, {Name: "town", Letter: 't'}, {Name: "frozen-wetlands", Letter: 'm'}},
		Sides: []string{"brook", "stream", "major-stream", "light-cover-side", "steep"},
		Roads: []string{"minor-road", "major-road"},
		Steep: "steep",
	}
}

// Rules runs NES games. It implements game.Rules.
type Rules struct {
	sight     *sight.Rules // fog of war (sight.yaml)
	tables    *table.Set
	deliver   *table.Table // NES-1
	cont      *table.Table // NES-3
	loss      *table.Table // NES-4
	deviation *table.Table // NES-5
	extended  *table.Table // NES-5's fire result (example values)
	morale    *table.Table // NES-6's morale check (example values)
	brook     *table.Table // NES-7's charge across a brook

	chart *chart
	allow map[string]int // movement allowance in sixths, by type (and command)
	play  map[string]int // nes/play
	kinds terrain.Kinds
}

// New makes the rule set from a loaded table set (the built-in tables with
// any house rules), refusing one the procedures cannot use.
func New(set *table.Set) (*Rules, error) {
	r := &Rules{tables: set, allow: map[string]int{}, play: map[string]int{}, kinds: Kinds()}
	var err error
	for _, t := range []struct {
		p  **table.Table
		id string
	}{{&r.deliver, "nes/order-delivery"}, {&r.cont, "nes/command-continuation"}, {&r.loss, "nes/command-unit-loss"}, {&r.deviation, "nes/artillery-deviation"},
		{&r.extended, "nes/extended-fire"}, {&r.morale, "nes/charge-morale-check"}, {&r.brook, "nes/brook-charge"}} {
		if *t.p, err = set.Table(t.id); err != nil {
			return nil, fmt.Errorf("nes: %w", err)
		}
	}
	for _, id := range []string{"nes/cavalry-charge-morale", "nes/terrain", "nes/allowance", "nes/play"} {
		if _, err := set.FindLookup(id); err != nil {
			return nil, fmt.Errorf("nes: %w", err)
		}
	}
	if err := set.Check("NES", r.Uses()); err != nil {
		return nil, err
	}
	whole := func(id, param, key string) (int, error) {
		c, err := set.Lookup(id).Get(map[string]string{param: key})
		if err != nil {
			return 0, fmt.Errorf("nes: %w", err)
		}
		if c.Num == nil || !c.Num.IsInt() || c.Num.Sign() < 0 {
			return 0, fmt.Errorf("nes: %s %s=%s: %q is not a whole number of 0 or more", id, param, key, c.Text)
		}
		return int(c.Num.Num().Int64()), nil
	}
	for _, ty := range []string{"infantry", "light-cavalry", "heavy-cavalry", "artillery", "command"} {
		v, err := whole("nes/allowance", "type", ty)
		if err != nil {
			return nil, err
		}
		r.allow[ty] = v * Sixths
	}
	for _, it := range []string{"order-cost", "urgent-cost", "cp-cost", "stack", "standing-mp", "formation-mp", "extended-min", "extended-max"} {
		if r.play[it], err = whole("nes/play", "item", it); err != nil {
			return nil, err
		}
	}
	if r.chart, err = readChart(set.Lookup("nes/terrain")); err != nil {
		return nil, err
	}
	sr, err := sight.Parse("rules/nes/sight.yaml", sightYAML)
	if err != nil {
		return nil, err
	}
	r.sight = sr
	return r, nil
}

// Uses says what the procedures pass to each table.
func (r *Rules) Uses() []table.Use {
	return []table.Use{
		{Table: "nes/order-delivery", Rule: "NES-1", Params: []table.Pass{
			{Name: "bonus", Kind: table.Int, Values: table.Ints(0, 9), From: "command bonuses"},
			{Name: "french-brigade", Kind: table.Bool, Values: bools, From: "french brigade leaders"},
			{Name: "sender-marker", Kind: table.Bool, Values: bools, From: "the sender's markers"},
			{Name: "adjacent", Kind: table.Bool, Values: bools, From: "positions"},
			{Name: "urgent", Kind: table.Bool, Values: bools, From: "urgent orders"},
			{Name: "from-hq", Kind: table.Bool, Values: bools, From: "the army HQ and commander"},
			{Name: "turns-at-delay-1", Kind: table.Int, Values: table.Ints(0, 20), From: "delay markers"},
			{Name: "brigade", Kind: table.Bool, Values: bools, From: "brigade activations"}}},
		{Table: "nes/command-continuation", Rule: "NES-3", Params: []table.Pass{
			{Name: "rating", Kind: table.Int, Values: table.Ints(0, 9), From: "command ratings"},
			{Name: "bonus", Kind: table.Int, Values: table.Ints(0, 9), From: "command bonuses"},
			{Name: "divisions-out", Kind: table.Int, Values: table.Ints(0, 12), From: "positions"},
			{Name: "brigades-out", Kind: table.Int, Values: table.Ints(0, 12), From: "positions"},
			{Name: "brigades-far", Kind: table.Int, Values: table.Ints(0, 12), From: "positions"},
			{Name: "evening", Kind: table.Bool, Values: bools, From: "the scenario's evening turns"},
			{Name: "corps-cp-or-mobilized", Kind: table.Bool, Values: bools, From: "command states and command points"},
			{Name: "in-corps-radius", Kind: table.Bool, Values: bools, From: "positions"},
			{Name: "french-light-cavalry", Kind: table.Bool, Values: bools, From: "the scenario"},
			{Name: "attack-order", Kind: table.Bool, Values: bools, From: "orders"}}},
		{Table: "nes/command-unit-loss", Rule: "NES-4", Params: []table.Pass{
			{Name: "situation", Kind: table.Enum, Values: []string{"fire-maximum", "fire-medium", "fire-minimum", "fire-extended", "shock"}, From: "combat"}}},
		{Table: "nes/artillery-deviation", Rule: "NES-5", Params: []table.Pass{
			{Name: "nation", Kind: table.Enum, Values: []string{"russian", "french"}, From: "the firing artillery's nation"}}},
		{Table: "nes/extended-fire", Rule: "NES-5"},
		{Table: "nes/charge-morale-check", Rule: "NES-6", Params: []table.Pass{{Name: "modifier", Kind: table.Int, Values: table.Ints(0, 3), From: "nes/cavalry-charge-morale"}}},
		{Table: "nes/brook-charge", Rule: "NES-7"},
	}
}

var bools = []string{"false", "true"}

// ID is "nes".
func (r *Rules) ID() string { return "nes" }

// Table returns one of the rule set's tables.
func (r *Rules) Table(id string) (*table.Table, error) { return r.tables.Table(id) }

// Vocab: the nations are any (NES-1 and NES-5 know french and russian);
// the kinds of order, unit types, formations and states are NES's.
func (r *Rules) Vocab() battle.Vocab {
	return battle.Vocab{Orders: slices.Clone(Orders), UnitTypes: []string{"infantry", "light-cavalry", "heavy-cavalry", "artillery"},
		Shapes: slices.Clone(Shapes), Statuses: []string{"formed", "disordered", "routed"}}
}

func bound(v float64) *float64 { return &v }

// Spec is NES's part of the scenario format: a hex map with its terrain,
// the chain of command down to brigades under divisions, each command
// unit's bonus, rating and radius (its range, in hexes), the army HQ,
// command points, evening turns, and the strength and class of combat
// units.
func (r *Rules) Spec() battle.Spec {
	k := r.kinds
	var cav []string
	for c := range Cavalry {
		cav = append(cav, c)
	}
	slices.Sort(cav)
	return battle.Spec{ID: "nes", Title: "NES: a hex game", Vocab: r.Vocab(), Spaces: []string{geom.KindHex}, Terrain: &k,
		Parts: []string{battle.PartCorps, battle.PartRange, battle.PartTerrain, battle.PartSubBrigades, battle.PartHQ, battle.PartCommandPoints, battle.PartEvening},
		Attrs: []battle.Attr{
			{On: battle.OnGeneral, Name: "bonus", Type: battle.AttrInteger, Min: bound(0), Max: bound(9), Doc: "Command bonus: subtracted from the command unit's delivery and continuation rolls (NES-1, NES-3); 0 when left out."},
			{On: battle.OnGeneral, Name: "rating", Type: battle.AttrInteger, Min: bound(0), Max: bound(9), Doc: "Command rating: a continuation total above it drops the command unit to standing (NES-3). Every command unit but the army commander has one."},
			{On: battle.OnGeneral, Name: "reduced", Type: battle.AttrBool, Doc: "The brigade leader starts on his reduced side (NES-4)."},
			{On: battle.OnGeneral, Name: "reduced-bonus", Type: battle.AttrInteger, Min: bound(0), Max: bound(9), Doc: "A brigade leader's command bonus on his reduced side; one less than his bonus (not below 0) when left out."},
			{On: battle.OnGeneral, Name: "reduced-rating", Type: battle.AttrInteger, Min: bound(0), Max: bound(9), Doc: "A brigade leader's command rating on his reduced side; one less than his rating (not below 0) when left out."},
			{On: battle.OnGeneral, Name: "reduced-range", Type: battle.AttrInteger, Min: bound(1), Max: bound(99), Unit: "hexes", Doc: "A brigade leader's command radius on his reduced side; his radius when left out."},
			{On: battle.OnFormation, Name: "light-cavalry", Type: battle.AttrBool, Doc: "The division is a light cavalry division (LC): a french one checks continuation with -2 (NES-3)."},
			{On: battle.OnUnit, Name: "strength", Type: battle.AttrInteger, Min: bound(1), Max: bound(99), Required: true, Doc: "Strength points of the combat unit."},
			{On: battle.OnUnit, Name: "class", Type: battle.AttrInteger, Min: bound(1), Max: bound(3), Doc: "Class of an artillery unit: class 1 of strength 4 or more fires at extended range (NES-5)."},
			{On: battle.OnUnit, Name: "cavalry", Type: battle.AttrWord, Values: cav, Doc: "Kind of a cavalry unit, which makes it heavy (cuirassiers, grenadiers, dragoons, gendarmes) or light (hussars, chasseurs, uhlans, cossacks) for NES-6; it must agree with the unit's type."},
		}}
}

// Check tests a scenario against NES: every piece starts on the map and
// not in terrain it may not enter, every command unit below the army has a
// rating and a radius that is whole, and a cavalry kind agrees with its
// type.
func (r *Rules) Check(sc *battle.Scenario) error {
	if sc.Map == nil {
		return &battle.PathError{Path: "map", Msg: "map is missing: NES is played on a hex map"}
	}
	stack := map[geom.Point]int{}
	for _, s := range sc.Sides {
		for _, u := range s.Units {
			if stack[u.At]++; stack[u.At] > r.play["stack"] {
				return &battle.PathError{Path: u.Path + ".at", Line: u.Line, Msg: fmt.Sprintf("hex %s holds more than %d combat units (nes/play stack)", sc.Map.Format(u.At), r.play["stack"])}
			}
		}
	}
	for _, s := range sc.Sides {
		if s.HQ != nil {
			for _, o := range sc.Sides {
				if o.ID == s.ID {
					continue
				}
				for _, u := range o.Units {
					if u.At == *s.HQ {
						return &battle.PathError{Path: s.Army().Path[:len(s.Army().Path)-len(".army")] + ".hq", Line: s.Line, Msg: fmt.Sprintf("the headquarters stands in hex %s with the enemy's %s", sc.Map.Format(*s.HQ), u.ID)}
					}
				}
			}
		}
		if s.Points == nil {
			return &battle.PathError{Path: s.Army().Path[:len(s.Army().Path)-len(".army")], Line: s.Line, Msg: "command-points is missing: the command points the side has each turn to send orders"}
		}
		for _, f := range s.Formations {
			g := sc.General(f.General)
			if g.OffBoard {
				return &battle.PathError{Path: g.Path, Line: g.Line, Msg: "at is missing: every command unit starts on the map"}
			}
			if g.Range != float64(int(g.Range)) {
				return &battle.PathError{Path: g.Path + ".range", Line: g.Line, Msg: fmt.Sprintf("a command radius counts whole hexes, not %v", g.Range)}
			}
			if _, ok := g.Attrs["rating"].(int); !ok && f.Kind != battle.Army {
				return &battle.PathError{Path: g.Path, Line: g.Line, Msg: "rating is missing: every command unit below the army commander has a command rating (NES-3)"}
			}
		}
		for _, u := range s.Units {
			if u.OffBoard {
				return &battle.PathError{Path: u.Path, Line: u.Line, Msg: "at is missing: every combat unit starts on the map"}
			}
			if c, ok := u.Attrs["cavalry"].(string); ok {
				if want := Cavalry[c] + "-cavalry"; u.Type != want {
					return &battle.PathError{Path: u.Path + ".cavalry", Line: u.Line, Msg: fmt.Sprintf("%s are %s, but the unit's type is %s", c, want, u.Type)}
				}
			}
			if _, ok := u.Attrs["class"]; ok && u.Type != "artillery" {
				return &battle.PathError{Path: u.Path + ".class", Line: u.Line, Msg: fmt.Sprintf("class is for artillery; this unit is %s", u.Type)}
			}
			if sc.Terrain != nil {
				i, _ := sc.Terrain.At(u.At)
				if !r.chart.enterable(sc.Terrain.Terrain(i), column(u.Type, u.Shape)) {
					return &battle.PathError{Path: u.Path + ".at", Line: u.Line, Msg: fmt.Sprintf("%s may not stand in %s (hex %s; NES-7)", u.Type, sc.Terrain.TerrainName(i), sc.Terrain.Label(i))}
				}
			}
		}
	}
	return nil
}
