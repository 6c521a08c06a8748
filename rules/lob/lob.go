// Package lob plays the command and control of Line of Battle 2.0 (SPEC
// LOB-1..LOB-8) on hex maps: the army commander's one command roll a turn
// to issue an order, delivery times from a chart by distance and awareness,
// acceptance rolls every turn until an order takes, relays from corps to
// divisions, conditional orders, reserves and their release, fluke
// stoppage of attacks, attack recovery, attacks ended as futile,
// skedaddles and initiative, and moves checked against command radius.
//
// The source fixes the procedure but not the numbers of the base tables,
// which live in the players' own rule books: every table this package
// rolls or reads comes from a tables file the user supplies (orderly's
// table YAML, given with --rules or uploaded with a game). The package has
// no tables of its own; examples/lob/example-tables.yaml shows the format
// with example values.
package lob

import (
	_ "embed"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"orderly/battle"
	"orderly/geom"
	"orderly/sight"
	"orderly/table"
	"orderly/terrain"
)

// The kinds of order (LOB-3). An artillery battalion takes move orders
// only.
const (
	Attack  = "attack"
	Move    = "move"
	Reserve = "reserve"
)

// Orders are the kinds of order.
var Orders = []string{Attack, Move, Reserve}

// The kinds of Command (LOB-1): corps, divisions (independent or in a
// corps) and artillery battalions.
const (
	KindCorps     = "corps"
	KindDivision  = "division"
	KindBattalion = "battalion"
)

// Shapes are the formations of combat units. Line and mounted units cause
// a skedaddle when they enter an enemy HQ's hex; open order infantry does
// not (LOB-8).
var Shapes = []string{"line", "column", "open-order", "mounted", "dismounted", "limbered", "unlimbered"}

// Types are the arms of combat units.
var Types = []string{"infantry", "cavalry", "artillery"}

// Purposes are what a leader may roll for initiative for (LOB-8).
var Purposes = []string{"end-skedaddle", "deploy-early", "establish-reserve", "release-reserve", "associate-artillery"}

// Terrains, hexside features and roads of an LOB map, and the rows of
// lob/terrain that price them.
var (
	hexKinds = []terrain.Kind{{Name: "clear", Letter: '.'}, {Name: "woods", Letter: 'w'}, {Name: "town", Letter: 't'},
		{Name: "rough", Letter: 'r'}, {Name: "marsh", Letter: 'm'}}
	sideKinds = []string{"creek", "river"}
	roadKinds = []string{"road"}
)

// Kinds is what an LOB map holds.
func Kinds() terrain.Kinds {
	return terrain.Kinds{Hexes: slices.Clone(hexKinds), Sides: slices.Clone(sideKinds), Roads: slices.Clone(roadKinds)}
}

// movers are the kinds of piece lob/allowance and lob/terrain price.
var movers = []string{"infantry", "cavalry", "artillery", "leader"}

//go:embed sight.yaml
var sightYAML []byte

// Tables lists the tables and lookups the procedures need, all from the
// user's file.
var Tables = []string{"lob/command-roll", "lob/delivery", "lob/acceptance", "lob/fluke", "lob/recovery", "lob/initiative",
	"lob/allowance", "lob/terrain", "lob/play"}

// Items are the numbers of lob/play.
var Items = []string{"grace-turns", "fluke-delay", "relay-after-acceptance", "stack"}

// Example is the example tables file shipped with orderly.
const Example = "examples/lob/example-tables.yaml"

// Missing says which of LOB's tables a set lacks, and how to supply them.
type Missing struct{ IDs []string }

func (m *Missing) Error() string {
	return fmt.Sprintf("lob: the Line of Battle tables are not loaded (missing: %s); our sources give the procedure but not these numbers, so supply your own tables file with --rules FILE (or with the game on the page); %s shows the format, with example values",
		strings.Join(m.IDs, ", "), Example)
}

// Rules runs LOB games. It implements game.Rules.
type Rules struct {
	sight      *sight.Rules // fog of war (sight.yaml)
	tables     *table.Set
	command    *table.Table   // LOB-4, LOB-5
	accept     *table.Table   // LOB-4
	fluke      *table.Table   // LOB-7
	recovery   *table.Table   // LOB-7
	initiative *table.Table   // LOB-8
	chart      *table.Lookup  // lob/delivery
	allow      map[string]int // movement points by mover
	cost       [][]int        // by terrain row, by mover: MP, -1 prohibited
	floor      map[string]int // the least a step can cost, by mover, for the path search
	play       map[string]int
	kinds      terrain.Kinds
}

