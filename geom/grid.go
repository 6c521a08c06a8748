package geom

import "math"

// Grid is a spatial index of numbered points in a rectangle, bucketed into
// square cells. A radius query visits only the cells the circle touches,
// so finding the neighbours of every point costs time in proportion to the
// number of points, not its square. Points are put in, moved and taken out
// one at a time, so keeping the index up to date costs time in proportion
// to what moved, not to how many points there are. Points outside the
// rectangle go to the nearest border cell. Once it has grown to the
// highest point number it does not allocate.
type Grid struct {
	bounds     Rect
	cell, inv  float64 // cell size and its inverse
	cols, rows int
	// Each cell holds a doubly linked list of its points, threaded through
	// next and prev; -1 ends a list.
	head       []int32 // first point of each cell
	next, prev []int32
	in         []int32 // cell of each point, -1 for a point not indexed
	pts        []Point // each indexed point's position
}

// NewGrid makes an empty index over bounds with cells of the given size
// (normally the query radius or half of it).
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
	g.head = make([]int32, g.cols*g.rows)
	for i := range g.head {
		g.head[i] = -1
	}
	g.inv = 1 / g.cell
	return g
}

func (g *Grid) cellOf(p Point) (int, int) {
	c := int((p.X - g.bounds.Min.X) * g.inv)
	r := int((p.Y - g.bounds.Min.Y) * g.inv)
	return min(max(c, 0), g.cols-1), min(max(r, 0), g.rows-1)
}

// Clear takes every point out.
func (g *Grid) Clear() {
	for i, k := range g.in {
		if k >= 0 {
			g.head[k] = -1
			g.in[i] = -1
		}
	}
}

// grow makes room for point numbers up to i.
func (g *Grid) grow(i int32) {
	for int(i) >= len(g.in) {
		g.in = append(g.in, -1)
		g.next = append(g.next, -1)
		g.prev = append(g.prev, -1)
		g.pts = append(g.pts, Point{})
	}
}

// Put indexes point i at p, moving it if it is indexed already. i must not
// be negative.
func (g *Grid) Put(i int32, p Point) {
	g.grow(i)
	c, r := g.cellOf(p)
	k := int32(r*g.cols + c)
	g.pts[i] = p
	if g.in[i] == k {
		return
	}
	g.Remove(i)
	g.in[i], g.prev[i], g.next[i] = k, -1, g.head[k]
	if n := g.head[k]; n >= 0 {
		g.prev[n] = i
	}
	g.head[k] = i
}

// Remove takes point i out; it does nothing to a point not indexed.
func (g *Grid) Remove(i int32) {
	if int(i) >= len(g.in) || g.in[i] < 0 {
		return
	}
	p, n := g.prev[i], g.next[i]
	if p >= 0 {
		g.next[p] = n
	} else {
		g.head[g.in[i]] = n
	}
	if n >= 0 {
		g.prev[n] = p
	}
	g.in[i] = -1
}

// Within appends to buf the number of every indexed point within r of p
// and returns it; with a reused buffer it does not allocate.
func (g *Grid) Within(p Point, r float64, buf []int32) []int32 {
	r2 := r*r + 1e-9
	// The cells to visit reach as far as the test below, slack included,
	// so that a point just past r on a cell's edge is not missed.
	rr := math.Sqrt(r2)
	c0, r0 := g.cellOf(Point{p.X - rr, p.Y - rr})
	c1, r1 := g.cellOf(Point{p.X + rr, p.Y + rr})
	for row := r0; row <= r1; row++ {
		for _, i := range g.head[row*g.cols+c0 : row*g.cols+c1+1] {
			for ; i >= 0; i = g.next[i] {
				q := g.pts[i]
				dx, dy := q.X-p.X, q.Y-p.Y
				if dx*dx+dy*dy <= r2 {
					buf = append(buf, i)
				}
			}
		}
	}
	return buf
}
