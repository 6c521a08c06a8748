package foot

import (
	"math"
	"testing"

	"orderly/geom"

	"pgregory.net/rapid"
)

// Two battalions 4" wide and 2" deep face each other 12" apart, front edge
// to front edge: exactly 12" is in proximity, a hair more is not (SPEC BP
// readings: proximity).
func TestProximityAtExactly12(t *testing.T) {
	a := Foot{At: geom.Pt(30, 30), Facing: 0, Width: 4, Depth: 2}
	for _, c := range []struct {
		b    Foot
		dist float64
		near bool
	}{
		{Foot{At: geom.Pt(30, 18), Facing: 180, Width: 4, Depth: 2}, 12, true},
		{Foot{At: geom.Pt(30, 17.99), Facing: 180, Width: 4, Depth: 2}, 12.01, false},
		// Side by side, 12" between the flanks.
		{Foot{At: geom.Pt(46, 30), Facing: 0, Width: 4, Depth: 2}, 12, true},
		// Behind, rear edge to front edge.
		{Foot{At: geom.Pt(30, 44), Facing: 0, Width: 4, Depth: 2}, 12, true},
		// Corner to corner: 9" across and 12" forward of the corners.
		{Foot{At: geom.Pt(43, 16), Facing: 0, Width: 4, Depth: 2}, 15, false},
		// Overlapping: no distance at all.
		{Foot{At: geom.Pt(31, 31), Facing: 90, Width: 4, Depth: 2}, 0, true},
	} {
		if d := a.Dist(c.b); math.Abs(d-c.dist) > 1e-9 {
			t.Errorf("%+v: distance %v, want %v", c.b, d, c.dist)
		}
		if got := a.Within(c.b, 12); got != c.near {
			t.Errorf("%+v: within 12 = %v, want %v", c.b, got, c.near)
		}
	}
}

// A unit 4" wide facing north: its front arc opens 45 degrees from each end
// of the front edge, the rear arc from each end of the rear edge.
func TestArcs(t *testing.T) {
	f := Foot{At: geom.Pt(0, 0), Facing: 0, Width: 4, Depth: 2}
	for _, c := range []struct {
		p    geom.Point
		want Arc
	}{
		{geom.Pt(0, -10), Front},
		{geom.Pt(12, -10), Front}, // on the 45-degree line from the right front corner
		{geom.Pt(12.01, -10), Flank},
		{geom.Pt(-12, -10), Front},
		{geom.Pt(2, 0), Front}, // the front corner itself
		{geom.Pt(5, -1), Flank},
		{geom.Pt(0, 12), Rear},
		{geom.Pt(12, 12), Rear}, // 10" behind the rear edge, 10" out from its corner
		{geom.Pt(12.01, 12), Flank},
		{geom.Pt(3, 1), Flank},
	} {
		if got := f.ArcOf(c.p, 45); got != c.want {
			t.Errorf("%v is in arc %v, want %v", c.p, got, c.want)
		}
	}
	// Facing east, the front arc is to the east.
	e := Foot{At: geom.Pt(0, 0), Facing: 90, Width: 4, Depth: 2}
	if got := e.ArcOf(geom.Pt(10, 0), 45); got != Front {
		t.Errorf("facing east, (10, 0) is in arc %v, want front", got)
	}
	if got := e.ArcOf(geom.Pt(-10, 0), 45); got != Rear {
		t.Errorf("facing east, (-10, 0) is in arc %v, want rear", got)
	}
}

// A target wholly ahead is wholly in the front arc; one straddling the
// arc's edge half in, half out; one on the flank not at all.
func TestInArc(t *testing.T) {
	f := Foot{At: geom.Pt(0, 0), Facing: 0, Width: 4, Depth: 2}
	for _, c := range []struct {
		g    Foot
		want float64
	}{
		{Foot{At: geom.Pt(0, -10), Facing: 180, Width: 4, Depth: 2}, 1},
		// A square target 2" across whose diagonal from (21, -19) to
		// (23, -21) lies on the arc's right edge (x = 2 - y): half in.
		{Foot{At: geom.Pt(22, -21), Facing: 0, Width: 2, Depth: 2}, 0.5},
		{Foot{At: geom.Pt(20, 0), Facing: 0, Width: 2, Depth: 2}, 0},
	} {
		if got := f.InArc(c.g, Front, 45); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%+v: share in the front arc %v, want %v", c.g, got, c.want)
		}
	}
}