// New makes the rule set from a loaded table set, which must hold the
// user's LOB tables: without them it returns a *Missing; with tables the
// procedures cannot use, the first problem.
func New(set *table.Set) (*Rules, error) {
	var miss []string
	for _, id := range Tables {
		if _, err := set.Table(id); err != nil && set.Lookup(id) == nil {
			miss = append(miss, id)
		}
	}
	if len(miss) > 0 {
		return nil, &Missing{IDs: miss}
	}
	r := &Rules{tables: set, allow: map[string]int{}, floor: map[string]int{}, play: map[string]int{}, kinds: Kinds()}
	if err := set.Check("LOB", r.Uses()); err != nil {
		return nil, err
	}
	for _, t := range []struct {
		p  **table.Table
		id string
	}{{&r.command, "lob/command-roll"}, {&r.accept, "lob/acceptance"}, {&r.fluke, "lob/fluke"}, {&r.recovery, "lob/recovery"}, {&r.initiative, "lob/initiative"}} {
		var err error
		if *t.p, err = set.Table(t.id); err != nil {
			return nil, fmt.Errorf("lob: %w", err)
		}
	}
	r.chart = set.Lookup("lob/delivery")
	if err := r.readMovement(set); err != nil {
		return nil, err
	}
	for _, it := range Items {
		n, err := whole(set, "lob/play", map[string]string{"item": it})
		if err != nil {
			return nil, err
		}
		r.play[it] = n
	}
	sr, err := sight.Parse("rules/lob/sight.yaml", sightYAML)
	if err != nil {
		return nil, err
	}
	r.sight = sr
	return r, nil
}

// readMovement reads the movement allowance of each kind of mover
// (lob/allowance), the cost of each terrain row to each (lob/terrain,
// LOB-2), and the least a step can cost each, for the path search.
func (r *Rules) readMovement(set *table.Set) error {
	for _, m := range movers {
		n, err := sixths(set, "lob/allowance", map[string]string{"type": m})
		if err != nil {
			return err
		}
		if n < 0 {
			l := set.Lookup("lob/allowance")
			return fmt.Errorf("%s:%d: lob/allowance type=%s: an allowance is a number of movement points, not P", l.File, l.Line, m)
		}
		r.allow[m] = n
	}
	for _, t := range terrainRows() {
		row := make([]int, len(movers))
		for j, m := range movers {
			n, err := sixths(set, "lob/terrain", map[string]string{"terrain": t, "type": m})
			if err != nil {
				return err
			}
			row[j] = n
		}
		r.cost = append(r.cost, row)
	}
	for j, m := range movers {
		least := -1
		for _, row := range r.cost {
			if c := row[j]; c >= 0 && (least < 0 || c < least) {
				least = c
			}
		}
		r.floor[m] = max(least, 0)
	}
	return nil
}

// sixths reads the cell of lookup id at in as sixths of a movement point
// (1/2 and 1/3 are whole numbers of them), or -1 for P, prohibited.
func sixths(set *table.Set, id string, in map[string]string) (int, error) {
	c, err := set.Lookup(id).Get(in)
	if err != nil {
		return 0, fmt.Errorf("lob: %w", err)
	}
	if c.Text == "P" {
		return -1, nil
	}
	if c.Num != nil && c.Num.Sign() >= 0 {
		n := new(big.Rat).Mul(c.Num, big.NewRat(Sixths, 1))
		if n.IsInt() && n.Num().IsInt64() && n.Num().Int64() <= maxMP*Sixths {
			return int(n.Num().Int64()), nil
		}
	}
	l := set.Lookup(id)
	return 0, fmt.Errorf("%s:%d: %s %s: %q is not a number of movement points; allowed: 0 to %d, whole or in halves or thirds, or P", l.File, l.Line, id, args(in), c.Text, maxMP)
}

// whole reads the cell of lookup id at in as a whole number of 0 or more.
func whole(set *table.Set, id string, in map[string]string) (int, error) {
	c, err := set.Lookup(id).Get(in)
	if err != nil {
		return 0, fmt.Errorf("lob: %w", err)
	}
	n, ok := c.Int()
	if !ok || n < 0 {
		l := set.Lookup(id)
		return 0, fmt.Errorf("%s:%d: %s %s: %q is not a whole number of 0 or more", l.File, l.Line, id, args(in), c.Text)
	}
	return n, nil
}

// Sixths: movement is counted in sixths of a point, so that a half or a
// third of a point a hex is a whole number.
const Sixths = 6

// maxMP bounds a movement allowance or cost, in points.
const maxMP = 100_000

