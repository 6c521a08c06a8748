package battle

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/geom"
	"orderly/geom/hex"
	"orderly/strict"
	"orderly/terrain"
)

// want is what a scenario file holds, for the message about an empty one.
const want = "a scenario: name, rules, field, sides"

// Load reads a scenario from YAML in the format of the given spec (its
// vocabulary and piece attributes; see Read for the rule set's own
// checks). file names it in messages. Every problem is one sentence with
// the file, line and path, e.g.
// sides[0].corps[2].divisions[0].general.quality: "avrage" is not one of ...
func Load(file string, data []byte, s Spec) (*Scenario, error) {
	r := strict.Reader{File: file, Want: want}
	root, err := r.Parse(data)
	if err != nil {
		return nil, err
	}
	return decode(r, root, s)
}

// FromNode reads a scenario from an already parsed YAML mapping, such as
// one written inline in a script.
func FromNode(file string, n *yaml.Node, s Spec) (*Scenario, error) {
	return decode(strict.Reader{File: file}, n, s)
}

// Read reads a scenario file for the rule set it names: find returns that
// rule set, whose Spec the file is read with and whose Check it must pass.
// A rule set that find does not know is reported at the rules field.
func Read(file string, data []byte, find func(id string) (RuleSet, error)) (*Scenario, error) {
	r := strict.Reader{File: file, Want: want}
	root, err := r.Parse(data)
	if err != nil {
		return nil, err
	}
	return read(r, root, find)
}

// ReadNode is Read for an already parsed YAML mapping, such as one written
// inline in a script.
func ReadNode(file string, n *yaml.Node, find func(id string) (RuleSet, error)) (*Scenario, error) {
	return read(strict.Reader{File: file}, n, find)
}

func read(r strict.Reader, n *yaml.Node, find func(id string) (RuleSet, error)) (*Scenario, error) {
	id := value(n, "rules")
	if id == nil || id.Kind != yaml.ScalarNode || id.Tag == "!!null" || strict.CheckWord(id.Value) != nil {
		// Not a scenario that names a rule set: say what is wrong.
		if _, err := decode(r, n, Spec{}); err != nil {
			return nil, err
		}
		return nil, r.Errf(id, "rules: want the id of a rule set")
	}
	rules, err := find(id.Value)
	if err == nil && rules == nil {
		err = fmt.Errorf("rule set %q is not known", id.Value)
	}
	if err != nil {
		return nil, r.Errf(id, "rules: %v", err)
	}
	sc, err := decode(r, n, SpecOf(rules))
	if err != nil {
		return nil, err
	}
	if err := rules.Check(sc); err != nil {
		return nil, place(r, err)
	}
	return sc, nil
}

// place puts an error that names a piece of the scenario (*PathError) at
// its line; of Problems, each.
func place(r strict.Reader, err error) error {
	if list := List(err); len(list) > 1 {
		out := make(Problems, len(list))
		for i, e := range list {
			out[i] = place(r, e)
		}
		return out
	}
	var pe *PathError
	if errors.As(err, &pe) {
		return &strict.Error{File: r.File, Line: pe.Line, Msg: pe.Error()}
	}
	return &strict.Error{File: r.File, Msg: err.Error()}
}

// decode reads a scenario in the format of spec s: the file's types
// (format.go) read strictly, built into a Scenario, and finished.
func decode(r strict.Reader, n *yaml.Node, s Spec) (*Scenario, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if err := Bounded(n); err != nil {
		return nil, r.Errf(n, "%v", err)
	}
	var f scenarioFile
	d := &decoder{Reader: r, spec: s, types: types{}, found: &problems{}}
	if err := d.object(n, "", reflect.ValueOf(&f).Elem()); err != nil && !d.found.note(err) {
		return nil, err
	}
	if err := d.found.err(); err != nil {
		// The file's types are read only in part: build nothing of them.
		return nil, err
	}
	b := &builder{Reader: r, spec: s, found: d.found}
	sc, err := b.scenario(&f)
	if err != nil && !d.found.note(err) {
		return nil, err
	}
	if err := d.found.err(); err != nil {
		// The scenario is built only in part: check no further.
		return nil, err
	}
	sc.Speedless = !s.uses(PartSpeeds)
	if err := sc.Finish(); err != nil {
		return nil, place(r, err)
	}
	sc.File = r.File
	return sc, nil
}

