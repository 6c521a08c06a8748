package game

import (
	"math"
	"slices"

	"orderly/geom"
)

// maxCells bounds the cells of one grid: on a field far wider than
// anything sees, the cells grow rather than multiply.
const maxCells = 1 << 14

// grid files the marks of one side on the field (by their slot in the
// fog) by the square cell they stand in, so that the marks near a point
// are found by looking in a few cells. The cells cover the space's
// bounds; a mark beyond them is filed in the nearest cell of the edge,
// which a lookup reaching past the edge looks in, so nothing is missed.
type grid struct {
	min    geom.Point
	cell   float64
	nx, ny int
	cells  [][]int32
}

// newGrid is an empty grid over b with cells of side cell (at least one
// unit, and larger if b would need more than maxCells).
func newGrid(b geom.Rect, cell float64) *grid {
	w, h := max(b.Max.X-b.Min.X, 0), max(b.Max.Y-b.Min.Y, 0)
	cell = max(cell, 1, math.Sqrt(w*h/maxCells))
	g := &grid{min: b.Min, cell: cell, nx: int(w/cell) + 1, ny: int(h/cell) + 1}
	for g.nx*g.ny > maxCells { // only by rounding
		g.cell *= 1.1
		g.nx, g.ny = int(w/g.cell)+1, int(h/g.cell)+1
	}
	g.cells = make([][]int32, g.nx*g.ny)
	return g
}

// col is the column of the cell x falls in, the nearest one if none.
func (g *grid) col(x float64) int { return clampCell((x-g.min.X)/g.cell, g.nx) }

// row is the row of the cell y falls in, the nearest one if none.
func (g *grid) row(y float64) int { return clampCell((y-g.min.Y)/g.cell, g.ny) }

// clampCell is the whole part of v, kept within 0..n-1 (and 0 for NaN).
func clampCell(v float64, n int) int {
	switch {
	case !(v >= 0):
		return 0
	case v >= float64(n):
		return n - 1
	}
	return int(v)
}

// add files slot k at p.
func (g *grid) add(k int32, p geom.Point) {
	c := g.row(p.Y)*g.nx + g.col(p.X)
	g.cells[c] = append(g.cells[c], k)
}

// remove takes slot k, filed at p, out of the grid.
func (g *grid) remove(k int32, p geom.Point) {
	c := g.row(p.Y)*g.nx + g.col(p.X)
	cell := g.cells[c]
	if j := slices.Index(cell, k); j >= 0 {
		last := len(cell) - 1
		cell[j] = cell[last]
		g.cells[c] = cell[:last]
	}
}

// near calls fn for each slot filed in the cells that hold the square of
// half-side r around p (everything within r of p in x and y), the cell
// of p first and then ring by ring outwards, so that a search for any
// one mark near p looks at the nearest first; it stops when fn says so.
func (g *grid) near(p geom.Point, r float64, fn func(k int32) bool) {
	x0, x1, cx := g.col(p.X-r), g.col(p.X+r), g.col(p.X)
	y0, y1, cy := g.row(p.Y-r), g.row(p.Y+r), g.row(p.Y)
	each := func(x, y int) bool {
		for _, k := range g.cells[y*g.nx+x] {
			if !fn(k) {
				return false
			}
		}
		return true
	}
	if !each(cx, cy) {
		return
	}
	rings := max(cx-x0, x1-cx, cy-y0, y1-cy)
	for d := 1; d <= rings; d++ {
		xa, xb := max(x0, cx-d), min(x1, cx+d)
		// The ring's top and bottom rows, then its sides between them.
		for _, y := range [2]int{cy - d, cy + d} {
			if y < y0 || y > y1 {
				continue
			}
			for x := xa; x <= xb; x++ {
				if !each(x, y) {
					return
				}
			}
		}
		for _, x := range [2]int{cx - d, cx + d} {
			if x < x0 || x > x1 {
				continue
			}
			for y := max(y0, cy-d+1); y <= min(y1, cy+d-1); y++ {
				if !each(x, y) {
					return
				}
			}
		}
	}
}
