// Package cd plays the 1992 class dice activation rules (SPEC CD-1..CD-9)
// on the game engine: its tables as embedded data (the footprints and the
// local-initiative modifier, which the source does not give, are example
// values there, replaced by a house-rules file), and the procedures of a
// side's turn: activation by unit, coherent brigade group or division,
// movement through tabletop terrain, disruptive terrain, relief and
// passage of lines, towns, commander loss and the skirmish screen.
package cd

import (
	_ "embed"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"orderly/battle"
	"orderly/dice"
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
func Tables() table.Source { return table.Source{Name: "rules/cd/tables.yaml", Data: tables} }

// The words of the rule set.
var (
	// Ratings are the commanders' ratings, best first (CD-1).
	Ratings = []string{"superior", "excellent", "good", "average", "poor"}
	// Styles are the armies' command styles (CD-5).
	Styles = []string{"ad-hoc", "established", "french-model", "glory-years"}
	// Types are the kinds of unit (CD-2).
	Types = []string{"infantry", "light-cavalry", "heavy-cavalry", "artillery"}
	// Foot are the formations of infantry and cavalry, Guns those of
	// artillery (CD-2, CD-8).
	Foot = []string{"road", "column", "line", "general-order", "square"}
	Guns = []string{"limbered", "unlimbered"}
	// Modes are the ways artillery moves (cd/artillery-movement).
	Modes = []string{"road", "field", "limber-move", "move-unlimber-fire", "limber-move-unlimber-fire", "prolonge"}
)

// rate is a move's rate in inches, or not allowed, with the action points
// it costs.
type rate struct {
	in float64
	ap int
	ok bool
}

// effect is what a terrain does to a move (CD-3): a factor on the ground
// covered in it, or inches off for each crossing, or no entry.
type effect struct {
	factor float64 // 0 with minus or none
	minus  float64
	none   bool
}

// Rules runs CD games. It implements game.Rules.
type Rules struct {
	sight      *sight.Rules // fog of war (sight.yaml)
	tables     *table.Set
	activation *table.Table
	disrupt    *table.Table
	passage    *table.Table

	rates   map[[2]string]rate   // type, formation (or gun, mode) -> rate
	charge  map[string]float64   // type -> inches a charge adds
	terrain map[[2]string]effect // feature type, arm -> effect
	radius  map[battle.Kind]float64
	foot    map[string][2]float64 // formation -> frontage, depth
	guns    []string
	values  map[string]float64
}

// New makes the rule set from a loaded table set (the built-in tables with
// any house rules), refusing one the procedures cannot use.
func New(set *table.Set) (*Rules, error) {
	r := &Rules{tables: set, rates: map[[2]string]rate{}, charge: map[string]float64{}, terrain: map[[2]string]effect{},
		radius: map[battle.Kind]float64{}, foot: map[string][2]float64{}, values: map[string]float64{}}
	var err error
	for _, t := range []struct {
		p  **table.Table
		id string
	}{{&r.activation, "cd/activation"}, {&r.disrupt, "cd/disruptive-terrain"}, {&r.passage, "cd/passage"}} {
		if *t.p, err = set.Table(t.id); err != nil {
			return nil, fmt.Errorf("cd: %w", err)
		}
	}
	for _, id := range []string{"cd/movement", "cd/artillery-movement", "cd/terrain", "cd/command-radius", "cd/footprint", "cd/values"} {
		if _, err := set.FindLookup(id); err != nil {
			return nil, fmt.Errorf("cd: %w", err)
		}
	}
	if err := set.Check("CD", r.Uses()); err != nil {
		return nil, err
	}
	for _, read := range []func(*table.Set) error{r.readMovement, r.readGuns, r.readTerrain, r.readRadii, r.readFootprints, r.readValues} {
		if err := read(set); err != nil {
			return nil, err
		}
	}
	if r.sight, err = sight.Parse("rules/cd/sight.yaml", sightYAML); err != nil {
		return nil, err
	}
	return r, nil
}

// cell is the cell of lookup id for the inputs in.
func cell(set *table.Set, id string, in map[string]string) (table.Cell, error) {
	c, err := set.Lookup(id).Get(in)
	if err != nil {
		return c, fmt.Errorf("cd: %w", err)
	}
	return c, nil
}

// number is the number in the cell of lookup id for in.
func number(set *table.Set, id string, in map[string]string) (float64, error) {
	c, err := cell(set, id, in)
	if err != nil {
		return 0, err
	}
	if c.Num == nil {
		return 0, fmt.Errorf("cd: %s %v: %q is not a number", id, in, c.Text)
	}
	f, _ := c.Num.Float64()
	return f, nil
}

// readMovement reads the rate of each type of foot and horse in each
// formation, and the inches a charge adds, from cd/movement (CD-2): "-"
// is not allowed, and a rate is more than 0.
func (r *Rules) readMovement(set *table.Set) error {
	for _, ty := range []string{"infantry", "light-cavalry", "heavy-cavalry"} {
		for _, fm := range append(slices.Clone(Foot), "charge") {
			c, err := cell(set, "cd/movement", map[string]string{"type": ty, "formation": fm})
			if err != nil {
				return err
			}
			if c.Num == nil {
				continue // "-": not allowed
			}
			f, _ := c.Num.Float64()
			if fm == "charge" {
				r.charge[ty] = f
				continue
			}
			if f <= 0 {
				return fmt.Errorf("cd: cd/movement type=%s formation=%s: a rate must be more than 0 inches", ty, fm)
			}
			r.rates[[2]string{ty, fm}] = rate{in: f, ok: true}
		}
	}
	return nil
}

// readGuns reads the rate of each gun in each mode from
// cd/artillery-movement (CD-2, gunRate). "as foot": a horse battery by
// prolonge moves as a foot battery; our reading takes the 6# foot
// battery's rate.
func (r *Rules) readGuns(set *table.Set) error {
	r.guns = set.Lookup("cd/artillery-movement").Param("gun").Names()
	for _, g := range r.guns {
		for _, m := range Modes {
			c, err := cell(set, "cd/artillery-movement", map[string]string{"gun": g, "mode": m})
			if err != nil {
				return err
			}
			rt, err := gunRate(c)
			if err != nil {
				return fmt.Errorf("cd: cd/artillery-movement gun=%s mode=%s: %w", g, m, err)
			}
			r.rates[[2]string{g, m}] = rt
		}
	}
	for _, g := range r.guns {
		c, _ := cell(set, "cd/artillery-movement", map[string]string{"gun": g, "mode": "prolonge"})
		if c.Text == "as foot" {
			r.rates[[2]string{g, "prolonge"}] = r.rates[[2]string{"6", "prolonge"}]
		}
	}
	return nil
}

// readTerrain reads what each terrain does to the moves of each arm from
// cd/terrain (CD-3, effectOf).
func (r *Rules) readTerrain(set *table.Set) error {
	for _, tt := range set.Lookup("cd/terrain").Param("terrain").Names() {
		for _, arm := range []string{"infantry-cavalry", "artillery"} {
			c, err := cell(set, "cd/terrain", map[string]string{"terrain": tt, "arm": arm})
			if err != nil {
				return err
			}
			e, err := effectOf(c)
			if err != nil {
				return fmt.Errorf("cd: cd/terrain terrain=%s arm=%s: %w", tt, arm, err)
			}
			r.terrain[[2]string{tt, arm}] = e
		}
	}
	return nil
}

// readRadii reads the command radius of each level from
// cd/command-radius (CD-1), each more than 0.
func (r *Rules) readRadii(set *table.Set) error {
	for _, lv := range []battle.Kind{battle.Army, battle.Corps, battle.Division} {
		f, err := number(set, "cd/command-radius", map[string]string{"level": string(lv)})
		if err != nil {
			return err
		}
		if r.radius[lv] = f; f <= 0 {
			return fmt.Errorf("cd: cd/command-radius level=%s: a radius must be more than 0 inches", lv)
		}
	}
	return nil
}

// readFootprints reads each formation's frontage and depth from
// cd/footprint, each more than 0.
func (r *Rules) readFootprints(set *table.Set) error {
	for _, sh := range append(slices.Clone(Foot), Guns...) {
		var fd [2]float64
		for i, size := range []string{"frontage", "depth"} {
			f, err := number(set, "cd/footprint", map[string]string{"formation": sh, "size": size})
			if err != nil {
				return err
			}
			if fd[i] = f; f <= 0 {
				return fmt.Errorf("cd: cd/footprint formation=%s: the %s must be more than 0 inches", sh, size)
			}
		}
		r.foot[sh] = fd
	}
	return nil
}

// readValues reads the values of cd/values, which must give every one the
// procedures need.
func (r *Rules) readValues(set *table.Set) error {
	for _, v := range set.Lookup("cd/values").Param("value").Names() {
		f, err := number(set, "cd/values", map[string]string{"value": v})
		if err != nil {
			return err
		}
		r.values[v] = f
	}
	for _, v := range []string{"front", "depth", "veer", "block-stands", "screen-casualties", "relieving-fire", "local-initiative"} {
		if _, ok := r.values[v]; !ok {
			return fmt.Errorf("cd: cd/values has no row %s, which the procedures need", v)
		}
	}
	return nil
}

// gunRate reads a cell of cd/artillery-movement: inches, "2 (2 AP)", a
// fraction such as 1-1/2, NA, or "as foot" (settled by New).
func gunRate(c table.Cell) (rate, error) {
	t := strings.TrimSpace(c.Text)
	switch {
	case t == "NA" || t == "as foot":
		return rate{}, nil
	case c.Num != nil:
		f, _ := c.Num.Float64()
		return rate{in: f, ok: true}, nil
	}
	in, ap, ok := strings.Cut(t, "(")
	if !ok || !strings.HasSuffix(ap, "AP)") {
		return rate{}, fmt.Errorf("%q is not inches, inches with action points such as 2 (2 AP), or NA", c.Text)
	}
	f, err := inches(strings.TrimSpace(in))
	if err != nil {
		return rate{}, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(ap, "AP)")))
	if err != nil {
		return rate{}, fmt.Errorf("%q: the action points are not a whole number", c.Text)
	}
	return rate{in: f, ap: n, ok: true}, nil
}

