package battle

import (
	"fmt"
	"math"
	"strconv"

	"orderly/geom"
)

// Square returns the rectangle of an entry-grid square such as B9: the
// letter counts columns from A at the west edge, the number rows from 1 at
// the north edge (SPEC NB-10).
func (f Field) Square(name string) (geom.Rect, error) {
	allowed := func() string {
		if f.Columns == 0 || f.Rows == 0 {
			return "the field has no entry grid; give field.grid columns and rows"
		}
		return fmt.Sprintf("columns A..%c and rows 1..%d", 'A'+f.Columns-1, f.Rows)
	}
	if len(name) < 2 || name[0] < 'A' || name[0] > 'Z' {
		return geom.Rect{}, fmt.Errorf("%q is not a grid square like B9; %s", name, allowed())
	}
	col := int(name[0] - 'A')
	row, err := strconv.Atoi(name[1:])
	if err != nil || row < 1 || row > f.Rows || col >= f.Columns {
		return geom.Rect{}, fmt.Errorf("%q is not a square of the entry grid; %s", name, allowed())
	}
	w, h := f.Width/float64(f.Columns), f.Depth/float64(f.Rows)
	return geom.Rect{
		Min: geom.Pt(float64(col)*w, float64(row-1)*h),
		Max: geom.Pt(float64(col+1)*w, float64(row)*h),
	}, nil
}

// EdgesOf lists the table edges that a square touches, in the order of Edges.
func (f Field) EdgesOf(r geom.Rect) []string {
	var out []string
	const eps = 1e-9
	if r.Min.Y <= eps {
		out = append(out, "north")
	}
	if r.Max.Y >= f.Depth-eps {
		out = append(out, "south")
	}
	if r.Max.X >= f.Width-eps {
		out = append(out, "east")
	}
	if r.Min.X <= eps {
		out = append(out, "west")
	}
	return out
}

// EdgeMid is the middle of the side of square r that lies on the given edge.
func (f Field) EdgeMid(r geom.Rect, edge string) geom.Point {
	mx, my := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
	switch edge {
	case "north":
		return geom.Pt(mx, 0)
	case "south":
		return geom.Pt(mx, f.Depth)
	case "east":
		return geom.Pt(f.Width, my)
	}
	return geom.Pt(0, my)
}

// FromEdge is how far p is from the given table edge.
func (f Field) FromEdge(p geom.Point, edge string) float64 {
	switch edge {
	case "north":
		return p.Y
	case "south":
		return f.Depth - p.Y
	case "east":
		return f.Width - p.X
	}
	return p.X
}

// OnEdge returns the point of the given edge at position s along it (x for
// north and south, y for east and west), clamped to the table.
func (f Field) OnEdge(edge string, s float64) geom.Point {
	switch edge {
	case "north":
		return geom.Pt(math.Min(math.Max(s, 0), f.Width), 0)
	case "south":
		return geom.Pt(math.Min(math.Max(s, 0), f.Width), f.Depth)
	case "east":
		return geom.Pt(f.Width, math.Min(math.Max(s, 0), f.Depth))
	}
	return geom.Pt(0, math.Min(math.Max(s, 0), f.Depth))
}

// Along is the position of p along an edge: x for north and south, y for
// east and west.
func Along(edge string, p geom.Point) float64 {
	if edge == "north" || edge == "south" {
		return p.X
	}
	return p.Y
}

// Inward is the unit step from an edge into the table.
func Inward(edge string) geom.Point {
	switch edge {
	case "north":
		return geom.Pt(0, 1)
	case "south":
		return geom.Pt(0, -1)
	case "east":
		return geom.Pt(-1, 0)
	}
	return geom.Pt(1, 0)
}

// Contains reports whether p is on the table.
func (f Field) Contains(p geom.Point) bool { return f.Bounds().Contains(p) }