// builder turns a scenario file, once read, into a Scenario, checking
// what needs more than one field.
type builder struct {
	strict.Reader
	spec Spec
	sc   *Scenario
	// found collects the problems met, building on past each where
	// what follows does not depend on it.
	found *problems
}

// note records a problem of the build, or returns err if it is not one.
func (b *builder) note(err error) error {
	if b.found.note(err) {
		return nil
	}
	return err
}

func (b *builder) scenario(f *scenarioFile) (*Scenario, error) {
	sc := &Scenario{Name: f.Name, Title: f.Title, Rules: f.Rules, Turns: f.Turns, Speeds: f.Speeds, Evening: f.Evening}
	if n := value(f.Node, "evening"); n != nil {
		for i, t := range f.Evening {
			if t > f.Turns || slices.Contains(f.Evening[:i], t) {
				at := n
				if i < len(n.Content) {
					at = n.Content[i]
				}
				if err := b.note(b.Errf(at, "evening[%d]: turn %d is given twice or comes after the last turn, %d; list each evening turn once, 1..%d", i, t, f.Turns, f.Turns)); err != nil {
					return nil, err
				}
			}
		}
	}
	if f.Field != nil {
		sc.Field = Field{Width: f.Field.Width, Depth: f.Field.Depth}
		if g := f.Field.Grid; g != nil {
			sc.Field.Columns, sc.Field.Rows = g.Columns, g.Rows
		}
		seen := map[string]bool{}
		for i := range f.Field.Features {
			ff := &f.Field.Features[i]
			ft, err := b.feature(ff, fmt.Sprintf("field.features[%d]", i), sc.Field.Bounds())
			if err != nil {
				if err := b.note(err); err != nil {
					return nil, err
				}
				continue
			}
			if ft.ID != "" && seen[ft.ID] {
				if err := b.note(b.Errf(ff.Node, "field.features[%d]: id %s is given twice; a feature's id names it once", i, ft.ID)); err != nil {
					return nil, err
				}
				continue
			}
			seen[ft.ID] = true
			sc.Field.Features = append(sc.Field.Features, ft)
		}
		if f.Field.Image != nil {
			im, err := b.image(f.Field.Image, "field.image", geom.KindTable)
			if err := b.note(err); err != nil {
				return nil, err
			}
			sc.Image = im
		}
	}
	if f.Map != nil {
		m, err := f.Map.hexMap()
		if err != nil {
			return nil, b.Errf(f.Map.Node, "map: %v", err)
		}
		sc.Map = &m
		t, err := b.terrain(f.Map, m)
		if err != nil {
			if err := b.note(err); err != nil {
				return nil, err
			}
		}
		sc.Terrain = t
		if f.Map.Image != nil {
			im, err := b.image(f.Map.Image, "map.image", geom.KindHex)
			if err := b.note(err); err != nil {
				return nil, err
			}
			sc.Image = im
		}
	}
	b.sc = sc
	for i := range f.Sides {
		s, err := b.side(&f.Sides[i], fmt.Sprintf("sides[%d]", i))
		if err != nil {
			return nil, err
		}
		sc.Sides = append(sc.Sides, s)
	}
	if f.Result != nil {
		var sp geom.Space
		if sc.Map != nil || !sc.Field.Empty() {
			sp = sc.Space()
		}
		res, err := b.result(f.Result, sp)
		if err != nil {
			return nil, err
		}
		sc.Result = res
	}
	return sc, nil
}