// inches reads 2, 1/2 or 1-1/2.
func inches(s string) (float64, error) {
	r, ok := new(big.Rat).SetString(s)
	if ok {
		f, _ := r.Float64()
		return f, nil
	}
	if w, fr, ok := strings.Cut(s, "-"); ok {
		a, ok1 := new(big.Rat).SetString(w)
		b, ok2 := new(big.Rat).SetString(fr)
		if ok1 && ok2 {
			f, _ := new(big.Rat).Add(a, b).Float64()
			return f, nil
		}
	}
	return 0, fmt.Errorf("%q is not a number of inches", s)
}

// effectOf reads a cell of cd/terrain: a fraction, inches off (-1"), none
// or no effect.
func effectOf(c table.Cell) (effect, error) {
	t := strings.TrimSpace(c.Text)
	switch {
	case t == "none":
		return effect{none: true}, nil
	case t == "no effect":
		return effect{factor: 1}, nil
	case strings.HasPrefix(t, "-") && strings.HasSuffix(t, `"`):
		f, err := inches(strings.TrimSuffix(strings.TrimPrefix(t, "-"), `"`))
		return effect{minus: f}, err
	}
	f, err := inches(t)
	if err != nil {
		return effect{}, err
	}
	if f <= 0 || f > 1 {
		return effect{}, fmt.Errorf("%q: a terrain factor lies above 0 and at most 1", c.Text)
	}
	return effect{factor: f}, nil
}

