package battle

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"orderly/geom"
	"orderly/strict"
)

// Vocab is what a rule set allows in a scenario: the qualities of generals,
// the nations, and the kinds of order. An empty list allows any word.
type Vocab struct {
	Qualities []string
	Nations   []string
	Orders    []string
}

// Load reads a scenario from YAML. file names it in messages. Every problem is
// one sentence with the file, line and path, e.g.
// sides[0].corps[2].divisions[0].general.quality: "avrage" is not one of ...
func Load(file string, data []byte, v Vocab) (*Scenario, error) {
	r := loader{Reader: strict.Reader{File: file, Want: "a scenario: name, rules, field, sides"}, v: v}
	root, err := r.Parse(data)
	if err != nil {
		return nil, err
	}
	sc, err := r.scenario(root)
	if err != nil {
		return nil, err
	}
	sc.File = file
	return sc, nil
}

// FromNode reads a scenario from an already parsed YAML mapping, such as
// one written inline in a script.
func FromNode(file string, n *yaml.Node, v Vocab) (*Scenario, error) {
	r := loader{Reader: strict.Reader{File: file}, v: v}
	sc, err := r.scenario(n)
	if err != nil {
		return nil, err
	}
	sc.File = file
	return sc, nil
}

type loader struct {
	strict.Reader
	v  Vocab
	sc *Scenario
}

func (r *loader) scenario(n *yaml.Node) (*Scenario, error) {
	f, err := r.Fields(n, "scenario", "name", "title", "rules", "turns", "field", "speeds", "sides")
	if err != nil {
		return nil, err
	}
	sc := &Scenario{Turns: 20}
	r.sc = sc
	for _, k := range []string{"name", "rules", "field", "sides"} {
		if f[k] == nil {
			return nil, r.Errf(n, "scenario: %s is missing", k)
		}
	}
	if sc.Name, err = r.Word(f["name"], "name"); err != nil {
		return nil, err
	}
	if sc.Rules, err = r.Word(f["rules"], "rules"); err != nil {
		return nil, err
	}
	if f["title"] != nil {
		if sc.Title, err = r.Str(f["title"], "title"); err != nil {
			return nil, err
		}
	}
	if f["turns"] != nil {
		if sc.Turns, err = r.Int(f["turns"], "turns"); err != nil {
			return nil, err
		}
		if sc.Turns < 1 || sc.Turns > 1000 {
			return nil, r.Errf(f["turns"], "turns: %d is out of range; allowed: 1..1000", sc.Turns)
		}
	}
	if sc.Field, err = r.field(f["field"]); err != nil {
		return nil, err
	}
	if f["speeds"] != nil {
		if sc.Speeds, err = r.speeds(f["speeds"]); err != nil {
			return nil, err
		}
	}
	sides, err := r.List(f["sides"], "sides")
	if err != nil {
		return nil, err
	}
	if len(sides) != 2 {
		return nil, r.Errf(f["sides"], "sides: a battle has two sides, got %d", len(sides))
	}
	for i, s := range sides {
		side, err := r.side(s, fmt.Sprintf("sides[%d]", i))
		if err != nil {
			return nil, err
		}
		sc.Sides = append(sc.Sides, side)
	}
	if err := sc.Finish(); err != nil {
		return nil, r.place(err)
	}
	return sc, nil
}

// place puts a Finish error at the line of the thing it names.
func (r *loader) place(err error) error {
	var pe *PathError
	if ok := asPath(err, &pe); ok {
		return &strict.Error{File: r.File, Line: pe.Line, Msg: pe.Error()}
	}
	return &strict.Error{File: r.File, Msg: err.Error()}
}

func (r *loader) field(n *yaml.Node) (Field, error) {
	f, err := r.Fields(n, "field", "width", "depth", "grid")
	if err != nil {
		return Field{}, err
	}
	var fd Field
	for _, k := range []string{"width", "depth"} {
		if f[k] == nil {
			return Field{}, r.Errf(n, "field: %s is missing (inches)", k)
		}
		v, err := r.number(f[k], "field."+k)
		if err != nil {
			return Field{}, err
		}
		if v <= 0 || v > 100000 {
			return Field{}, r.Errf(f[k], "field.%s: %v is out of range; allowed: more than 0 up to 100000 inches", k, v)
		}
		if k == "width" {
			fd.Width = v
		} else {
			fd.Depth = v
		}
	}
	if g := f["grid"]; g != nil {
		gf, err := r.Fields(g, "field.grid", "columns", "rows")
		if err != nil {
			return Field{}, err
		}
		if gf["columns"] == nil || gf["rows"] == nil {
			return Field{}, r.Errf(g, "field.grid: give both columns and rows")
		}
		if fd.Columns, err = r.Int(gf["columns"], "field.grid.columns"); err != nil {
			return Field{}, err
		}
		if fd.Rows, err = r.Int(gf["rows"], "field.grid.rows"); err != nil {
			return Field{}, err
		}
		if fd.Columns < 1 || fd.Columns > 26 {
			return Field{}, r.Errf(gf["columns"], "field.grid.columns: %d is out of range; allowed: 1..26 (lettered A..Z)", fd.Columns)
		}
		if fd.Rows < 1 || fd.Rows > 99 {
			return Field{}, r.Errf(gf["rows"], "field.grid.rows: %d is out of range; allowed: 1..99", fd.Rows)
		}
	}
	return fd, nil
}

