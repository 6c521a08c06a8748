// Package foot measures units that stand on a table as rectangles: the
// closest distance between two of them, and the arcs ahead of and behind
// a unit (SPEC BP readings: footprint, proximity, arcs, BP-7 moves).
//
// Table positions are inches with x to the east and y to the south, so
// north is -y; a facing is in degrees clockwise from north.
package foot

import (
	"cmp"
	"math"
	"slices"

	"orderly/geom"
)

// Foot is a unit's footprint: a rectangle Width wide and Depth deep,
// placed by the centre of its front edge and the way it faces.
type Foot struct {
	At     geom.Point // the centre of the front edge
	Facing float64    // degrees clockwise from north
	Width  float64
	Depth  float64
}

// Ahead is the unit vector straight ahead of f.
func (f Foot) Ahead() geom.Point {
	sin, cos := math.Sincos(f.Facing * math.Pi / 180)
	return geom.Pt(sin, -cos)
}

// right is the unit vector to f's right, along its front edge.
func (f Foot) right() geom.Point {
	a := f.Ahead()
	return geom.Pt(-a.Y, a.X)
}

// local is p in f's own frame: u ahead of the front edge (negative behind
// it), v to the right of the centre line.
func (f Foot) local(p geom.Point) (u, v float64) { return f.localIn(f.Ahead(), p) }

// localIn is local with f's ahead vector a worked out already.
func (f Foot) localIn(a, p geom.Point) (u, v float64) {
	d := geom.Pt(p.X-f.At.X, p.Y-f.At.Y)
	return d.X*a.X + d.Y*a.Y, -d.X*a.Y + d.Y*a.X
}

// Corners are f's corners: front left, front right, rear right, rear
// left, in order around the rectangle.
func (f Foot) Corners() [4]geom.Point {
	a := f.Ahead()
	r := geom.Pt(-a.Y, a.X)
	hw := f.Width / 2
	at := func(u, v float64) geom.Point { return geom.Pt(f.At.X+u*a.X+v*r.X, f.At.Y+u*a.Y+v*r.Y) }
	return [4]geom.Point{at(0, -hw), at(0, hw), at(-f.Depth, hw), at(-f.Depth, -hw)}
}

// Contains reports whether p is on or inside f.
func (f Foot) Contains(p geom.Point) bool {
	u, v := f.local(p)
	return u <= eps && u >= -f.Depth-eps && math.Abs(v) <= f.Width/2+eps
}

// eps absorbs rounding in the comparisons of this package: a thousandth
// of a hair, far below what a tape measure tells apart.
const eps = 1e-9

// DistTo is the distance from p to the closest part of f; 0 inside it.
func (f Foot) DistTo(p geom.Point) float64 { return f.distIn(f.Ahead(), p) }

// distIn is DistTo with f's ahead vector a worked out already.
func (f Foot) distIn(a, p geom.Point) float64 {
	u, v := f.localIn(a, p)
	du := max(u, -f.Depth-u, 0)
	dv := max(math.Abs(v)-f.Width/2, 0)
	if du == 0 {
		return dv
	}
	if dv == 0 {
		return du
	}
	return math.Sqrt(du*du + dv*dv)
}

// Dist is the closest distance between f and g: 0 when they touch or
// overlap.
func (f Foot) Dist(g Foot) float64 {
	fc, gc := f.Corners(), g.Corners()
	if overlap(fc, gc) {
		return 0
	}
	d := math.Inf(1)
	fa, ga := f.Ahead(), g.Ahead()
	for _, p := range gc {
		d = min(d, f.distIn(fa, p))
	}
	for _, p := range fc {
		d = min(d, g.distIn(ga, p))
	}
	return d
}

// overlap reports whether two rectangles given by their corners in order
// share any point, by the separating axis test.
func overlap(a, b [4]geom.Point) bool {
	for _, poly := range [2][4]geom.Point{a, b} {
		for i := range 2 { // a rectangle has two edge directions
			e := geom.Pt(poly[i+1].X-poly[i].X, poly[i+1].Y-poly[i].Y)
			n := geom.Pt(-e.Y, e.X)
			amin, amax := span(a, n)
			bmin, bmax := span(b, n)
			if amax < bmin-eps || bmax < amin-eps {
				return false
			}
		}
	}
	return true
}

func span(poly [4]geom.Point, n geom.Point) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range poly {
		d := p.X*n.X + p.Y*n.Y
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
}