// Uses says what the procedures pass to each table and read from it.
func (r *Rules) Uses() []table.Use {
	b := []string{"false", "true"}
	return []table.Use{
		{Table: "cd/activation", Rule: "CD-1", Params: []table.Pass{
			{Name: "rating", Kind: table.Enum, Values: Ratings, From: "commanders' ratings"},
			{Name: "cw", Kind: table.Int, Values: table.Ints(0, 30), From: "units' CW"},
			{Name: "shaken", Kind: table.Bool, Values: b, From: "shaken units"},
			{Name: "disordered", Kind: table.Bool, Values: b, From: "disordered units"},
			{Name: "vacating-cover", Kind: table.Bool, Values: b, From: "activations that leave cover"},
			{Name: "in-smoke", Kind: table.Bool, Values: b, From: "units in smoke"},
			{Name: "moved-last-turn", Kind: table.Bool, Values: b, From: "units that moved in their last turn"},
			{Name: "style", Kind: table.Enum, Values: Styles, From: "armies' command styles"},
			{Name: "roll", Kind: table.Int, Values: table.Ints(1, 200), From: "the side's activation rolls in a turn"},
			{Name: "bonus", Kind: table.Int, Values: table.Ints(-3, 3), From: "commanders' bonuses"},
			{Name: "local-initiative", Kind: table.Int, Values: table.Ints(-6, 6), From: "cd/values local-initiative"},
		}},
		{Table: "cd/disruptive-terrain", Rule: "CD-6", Params: []table.Pass{
			{Name: "rating", Kind: table.Enum, Values: []string{"d1", "d2", "d3"}, From: "features' disruptive ratings"},
		}},
		{Table: "cd/passage", Rule: "CD-7"},
	}
}

