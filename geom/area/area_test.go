package area_test

import (
	"math"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"orderly/geom"
	"orderly/geom/area"
)

func pts(xy ...float64) []geom.Point {
	var out []geom.Point
	for i := 0; i+1 < len(xy); i += 2 {
		out = append(out, geom.Pt(xy[i], xy[i+1]))
	}
	return out
}

// TestContains: a square and an L-shaped area, inside, outside and on the
// edge.
func TestContains(t *testing.T) {
	sq := area.Polygon(pts(0, 0, 10, 0, 10, 10, 0, 10))
	ell := area.Polygon(pts(0, 0, 10, 0, 10, 4, 4, 4, 4, 10, 0, 10))
	for _, c := range []struct {
		pg   area.Polygon
		p    geom.Point
		want bool
	}{
		{sq, geom.Pt(5, 5), true}, {sq, geom.Pt(0, 5), true}, {sq, geom.Pt(10, 10), true}, {sq, geom.Pt(10.01, 5), false},
		{ell, geom.Pt(2, 8), true}, {ell, geom.Pt(8, 2), true}, {ell, geom.Pt(8, 8), false}, {ell, geom.Pt(4, 7), true},
	} {
		if got := c.pg.Contains(c.p); got != c.want {
			t.Errorf("%v contains %v: %v, want %v", c.pg, c.p, got, c.want)
		}
	}
}

// TestInsideKnown: how much of a move runs in an area, by hand.
func TestInsideKnown(t *testing.T) {
	sq := area.Polygon(pts(10, 10, 20, 10, 20, 20, 10, 20))
	ell := area.Polygon(pts(0, 0, 10, 0, 10, 4, 4, 4, 4, 10, 0, 10))
	for _, c := range []struct {
		pg   area.Polygon
		a, b geom.Point
		want float64
	}{
		{sq, geom.Pt(0, 15), geom.Pt(30, 15), 10},
		{sq, geom.Pt(15, 15), geom.Pt(15, 30), 5},
		{sq, geom.Pt(0, 0), geom.Pt(30, 30), 10 * math.Sqrt2},
		{sq, geom.Pt(0, 5), geom.Pt(30, 5), 0},
		{sq, geom.Pt(10, 0), geom.Pt(10, 30), 10}, // along an edge
		{ell, geom.Pt(2, 12), geom.Pt(2, -2), 10},
		{ell, geom.Pt(-1, 7), geom.Pt(12, 7), 4},  // through the upright of the L only
		{ell, geom.Pt(-1, 2), geom.Pt(12, 2), 10}, // along the foot
	} {
		if got := c.pg.Inside(c.a, c.b); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%v from %v to %v: %v inside, want %v", c.pg, c.a, c.b, got, c.want)
		}
	}
}

// star draws a simple polygon: corners at increasing angles round a
// centre, each at its own radius (star-shaped, so its edges never cross).
func star(t *rapid.T) area.Polygon {
	n := rapid.IntRange(3, 12).Draw(t, "corners")
	var angles []float64
	for range n {
		angles = append(angles, rapid.Float64Range(0, 2*math.Pi).Draw(t, "angle"))
	}
	sort.Float64s(angles)
	var pg area.Polygon
	for i, a := range angles {
		if i > 0 && a-angles[i-1] < 0.05 {
			continue
		}
		r := rapid.Float64Range(2, 20).Draw(t, "radius")
		pg = append(pg, geom.Pt(30+r*math.Cos(a), 30+r*math.Sin(a)))
	}
	if len(pg) < 3 || pg.Check() != nil {
		t.Skip("degenerate")
	}
	return pg
}

// TestInsideAgainstSampling: the length of a move inside a random simple
// area agrees with sampling 20,000 points along it.
func TestInsideAgainstSampling(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pg := star(t)
		a := geom.Pt(rapid.Float64Range(0, 60).Draw(t, "ax"), rapid.Float64Range(0, 60).Draw(t, "ay"))
		b := geom.Pt(rapid.Float64Range(0, 60).Draw(t, "bx"), rapid.Float64Range(0, 60).Draw(t, "by"))
		const n = 20000
		in := 0
		for i := range n {
			f := (float64(i) + 0.5) / n
			if pg.Contains(geom.Pt(a.X+(b.X-a.X)*f, a.Y+(b.Y-a.Y)*f)) {
				in++
			}
		}
		want := float64(in) / n * a.Dist(b)
		if got := pg.Inside(a, b); math.Abs(got-want) > a.Dist(b)*0.002+1e-6 {
			t.Fatalf("%v from %v to %v: %v inside, sampling says %v", pg, a, b, got, want)
		}
	})
}

// TestCheck: an area needs three corners, an area, and edges that do not
// cross; a line two points.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		pg   area.Polygon
		want string
	}{
		{area.Polygon(pts(0, 0, 1, 1)), "at least 3 corners"},
		{area.Polygon(pts(0, 0, 1, 1, 2, 2)), "no area"},
		{area.Polygon(pts(0, 0, 10, 10, 10, 0, 0, 10)), "crosses"},
		{area.Polygon(pts(0, 0, 10, 0, 10, 0, 0, 10)), "same point"},
	} {
		if err := c.pg.Check(); err == nil || !contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error with %q", c.pg, err, c.want)
		}
	}
	if err := area.Polygon(pts(0, 0, 10, 0, 10, 4, 4, 4, 4, 10, 0, 10)).Check(); err != nil {
		t.Errorf("an L: %v", err)
	}
	if err := area.Line(pts(0, 0)).Check(); err == nil {
		t.Error("a line of one point is accepted")
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestCrosses: a wall crossed once, twice, through a bend (once), missed;
// the distance to it.
func TestCrosses(t *testing.T) {
	wall := area.Line(pts(10, 0, 10, 10, 20, 10))
	for _, c := range []struct {
		a, b geom.Point
		want int
	}{
		{geom.Pt(5, 5), geom.Pt(15, 5), 1},
		{geom.Pt(5, 5), geom.Pt(15, 15), 1}, // through the bend at (10, 10)
		{geom.Pt(5, 8), geom.Pt(15, 12), 1},
		{geom.Pt(12, 5), geom.Pt(12, 15), 1},
		{geom.Pt(5, 5), geom.Pt(9, 5), 0},
		{geom.Pt(5, 12), geom.Pt(25, 12), 0},
		{geom.Pt(5, 4), geom.Pt(15, 4), 1},
	} {
		if got := wall.Crosses(c.a, c.b); got != c.want {
			t.Errorf("from %v to %v: %d crossings, want %d", c.a, c.b, got, c.want)
		}
	}
	if d := wall.Dist(geom.Pt(15, 13)); math.Abs(d-3) > 1e-9 {
		t.Errorf("distance %v, want 3", d)
	}
}