// Within reports whether g is within d of f: the closest distance is at
// most d, exactly d included (SPEC BP: proximity is within 12").
func (f Foot) Within(g Foot, d float64) bool { return f.Dist(g) <= d+eps }

// Arc is one of the regions around a unit.
type Arc int

// The arcs: ahead of the front edge, behind the rear edge, and the flanks
// between them.
const (
	Flank Arc = iota
	Front
	Rear
)

// ArcOf is the arc of f that p lies in, the front and rear arcs opening
// at half degrees outward from straight ahead and straight back at each
// end of the front and rear edges (45 in the source's game; data).
func (f Foot) ArcOf(p geom.Point, half float64) Arc {
	u, v := f.local(p)
	t := math.Tan(half * math.Pi / 180)
	switch {
	case u >= -eps && math.Abs(v) <= f.Width/2+u*t+eps:
		return Front
	case -f.Depth-u >= -eps && math.Abs(v) <= f.Width/2+(-f.Depth-u)*t+eps:
		return Rear
	}
	return Flank
}

// InArc is the share of g's area that lies in arc (Front or Rear) of f:
// 0 when g is wholly outside it, 1 when wholly inside. A unit with any
// share in the front arc is in it; one with half or more outside is a
// not-clear target (SPEC BP-5).
func (f Foot) InArc(g Foot, arc Arc, half float64) float64 {
	total := g.Width * g.Depth
	if total <= 0 || arc == Flank {
		return 0
	}
	// Clip g's rectangle, in f's frame, by the half-planes that bound
	// the arc.
	gc := g.Corners()
	poly := make([]geom.Point, 0, 8)
	for _, p := range gc {
		u, v := f.local(p)
		if arc == Rear {
			u = -f.Depth - u // measured back from the rear edge
		}
		poly = append(poly, geom.Pt(u, v))
	}
	t := math.Tan(half * math.Pi / 180)
	hw := f.Width / 2
	// u >= 0; v <= hw + u t; -v <= hw + u t; each as a·p <= c.
	for _, h := range [3]struct{ a, b, c float64 }{{-1, 0, 0}, {-t, 1, hw}, {-t, -1, hw}} {
		poly = clip(poly, h.a, h.b, h.c)
		if len(poly) == 0 {
			return 0
		}
	}
	return min(1, area(poly)/total)
}

// clip keeps the part of the convex polygon poly where a x + b y <= c.
func clip(poly []geom.Point, a, b, c float64) []geom.Point {
	var out []geom.Point
	in := func(p geom.Point) bool { return a*p.X+b*p.Y <= c+eps }
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		pin, qin := in(p), in(q)
		if pin {
			out = append(out, p)
		}
		if pin != qin {
			dp, dq := a*p.X+b*p.Y-c, a*q.X+b*q.Y-c
			s := dp / (dp - dq)
			out = append(out, geom.Pt(p.X+s*(q.X-p.X), p.Y+s*(q.Y-p.Y)))
		}
	}
	return out
}

// area is the area of a simple polygon.
func area(poly []geom.Point) float64 {
	s := 0.0
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		s += p.X*q.Y - q.X*p.Y
	}
	return math.Abs(s) / 2
}

// Moves reports whether a move by d from where f stands keeps to the arcs
// a unit in proximity of the enemy is held to (SPEC BP-7): forward, at most
// half degrees from straight ahead, or back, at most half degrees from
// straight back. A move of no length keeps to them.
func (f Foot) Moves(d geom.Point, half float64) bool {
	n := math.Hypot(d.X, d.Y)
	if n <= eps {
		return true
	}
	a := f.Ahead()
	cos := (d.X*a.X + d.Y*a.Y) / n
	lim := math.Cos(half*math.Pi/180) - eps
	return cos >= lim || -cos >= lim
}

