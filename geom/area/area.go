// Package area measures terrain on a table: polygons (woods, a town, a
// hillside) and lines (a wall, a river, a road). It says whether a point
// lies in an area, how much of a straight move runs inside one, and how
// often a move crosses a line, which is what a tabletop rule set's
// terrain effects need (SPEC CD-3, CD-6, CD-9 read them).
package area

import (
	"fmt"
	"math"
	"slices"

	"orderly/geom"
)

// eps absorbs rounding: positions are kept to the hundredth of an inch.
const eps = 1e-9

// Polygon is a closed area, its corners in order either way round; the
// last corner joins the first.
type Polygon []geom.Point

// Line is an open chain of points.
type Line []geom.Point

// cross is the z of (b-a) x (c-a): its sign says on which side of ab c
// lies.
func cross(a, b, c geom.Point) float64 {
	return (b.X-a.X)*(c.Y-a.Y) - (b.Y-a.Y)*(c.X-a.X)
}

// onSegment reports whether p lies on segment ab.
func onSegment(p, a, b geom.Point) bool {
	if math.Abs(cross(a, b, p)) > eps*math.Max(1, a.Dist(b)) {
		return false
	}
	return p.X >= math.Min(a.X, b.X)-eps && p.X <= math.Max(a.X, b.X)+eps &&
		p.Y >= math.Min(a.Y, b.Y)-eps && p.Y <= math.Max(a.Y, b.Y)+eps
}

// Contains reports whether p lies inside the polygon or on its edge.
func (pg Polygon) Contains(p geom.Point) bool {
	n := len(pg)
	if n < 3 {
		return false
	}
	in := false
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		a, b := pg[j], pg[i]
		if onSegment(p, a, b) {
			return true
		}
		if (a.Y > p.Y) != (b.Y > p.Y) {
			x := a.X + (p.Y-a.Y)*(b.X-a.X)/(b.Y-a.Y)
			if p.X < x {
				in = !in
			}
		}
	}
	return in
}

// Area is the polygon's area in square inches.
func (pg Polygon) Area() float64 {
	s := 0.0
	for i := range pg {
		a, b := pg[i], pg[(i+1)%len(pg)]
		s += a.X*b.Y - b.X*a.Y
	}
	return math.Abs(s) / 2
}

// Bounds is the smallest rectangle that holds the points.
func bounds(ps []geom.Point) geom.Rect {
	r := geom.Rect{Min: ps[0], Max: ps[0]}
	for _, p := range ps[1:] {
		r.Min.X, r.Min.Y = math.Min(r.Min.X, p.X), math.Min(r.Min.Y, p.Y)
		r.Max.X, r.Max.Y = math.Max(r.Max.X, p.X), math.Max(r.Max.Y, p.Y)
	}
	return r
}

// Bounds is the smallest rectangle that holds the polygon.
func (pg Polygon) Bounds() geom.Rect { return bounds(pg) }

// Bounds is the smallest rectangle that holds the line.
func (l Line) Bounds() geom.Rect { return bounds(l) }

// MaxPoints bounds the corners of a polygon and the points of a line.
const MaxPoints = 1000

// Check tests the polygon: 3..MaxPoints corners, an area, and no edge
// crossing or touching another but its neighbours (a simple polygon).
func (pg Polygon) Check() error {
	n := len(pg)
	switch {
	case n < 3:
		return fmt.Errorf("an area has at least 3 corners, got %d", n)
	case n > MaxPoints:
		return fmt.Errorf("an area has at most %d corners, got %d", MaxPoints, n)
	}
	for i := range n {
		if a, b := pg[i], pg[(i+1)%n]; a.Dist(b) < eps {
			return fmt.Errorf("corners %d and %d are the same point %s", i+1, (i+1)%n+1, a)
		}
	}
	for i := range n {
		a, b := pg[i], pg[(i+1)%n]
		for j := i + 2; j < n; j++ {
			if i == 0 && j == n-1 {
				continue // the first and last edges meet at corner 1
			}
			c, d := pg[j], pg[(j+1)%n]
			if _, ok := meet(a, b, c, d); ok {
				return fmt.Errorf("its edge from corner %d to %d crosses the edge from corner %d to %d; an area's edges may not cross", i+1, (i+1)%n+1, j+1, (j+1)%n+1)
			}
		}
	}
	if pg.Area() < 1e-6 {
		return fmt.Errorf("the corners enclose no area: they lie on one line")
	}
	return nil
}