// args writes a lookup's arguments for a message: type=infantry.
func args(in map[string]string) string {
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		keys[i] = k + "=" + in[k]
	}
	return strings.Join(keys, " ")
}

// MP writes sixths of a movement point as people read them: 2, 1/2, 1 1/3.
func MP(sixths int) string {
	whole, rest := sixths/Sixths, sixths%Sixths
	if rest == 0 {
		return strconv.Itoa(whole)
	}
	num, den := rest, Sixths
	for _, g := range []int{3, 2} {
		if num%g == 0 && den%g == 0 {
			num, den = num/g, den/g
		}
	}
	if whole == 0 {
		return fmt.Sprintf("%d/%d", num, den)
	}
	return fmt.Sprintf("%d %d/%d", whole, num, den)
}

// terrainRows are the rows of lob/terrain: the hex terrains, the hexside
// features, then the road.
func terrainRows() []string {
	var out []string
	for _, k := range hexKinds {
		out = append(out, k.Name)
	}
	return append(append(out, sideKinds...), roadKinds...)
}

var bools = []string{"false", "true"}

// MaxDistance caps the distance passed to lob/delivery: farther counts as
// this far.
const MaxDistance = 200

// Uses says what the procedures pass to each table and read back.
func (r *Rules) Uses() []table.Use {
	one, zero := 1, 0
	value := table.Pass{Name: "value", Kind: table.Int, Values: table.Ints(0, 9), From: "leaders' command values"}
	return []table.Use{
		{Table: "lob/command-roll", Rule: "LOB-4", Results: []string{"issued", "not-issued"}, Params: []table.Pass{value,
			{Name: "release", Kind: table.Bool, Values: bools, From: "orders that release a reserve (LOB-5's +2)"}}},
		{Table: "lob/delivery", Rule: "LOB-4", Number: &table.Number{What: "the turns an order takes to arrive", Min: &one}, Params: []table.Pass{
			{Name: "sender", Kind: table.Enum, Values: []string{"army", "corps", "division"}, From: "who sends or relays the order"},
			{Name: "awareness", Kind: table.Enum, Values: []string{"aware", "unaware"}, From: "the army commander's awareness (a relay is aware)"},
			{Name: "radius", Kind: table.Enum, Values: []string{"within", "beyond"}, From: "whether the receiving HQ is within the sender's command radius"},
			{Name: "receiver", Kind: table.Enum, Values: []string{"hq", "reserve"}, From: "a Command's HQ, or a formation in reserve"},
			{Name: "distance", Kind: table.Int, Values: table.Ints(0, MaxDistance), From: "hexes from sender to receiver"}}},
		{Table: "lob/acceptance", Rule: "LOB-4", Results: []string{"accepted", "not-accepted"}, Params: []table.Pass{value,
			{Name: "order", Kind: table.Enum, Values: Orders, From: "the kinds of order"},
			{Name: "release", Kind: table.Bool, Values: bools, From: "orders that release a reserve (LOB-5's +2)"},
			{Name: "turns", Kind: table.Int, Values: table.Ints(0, 50), From: "the acceptance rolls already failed"}}},
		{Table: "lob/fluke", Rule: "LOB-7", Results: []string{"continue", "fluke"}, Params: []table.Pass{value,
			{Name: "losses", Kind: table.Int, Values: table.Ints(0, 99), From: "strength points the division lost since its attack order was accepted"},
			{Name: "reserve", Kind: table.Bool, Values: bools, From: "whether the division has a reserve of its own"}}},
		{Table: "lob/recovery", Rule: "LOB-7", Results: []string{"pass", "fail"}, Params: []table.Pass{value,
			{Name: "step", Kind: table.Enum, Values: []string{"first", "second"}, From: "the two steps of attack recovery"}}},
		{Table: "lob/initiative", Rule: "LOB-8", Results: []string{"initiative", "none"}, Params: []table.Pass{value,
			{Name: "purpose", Kind: table.Enum, Values: Purposes, From: "what initiative is rolled for"},
			{Name: "army", Kind: table.Bool, Values: bools, From: "whether the army commander rolls"}}},
		{Table: "lob/allowance", Rule: "LOB-2", Params: []table.Pass{{Name: "type", Kind: table.Enum, Values: movers, From: "the kinds of piece that move"}}},
		{Table: "lob/terrain", Rule: "LOB-2", Params: []table.Pass{
			{Name: "terrain", Kind: table.Enum, Values: terrainRows(), From: "the map's terrains, hexside features and road"},
			{Name: "type", Kind: table.Enum, Values: movers, From: "the kinds of piece that move"}}},
		{Table: "lob/play", Rule: "LOB-7", Number: &table.Number{What: "a count", Min: &zero}, Params: []table.Pass{{Name: "item", Kind: table.Enum, Values: Items, From: "the procedures' numbers"}}},
	}
}

