// Package hex measures a hex map: cells in axial coordinates, the
// column-row labels printed on wargame maps, distance, neighbours, the
// hexside two cells share, the line between two cells, the least-cost path
// over costs to enter cells and to cross hexsides, and every cell reachable
// within a budget. The hex-map rule sets measure through it (SPEC NES-2,
// NES-7 and LOB-2 count hexes; NES-7 prices hexes and hexsides). The maths
// follows the well-known cube-coordinate treatment of hex grids.
package hex

import (
	"fmt"
	"math"
)

// Hex is a cell in axial coordinates: Q counts columns, R rows along the
// other axis, and the third cube coordinate is S = -Q-R.
type Hex struct{ Q, R int }

// S is the third cube coordinate.
func (h Hex) S() int { return -h.Q - h.R }

// Add is h moved by d.
func (h Hex) Add(d Hex) Hex { return Hex{h.Q + d.Q, h.R + d.R} }

// Sub is the step from o to h.
func (h Hex) Sub(o Hex) Hex { return Hex{h.Q - o.Q, h.R - o.R} }

func (h Hex) String() string { return fmt.Sprintf("(%d,%d)", h.Q, h.R) }

// Distance is the number of steps from a to b, each to a neighbour.
func Distance(a, b Hex) int {
	d := a.Sub(b)
	return (abs(d.Q) + abs(d.R) + abs(d.S())) / 2
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// directions are the six steps to a neighbour, in a fixed order: +Q, then
// on round the cell.
var directions = [6]Hex{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}

// Neighbour is the cell next to h in direction d (0..5, taken modulo 6).
func (h Hex) Neighbour(d int) Hex { return h.Add(directions[((d%6)+6)%6]) }

// Neighbours are the six cells next to h, in direction order.
func (h Hex) Neighbours() [6]Hex {
	var out [6]Hex
	for d := range directions {
		out[d] = h.Add(directions[d])
	}
	return out
}

// Adjacent reports whether a and b share a hexside.
func Adjacent(a, b Hex) bool { return Distance(a, b) == 1 }

// Side is a hexside: the edge two neighbouring cells share. It is the same
// value whichever of the two names it, so a map can key a river or a road
// crossing by it.
type Side struct{ A, B Hex }

// SideOf is the hexside between a and b, or false if they are not
// neighbours.
func SideOf(a, b Hex) (Side, bool) {
	if !Adjacent(a, b) {
		return Side{}, false
	}
	if b.Q < a.Q || b.Q == a.Q && b.R < a.R {
		a, b = b, a
	}
	return Side{a, b}, true
}

// Side is the hexside of h in direction d.
func (h Hex) Side(d int) Side {
	s, _ := SideOf(h, h.Neighbour(d))
	return s
}

func (s Side) String() string { return s.A.String() + "|" + s.B.String() }

// Line is the cells a straight line from the centre of a to the centre of
// b passes through, a first and b last: Distance(a, b)+1 cells, each a
// neighbour of the one before. Where the line runs exactly along a
// hexside, it takes the cell on the same side every time (the line is
// nudged by a tiny constant), so the answer never depends on rounding.
func Line(a, b Hex) []Hex {
	n := Distance(a, b)
	out := make([]Hex, 0, n+1)
	const nudge = 1e-6
	aq, ar := float64(a.Q)+nudge, float64(a.R)+nudge
	bq, br := float64(b.Q)+nudge, float64(b.R)+nudge
	for i := 0; i <= n; i++ {
		t := 0.0
		if n > 0 {
			t = float64(i) / float64(n)
		}
		out = append(out, round(aq+(bq-aq)*t, ar+(br-ar)*t))
	}
	return out
}

// round is the cell whose centre is nearest the fractional axial point.
func round(q, r float64) Hex {
	s := -q - r
	rq, rr, rs := math.Round(q), math.Round(r), math.Round(s)
	dq, dr, ds := math.Abs(rq-q), math.Abs(rr-r), math.Abs(rs-s)
	switch {
	case dq > dr && dq > ds:
		rq = -rr - rs
	case dr > ds:
		rr = -rq - rs
	}
	return Hex{int(rq), int(rr)}
}

// Ring is the cells at distance n from centre, in direction order
// starting from the cell n steps in direction 4; n = 0 is the centre alone.
func Ring(centre Hex, n int) []Hex {
	if n <= 0 {
		return []Hex{centre}
	}
	out := make([]Hex, 0, 6*n)
	h := centre
	for range n {
		h = h.Neighbour(4)
	}
	for d := range 6 {
		for range n {
			out = append(out, h)
			h = h.Neighbour(d)
		}
	}
	return out
}

// nudges push a line off a hexside it runs along, one way or the other:
// the direction (1, 2, -3) in cube coordinates lies along no hexside.
var nudges = [2][2]float64{{1e-6, 2e-6}, {-1e-6, -2e-6}}

// Along is the cell n steps from a along the straight line from the
// centre of a through the centre of b, which may lie beyond b (n more
// than Distance(a, b)) or short of it; n = Distance(a, b) is b itself,
// and a == b gives a. Where the line runs along a hexside it takes the
// first of Lines' two sides.
func Along(a, b Hex, n int) Hex {
	d := Distance(a, b)
	if d == 0 {
		return a
	}
	t := float64(n) / float64(d)
	e := nudges[0]
	aq, ar := float64(a.Q)+e[0], float64(a.R)+e[1]
	bq, br := float64(b.Q)+e[0], float64(b.R)+e[1]
	return round(aq+(bq-aq)*t, ar+(br-ar)*t)
}

// Lines is the cells a straight line from a to b passes through, twice:
// where it runs exactly along a hexside, the first takes the cells on one
// side and the second those on the other (elsewhere they are the same). A
// rule that counts a line along a hexside as blocked only if both sides
// block it looks at both. Each has Distance(a, b)+1 cells, a first.
func Lines(a, b Hex) [2][]Hex {
	n := Distance(a, b)
	var out [2][]Hex
	for k, e := range nudges {
		cells := make([]Hex, 0, n+1)
		aq, ar := float64(a.Q)+e[0], float64(a.R)+e[1]
		bq, br := float64(b.Q)+e[0], float64(b.R)+e[1]
		for i := 0; i <= n; i++ {
			t := 0.0
			if n > 0 {
				t = float64(i) / float64(n)
			}
			cells = append(cells, round(aq+(bq-aq)*t, ar+(br-ar)*t))
		}
		out[k] = cells
	}
	return out
}
