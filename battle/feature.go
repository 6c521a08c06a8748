package battle

import (
	"fmt"
	"slices"

	"orderly/geom"
	"orderly/geom/area"
)

// FeatureTypes are the kinds of terrain a table may hold: areas, then
// lines (SPEC CD-3 prices them, CD-6 rates them, CD-9 divides towns).
var FeatureTypes = []string{"light-woods", "heavy-woods", "ford", "gradual-slope", "slope", "steep-slope", "town", "linear-obstacle", "river", "road"}

// lineTypes are the features drawn as lines.
var lineTypes = []string{"linear-obstacle", "river", "road"}

// IsLine reports whether features of type typ are lines (else areas).
func IsLine(typ string) bool { return slices.Contains(lineTypes, typ) }

// Feature is a piece of terrain on a table: an area or a line, what it is,
// its disruptive rating if the scenario gives one, whether it gives cover
// and blocks sight, and for a town its blocks.
type Feature struct {
	ID, Name string
	Type     string
	Area     area.Polygon // an area's corners; nil for a line
	Course   area.Line    // a line's points; nil for an area
	Width    float64      // a river's or road's drawn width, inches
	// Disruptive is d1, d2 or d3 (SPEC CD-6), or "" for none.
	Disruptive  string
	Cover       bool
	BlocksSight bool
	Blocks      []area.Polygon // a town's blocks (SPEC CD-9)
	Path        string         // where it is in the scenario, e.g. field.features[2]
	Line        int
}

// Crossed is what a straight move meets of one feature: how far it runs
// inside an area, how many times it crosses a line, and whether it ends in
// the area.
type Crossed struct {
	Feature *Feature
	Inside  float64 // inches inside an area
	Crosses int     // times across a line
	Ends    bool    // the move ends inside the area
	Starts  bool    // the move starts inside the area
}

// Crossing lists, in the scenario's order, every feature the straight
// move from a to b meets: areas it runs through, starts or ends in, and
// lines it crosses.
func (f Field) Crossing(a, b geom.Point) []Crossed {
	var out []Crossed
	for _, ft := range f.Features {
		c := Crossed{Feature: ft}
		if ft.Course != nil {
			c.Crosses = ft.Course.Crosses(a, b)
		} else {
			c.Inside = ft.Area.Inside(a, b)
			c.Starts, c.Ends = ft.Area.Contains(a), ft.Area.Contains(b)
		}
		if c.Crosses > 0 || c.Inside > 0 || c.Starts || c.Ends {
			out = append(out, c)
		}
	}
	return out
}

// feature builds a feature of the table, checking what needs more than
// one field: an area for an area's type, a line for a line's, every point
// on the table, a simple polygon, blocks only in a town and inside it.
func (b *builder) feature(f *featureFile, where string, table geom.Rect) (*Feature, error) {
	ft := &Feature{ID: f.ID, Name: f.Name, Type: f.Type, Width: f.Width, Disruptive: f.Disruptive, Path: where, Line: f.Node.Line}
	cover := f.Type == "light-woods" || f.Type == "heavy-woods" || f.Type == "town"
	ft.Cover, ft.BlocksSight = cover, cover
	if f.Cover != nil {
		ft.Cover = *f.Cover
	}
	if f.Sight != nil {
		ft.BlocksSight = *f.Sight
	}
	onTable := func(ps []geom.Point, key string) error {
		for i, p := range ps {
			if !table.Contains(p) {
				return b.Errf(f.Node, "%s.%s[%d]: %s is off the table (0..%s by 0..%s inches)", where, key, i, p, num(table.Max.X), num(table.Max.Y))
			}
		}
		return nil
	}
	switch {
	case IsLine(f.Type) && f.Area != nil:
		return nil, b.Errf(f.Node, "%s: a %s is a line: give its points under line, not area", where, f.Type)
	case IsLine(f.Type) && f.Line == nil:
		return nil, b.Errf(f.Node, "%s: line is missing: the points of the %s, in order", where, f.Type)
	case !IsLine(f.Type) && f.Line != nil:
		return nil, b.Errf(f.Node, "%s: a %s is an area: give its corners under area, not line", where, f.Type)
	case !IsLine(f.Type) && f.Area == nil:
		return nil, b.Errf(f.Node, "%s: area is missing: the corners of the %s, in order round it", where, f.Type)
	case f.Blocks != nil && f.Type != "town":
		return nil, b.Errf(f.Node, "%s: only a town has blocks; this is a %s", where, f.Type)
	}
	if IsLine(f.Type) {
		ft.Course = area.Line(f.Line)
		if err := ft.Course.Check(); err != nil {
			return nil, b.Errf(f.Node, "%s.line: %v", where, err)
		}
		return ft, onTable(f.Line, "line")
	}
	ft.Area = area.Polygon(f.Area)
	if err := ft.Area.Check(); err != nil {
		return nil, b.Errf(f.Node, "%s.area: %v", where, err)
	}
	if err := onTable(f.Area, "area"); err != nil {
		return nil, err
	}
	for i, bl := range f.Blocks {
		pg := area.Polygon(bl)
		if err := pg.Check(); err != nil {
			return nil, b.Errf(f.Node, "%s.blocks[%d]: %v", where, i, err)
		}
		for j, p := range pg {
			if !ft.Area.Contains(p) {
				return nil, b.Errf(f.Node, "%s.blocks[%d]: corner %d at %s lies outside the town", where, i, j+1, p)
			}
		}
		ft.Blocks = append(ft.Blocks, pg)
	}
	return ft, nil
}

func num(f float64) string { return fmt.Sprint(f) }
