package battle

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"orderly/geom"
	"orderly/strict"
	"orderly/terrain"
)

// Vocab is what a rule set allows in a scenario: the qualities of generals,
// the nations, and the kinds of order. An empty list allows any word.
type Vocab struct {
	Qualities []string
	Nations   []string
	Orders    []string
	// UnitTypes, Shapes and Statuses are the rule set's unit types,
	// formations and unit states: the format has none of its own, so a
	// spec that names none allows any word (every rule set names its).
	UnitTypes []string
	Shapes    []string
	Statuses  []string
}

// Spec is what a rule set contributes to the scenario format: its id (the
// value of a scenario's rules field), its vocabulary, attributes of its
// own on units, generals or formations (a staff rating, a class die), and
// the kinds of space it plays on. Load accepts exactly these, and Schema
// lists them. The zero Spec allows any rule set id, any word and any
// space, and adds no attributes.
type Spec struct {
	ID string
	// Title names the rule set for people (the editor's choice of rule
	// set); empty: its ID.
	Title string
	Vocab
	Attrs []Attr
	// Spaces lists the kinds of space the rule set plays on
	// (geom.KindTable, geom.KindHex); none allows every kind. A scenario
	// on another is refused where it gives its field or map.
	Spaces []string
	// Parts lists the optional parts of the format the rule set uses
	// (Parts below); a field of another part is refused as unknown and
	// left out of the schema. Nil gives a rule set the Classic parts; the
	// zero Spec (no ID) allows every part.
	Parts []string
	// Terrain is what the rule set's hex maps may hold (terrains of
	// hexes with their letters, hexside features, roads): with the part
	// PartTerrain, a map gives its terrain in the text form of package
	// terrain. Nil: a map has no terrain.
	Terrain *terrain.Kinds
}

// The optional parts of the scenario format: fields that only some rule
// sets use (the part: tag in format.go).
const (
	PartCorps      = "corps"      // wings, corps and divisions under the army
	PartBrigades   = "brigades"   // brigades directly under the army (BP)
	PartQuality    = "quality"    // a general's quality
	PartRange      = "range"      // a general's command range
	PartSpeeds     = "speeds"     // move per turn: the scenario's speeds and a unit's speed
	PartDetachment = "detachment" // whether a unit is a detachment
	// PartTerrain: a hex map's terrain, elevation, hexsides and roads
	// (Spec.Terrain says what they may be).
	PartTerrain = "terrain"
	// PartSubBrigades: brigades, each with its commander, under a
	// division (NES); a division then has brigades, units or both.
	PartSubBrigades = "division-brigades"
	// PartHQ: each side's army headquarters, a position of its own apart
	// from the army commander (NES-1).
	PartHQ = "hq"
	// PartCommandPoints: each side's command points a turn (NES).
	PartCommandPoints = "command-points"
	// PartEvening: the turns that are evening turns (NES-3).
	PartEvening = "evening"
)

// Parts lists every optional part of the format.
func Parts() []string {
	return []string{PartCorps, PartBrigades, PartQuality, PartRange, PartSpeeds, PartDetachment,
		PartTerrain, PartSubBrigades, PartHQ, PartCommandPoints, PartEvening}
}

// Classic is the parts of a rule set that says nothing of them: the chain
// of command of wings, corps and divisions, generals with a quality and a
// command range, and units with a speed per turn (NB).
func Classic() []string {
	return []string{PartCorps, PartQuality, PartRange, PartSpeeds, PartDetachment}
}

// uses reports whether the rule set uses an optional part of the format
// ("" is no part: always).
func (s Spec) uses(part string) bool {
	if part == "" || s.ID == "" && s.Parts == nil {
		return true
	}
	parts := s.Parts
	if parts == nil {
		parts = Classic()
	}
	return slices.Contains(parts, part)
}

// Piece names the kind of piece that carries an attribute.
type Piece string

// The pieces that can carry a rule set's attributes.
const (
	OnUnit      Piece = "unit"
	OnGeneral   Piece = "general"   // every general, the army commander included
	OnFormation Piece = "formation" // a wing, a corps, a division or a brigade
)

// AttrType is the kind of value an attribute takes.
type AttrType string

// The kinds of attribute value, and the Go type each is read into.
const (
	AttrInteger AttrType = "integer" // int
	AttrNumber  AttrType = "number"  // float64
	AttrWord    AttrType = "word"    // string: lower-case letters, digits and - . / + _
	AttrText    AttrType = "text"    // string: free text
	AttrBool    AttrType = "boolean" // bool
)