func (r *loader) speeds(n *yaml.Node) (map[string]float64, error) {
	pairs, err := r.Pairs(n, "speeds")
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, kv := range pairs {
		t := kv[0].Value
		if !slices.Contains(UnitTypes, t) {
			return nil, r.Errf(kv[0], "speeds: %s", notOneOf(t, UnitTypes))
		}
		v, err := r.number(kv[1], "speeds."+t)
		if err != nil {
			return nil, err
		}
		if v <= 0 || v > 1000 {
			return nil, r.Errf(kv[1], "speeds.%s: %v is out of range; allowed: more than 0 up to 1000 inches", t, v)
		}
		out[t] = v
	}
	return out, nil
}

func (r *loader) side(n *yaml.Node, where string) (*Side, error) {
	f, err := r.Fields(n, where, "id", "name", "nation", "edge", "army", "wings", "corps", "divisions")
	if err != nil {
		return nil, err
	}
	s := &Side{Line: n.Line}
	if err := r.Require(f, n, where, "id", "nation", "edge", "army"); err != nil {
		return nil, err
	}
	if s.ID, err = r.ID(f["id"], where+".id"); err != nil {
		return nil, err
	}
	if f["name"] != nil {
		if s.Name, err = r.Str(f["name"], where+".name"); err != nil {
			return nil, err
		}
	}
	if s.Nation, err = r.oneOf(f["nation"], where+".nation", r.v.Nations); err != nil {
		return nil, err
	}
	if s.Edge, err = r.oneOf(f["edge"], where+".edge", Edges); err != nil {
		return nil, err
	}
	army := &Formation{Side: s.ID, Kind: Army, Path: where + ".army", Line: f["army"].Line}
	g, err := r.general(f["army"], where+".army", s)
	if err != nil {
		return nil, err
	}
	army.ID, army.Name, army.General = s.ID, s.Name, g.ID
	g.Commands = army.ID
	s.Formations = append(s.Formations, army)
	if f["wings"] != nil {
		items, err := r.List(f["wings"], where+".wings")
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			if err := r.formation(it, fmt.Sprintf("%s.wings[%d]", where, i), Wing, army, s); err != nil {
				return nil, err
			}
		}
	}
	for _, k := range []struct {
		field string
		kind  Kind
	}{{"corps", Corps}, {"divisions", Division}} {
		if f[k.field] == nil {
			continue
		}
		items, err := r.List(f[k.field], where+"."+k.field)
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			if err := r.formation(it, fmt.Sprintf("%s.%s[%d]", where, k.field, i), k.kind, army, s); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// formation reads a wing, corps or division and everything under it.
func (r *loader) formation(n *yaml.Node, where string, kind Kind, parent *Formation, s *Side) error {
	allowed := []string{"id", "name", "general", "order"}
	switch kind {
	case Wing:
		allowed = append(allowed, "corps", "divisions")
	case Corps:
		allowed = append(allowed, "divisions")
	case Division:
		allowed = append(allowed, "units")
	}
	f, err := r.Fields(n, where, allowed...)
	if err != nil {
		return err
	}
	if err := r.Require(f, n, where, "id", "general"); err != nil {
		return err
	}
	fm := &Formation{Side: s.ID, Kind: kind, Parent: parent.ID, Path: where, Line: n.Line}
	if fm.ID, err = r.ID(f["id"], where+".id"); err != nil {
		return err
	}
	if f["name"] != nil {
		if fm.Name, err = r.Str(f["name"], where+".name"); err != nil {
			return err
		}
	}
	if f["order"] != nil {
		o, entry, err := r.order(f["order"], where+".order", true)
		if err != nil {
			return err
		}
		fm.Order, fm.Entry = o, entry
	}
	g, err := r.general(f["general"], where+".general", s)
	if err != nil {
		return err
	}
	fm.General, g.Commands = g.ID, fm.ID
	parent.Children = append(parent.Children, fm.ID)
	s.Formations = append(s.Formations, fm)
	for _, k := range []struct {
		field string
		kind  Kind
	}{{"corps", Corps}, {"divisions", Division}} {
		if f[k.field] == nil {
			continue
		}
		items, err := r.List(f[k.field], where+"."+k.field)
		if err != nil {
			return err
		}
		for i, it := range items {
			if err := r.formation(it, fmt.Sprintf("%s.%s[%d]", where, k.field, i), k.kind, fm, s); err != nil {
				return err
			}
		}
	}
	if f["units"] != nil {
		items, err := r.List(f["units"], where+".units")
		if err != nil {
			return err
		}
		for i, it := range items {
			u, err := r.unit(it, fmt.Sprintf("%s.units[%d]", where, i), s)
			if err != nil {
				return err
			}
			u.Division = fm.ID
			fm.Units = append(fm.Units, u.ID)
		}
	}
	if kind == Division && len(fm.Units) == 0 {
		return r.Errf(n, "%s: a division needs at least one combat unit under units", where)
	}
	return nil
}

func (r *loader) general(n *yaml.Node, where string, s *Side) (*General, error) {
	f, err := r.Fields(n, where, "id", "name", "quality", "range", "at")
	if err != nil {
		return nil, err
	}
	if err := r.Require(f, n, where, "id", "quality", "range"); err != nil {
		return nil, err
	}
	g := &General{Side: s.ID, Path: where, Line: n.Line}
	if g.ID, err = r.ID(f["id"], where+".id"); err != nil {
		return nil, err
	}
	if f["name"] != nil {
		if g.Name, err = r.Str(f["name"], where+".name"); err != nil {
			return nil, err
		}
	}
	if g.Quality, err = r.oneOf(f["quality"], where+".quality", r.v.Qualities); err != nil {
		return nil, err
	}
	if g.Range, err = r.number(f["range"], where+".range"); err != nil {
		return nil, err
	}
	if g.Range <= 0 || g.Range > 1000 {
		return nil, r.Errf(f["range"], "%s.range: %v is out of range; allowed: more than 0 up to 1000 inches", where, g.Range)
	}
	if f["at"] == nil {
		g.OffBoard = true
	} else if g.At, err = r.point(f["at"], where+".at"); err != nil {
		return nil, err
	}
	s.Generals = append(s.Generals, g)
	return g, nil
}

func (r *loader) unit(n *yaml.Node, where string, s *Side) (*Unit, error) {
	f, err := r.Fields(n, where, "id", "name", "type", "formation", "status", "at", "facing", "speed", "detachment")
	if err != nil {
		return nil, err
	}
	if err := r.Require(f, n, where, "id", "type"); err != nil {
		return nil, err
	}
	u := &Unit{Side: s.ID, Shape: "column", Status: "formed", Path: where, Line: n.Line}
	if u.ID, err = r.ID(f["id"], where+".id"); err != nil {
		return nil, err
	}
	if f["name"] != nil {
		if u.Name, err = r.Str(f["name"], where+".name"); err != nil {
			return nil, err
		}
	}
	if u.Type, err = r.oneOf(f["type"], where+".type", UnitTypes); err != nil {
		return nil, err
	}
	if f["formation"] != nil {
		if u.Shape, err = r.oneOf(f["formation"], where+".formation", Shapes); err != nil {
			return nil, err
		}
	}
	if f["status"] != nil {
		if u.Status, err = r.oneOf(f["status"], where+".status", Statuses); err != nil {
			return nil, err
		}
	}
	if f["at"] == nil {
		u.OffBoard = true
	} else if u.At, err = r.point(f["at"], where+".at"); err != nil {
		return nil, err
	}
	if f["facing"] != nil {
		if u.Facing, err = r.number(f["facing"], where+".facing"); err != nil {
			return nil, err
		}
		if u.Facing < 0 || u.Facing >= 360 {
			return nil, r.Errf(f["facing"], "%s.facing: %v is out of range; allowed: 0 up to 360 degrees clockwise from north", where, u.Facing)
		}
	}
	if f["speed"] != nil {
		if u.Speed, err = r.number(f["speed"], where+".speed"); err != nil {
			return nil, err
		}
		if u.Speed <= 0 || u.Speed > 1000 {
			return nil, r.Errf(f["speed"], "%s.speed: %v is out of range; allowed: more than 0 up to 1000 inches", where, u.Speed)
		}
	}
	if f["detachment"] != nil {
		if u.Detachment, err = r.Bool(f["detachment"], where+".detachment"); err != nil {
			return nil, err
		}
	}
	s.Units = append(s.Units, u)
	return u, nil
}

// order reads an order: a bare kind (attack), or a mapping with kind,
// objective and note; an off-board reserve adds entry, edge and then.
func (r *loader) order(n *yaml.Node, where string, initial bool) (*Order, *Entry, error) {
	if n.Kind == yaml.ScalarNode {
		k, err := r.oneOf(n, where, r.v.Orders)
		if err != nil {
			return nil, nil, err
		}
		return &Order{Kind: k}, nil, nil
	}
	allowed := []string{"kind", "objective", "note"}
	if initial {
		allowed = append(allowed, "entry", "edge", "then")
	}
	f, err := r.Fields(n, where, allowed...)
	if err != nil {
		return nil, nil, err
	}
	if f["kind"] == nil {
		return nil, nil, r.Errf(n, "%s: kind is missing", where)
	}
	o := &Order{}
	if o.Kind, err = r.oneOf(f["kind"], where+".kind", r.v.Orders); err != nil {
		return nil, nil, err
	}
	if f["objective"] != nil {
		p, err := r.point(f["objective"], where+".objective")
		if err != nil {
			return nil, nil, err
		}
		o.Objective = &p
	}
	if f["note"] != nil {
		if o.Note, err = r.Str(f["note"], where+".note"); err != nil {
			return nil, nil, err
		}
	}
	if f["entry"] == nil {
		for _, k := range []string{"edge", "then"} {
			if f[k] != nil {
				return nil, nil, r.Errf(f[k], "%s.%s: only an off-board reserve, with entry, has %s", where, k, k)
			}
		}
		return o, nil, nil
	}
	if o.Kind != "reserve" {
		return nil, nil, r.Errf(f["entry"], "%s.entry: only a reserve enters from off the table; this order is %s", where, o.Kind)
	}
	e := &Entry{}
	if e.Square, err = r.Str(f["entry"], where+".entry"); err != nil {
		return nil, nil, err
	}
	sq, err := r.sc.Field.Square(e.Square)
	if err != nil {
		return nil, nil, r.Errf(f["entry"], "%s.entry: %v", where, err)
	}
	edges := r.sc.Field.EdgesOf(sq)
	if f["edge"] != nil {
		if e.Edge, err = r.oneOf(f["edge"], where+".edge", Edges); err != nil {
			return nil, nil, err
		}
		if !slices.Contains(edges, e.Edge) {
			return nil, nil, r.Errf(f["edge"], "%s.edge: square %s does not lie on the %s edge; it touches %s", where, e.Square, e.Edge, orNone(edges))
		}
	} else {
		switch len(edges) {
		case 0:
			return nil, nil, r.Errf(f["entry"], "%s.entry: square %s is not on a table edge; pick a square in the outer columns or rows", where, e.Square)
		case 1:
			e.Edge = edges[0]
		default:
			return nil, nil, r.Errf(f["entry"], "%s.entry: square %s is a corner; say which edge with edge: %s", where, e.Square, strings.Join(edges, " or "))
		}
	}
	if f["then"] == nil {
		return nil, nil, r.Errf(n, "%s: then is missing: the order the reserve follows once it enters", where)
	}
	then, _, err := r.order(f["then"], where+".then", false)
	if err != nil {
		return nil, nil, err
	}
	if then.Kind == "reserve" {
		return nil, nil, r.Errf(f["then"], "%s.then: a reserve that enters acts on its order; allowed: %s", where, strings.Join(without(r.v.Orders, "reserve"), ", "))
	}
	e.Then = *then
	return o, e, nil
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "no edge"
	}
	return strings.Join(xs, " and ")
}