// Within proximity a unit moves forward into its front arc or back into
// its rear arc, at most 45 degrees off (SPEC BP-7).
func TestMoves(t *testing.T) {
	f := Foot{At: geom.Pt(0, 0), Facing: 0, Width: 4, Depth: 2}
	for _, c := range []struct {
		d    geom.Point
		want bool
	}{
		{geom.Pt(0, -3), true},
		{geom.Pt(3, -3), true}, // exactly 45 degrees
		{geom.Pt(3.01, -3), false},
		{geom.Pt(0, 6), true}, // straight back
		{geom.Pt(-2, 2), true},
		{geom.Pt(3, 0), false}, // sideways
		{geom.Pt(0, 0), true},
	} {
		if got := f.Moves(c.d, 45); got != c.want {
			t.Errorf("move by %v: %v, want %v", c.d, got, c.want)
		}
	}
}

func drawFoot(t *rapid.T, name string) Foot {
	return Foot{
		At:     geom.Pt(rapid.Float64Range(-30, 30).Draw(t, name+"x"), rapid.Float64Range(-30, 30).Draw(t, name+"y")),
		Facing: rapid.Float64Range(0, 360).Draw(t, name+"facing"),
		Width:  rapid.Float64Range(0.5, 12).Draw(t, name+"w"),
		Depth:  rapid.Float64Range(0.5, 6).Draw(t, name+"d"),
	}
}

// boundary samples points along f's edges, n to an edge.
func boundary(f Foot, n int) []geom.Point {
	c := f.Corners()
	var out []geom.Point
	for i := range 4 {
		p, q := c[i], c[(i+1)%4]
		for k := range n {
			s := float64(k) / float64(n)
			out = append(out, geom.Pt(p.X+s*(q.X-p.X), p.Y+s*(q.Y-p.Y)))
		}
	}
	return out
}

// TestDistMatchesSampling checks the closest distance against the closest
// of many sampled points on both outlines, and that it is symmetric and
// unchanged by turning and moving the whole picture.
func TestDistMatchesSampling(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, g := drawFoot(t, "f"), drawFoot(t, "g")
		d := f.Dist(g)
		if e := g.Dist(f); math.Abs(d-e) > 1e-9 {
			t.Fatalf("not symmetric: %v and %v", d, e)
		}
		const n = 60
		best := math.Inf(1)
		fb, gb := boundary(f, n), boundary(g, n)
		inside := false
		for _, p := range fb {
			inside = inside || g.Contains(p)
			for _, q := range gb {
				best = min(best, p.Dist(q))
			}
		}
		for _, q := range gb {
			inside = inside || f.Contains(q)
		}
		if inside && d != 0 {
			t.Fatalf("the outlines cross or one holds the other, yet the distance is %v", d)
		}
		step := max(f.Width, f.Depth, g.Width, g.Depth) / n
		if !inside && (d > best+1e-9 || d < best-step) {
			t.Fatalf("distance %v, sampled closest %v (step %v)", d, best, step)
		}
		// The same picture turned by a and moved by m.
		a := rapid.Float64Range(0, 360).Draw(t, "turn")
		m := geom.Pt(rapid.Float64Range(-50, 50).Draw(t, "mx"), rapid.Float64Range(-50, 50).Draw(t, "my"))
		tf, tg := turn(f, a, m), turn(g, a, m)
		if e := tf.Dist(tg); math.Abs(d-e) > 1e-6 {
			t.Fatalf("turned and moved, the distance is %v, not %v", e, d)
		}
	})
}

// turn turns f about the origin by a degrees clockwise, then moves it by m.
func turn(f Foot, a float64, m geom.Point) Foot {
	r := a * math.Pi / 180
	// Clockwise on the screen with y to the south is the usual rotation
	// formula in these coordinates.
	x, y := f.At.X*math.Cos(r)-f.At.Y*math.Sin(r), f.At.X*math.Sin(r)+f.At.Y*math.Cos(r)
	f.At = geom.Pt(x+m.X, y+m.Y)
	f.Facing = math.Mod(f.Facing+a, 360)
	return f
}

// TestInArcMatchesSampling checks the share of a unit in an arc against
// the share of points spread over it that ArcOf puts there.
func TestInArcMatchesSampling(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, g := drawFoot(t, "f"), drawFoot(t, "g")
		half := rapid.Float64Range(10, 80).Draw(t, "half")
		for _, arc := range []Arc{Front, Rear} {
			share := f.InArc(g, arc, half)
			if share < 0 || share > 1 {
				t.Fatalf("share %v outside 0..1", share)
			}
			const n = 40
			in := 0
			a, r := g.Ahead(), g.right()
			for i := range n {
				for j := range n {
					u := -g.Depth * (float64(i) + 0.5) / n
					v := g.Width * ((float64(j)+0.5)/n - 0.5)
					p := geom.Pt(g.At.X+u*a.X+v*r.X, g.At.Y+u*a.Y+v*r.Y)
					if f.ArcOf(p, half) == arc {
						in++
					}
				}
			}
			// Each sample stands for 1/n² of the area; along the arc's
			// edges the count can be off by about a row or column.
			if got := float64(in) / (n * n); math.Abs(got-share) > 3.0/n {
				t.Fatalf("arc %v: share %v, sampled %v", arc, share, got)
			}
		}
		if s := f.InArc(g, Front, half) + f.InArc(g, Rear, half); s > 1+1e-9 {
			t.Fatalf("front and rear shares add up to %v", s)
		}
	})
}