// ID is "cd".
func (r *Rules) ID() string { return "cd" }

// Table returns one of the rule set's tables.
func (r *Rules) Table(id string) (*table.Table, error) { return r.tables.Table(id) }

// Vocab allows any nation; the unit types are CD's four, the formations
// those of infantry and cavalry and of artillery, and a unit starts
// formed, shaken or disordered.
func (r *Rules) Vocab() battle.Vocab {
	return battle.Vocab{UnitTypes: slices.Clone(Types), Shapes: append(slices.Clone(Foot), Guns...), Statuses: []string{"formed", "shaken", "disordered"}}
}

func bound(v float64) *float64 { return &v }

// Spec is CD's part of the scenario format: a table in inches, an army of
// corps, divisions and brigades, the commanders' ratings and the army's
// command style, and the units' class dice, CW, casualties, stands and
// skills (CD-1..CD-9).
func (r *Rules) Spec() battle.Spec {
	return battle.Spec{ID: "cd", Title: "CD: a class dice game", Vocab: r.Vocab(), Spaces: []string{geom.KindTable}, Parts: []string{battle.PartCorps, battle.PartSubBrigades},
		Attrs: []battle.Attr{
			{On: battle.OnGeneral, Name: "rating", Type: battle.AttrWord, Values: Ratings, Required: true, Doc: "Rating of the commander: the row of the activation chart his units roll on (CD-1)."},
			{On: battle.OnGeneral, Name: "bonus", Type: battle.AttrInteger, Min: bound(-3), Max: bound(3), Doc: "The commander's bonus, the +1 of good +1, added to his activation rolls (CD-1); 0 when left out."},
			{On: battle.OnGeneral, Name: "style", Type: battle.AttrWord, Values: Styles, Doc: "The army's command style, given on the army commander: how many activations a turn are free and how fast the penalty grows (CD-5)."},
			{On: battle.OnGeneral, Name: "promoted", Type: battle.AttrWord, Values: Ratings, Doc: "The rating a brigadier takes when he is promoted to command his division (the nation's appendix); average when left out (CD-8)."},
			{On: battle.OnUnit, Name: "gun", Type: battle.AttrWord, Values: slices.Clone(r.guns), Doc: "Calibre of an artillery unit, its row of cd/artillery-movement (CD-2)."},
			{On: battle.OnUnit, Name: "dice", Type: battle.AttrWord, Doc: "The unit's class dice, e.g. 2d6 or 1d8+1 (CD-1, CD-6); 2d6 when left out."},
			{On: battle.OnUnit, Name: "cw", Type: battle.AttrInteger, Min: bound(0), Max: bound(30), Doc: "The unit's CW: 15..19 adds 1 to its activation, 0..7 takes 1 off (CD-1)."},
			{On: battle.OnUnit, Name: "casualties", Type: battle.AttrInteger, Min: bound(0), Max: bound(9999), Doc: "Casualties the unit has taken; 0 when left out."},
			{On: battle.OnUnit, Name: "stands", Type: battle.AttrInteger, Min: bound(1), Max: bound(99), Doc: "Stands (castings) of the unit: a town block holds four friendly stands (CD-9); 4 when left out."},
			{On: battle.OnUnit, Name: "skirmish", Type: battle.AttrBool, Doc: "The unit is skirmish capable: it ignores disruptive terrain that gives cover and may reinforce its division's skirmish screen (CD-6, CD-8)."},
			{On: battle.OnUnit, Name: "open-order", Type: battle.AttrBool, Doc: "The unit operates in open order: disruptive terrain neither forces it into general order nor makes it roll (CD-6)."},
			{On: battle.OnUnit, Name: "frontage", Type: battle.AttrNumber, Min: bound(0.5), Max: bound(48), Unit: "inches", Doc: "Frontage of the unit in line, in inches: every formation's frontage in cd/footprint is scaled by it against the line's."},
			{On: battle.OnUnit, Name: "smoke", Type: battle.AttrBool, Doc: "The unit starts in smoke (-1 to its activation, CD-1)."},
		}}
}