// ID is "lob".
func (r *Rules) ID() string { return "lob" }

// Table returns one of the rule set's tables.
func (r *Rules) Table(id string) (*table.Table, error) { return r.tables.Table(id) }

// Vocab: any nation; LOB's kinds of order, arms, formations and states.
func (r *Rules) Vocab() battle.Vocab { return vocab() }

func vocab() battle.Vocab {
	return battle.Vocab{Orders: slices.Clone(Orders), UnitTypes: slices.Clone(Types), Shapes: slices.Clone(Shapes),
		Statuses: []string{"formed", "disordered", "routed"}}
}

func bound(v float64) *float64 { return &v }

// Spec is LOB's part of the scenario format: a hex map with its terrain;
// the army commander and the army HQ; Commands (corps, divisions,
// artillery battalions) with their leaders' command values and radii in
// hexes, their HQs and when those arrive; brigades under divisions;
// reinforcements by turn with their orders; reserves; awareness.
func (r *Rules) Spec() battle.Spec { return ScenarioSpec() }

// ScenarioSpec is LOB's part of the scenario format, which needs none of
// the user's tables (orderly schema scenario --rules lob).
func ScenarioSpec() battle.Spec {
	k := Kinds()
	return battle.Spec{ID: "lob", Title: "Line of Battle", Vocab: vocab(), Spaces: []string{geom.KindHex}, Terrain: &k,
		Parts: []string{battle.PartCorps, battle.PartRange, battle.PartTerrain, battle.PartSubBrigades, battle.PartHQ},
		Attrs: []battle.Attr{
			{On: battle.OnGeneral, Name: "value", Type: battle.AttrInteger, Min: bound(0), Max: bound(9), Doc: "Command value of the leader, passed to every roll he makes (LOB-4..LOB-8); the army commander and every Command's leader have one."},
			{On: battle.OnGeneral, Name: "unaware-until", Type: battle.AttrInteger, Min: bound(1), Max: bound(1000), Doc: "On the army commander: he is unaware before this turn, which lengthens delivery on the user's chart (LOB-4); aware from the start when left out."},
			{On: battle.OnFormation, Name: "hq", Type: battle.AttrWord, Doc: "Hex label of the Command's HQ (a corps, division or artillery battalion), where it stands or, with hq-arrives, where it arrives. Until it is on the map the Command's highest leader on the map acts as its HQ (LOB-1)."},
			{On: battle.OnFormation, Name: "hq-arrives", Type: battle.AttrInteger, Min: bound(1), Max: bound(1000), Doc: "The turn the Command's HQ arrives at its hq hex; on the map from the start when left out."},
			{On: battle.OnFormation, Name: "arrives", Type: battle.AttrInteger, Min: bound(1), Max: bound(1000), Doc: "A reinforcement: the turn its leaders and units enter, each at its at hex (LOB-1, LOB-7); a piece whose hex the enemy holds enters at the nearest free hex of the reinforcement's entry area, the at and hq hexes of its pieces (3.7a)."},
			{On: battle.OnFormation, Name: "road-entry", Type: battle.AttrText, Doc: "On a reinforcement (with arrives or hq-arrives), and the formations under it: the labels of road hexes on a map edge, such as \"0108 2408\", where its pieces enter, in this order of preference, when every hex of its entry area is held by the enemy (3.7a); the umpire may name another (enter), and when none is free the map's road hex on an edge nearest the area is taken."},
			{On: battle.OnFormation, Name: "battalion", Type: battle.AttrBool, Doc: "The division is an artillery battalion: a Command of artillery that takes move orders only (LOB-3)."},
			{On: battle.OnFormation, Name: "associated", Type: battle.AttrText, Doc: "An artillery battalion's associated Command, whose accepted orders carry the battalion's embedded order with them."},
			{On: battle.OnFormation, Name: "reserve", Type: battle.AttrBool, Doc: "The formation (a division or a brigade) starts in reserve (LOB-5)."},
			{On: battle.OnUnit, Name: "strength", Type: battle.AttrInteger, Min: bound(1), Max: bound(99), Doc: "Strength points of the combat unit; 1 when left out."},
		}}
}