// Attr is an attribute that a rule set adds to one kind of piece: a field
// of that piece in the scenario file, read into the piece's Attrs under
// its name.
type Attr struct {
	On   Piece
	Name string // the field's key, e.g. staff
	Doc  string // what it means, one sentence for the schema
	Type AttrType
	// Values lists the words an AttrWord may take; none allows any word.
	Values []string
	// Min and Max bound an AttrInteger or AttrNumber, both inclusive; nil
	// leaves that end open.
	Min, Max *float64
	Unit     string // the unit of a number, e.g. inches, for messages
	Required bool
}

// RuleSet is what reading a scenario asks of the rule set it names: its
// id, its vocabulary and its own checks. A rule set that also has a
// method Spec() Spec contributes that (with piece attributes) instead of
// its Vocab alone; see SpecOf.
type RuleSet interface {
	ID() string
	Vocab() Vocab
	// Check tests a loaded scenario against the rule set's requirements.
	// An error that is a *PathError is placed at its line.
	Check(sc *Scenario) error
}

// SpecOf returns what rule set r contributes to the scenario format: its
// Spec if it has one (every built-in rule set does), else its id and
// vocabulary, played on a table with the classic parts.
func SpecOf(r RuleSet) Spec {
	if s, ok := r.(interface{ Spec() Spec }); ok {
		return s.Spec()
	}
	return Spec{ID: r.ID(), Vocab: r.Vocab(), Spaces: []string{geom.KindTable}, Parts: Classic()}
}

// plays reports whether the rule set plays on a space of the given kind.
func (s Spec) plays(kind string) bool {
	return len(s.Spaces) == 0 || slices.Contains(s.Spaces, kind)
}

// spaces lists the kinds of space the rule set plays on, in the order of
// geom.Kinds.
func (s Spec) spaces() []string {
	var out []string
	for _, k := range geom.Kinds() {
		if s.plays(k) {
			out = append(out, k)
		}
	}
	return out
}

// wording fills in the placeholders of the format's texts (see format.go):
// {unit}, what distances are counted in, and {surface}, what the game is
// played on.
type wording struct{ unit, surface string }

func (w wording) say(s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return strings.NewReplacer("{unit}", w.unit, "{surface}", w.surface).Replace(s)
}

// surface is how the texts of the format name a kind of space.
func surface(kind string) string {
	if kind == geom.KindHex {
		return "hex map"
	}
	return "table"
}

// unitOf is the unit of a kind of space.
func unitOf(kind string) geom.Unit {
	if kind == geom.KindHex {
		return geom.Hexes
	}
	return geom.Inches
}

// wordingOf is the wording of a scenario on space sp.
func wordingOf(sp geom.Space) wording {
	return wording{string(sp.Unit()), surface(sp.Kind())}
}

// wording is the wording of the rule set's spaces, for the schema and for
// messages before a scenario has given its space: the one it plays on, or
// each of them ("inches (hexes on a hex map)", "table or hex map").
func (s Spec) wording() wording {
	ks := s.spaces()
	w := wording{string(unitOf(ks[0])), surface(ks[0])}
	for _, k := range ks[1:] {
		w.unit += fmt.Sprintf(" (%s on a %s)", unitOf(k), surface(k))
		w.surface += " or " + surface(k)
	}
	return w
}

// attrs returns the attributes of the spec carried by one kind of piece.
func (s Spec) attrs(on Piece) []Attr {
	var out []Attr
	for _, a := range s.Attrs {
		if a.On == on {
			out = append(out, a)
		}
	}
	return out
}

