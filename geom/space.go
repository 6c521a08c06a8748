package geom

import (
	"fmt"
	"math"
)

// The kinds of space a scenario is played on.
const (
	KindTable = "table" // a tabletop measured in inches
	KindHex   = "hex"   // a hex map measured in hexes
)

// Kinds lists the kinds of space, in a fixed order.
func Kinds() []string { return []string{KindTable, KindHex} }

// Space is the surface a game is played on: a tabletop measured in inches
// (Table) or a hex map measured in hexes (hex.Map). The engine, the
// loader and the server measure and name positions only through it, so
// that nothing outside a rule set assumes inches.
//
// Every position is a Point. On a table it is in inches from the
// north-west corner; on a hex map its X and Y are the column and the row
// of a hex as the map prints them (hex 0412 is Point{4, 12}), so events,
// moves and the core state keep one type of position for every space.
type Space interface {
	// Kind is KindTable or KindHex.
	Kind() string
	// Unit is what distances in the space are counted in.
	Unit() Unit
	// Dist is the distance from a to b in Unit: inches in a straight
	// line on a table, steps from hex to hex on a hex map.
	Dist(a, b Point) float64
	// Contains reports whether p is a position of the space: on the
	// table, or a hex of the map.
	Contains(p Point) bool
	// Bounds is the smallest rectangle that holds every position.
	Bounds() Rect
	// Format writes p for messages and people: (12, 30.5) on a table,
	// the printed label such as 0412 on a hex map.
	Format(p Point) string
	// Extent names the space and says what it holds, for a message about
	// a position off it: "the table (0..72 by 0..48 inches)".
	Extent() string
}

// Labeled is a space whose positions are written as printed labels
// (a hex map's 0412) rather than as [x, y].
type Labeled interface {
	Space
	// Parse reads a label, and refuses one that is not a position of the
	// space with a one-sentence error that says what is allowed.
	Parse(label string) (Point, error)
}

// Unit is what a space counts distances in, plural as people write it
// after a number other than one.
type Unit string

// The units of the spaces.
const (
	Inches Unit = "inches"
	Hexes  Unit = "hexes"
)

// One is the unit after the number one: inch, hex.
func (u Unit) One() string {
	switch u {
	case Inches:
		return "inch"
	case Hexes:
		return "hex"
	}
	return string(u)
}

// Of writes a distance with its unit: 1 inch, 2.5 inches, 3 hexes.
func (u Unit) Of(d float64) string {
	if d == 1 {
		return "1 " + u.One()
	}
	return num(d) + " " + string(u)
}

// Table is a tabletop of Width by Depth inches. Its origin is the
// north-west corner: X runs east, Y south.
type Table struct {
	Width, Depth float64
}

// Kind is KindTable.
func (Table) Kind() string { return KindTable }

// Unit is Inches.
func (Table) Unit() Unit { return Inches }

// Dist is the straight-line distance from a to b in inches.
func (Table) Dist(a, b Point) float64 { return a.Dist(b) }

// Contains reports whether p is on the table or its edge.
func (t Table) Contains(p Point) bool { return t.Bounds().Contains(p) }

// Bounds is the table as a rectangle.
func (t Table) Bounds() Rect { return Rect{Max: Pt(t.Width, t.Depth)} }

// Format writes p as (x, y).
func (Table) Format(p Point) string { return p.String() }

// Extent is "the table (0..W by 0..D inches)".
func (t Table) Extent() string {
	return fmt.Sprintf("the table (0..%v by 0..%v inches)", t.Width, t.Depth)
}

// Whole reports whether f is a whole number that fits an int comfortably
// (at most a billion either way), as a hex's column or row must be.
func Whole(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) <= 1e9
}
