package hex

import (
	"fmt"
	"math"

	"orderly/geom"
)

// MaxSide is the most columns, or rows, a map may have: far more than any
// printed map, and few enough for three-digit labels.
const MaxSide = 999

// Map is a printed hex map of Columns by Rows hexes, labelled by Layout.
// It is a geom.Space measured in hexes.
//
// Its positions are geom.Points whose X and Y are a hex's column and row
// numbers as the map prints them: on a map numbered from 1 (Layout.First),
// hex 0412 is Point{4, 12}, and the map holds the whole points 1..Columns
// by 1..Rows. A position therefore reads like the label in JSON ([4, 12])
// and keeps the one Point type that events, moves and the core state use;
// the layout (Layout.Offset) says where each column and row lies, which
// Dist and a page drawing the map need.
type Map struct {
	Columns, Rows int
	Layout        Layout
}

// NewMap makes a map of columns by rows hexes labelled by l, and checks it
// (see Check).
func NewMap(columns, rows int, l Layout) (Map, error) {
	m := Map{Columns: columns, Rows: rows, Layout: l}
	return m, m.Check()
}

// Check tests the map: 1..MaxSide columns and rows, at most MaxCells
// hexes in all, a known offset layout, first numbers 0 or more, 1 to 3
// digits a number, and every column and row number fitting its digits.
func (m Map) Check() error {
	l := m.Layout
	d := l.digits()
	switch {
	case m.Columns < 1 || m.Columns > MaxSide:
		return fmt.Errorf("a map has 1..%d columns, not %d", MaxSide, m.Columns)
	case m.Rows < 1 || m.Rows > MaxSide:
		return fmt.Errorf("a map has 1..%d rows, not %d", MaxSide, m.Rows)
	case l.Offset < OddQ || l.Offset > EvenR:
		return fmt.Errorf("hex layout %s is not known; allowed: odd-q, even-q, odd-r, even-r", l.Offset)
	case l.First < 0 || l.First > 99:
		return fmt.Errorf("the first column and row are numbered 0..99, not %d", l.First)
	case d > 3:
		return fmt.Errorf("a label has 1..3 digits a number, not %d", d)
	case m.Columns*m.Rows > MaxCells:
		return fmt.Errorf("a map of %d columns by %d rows has %d hexes; allowed: at most %d", m.Columns, m.Rows, m.Columns*m.Rows, MaxCells)
	}
	limit := pow10(d)
	if last := l.First + max(m.Columns, m.Rows) - 1; last >= limit {
		return fmt.Errorf("%d columns by %d rows numbered from %d need %d, which does not fit labels of %d digits a number; allowed: numbers up to %d", m.Columns, m.Rows, l.First, last, d, limit-1)
	}
	return nil
}

func pow10(d int) int {
	n := 1
	for range d {
		n *= 10
	}
	return n
}

// Kind is geom.KindHex.
func (Map) Kind() string { return geom.KindHex }

// Unit is geom.Hexes.
func (Map) Unit() geom.Unit { return geom.Hexes }

// Point is the position of hex h: its printed column and row numbers.
func (m Map) Point(h Hex) geom.Point {
	col, row := m.Layout.ToOffset(h)
	return geom.Pt(float64(col+m.Layout.First), float64(row+m.Layout.First))
}

// Hex is the hex at position p, and whether p is a hex of the map.
func (m Map) Hex(p geom.Point) (Hex, bool) {
	if !m.Contains(p) {
		return Hex{}, false
	}
	return m.cell(p), true
}

// cell is the hex whose column and row are p's, each rounded to a whole
// number (and kept within a billion, so that no conversion overflows),
// whether or not it is on the map.
func (m Map) cell(p geom.Point) Hex {
	whole := func(f float64) int {
		if math.IsNaN(f) {
			return 0
		}
		return int(math.Max(-1e9, math.Min(1e9, math.Round(f))))
	}
	return m.Layout.FromOffset(whole(p.X)-m.Layout.First, whole(p.Y)-m.Layout.First)
}

// Dist is the number of steps from hex to hex between a and b (SPEC NES-2,
// LOB-2 count hexes this way). A position that is not a whole column and
// row is taken at the nearest one.
func (m Map) Dist(a, b geom.Point) float64 {
	return float64(Distance(m.cell(a), m.cell(b)))
}

// Contains reports whether p is a hex of the map: a whole column and row
// within its numbers.
func (m Map) Contains(p geom.Point) bool {
	return geom.Whole(p.X) && geom.Whole(p.Y) && m.Bounds().Contains(p)
}

// Within lists the hexes of the map at most r hexes from centre, counted as
// Dist counts them (NES-2 and LOB-2 command radii), ring by ring from the
// centre: for a page to shade a radius without counting hexes itself. It
// is empty when centre is off the map or r is negative.
func (m Map) Within(centre geom.Point, r int) []geom.Point {
	c, ok := m.Hex(centre)
	if !ok || r < 0 {
		return nil
	}
	var out []geom.Point
	for n := 0; n <= r; n++ {
		for _, h := range Ring(c, n) {
			if p := m.Point(h); m.Contains(p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// Bounds is the rectangle of the map's column and row numbers, from the
// first hex's to the last's.
func (m Map) Bounds() geom.Rect {
	f := float64(m.Layout.First)
	return geom.Rect{Min: geom.Pt(f, f), Max: geom.Pt(f+float64(m.Columns-1), f+float64(m.Rows-1))}
}

// Format writes p as its printed label, such as 0412. A position that has
// no label (not whole, negative, or too big for the digits) is written as
// (x, y).
func (m Map) Format(p geom.Point) string {
	d := m.Layout.digits()
	limit := float64(pow10(d))
	if !geom.Whole(p.X) || !geom.Whole(p.Y) || p.X < 0 || p.Y < 0 || p.X >= limit || p.Y >= limit {
		return p.String()
	}
	return fmt.Sprintf("%0*d%0*d", d, int(p.X), d, int(p.Y))
}

// Extent is "the map (columns 01..30, rows 01..20)".
func (m Map) Extent() string {
	return "the map (" + m.numbers() + ")"
}

// numbers says which column and row numbers the map has.
func (m Map) numbers() string {
	d, f := m.Layout.digits(), m.Layout.First
	return fmt.Sprintf("columns %0*d..%0*d, rows %0*d..%0*d", d, f, d, f+m.Columns-1, d, f, d, f+m.Rows-1)
}

// Parse reads a printed label (0412, or 4-12) as a position of the map,
// and refuses a label that is not a hex of the map.
func (m Map) Parse(label string) (geom.Point, error) {
	h, err := m.Layout.Parse(label)
	if err != nil {
		return geom.Point{}, err
	}
	p := m.Point(h)
	if !m.Contains(p) {
		return geom.Point{}, fmt.Errorf("hex %q is off the map; allowed: %s", clip(label), m.numbers())
	}
	return p, nil
}