func (b *builder) side(f *sideFile, where string) (*Side, error) {
	s := &Side{ID: f.ID, Name: f.Name, Nation: f.Nation, Edge: f.Edge, HQ: f.HQ, Points: f.Points, Line: f.Node.Line}
	army := &Formation{ID: s.ID, Name: s.Name, Side: s.ID, Kind: Army, Path: where + ".army", Line: f.Army.Node.Line}
	army.General = b.general(&f.Army, where+".army", s, army.ID).ID
	s.Formations = append(s.Formations, army)
	for i := range f.Wings {
		w := &f.Wings[i]
		fm, err := b.formation(formationFile{w.ID, w.Name, &w.General, w.Order, w.Attrs, w.Node}, fmt.Sprintf("%s.wings[%d]", where, i), Wing, army, s)
		if err != nil {
			return nil, err
		}
		if err := b.under(w.Corps, w.Divisions, fm.Path, fm, s); err != nil {
			return nil, err
		}
	}
	for i := range f.Brigades {
		bf := &f.Brigades[i]
		fm, err := b.formation(formationFile{bf.ID, bf.Name, &bf.General, nil, bf.Attrs, bf.Node}, fmt.Sprintf("%s.brigades[%d]", where, i), Brigade, army, s)
		if err != nil {
			return nil, err
		}
		b.units(bf.Units, fm, s)
	}
	return s, b.under(f.Corps, f.Divisions, where, army, s)
}

// units builds the combat units of a division or brigade.
func (b *builder) units(units []unitFile, fm *Formation, s *Side) {
	for j := range units {
		u := b.unit(&units[j], fmt.Sprintf("%s.units[%d]", fm.Path, j), s)
		u.Division = fm.ID
		fm.Units = append(fm.Units, u.ID)
	}
}

// under builds the corps and divisions under a formation.
func (b *builder) under(corps []corpsFile, divs []divisionFile, where string, parent *Formation, s *Side) error {
	for i := range corps {
		c := &corps[i]
		fm, err := b.formation(formationFile{c.ID, c.Name, &c.General, c.Order, c.Attrs, c.Node}, fmt.Sprintf("%s.corps[%d]", where, i), Corps, parent, s)
		if err != nil {
			return err
		}
		if err := b.under(nil, c.Divisions, fm.Path, fm, s); err != nil {
			return err
		}
	}
	for i := range divs {
		d := &divs[i]
		fm, err := b.formation(formationFile{d.ID, d.Name, &d.General, d.Order, d.Attrs, d.Node}, fmt.Sprintf("%s.divisions[%d]", where, i), Division, parent, s)
		if err != nil {
			return err
		}
		b.units(d.Units, fm, s)
		for j := range d.Brigades {
			bf := &d.Brigades[j]
			br, err := b.formation(formationFile{bf.ID, bf.Name, &bf.General, nil, bf.Attrs, bf.Node}, fmt.Sprintf("%s.brigades[%d]", fm.Path, j), Brigade, fm, s)
			if err != nil {
				return err
			}
			b.units(bf.Units, br, s)
		}
	}
	return nil
}

// terrain reads a hex map's terrain, if the rule set's maps have one,
// placing a problem at the line of the grid row or the item it is in.
func (b *builder) terrain(f *mapFile, m hex.Map) (*terrain.Map, error) {
	given := f.Terrain != "" || f.Elevation != "" || len(f.Hexsides) > 0 || len(f.Roads) > 0
	if b.spec.Terrain == nil {
		if given {
			return nil, b.Errf(f.Node, "map: the rule set %s draws no terrain on its maps; leave out terrain, elevation, hexsides and roads", orNone2(b.spec.ID))
		}
		return nil, nil
	}
	t, err := terrain.Parse(m, *b.spec.Terrain, terrain.Text{Terrain: f.Terrain, Elevation: f.Elevation, Sides: f.Hexsides, Roads: f.Roads})
	var te *terrain.Error
	if !errors.As(err, &te) {
		if err != nil {
			return nil, b.Errf(f.Node, "map: %v", err)
		}
		return t, nil
	}
	n := f.Node
	for _, k := range strings.Split(te.Field, ".") {
		name, item, indexed := strings.Cut(k, "[")
		if v := value(n, name); v != nil {
			n = v
		}
		if indexed && n.Kind == yaml.SequenceNode {
			if i, err := strconv.Atoi(strings.TrimSuffix(item, "]")); err == nil && i < len(n.Content) {
				n = n.Content[i]
			}
		}
	}
	line := n.Line
	if te.Line >= 0 && (n.Style&(yaml.LiteralStyle|yaml.FoldedStyle)) != 0 {
		line += 1 + te.Line
	}
	return nil, &strict.Error{File: b.File, Line: line, Msg: "map." + te.Error()}
}