// Sweeps reports whether f, moved straight to to (keeping its facing),
// touches or crosses g anywhere on the way: the ground it sweeps, the
// convex hull of where it starts and ends, shares a point with g. By the
// separating axis test over the hull's edge directions (f's two and the
// way's) and g's two.
func (f Foot) Sweeps(to geom.Point, g Foot) bool {
	fc := f.Corners()
	m := f
	m.At = to
	tc := m.Corners()
	var hull [8]geom.Point
	copy(hull[:4], fc[:])
	copy(hull[4:], tc[:])
	gc := g.Corners()
	d := geom.Pt(to.X-f.At.X, to.Y-f.At.Y)
	axes := [5]geom.Point{
		geom.Pt(fc[1].X-fc[0].X, fc[1].Y-fc[0].Y), geom.Pt(fc[2].X-fc[1].X, fc[2].Y-fc[1].Y),
		geom.Pt(gc[1].X-gc[0].X, gc[1].Y-gc[0].Y), geom.Pt(gc[2].X-gc[1].X, gc[2].Y-gc[1].Y),
		geom.Pt(-d.Y, d.X),
	}
	for _, n := range axes {
		if n.X == 0 && n.Y == 0 {
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range hull {
			v := p.X*n.X + p.Y*n.Y
			lo, hi = min(lo, v), max(hi, v)
		}
		glo, ghi := span(gc, n)
		if hi < glo-eps || ghi < lo-eps {
			return false
		}
	}
	return true
}

// Meets is how far f goes on its straight way to to, keeping its facing,
// before it first touches g: the share of the way (0 to 1) it covers
// without touching g, and whether it touches g at all on the way (Sweeps).
// A unit that touches g where it stands goes no way at all.
func (f Foot) Meets(to geom.Point, g Foot) (float64, bool) {
	if !f.Sweeps(to, g) {
		return 1, false
	}
	if f.Dist(g) <= eps {
		return 0, true
	}
	// The ground swept grows with the share of the way gone: the first
	// touch is found by halving.
	d := geom.Pt(to.X-f.At.X, to.Y-f.At.Y)
	lo, hi := 0.0, 1.0
	for range 50 {
		mid := (lo + hi) / 2
		if f.Sweeps(geom.Pt(f.At.X+d.X*mid, f.At.Y+d.Y*mid), g) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo, true
}

// Across is how much of g's frontage f moves across on its straight way to
// to, keeping its facing, within ahead of g's front edge (SPEC BP-5,
// traversing fire). The ground f sweeps (the convex hull of where it
// starts and ends) is cut to the band from g's front edge to ahead in
// front of it and laid along g's front edge; of the part of the front
// edge it covers, the lanes (lines straight ahead of g) that f covers both
// where it starts and where it ends do not count: f moved along them, not
// across them, as a unit coming straight on does.
func (f Foot) Across(to geom.Point, g Foot, ahead float64) float64 {
	m := f
	m.At = to
	fc, tc := f.Corners(), m.Corners()
	ga := g.Ahead()
	var pts [8]geom.Point
	for i := range 4 {
		u, v := g.localIn(ga, fc[i])
		pts[i] = geom.Pt(u, v)
		u, v = g.localIn(ga, tc[i])
		pts[4+i] = geom.Pt(u, v)
	}
	// Each footprint's lanes, from side to side (v).
	lanes := func(ps []geom.Point) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, p := range ps {
			lo, hi = min(lo, p.Y), max(hi, p.Y)
		}
		return lo, hi
	}
	slo, shi := lanes(pts[:4])
	elo, ehi := lanes(pts[4:])
	// The swept ground in the band 0 <= u <= ahead.
	poly := hull(pts[:])
	for _, h := range [2]struct{ a, b, c float64 }{{-1, 0, 0}, {1, 0, ahead}} {
		if poly = clip(poly, h.a, h.b, h.c); len(poly) == 0 {
			return 0
		}
	}
	lo, hi := lanes(poly)
	hw := g.Width / 2
	lo, hi = max(lo, -hw), min(hi, hw)
	if hi <= lo {
		return 0
	}
	// Less the lanes covered where it starts and where it ends.
	klo, khi := max(lo, slo, elo), min(hi, shi, ehi)
	return (hi - lo) - max(0, khi-klo)
}

// hull is the convex hull of ps, in order around it (Andrew's monotone
// chain); ps is sorted in place.
func hull(ps []geom.Point) []geom.Point {
	slices.SortFunc(ps, func(a, b geom.Point) int {
		if c := cmp.Compare(a.X, b.X); c != 0 {
			return c
		}
		return cmp.Compare(a.Y, b.Y)
	})
	cross := func(o, a, b geom.Point) float64 { return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X) }
	out := make([]geom.Point, 0, 2*len(ps))
	for _, p := range ps { // lower
		for len(out) >= 2 && cross(out[len(out)-2], out[len(out)-1], p) <= 0 {
			out = out[:len(out)-1]
		}
		out = append(out, p)
	}
	for i, n := len(ps)-2, len(out)+1; i >= 0; i-- { // upper
		for len(out) >= n && cross(out[len(out)-2], out[len(out)-1], ps[i]) <= 0 {
			out = out[:len(out)-1]
		}
		out = append(out, ps[i])
	}
	return out[:len(out)-1]
}