// check tests the spec itself: a rule set that contributes a bad one is a
// programming error, reported before any scenario is read with it.
func (s Spec) check() error {
	if s.ID != "" {
		if err := strict.CheckWord(s.ID); err != nil {
			return fmt.Errorf("rule set spec: id: %v", err)
		}
	}
	for _, l := range []struct {
		name  string
		words []string
	}{{"qualities", s.Qualities}, {"nations", s.Nations}, {"orders", s.Orders},
		{"unit types", s.UnitTypes}, {"shapes", s.Shapes}, {"statuses", s.Statuses}} {
		for _, w := range l.words {
			if err := strict.CheckWord(w); err != nil {
				return fmt.Errorf("rule set spec %s: %s: %v", s.ID, l.name, err)
			}
		}
	}
	for i, p := range s.Parts {
		if !slices.Contains(Parts(), p) {
			return fmt.Errorf("rule set spec %s: part %q is not a part of the format; allowed: %s", s.ID, p, strings.Join(Parts(), ", "))
		}
		if slices.Contains(s.Parts[:i], p) {
			return fmt.Errorf("rule set spec %s: part %q is given twice", s.ID, p)
		}
	}
	if s.uses(PartCorps) && s.uses(PartBrigades) && s.ID != "" {
		return fmt.Errorf("rule set spec %s: parts %s and %s are two chains of command; use one", s.ID, PartCorps, PartBrigades)
	}
	if s.Terrain != nil {
		if err := s.Terrain.Check(); err != nil {
			return fmt.Errorf("rule set spec %s: %v", s.ID, err)
		}
	}
	for i, k := range s.Spaces {
		if !slices.Contains(geom.Kinds(), k) {
			return fmt.Errorf("rule set spec %s: space %q is not a kind of space; allowed: %s", s.ID, k, strings.Join(geom.Kinds(), ", "))
		}
		if slices.Contains(s.Spaces[:i], k) {
			return fmt.Errorf("rule set spec %s: space %q is given twice", s.ID, k)
		}
	}
	seen := map[string]bool{}
	known := types{}
	for _, a := range s.Attrs {
		if err := a.check(known); err != nil {
			return fmt.Errorf("rule set spec %s: attribute %q on %s: %v", s.ID, a.Name, a.On, err)
		}
		if seen[string(a.On)+" "+a.Name] {
			return fmt.Errorf("rule set spec %s: attribute %q on %s is given twice", s.ID, a.Name, a.On)
		}
		seen[string(a.On)+" "+a.Name] = true
	}
	return nil
}

// pieceTypes returns the file types of a kind of piece, whose fields an
// attribute must not shadow, or nil if p is not a piece.
func pieceTypes(p Piece) []reflect.Type {
	switch p {
	case OnUnit:
		return []reflect.Type{reflect.TypeFor[unitFile]()}
	case OnGeneral:
		return []reflect.Type{reflect.TypeFor[generalFile]()}
	case OnFormation:
		return []reflect.Type{reflect.TypeFor[wingFile](), reflect.TypeFor[corpsFile](), reflect.TypeFor[divisionFile](), reflect.TypeFor[brigadeFile]()}
	}
	return nil
}

// check tests one attribute; known reads the format's types.
func (a Attr) check(known types) error {
	types := pieceTypes(a.On)
	if types == nil {
		return fmt.Errorf("%q is not a piece; allowed: %s, %s, %s", a.On, OnUnit, OnGeneral, OnFormation)
	}
	if err := strict.CheckWord(a.Name); err != nil {
		return fmt.Errorf("name: %v", err)
	}
	for _, t := range types {
		ft, err := known.of(t)
		if err != nil {
			return err
		}
		if ft.field(a.Name) != nil {
			return fmt.Errorf("the %s already has a field %s", a.On, a.Name)
		}
	}
	if a.Doc == "" {
		return fmt.Errorf("no Doc; the schema describes every field")
	}
	if !slices.Contains([]AttrType{AttrInteger, AttrNumber, AttrWord, AttrText, AttrBool}, a.Type) {
		return fmt.Errorf("type %q is not one of %s, %s, %s, %s, %s", a.Type, AttrInteger, AttrNumber, AttrWord, AttrText, AttrBool)
	}
	if len(a.Values) > 0 && a.Type != AttrWord {
		return fmt.Errorf("values are for a %s, not a %s", AttrWord, a.Type)
	}
	for _, v := range a.Values {
		if err := strict.CheckWord(v); err != nil {
			return fmt.Errorf("values: %v", err)
		}
	}
	numeric := a.Type == AttrInteger || a.Type == AttrNumber
	if (a.Min != nil || a.Max != nil || a.Unit != "") && !numeric {
		return fmt.Errorf("min, max and unit are for a number or integer, not a %s", a.Type)
	}
	for _, b := range []*float64{a.Min, a.Max} {
		if b != nil && (math.IsNaN(*b) || math.IsInf(*b, 0)) {
			return fmt.Errorf("a bound is not a finite number")
		}
	}
	if a.Min != nil && a.Max != nil && *a.Min > *a.Max {
		return fmt.Errorf("min %v is more than max %v", *a.Min, *a.Max)
	}
	return nil
}
