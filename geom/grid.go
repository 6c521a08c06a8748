package geom

import "math"

// Grid is a spatial index of points in a rectangle, bucketed into square
// cells. A radius query visits only the cells the circle touches, so finding
// the neighbours of every point costs time in proportion to the number of
// points, not its square. Points outside the rectangle go to the nearest
// border cell. Build reuses the grid's memory, so rebuilding it each turn
// does not allocate once it has grown to size.
type Grid struct {
	bounds     Rect
	cell, inv  float64 // cell size and its inverse
	cols, rows int
	start      []int32 // start[c]..start[c+1] index items of cell c
	items      []int32 // point indices, grouped by cell
	pts        []Point
	key        []int32 // cell of each indexed point, -1 for a point left out
}

// NewGrid makes an empty index over bounds with cells of the given size
// (normally the query radius).
func NewGrid(bounds Rect, cell float64) *Grid {
	if cell <= 0 {
		cell = 1
	}
	w, h := bounds.Max.X-bounds.Min.X, bounds.Max.Y-bounds.Min.Y
	g := &Grid{bounds: bounds, cell: cell}
	g.cols = max(1, int(math.Ceil(w/cell)))
	g.rows = max(1, int(math.Ceil(h/cell)))
	const most = 1 << 22 // a bound on memory for absurd fields
	for g.cols*g.rows > most {
		g.cell *= 2
		g.cols = max(1, int(math.Ceil(w/g.cell)))
		g.rows = max(1, int(math.Ceil(h/g.cell)))
	}
	g.start = make([]int32, g.cols*g.rows+1)
	g.inv = 1 / g.cell
	return g
}

func (g *Grid) cellOf(p Point) (int, int) {
	c := int((p.X - g.bounds.Min.X) * g.inv)
	r := int((p.Y - g.bounds.Min.Y) * g.inv)
	return min(max(c, 0), g.cols-1), min(max(r, 0), g.rows-1)
}

// BuildOf indexes the points pts[i] for each i in idx. The grid keeps
// pts and reads it in Within, so the caller must not change it until the
// next BuildOf.
func (g *Grid) BuildOf(pts []Point, idx []int32) {
	g.pts = pts
	if cap(g.key) < len(idx) {
		g.key = make([]int32, len(idx))
	}
	g.key = g.key[:len(idx)]
	clear(g.start)
	for j, i := range idx {
		c, r := g.cellOf(pts[i])
		k := int32(r*g.cols + c)
		g.key[j] = k
		g.start[k+1]++
	}
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
	n := len(idx)
	if cap(g.items) < n {
		g.items = make([]int32, n)
	}
	g.items = g.items[:n]
	for j := n - 1; j >= 0; j-- {
		k := g.key[j]
		g.start[k+1]--
		g.items[g.start[k+1]] = idx[j]
	}
	copy(g.start[:len(g.start)-1], g.start[1:])
	g.start[len(g.start)-1] = int32(n)
}

// Within appends to buf the index of every indexed point within r of p and
// returns it; with a reused buffer it does not allocate.
func (g *Grid) Within(p Point, r float64, buf []int32) []int32 {
	c0, r0 := g.cellOf(Point{p.X - r, p.Y - r})
	c1, r1 := g.cellOf(Point{p.X + r, p.Y + r})
	r2 := r*r + 1e-9
	for row := r0; row <= r1; row++ {
		base := row * g.cols
		for _, i := range g.items[g.start[base+c0]:g.start[base+c1+1]] {
			q := g.pts[i]
			dx, dy := q.X-p.X, q.Y-p.Y
			if dx*dx+dy*dy <= r2 {
				buf = append(buf, i)
			}
		}
	}
	return buf
}
