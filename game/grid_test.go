package game

import (
	"math"
	"math/rand/v2"
	"testing"

	"orderly/geom"
)

// TestGridNear: a lookup near a point finds every slot filed within the
// distance in x and y, each once, also for points beyond the grid's
// bounds, ring by ring outwards from the point's cell; a slot taken out
// is found no more.
func TestGridNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := newGrid(geom.Rect{Max: geom.Pt(100, 60)}, 7)
	var at []geom.Point
	for k := range 600 {
		// Some beyond every edge, some on the edges of cells.
		p := geom.Pt(rng.Float64()*140-20, rng.Float64()*100-20)
		if k%5 == 0 {
			p = geom.Pt(float64(rng.IntN(16))*7, float64(rng.IntN(10))*7)
		}
		at = append(at, p)
		g.add(int32(k), p)
	}
	for k := 0; k < len(at); k += 3 {
		g.remove(int32(k), at[k])
	}
	ring := func(p, q geom.Point) int {
		return max(abs(g.col(p.X)-g.col(q.X)), abs(g.row(p.Y)-g.row(q.Y)))
	}
	for range 300 {
		p := geom.Pt(rng.Float64()*160-30, rng.Float64()*120-30)
		r := rng.Float64() * 30
		seen := map[int32]int{}
		last := 0
		g.near(p, r, func(k int32) bool {
			seen[k]++
			if d := ring(p, at[k]); d < last {
				t.Fatalf("near %v: slot %d at %v (ring %d) after one of ring %d", p, k, at[k], d, last)
			} else {
				last = d
			}
			return true
		})
		for k, q := range at {
			want := k%3 != 0 && math.Abs(q.X-p.X) <= r && math.Abs(q.Y-p.Y) <= r
			if n := seen[int32(k)]; want && n != 1 || k%3 == 0 && n != 0 {
				t.Fatalf("near %v within %.1f: slot %d at %v found %d times", p, r, k, q, n)
			}
		}
	}
	// A lookup stops when told.
	n := 0
	g.near(geom.Pt(50, 30), 100, func(int32) bool { n++; return n < 3 })
	if n != 3 {
		t.Errorf("a lookup told to stop at the third slot looked at %d", n)
	}
	// A field far wider than its cells has larger cells, not more.
	if w := newGrid(geom.Rect{Max: geom.Pt(1e7, 1e7)}, 1); w.nx*w.ny > maxCells {
		t.Errorf("a grid of %d by %d cells", w.nx, w.ny)
	}
}

func abs(n int) int { return max(n, -n) }
