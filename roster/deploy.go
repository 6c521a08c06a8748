package roster

import (
	"fmt"

	"orderly/geom"
	"orderly/geom/hex"
)

// Deploy gives a position to every general and unit of the sides that has
// none: in lines along its side's base edge, one beside the other in the
// order of the roster, the first line nearest the edge; on a hex map one
// piece a hex. A unit placed so that has no facing is faced away from its
// edge. It fails when the pieces do not fit in the space's half.
func Deploy(sides []*Doc, sp geom.Space) error {
	for _, s := range sides {
		edge, _ := s.Get("edge").(string)
		var todo []*Doc
		var units = map[*Doc]bool{}
		walk(s, func(d *Doc, unit bool) {
			if !d.Has("at") {
				todo = append(todo, d)
				units[d] = unit
			}
		})
		for i, d := range todo {
			at, err := place(sp, edge, i)
			if err != nil {
				return fmt.Errorf("side %v: %w", s.Get("id"), err)
			}
			d.Set("at", at)
			if units[d] && !d.Has("facing") && sp.Kind() == geom.KindTable {
				d.Set("facing", facing[edge])
			}
		}
	}
	return nil
}

// facing is the facing away from each edge, degrees clockwise from north.
var facing = map[string]float64{"south": 0, "north": 180, "east": 270, "west": 90}

// walk calls f for each general (unit false) and unit (unit true) under
// the mapping d.
func walk(d *Doc, f func(d *Doc, unit bool)) {
	for _, k := range d.keys {
		switch v := d.vals[k].(type) {
		case *Doc:
			if k == "army" || k == "general" {
				f(v, false)
			}
			walk(v, f)
		case []*Doc:
			for _, x := range v {
				if k == "units" {
					f(x, true)
				} else {
					walk(x, f)
				}
			}
		}
	}
}

// Spacing of deployed pieces on a table, in inches: between pieces in a
// line, from the edge to the first line and between lines, and the
// margin kept at each end of a line.
const (
	tableStep   = 4.0
	tableInset  = 3.0
	tableMargin = 4.0
)

// place is the position of the i-th piece deployed from edge.
func place(sp geom.Space, edge string, i int) (any, error) {
	switch sp := sp.(type) {
	case hex.Map:
		return placeHex(sp, edge, i)
	case geom.Table:
		return placeTable(sp, edge, i)
	}
	return nil, fmt.Errorf("roster: cannot deploy on a %s", sp.Kind())
}

// placeTable places the i-th piece on a table.
func placeTable(t geom.Table, edge string, i int) (any, error) {
	length, depth := t.Width, t.Depth
	if edge == "east" || edge == "west" {
		length, depth = depth, length
	}
	per := int((length-2*tableMargin)/tableStep) + 1
	if per < 1 {
		return nil, fmt.Errorf("the table is too small to deploy on")
	}
	line, at := i/per, i%per
	in := tableInset + float64(line)*tableStep
	if in > depth/2 {
		return nil, fmt.Errorf("its %d-th piece without a position does not fit in its half of the table; give positions in the at column", i+1)
	}
	along := tableMargin + float64(at)*tableStep
	var p Point
	switch edge {
	case "north":
		p = Point{along, in}
	case "south":
		p = Point{along, t.Depth - in}
	case "west":
		p = Point{in, along}
	default:
		p = Point{t.Width - in, along}
	}
	return p, nil
}

// placeHex places the i-th piece on a hex map, one a hex.
func placeHex(m hex.Map, edge string, i int) (any, error) {
	first := m.Layout.First
	length, depth := m.Columns, m.Rows
	if edge == "east" || edge == "west" {
		length, depth = depth, length
	}
	line, at := i/length, i%length
	if line >= (depth+1)/2 {
		return nil, fmt.Errorf("its %d-th piece without a position does not fit in its half of the map; give positions in the at column", i+1)
	}
	var c, r int
	switch edge {
	case "north":
		c, r = first+at, first+line
	case "south":
		c, r = first+at, first+m.Rows-1-line
	case "west":
		c, r = first+line, first+at
	default:
		c, r = first+m.Columns-1-line, first+at
	}
	return Label(m.Format(geom.Pt(float64(c), float64(r)))), nil
}
