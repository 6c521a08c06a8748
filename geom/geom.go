// Package geom measures the playing surface: the Space a scenario is played
// on (a tabletop in inches, or a hex map from geom/hex), points and
// straight-line distances, movement toward a point, and a spatial index for
// radius queries that keeps engagement checks (SPEC NB-6) from comparing
// every pair of units.
package geom

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Point is a position on the surface. On a table it is in inches, X to the
// right from the left (west) edge and Y down from the top (north) edge; on
// a hex map X and Y are the column and row of a hex as printed (see Space).
type Point struct {
	X, Y float64
}

// Pt is shorthand for Point{x, y}.
func Pt(x, y float64) Point { return Point{x, y} }

// Dist is the straight-line distance from p to q. Table and map distances
// are far from overflow, so it takes the square root of the sum of squares
// (faster than math.Hypot, which guards against overflow).
func (p Point) Dist(q Point) float64 {
	dx, dy := q.X-p.X, q.Y-p.Y
	return math.Sqrt(dx*dx + dy*dy)
}

// Dist2 is the square of the distance from p to q; it avoids a square root
// when only comparing against a range.
func (p Point) Dist2(q Point) float64 {
	dx, dy := q.X-p.X, q.Y-p.Y
	return dx*dx + dy*dy
}

// Toward moves from p straight toward q by at most d, and reports whether it
// reached q.
func (p Point) Toward(q Point, d float64) (Point, bool) {
	left := p.Dist(q)
	if left <= d {
		return q, true
	}
	f := d / left
	return Point{p.X + (q.X-p.X)*f, p.Y + (q.Y-p.Y)*f}, false
}

// Within reports whether q is at most r from p.
func (p Point) Within(q Point, r float64) bool { return p.Dist2(q) <= r*r+1e-9 }

// Round returns p with both coordinates rounded to hundredths (of an inch on
// a table), the precision of every position the engine records.
func (p Point) Round() Point {
	return Point{math.Round(p.X*100) / 100, math.Round(p.Y*100) / 100}
}

// String writes p for people, as in messages, summaries and the page:
// (12, 30.5), each coordinate rounded to a tenth (of an inch on a table),
// so that a piece dragged to (39.99, 27.99) reads (40, 28). Only the
// writing is rounded: p itself, its JSON and every measure keep their
// hundredths.
func (p Point) String() string {
	return "(" + Tenth(p.X) + ", " + Tenth(p.Y) + ")"
}

// Tenth writes f rounded to a tenth, as people read a position or a
// distance: 12, 30.5, never 29.99 or -0.
func Tenth(f float64) string {
	r := math.Round(f*10) / 10
	if r == 0 {
		r = 0 // no -0
	}
	return num(r)
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// MarshalJSON writes p as [x, y].
func (p Point) MarshalJSON() ([]byte, error) {
	return []byte("[" + num(p.X) + "," + num(p.Y) + "]"), nil
}

// JSONSchema is the schema of a point as MarshalJSON writes it, [x, y]
// (schema.Fixed).
func (Point) JSONSchema() map[string]any {
	num := map[string]any{"type": "number"}
	return map[string]any{"type": "array", "prefixItems": []any{num, num}, "items": false, "minItems": 2}
}

// UnmarshalJSON reads [x, y].
func (p *Point) UnmarshalJSON(b []byte) error {
	var xy []float64
	if err := json.Unmarshal(b, &xy); err != nil || len(xy) != 2 {
		return fmt.Errorf("a point is [x, y], got %s", b)
	}
	p.X, p.Y = xy[0], xy[1]
	return nil
}

// Rect is the axis-aligned rectangle from Min to Max.
type Rect struct {
	Min, Max Point
}

// Contains reports whether p is inside r or on its border.
func (r Rect) Contains(p Point) bool {
	return p.X >= r.Min.X && p.X <= r.Max.X && p.Y >= r.Min.Y && p.Y <= r.Max.Y
}