// Check tests a scenario against CD: every piece starts on the table, the
// army commander gives the command style, artillery has a calibre and no
// other unit has one, formations fit the arm, a disordered unit (but
// artillery) stands in general order (CD-8), class dice are dice, and no
// town block starts with more of a side's stands than it holds (CD-9).
func (r *Rules) Check(sc *battle.Scenario) error {
	if sc.Map != nil {
		return &battle.PathError{Path: "map", Msg: "CD is played on a table in inches; give field, not map"}
	}
	for _, s := range sc.Sides {
		for _, f := range s.Formations {
			g := sc.General(f.General)
			if g.OffBoard {
				return &battle.PathError{Path: g.Path, Line: g.Line, Msg: "at is missing: every commander starts on the table"}
			}
			_, style := g.Attrs["style"].(string)
			switch {
			case f.Kind == battle.Army && !style:
				return &battle.PathError{Path: g.Path, Line: g.Line, Msg: "style is missing: the army commander gives the army's command style (CD-5); allowed: " + strings.Join(Styles, ", ")}
			case f.Kind != battle.Army && style:
				return &battle.PathError{Path: g.Path + ".style", Line: g.Line, Msg: "style is the army's: give it on the army commander only (CD-5)"}
			}
			if _, ok := g.Attrs["promoted"]; ok && f.Kind != battle.Brigade {
				return &battle.PathError{Path: g.Path + ".promoted", Line: g.Line, Msg: "promoted is the rating of a brigadier promoted to his division; give it on a brigade's commander only (CD-8)"}
			}
		}
		for _, u := range s.Units {
			if u.OffBoard {
				return &battle.PathError{Path: u.Path, Line: u.Line, Msg: "at is missing: every unit starts on the table"}
			}
			_, gun := u.Attrs["gun"].(string)
			art := u.Type == "artillery"
			switch {
			case art && !gun:
				return &battle.PathError{Path: u.Path, Line: u.Line, Msg: "gun is missing: an artillery unit has a calibre; allowed: " + strings.Join(r.guns, ", ")}
			case !art && gun:
				return &battle.PathError{Path: u.Path + ".gun", Line: u.Line, Msg: "gun is for artillery, and " + u.ID + " is " + u.Type}
			case art && !slices.Contains(Guns, u.Shape):
				return &battle.PathError{Path: u.Path + ".formation", Line: u.Line, Msg: fmt.Sprintf("artillery stands limbered or unlimbered, not %s", u.Shape)}
			case !art && !slices.Contains(Foot, u.Shape):
				return &battle.PathError{Path: u.Path + ".formation", Line: u.Line, Msg: fmt.Sprintf("%s stands in %s, not %s", u.Type, strings.Join(Foot, ", "), u.Shape)}
			case !art && !r.rates[[2]string{u.Type, u.Shape}].ok:
				return &battle.PathError{Path: u.Path + ".formation", Line: u.Line, Msg: fmt.Sprintf("%s has no %s formation (cd/movement)", u.Type, u.Shape)}
			case !art && u.Status == "disordered" && u.Shape != "general-order":
				return &battle.PathError{Path: u.Path + ".formation", Line: u.Line, Msg: fmt.Sprintf("%s is disordered, so it must stand in general order, not %s (CD-8)", u.ID, u.Shape)}
			}
			if d, ok := u.Attrs["dice"].(string); ok {
				spec, err := dice.Parse(d)
				if err == nil {
					_, err = r.activation.WithDice(spec)
				}
				if err != nil {
					return &battle.PathError{Path: u.Path + ".dice", Line: u.Line, Msg: fmt.Sprintf("class dice: %v", err)}
				}
			}
		}
		if err := r.crowded(sc, s); err != nil {
			return err
		}
	}
	return nil
}