// Check tests a scenario against LOB: a map; a command value for the army
// commander and every Command's leader; radii in whole hexes; HQ hexes on
// the map; an artillery battalion with move orders only; associations that
// name a Command of the same side; a reinforcement's road-entry, road
// hexes on a map edge (3.7a).
func (r *Rules) Check(sc *battle.Scenario) error {
	if sc.Map == nil {
		return &battle.PathError{Path: "map", Msg: "map is missing: LOB is played on a hex map"}
	}
	for _, s := range sc.Sides {
		for _, f := range s.Formations {
			g := sc.General(f.General)
			if _, ok := g.Attrs["value"].(int); !ok && f.Kind != battle.Brigade {
				return &battle.PathError{Path: g.Path, Line: g.Line, Msg: "value is missing: the army commander and every Command's leader have a command value (LOB-4)"}
			}
			if g.Range != float64(int(g.Range)) {
				return &battle.PathError{Path: g.Path + ".range", Line: g.Line, Msg: fmt.Sprintf("a command radius counts whole hexes, not %v (LOB-2)", g.Range)}
			}
			if _, ok := g.Attrs["unaware-until"]; ok && f.Kind != battle.Army {
				return &battle.PathError{Path: g.Path + ".unaware-until", Line: g.Line, Msg: "awareness is the army commander's only (LOB-4)"}
			}
			where := f.Path
			if lbl, ok := f.Attrs["hq"].(string); ok {
				if f.Kind == battle.Army || f.Kind == battle.Brigade {
					return &battle.PathError{Path: where + ".hq", Line: f.Line, Msg: "only a Command (a corps, a division or an artillery battalion) has an HQ of its own; the army's is the side's hq"}
				}
				p, err := sc.Map.Parse(lbl)
				if err != nil {
					return &battle.PathError{Path: where + ".hq", Line: f.Line, Msg: err.Error()}
				}
				if !sc.Map.Contains(p) {
					return &battle.PathError{Path: where + ".hq", Line: f.Line, Msg: fmt.Sprintf("hex %s is off the map", lbl)}
				}
			}
			if v, ok := f.Attrs["road-entry"]; ok {
				_, arr := f.Attrs["arrives"]
				_, hqArr := f.Attrs["hq-arrives"]
				if !arr && !hqArr {
					return &battle.PathError{Path: where + ".road-entry", Line: f.Line, Msg: "road-entry is for a reinforcement: give it with arrives (or hq-arrives), the turn it enters (3.7a)"}
				}
				if _, err := roadList(sc, fmt.Sprint(v)); err != nil {
					return &battle.PathError{Path: where + ".road-entry", Line: f.Line, Msg: err.Error()}
				}
			}
			if _, ok := f.Attrs["hq-arrives"]; ok {
				if _, has := f.Attrs["hq"]; !has {
					return &battle.PathError{Path: where + ".hq-arrives", Line: f.Line, Msg: "hq-arrives needs hq, the hex the HQ arrives at"}
				}
			}
			if f.Attrs["battalion"] == true {
				if f.Kind != battle.Division {
					return &battle.PathError{Path: where + ".battalion", Line: f.Line, Msg: "an artillery battalion is given as a division"}
				}
				if f.Order != nil && f.Order.Kind != Move {
					return &battle.PathError{Path: where + ".order", Line: f.Line, Msg: fmt.Sprintf("an artillery battalion takes move orders only, not %s (LOB-3)", f.Order.Kind)}
				}
			}
			if a, ok := f.Attrs["associated"].(string); ok {
				o := sc.Formation(a)
				if f.Attrs["battalion"] != true {
					return &battle.PathError{Path: where + ".associated", Line: f.Line, Msg: "only an artillery battalion is associated with a Command"}
				}
				if o == nil || o.Side != f.Side || (o.Kind != battle.Corps && o.Kind != battle.Division && o.Kind != battle.Wing) || o.ID == f.ID {
					return &battle.PathError{Path: where + ".associated", Line: f.Line, Msg: fmt.Sprintf("%q is not another Command of %s", a, f.Side)}
				}
			}
			if f.Attrs["reserve"] == true && f.Kind != battle.Division && f.Kind != battle.Brigade {
				return &battle.PathError{Path: where + ".reserve", Line: f.Line, Msg: "a reserve is a division or a brigade (LOB-5)"}
			}
			if f.Order != nil && f.Order.Kind == Move && f.Order.Objective == nil {
				return &battle.PathError{Path: where + ".order", Line: f.Line, Msg: "a move order needs its destination hex as objective (LOB-3)"}
			}
		}
	}
	return nil
}

// Sight is the rule set's spotting data, for fog of war (game.Spotter).
func (r *Rules) Sight() *sight.Rules { return r.sight }