// Check tests the line: 2..MaxPoints points, none twice in a row.
func (l Line) Check() error {
	switch {
	case len(l) < 2:
		return fmt.Errorf("a line has at least 2 points, got %d", len(l))
	case len(l) > MaxPoints:
		return fmt.Errorf("a line has at most %d points, got %d", MaxPoints, len(l))
	}
	for i := 1; i < len(l); i++ {
		if l[i].Dist(l[i-1]) < eps {
			return fmt.Errorf("points %d and %d are the same point %s", i, i+1, l[i])
		}
	}
	return nil
}

// meet is where segments ab and cd meet, as the fraction of the way from
// a to b, and whether they meet; segments that overlap along a line meet
// where cd's nearer end lies on ab.
func meet(a, b, c, d geom.Point) (float64, bool) {
	d1, d2 := cross(c, d, a), cross(c, d, b)
	d3, d4 := cross(a, b, c), cross(a, b, d)
	if (d1 > eps && d2 < -eps || d1 < -eps && d2 > eps) && (d3 > eps && d4 < -eps || d3 < -eps && d4 > eps) {
		return d1 / (d1 - d2), true
	}
	best, found := 2.0, false
	for _, p := range []geom.Point{c, d} {
		if onSegment(p, a, b) {
			best, found = math.Min(best, param(a, b, p)), true
		}
	}
	for _, p := range []geom.Point{a, b} {
		if onSegment(p, c, d) {
			best, found = math.Min(best, param(a, b, p)), true
		}
	}
	return best, found
}

// param is how far along ab the point p (on it) lies, 0..1.
func param(a, b, p geom.Point) float64 {
	l2 := a.Dist2(b)
	if l2 == 0 {
		return 0
	}
	return math.Max(0, math.Min(1, ((p.X-a.X)*(b.X-a.X)+(p.Y-a.Y)*(b.Y-a.Y))/l2))
}

// Inside is how much of the straight move from a to b runs inside the
// polygon (edges count as inside), in inches.
func (pg Polygon) Inside(a, b geom.Point) float64 {
	ts := []float64{0, 1}
	n := len(pg)
	for i := range n {
		c, d := pg[i], pg[(i+1)%n]
		if t, ok := meet(a, b, c, d); ok {
			ts = append(ts, t)
		}
		if t, ok := meet(a, b, d, c); ok {
			ts = append(ts, t)
		}
	}
	slices.Sort(ts)
	length := a.Dist(b)
	in := 0.0
	for i := 1; i < len(ts); i++ {
		t0, t1 := ts[i-1], ts[i]
		if t1-t0 < eps {
			continue
		}
		m := (t0 + t1) / 2
		if pg.Contains(geom.Pt(a.X+(b.X-a.X)*m, a.Y+(b.Y-a.Y)*m)) {
			in += (t1 - t0) * length
		}
	}
	return in
}

// Crosses is how many times the straight move from a to b crosses the
// line: each place the move meets it counts once, a bend of the line
// included (a move along the line, or ending on it, counts as crossing
// it).
func (l Line) Crosses(a, b geom.Point) int { return len(l.Meets(a, b)) }

// Meets lists where the straight move from a to b meets the line, as
// fractions of the way from a to b in order, each place once (a bend of
// the line included).
func (l Line) Meets(a, b geom.Point) []float64 {
	var ts []float64
	for i := 1; i < len(l); i++ {
		if t, ok := meet(a, b, l[i-1], l[i]); ok {
			ts = append(ts, t)
		}
	}
	slices.Sort(ts)
	out := ts[:0]
	for i, t := range ts {
		if i == 0 || t-ts[i-1] > 1e-7 { // through a bend of the line: once
			out = append(out, t)
		}
	}
	return out
}

// Dist is the distance from p to the nearest point of the line.
func (l Line) Dist(p geom.Point) float64 {
	best := math.Inf(1)
	for i := 1; i < len(l); i++ {
		a, b := l[i-1], l[i]
		t := param(a, b, p)
		q := geom.Pt(a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t)
		best = math.Min(best, p.Dist(q))
	}
	return best
}