// crowded refuses a side that starts more friendly stands in one town
// block than a block holds (CD-9, cd/values block-stands), naming the
// block and the units that stand in it with their stands. A unit stands in
// the block that holds the middle of its footprint, as in play.
func (r *Rules) crowded(sc *battle.Scenario, s *battle.Side) error {
	most := int(r.values["block-stands"])
	held := map[block][]*battle.Unit{}
	var order []block
	for _, u := range s.Units {
		b, ok := r.blockWhere(sc.Field, u.At, u.Facing, u.Shape)
		if !ok {
			continue
		}
		if held[b] == nil {
			order = append(order, b)
		}
		held[b] = append(held[b], u)
	}
	for _, b := range order {
		n := 0
		var who []string
		for _, u := range held[b] {
			k := attr(u.Attrs, "stands", 4)
			n += k
			who = append(who, fmt.Sprintf("%s %d", u.ID, k))
		}
		if n > most {
			return &battle.PathError{Path: fmt.Sprintf("%s.blocks[%d]", b.town.Path, b.i), Line: b.town.Line,
				Msg: fmt.Sprintf("%s starts with %d stands of %s (%s), and a block holds at most %d friendly stands (CD-9)", b, n, s.ID, strings.Join(who, ", "), most)}
		}
	}
	return nil
}

// attr reads an integer attribute, or def.
func attr(m map[string]any, name string, def int) int {
	if v, ok := m[name].(int); ok {
		return v
	}
	return def
}

// flag reads a boolean attribute.
func flag(m map[string]any, name string) bool {
	v, _ := m[name].(bool)
	return v
}

// word reads a word attribute, or def.
func word(m map[string]any, name, def string) string {
	if v, ok := m[name].(string); ok && v != "" {
		return v
	}
	return def
}

// inch writes a distance in inches to the hundredth.
func inch(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) }

// round is v to the hundredth.
func round(v float64) float64 { return math.Round(v*100) / 100 }