func without(xs []string, x string) []string {
	var out []string
	for _, y := range xs {
		if y != x {
			out = append(out, y)
		}
	}
	return out
}

func (r *loader) oneOf(n *yaml.Node, where string, allowed []string) (string, error) {
	s, err := r.Str(n, where)
	if err != nil {
		return "", err
	}
	if len(allowed) > 0 && !slices.Contains(allowed, s) {
		return "", r.Errf(n, "%s: %s", where, notOneOf(s, allowed))
	}
	if len(allowed) == 0 {
		if err := strict.CheckWord(s); err != nil {
			return "", r.Errf(n, "%s: %v", where, err)
		}
	}
	return s, nil
}

func notOneOf(s string, allowed []string) string {
	hint := ""
	if m := strict.Near(s, allowed); len(m) > 0 && m[0] != s {
		hint = fmt.Sprintf(" (did you mean %s?)", m[0])
	}
	return fmt.Sprintf("%q is not one of %s%s", s, strings.Join(allowed, ", "), hint)
}

func (r *loader) number(n *yaml.Node, where string) (float64, error) {
	return Number(r.Reader, n, where)
}

func (r *loader) point(n *yaml.Node, where string) (geom.Point, error) {
	return Position(r.Reader, n, where)
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

// Position reads a position [x, y] in inches from YAML, as scenarios and
// commands write it.
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