// TestSweepsAgreesWithSampling checks Sweeps against the footprint tested
// at many points of the way.
func TestSweepsAgreesWithSampling(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f := Foot{At: geom.Pt(rapid.Float64Range(0, 40).Draw(t, "fx"), rapid.Float64Range(0, 40).Draw(t, "fy")),
			Facing: rapid.Float64Range(0, 360).Draw(t, "ff"), Width: rapid.Float64Range(1, 8).Draw(t, "fw"), Depth: rapid.Float64Range(1, 4).Draw(t, "fd")}
		g := Foot{At: geom.Pt(rapid.Float64Range(0, 40).Draw(t, "gx"), rapid.Float64Range(0, 40).Draw(t, "gy")),
			Facing: rapid.Float64Range(0, 360).Draw(t, "gf"), Width: rapid.Float64Range(1, 8).Draw(t, "gw"), Depth: rapid.Float64Range(1, 4).Draw(t, "gd")}
		to := geom.Pt(rapid.Float64Range(0, 40).Draw(t, "tx"), rapid.Float64Range(0, 40).Draw(t, "ty"))
		const n = 2000
		hit, near := false, false
		for k := 0; k <= n; k++ {
			m := f
			s := float64(k) / n
			m.At = geom.Pt(f.At.X+(to.X-f.At.X)*s, f.At.Y+(to.Y-f.At.Y)*s)
			d := m.Dist(g)
			hit = hit || d == 0
			near = near || d < 0.05 // within a sampling step of touching
		}
		got := f.Sweeps(to, g)
		if hit && !got {
			t.Fatalf("the way touches g at a sample but Sweeps says no")
		}
		if got && !near {
			t.Fatalf("Sweeps says the way touches g but no sample comes within 0.05")
		}
	})
}

// A battalion 4" wide and 2" deep marches 20" north at one 4" wide facing
// it 10" ahead, front to front: it goes 10" of its way, half, and stops
// touching; sent off to the side it never meets it; touching already, it
// goes nowhere.
func TestMeets(t *testing.T) {
	a := Foot{At: geom.Pt(30, 30), Facing: 0, Width: 4, Depth: 2}
	b := Foot{At: geom.Pt(30, 20), Facing: 180, Width: 4, Depth: 2}
	share, ok := a.Meets(geom.Pt(30, 10), b)
	if !ok || math.Abs(share-0.5) > 1e-9 {
		t.Errorf("north into it: share %v met %v; want 0.5 met", share, ok)
	}
	stop := a
	stop.At = geom.Pt(30, 30-20*share)
	if d := stop.Dist(b); d > 1e-6 {
		t.Errorf("stopped %v short of it; want touching", d)
	}
	if share, ok := a.Meets(geom.Pt(10, 30), b); ok || share != 1 {
		t.Errorf("west, away from it: share %v met %v; want the whole way", share, ok)
	}
	touching := Foot{At: geom.Pt(30, 30), Facing: 180, Width: 4, Depth: 2}
	if share, ok := a.Meets(geom.Pt(30, 10), touching); !ok || share != 0 {
		t.Errorf("touching already: share %v met %v; want none of the way", share, ok)
	}
}