// orNone2 names a rule set, or says none was named.
func orNone2(id string) string {
	if id == "" {
		return "(none named)"
	}
	return id
}

// formationFile is what wings, corps and divisions have in common.
type formationFile struct {
	id, name string
	general  *generalFile
	order    *orderFile
	attrs    map[string]any
	node     *yaml.Node
}

// formation builds a wing, corps or division with its general, not what
// is under it.
func (b *builder) formation(f formationFile, where string, kind Kind, parent *Formation, s *Side) (*Formation, error) {
	fm := &Formation{ID: f.id, Name: f.name, Side: s.ID, Kind: kind, Parent: parent.ID, Attrs: f.attrs, Path: where, Line: f.node.Line}
	if f.order != nil {
		o, e, err := b.order(f.order, where+".order")
		if err != nil {
			if err := b.note(err); err != nil {
				return nil, err
			}
		} else {
			fm.Order, fm.Entry = o, e
		}
	}
	fm.General = b.general(f.general, where+".general", s, fm.ID).ID
	parent.Children = append(parent.Children, fm.ID)
	s.Formations = append(s.Formations, fm)
	return fm, nil
}

func (b *builder) general(f *generalFile, where string, s *Side, commands string) *General {
	g := &General{ID: f.ID, Name: f.Name, Side: s.ID, Commands: commands, Quality: f.Quality, Range: f.Range,
		OffBoard: f.At == nil, Attrs: f.Attrs, Path: where, Line: f.Node.Line}
	if f.At != nil {
		g.At = *f.At
	}
	s.Generals = append(s.Generals, g)
	return g
}

func (b *builder) unit(f *unitFile, where string, s *Side) *Unit {
	u := &Unit{ID: f.ID, Name: f.Name, Side: s.ID, Type: f.Type, Shape: f.Formation, Status: f.Status,
		Facing: f.Facing, Detachment: f.Detachment, OffBoard: f.At == nil, Attrs: f.Attrs, Path: where, Line: f.Node.Line}
	if f.At != nil {
		u.At = *f.At
	}
	if f.Speed != nil {
		u.Speed = *f.Speed
	}
	s.Units = append(s.Units, u)
	return u
}