// A line 6" wide faces south with its front edge on y = 10 (its lanes are
// x = 33..39). Known answers of Across (SPEC BP-5, traversing fire): a
// march column 2" wide and 6" deep, facing east with its head on y = 20,
// moves east; a line facing it comes straight on; a column passes beyond
// 12"; the same crossing turned about any point gives the same.
func TestAcross(t *testing.T) {
	g := Foot{At: geom.Pt(36, 10), Facing: 180, Width: 6, Depth: 1.5}
	col := func(x float64) Foot { return Foot{At: geom.Pt(x, 20), Facing: 90, Width: 2, Depth: 6} }
	for _, c := range []struct {
		name string
		f    Foot
		to   geom.Point
		want float64
	}{
		// Its body leaves 33..37 and its head crosses 37..39: the whole
		// frontage, where the head's centre alone crosses 2".
		{"past the whole front", col(37), geom.Pt(45, 20), 6},
		// It covers 34..37 throughout; 33..34 and 37..39 are crossed.
		{"exactly half", col(37), geom.Pt(40, 20), 3},
		{"a hair under half", col(37), geom.Pt(39.9, 20), 2.9},
		// Up to x = 36: the head crosses 33..36 from outside.
		{"into half from outside", col(30), geom.Pt(36, 20), 3},
		{"straight on", Foot{At: geom.Pt(36, 21), Facing: 0, Width: 6, Depth: 1.5}, geom.Pt(36, 14), 0},
		{"straight on, offset", Foot{At: geom.Pt(40, 21), Facing: 0, Width: 6, Depth: 1.5}, geom.Pt(40, 14), 0},
		// A diagonal way in from 15" ahead and beyond the flank: once its
		// front edge is 12" ahead its body is on 39..45, and it ends on
		// 36..42: it crosses 36..39, half.
		{"diagonal", Foot{At: geom.Pt(45, 25), Facing: 0, Width: 6, Depth: 1.5}, geom.Pt(39, 19), 3},
		// Its near edge 12.5" ahead: beyond the band.
		{"beyond 12 inches", Foot{At: geom.Pt(30, 23.5), Facing: 90, Width: 2, Depth: 6}, geom.Pt(45, 23.5), 0},
		// Its near edge exactly 12" ahead: in the band, all the way.
		{"at 12 inches", Foot{At: geom.Pt(30, 23), Facing: 90, Width: 2, Depth: 6}, geom.Pt(45, 23), 6},
		{"no move", col(37), geom.Pt(37, 20), 0},
	} {
		if got := c.f.Across(c.to, g, 12); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: across %v, want %v", c.name, got, c.want)
		}
		for _, a := range []float64{90, 137, 300} {
			m := geom.Pt(-7, 11)
			to := turn(Foot{At: c.to}, a, m).At
			if got := turn(c.f, a, m).Across(to, turn(g, a, m), 12); math.Abs(got-c.want) > 1e-9 {
				t.Errorf("%s turned %v degrees: across %v, want %v", c.name, a, got, c.want)
			}
		}
	}
}

// TestAcrossMatchesSampling checks Across against lanes sampled along g's
// front edge and moments sampled along f's way: a lane counts if f, at
// some moment, covers a point of it from g's front edge to ahead in
// front, and f does not cover it (anywhere) both where it starts and
// where it ends.
func TestAcrossMatchesSampling(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		f, g := drawFoot(t, "f"), drawFoot(t, "g")
		to := geom.Pt(rapid.Float64Range(-30, 30).Draw(t, "tx"), rapid.Float64Range(-30, 30).Draw(t, "ty"))
		ahead := rapid.Float64Range(1, 20).Draw(t, "ahead")
		ga := g.Ahead()
		// along is the span of u where the line v of g's frame meets m,
		// if it does.
		along := func(m Foot, v float64) (float64, float64, bool) {
			c := m.Corners()
			lo, hi, ok := math.Inf(1), math.Inf(-1), false
			for i := range 4 {
				pu, pv := g.localIn(ga, c[i])
				qu, qv := g.localIn(ga, c[(i+1)%4])
				if (pv-v)*(qv-v) > 0 || pv == qv {
					continue
				}
				u := pu + (qu-pu)*(v-pv)/(qv-pv)
				lo, hi, ok = min(lo, u), max(hi, u), true
			}
			return lo, hi, ok
		}
		const lanes, moments = 200, 400
		end := f
		end.At = to
		// sampled counts the lanes that f crosses within the band from lo
		// to hi ahead of g's front edge.
		sampled := func(lo, hi float64) float64 {
			n := 0
			for i := range lanes {
				v := g.Width * ((float64(i)+0.5)/lanes - 0.5)
				_, _, s := along(f, v)
				_, _, e := along(end, v)
				if s && e {
					continue
				}
				for k := 0; k <= moments; k++ {
					m := f
					q := float64(k) / moments
					m.At = geom.Pt(f.At.X+(to.X-f.At.X)*q, f.At.Y+(to.Y-f.At.Y)*q)
					if a, b, ok := along(m, v); ok && b >= lo && a <= hi {
						n++
						break
					}
				}
			}
			return g.Width * float64(n) / lanes
		}
		got := f.Across(to, g, ahead)
		// A lane and a moment of sampling each may miss a sliver; and f
		// grazing the band's edge (its front edge along g's front line,
		// within rounding) may count or not: Across lies between the
		// lanes sampled in the band a hair narrower and a hair wider.
		step := f.At.Dist(to)/moments + math.Hypot(f.Width, f.Depth)/moments
		tol := 2*g.Width/lanes + 4*step
		const hair = 1e-6
		if in := sampled(hair, ahead-hair); got < in-tol {
			t.Fatalf("across %v, sampled %v in the band a hair narrower", got, in)
		}
		if out := sampled(-hair, ahead+hair); got > out+tol {
			t.Fatalf("across %v, sampled %v in the band a hair wider", got, out)
		}
	})
}