// order builds an order at the start and, for an off-board reserve, its
// entry: entry and then go together, edge needs entry, only a reserve
// enters, and the entry square lies in the grid on a table edge (SPEC
// NB-10). orderFile.schemaRules says the same in the schema, but for the
// square, which needs the field.
func (b *builder) order(f *orderFile, where string) (*Order, *Entry, error) {
	o := &Order{Kind: f.Kind, Objective: f.Objective, Note: f.Note}
	if f.Entry == nil {
		for _, k := range []string{"edge", "then"} {
			if v := value(f.Node, k); v != nil {
				return nil, nil, b.Errf(v, "%s.%s: only an off-board reserve, with entry, has %s", where, k, k)
			}
		}
		return o, nil, nil
	}
	at := value(f.Node, "entry")
	if o.Kind != "reserve" {
		return nil, nil, b.Errf(at, "%s.entry: only a reserve enters from off the table; this order is %s", where, o.Kind)
	}
	if b.sc.Map != nil {
		return nil, nil, b.Errf(at, "%s.entry: entry squares such as B9 divide a table (field.grid) and a hex map has none; leave out entry, edge and then, and start the reserve on the map", where)
	}
	e := &Entry{Square: *f.Entry}
	sq, err := b.sc.Field.Square(e.Square)
	if err != nil {
		return nil, nil, b.Errf(at, "%s.entry: %v", where, err)
	}
	edges := b.sc.Field.EdgesOf(sq)
	if f.Edge != nil {
		e.Edge = *f.Edge
		if !slices.Contains(edges, e.Edge) {
			return nil, nil, b.Errf(value(f.Node, "edge"), "%s.edge: square %s does not lie on the %s edge; it touches %s", where, e.Square, e.Edge, orNone(edges))
		}
	} else {
		switch len(edges) {
		case 0:
			return nil, nil, b.Errf(at, "%s.entry: square %s is not on a table edge; pick a square in the outer columns or rows", where, e.Square)
		case 1:
			e.Edge = edges[0]
		default:
			return nil, nil, b.Errf(at, "%s.entry: square %s is a corner; say which edge with edge: %s", where, e.Square, strings.Join(edges, " or "))
		}
	}
	if f.Then == nil {
		return nil, nil, b.Errf(f.Node, "%s: then is missing: the order the reserve follows once it enters", where)
	}
	e.Then = Order{Kind: f.Then.Kind, Objective: f.Then.Objective, Note: f.Then.Note}
	return o, e, nil
}

// value returns the value of key in mapping n, or nil.
func value(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "no edge"
	}
	return strings.Join(xs, " and ")
}

// Number reads a number (at most a million either way) from YAML.
func Number(r strict.Reader, n *yaml.Node, where string) (float64, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return 0, r.Errf(n, "%s: want a number, got %s", where, strict.KindName(n))
	}
	v, err := strconv.ParseFloat(n.Value, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e6 {
		return 0, r.Errf(n, "%s: want a number, got %q", where, n.Value)
	}
	return v, nil
}

// Facing reads a facing from YAML: degrees clockwise from north, 0 up to
// 360.
func Facing(r strict.Reader, n *yaml.Node, where string) (float64, error) {
	v, err := Number(r, n, where)
	if err == nil && (v < 0 || v >= 360) {
		err = r.Errf(n, "%s: %v is out of range; allowed: 0 up to 360 degrees", where, v)
	}
	return v, err
}

// PositionIn reads a position of space sp from YAML, as scenarios and
// commands write it: on a hex map (a geom.Labeled space) the printed
// label of a hex, "0412" or 4-12, which must be a hex of the map; on a
// table (or with no space) [x, y] in inches, as Position reads it.
func PositionIn(r strict.Reader, n *yaml.Node, where string, sp geom.Space) (geom.Point, error) {
	l, ok := sp.(geom.Labeled)
	if !ok {
		return Position(r, n, where)
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return geom.Point{}, r.Errf(n, "%s: want the label of a hex, such as \"0412\", got %s", where, strict.KindName(n))
	}
	p, err := l.Parse(n.Value)
	if err != nil {
		return geom.Point{}, r.Errf(n, "%s: %v", where, err)
	}
	return p, nil
}

// Position reads a position [x, y] in inches on a table from YAML, as
// scenarios and commands write it.
func Position(r strict.Reader, n *yaml.Node, where string) (geom.Point, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
		return geom.Point{}, r.Errf(n, "%s: want a position [x, y] in inches, got %s", where, strict.KindName(n))
	}
	x, err := Number(r, n.Content[0], where+"[0]")
	if err != nil {
		return geom.Point{}, err
	}
	y, err := Number(r, n.Content[1], where+"[1]")
	if err != nil {
		return geom.Point{}, err
	}
	return geom.Pt(x, y), nil
}
