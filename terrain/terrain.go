// Package terrain is what lies on a hex map: the terrain of every hex, its
// elevation, the features along hexsides (streams, hedges, steep slopes)
// and the roads that run from hex to hex. A designer types it in a compact
// text form (a grid of terrain letters, a grid of elevation digits, lists
// of hexsides and road chains); Parse reads it strictly, naming the row
// and column of every problem. The rule set that plays the map says which
// terrains, hexside features and roads exist (Kinds) and what they cost
// (SPEC NES-7 prices them); this package only records them and searches
// the map fast (Search).
package terrain

import (
	"fmt"
	"slices"
	"strings"

	"orderly/geom"
	"orderly/geom/hex"
)

// Kind is a terrain a hex may have, and the letter the grid writes it as.
type Kind struct {
	Name   string
	Letter rune
}

// Kinds is what a rule set's maps may hold: the terrains of hexes (the
// first is the default of a hex the grid leaves out, clear ground), the
// features a hexside may carry, the kinds of road (the first the least),
// and the hexside feature, if any, that marks a steep slope (it must lie
// between hexes of different elevation).
type Kinds struct {
	Hexes []Kind
	Sides []string
	Roads []string
	Steep string
}

// MaxFeatures is how many hexside features a rule set may name.
const MaxFeatures = 16

// Check tests the kinds: letters and names used once, at most
// MaxFeatures hexside features and 255 terrains and roads.
func (k Kinds) Check() error {
	if len(k.Hexes) == 0 {
		return fmt.Errorf("terrain kinds: no terrain of a hex")
	}
	if len(k.Hexes) > 255 || len(k.Roads) > 255 || len(k.Sides) > MaxFeatures {
		return fmt.Errorf("terrain kinds: too many (at most 255 terrains and roads, %d hexside features)", MaxFeatures)
	}
	seen := map[string]bool{}
	letters := map[rune]bool{}
	for _, h := range k.Hexes {
		if seen[h.Name] || letters[h.Letter] {
			return fmt.Errorf("terrain kinds: %s (%c) is given twice", h.Name, h.Letter)
		}
		if h.Letter <= ' ' || h.Letter > '~' || h.Letter >= '0' && h.Letter <= '9' {
			return fmt.Errorf("terrain kinds: %s has letter %q; a letter is printable, not a digit or space", h.Name, h.Letter)
		}
		seen[h.Name], letters[h.Letter] = true, true
	}
	for _, n := range append(slices.Clone(k.Sides), k.Roads...) {
		if seen[n] {
			return fmt.Errorf("terrain kinds: %s is given twice", n)
		}
		seen[n] = true
	}
	if k.Steep != "" && !slices.Contains(k.Sides, k.Steep) {
		return fmt.Errorf("terrain kinds: the steep slope %s is not a hexside feature", k.Steep)
	}
	return nil
}

// Legend lists the letters of the terrains: ". clear, w woods".
func (k Kinds) Legend() string {
	parts := make([]string, len(k.Hexes))
	for i, h := range k.Hexes {
		parts[i] = fmt.Sprintf("%c %s", h.Letter, h.Name)
	}
	return strings.Join(parts, ", ")
}

// None is the index of no road.
const None = -1

// cell is one hex of the map.
type cell struct {
	terrain uint8
	level   int8
	road    int16     // the best road through the hex, or None
	sides   [6]uint16 // features of each hexside, one bit each
	roads   [6]int16  // the road that crosses each hexside, or None
	next    [6]int32  // the neighbour's index, or -1 off the map
}

// Map is the terrain of a hex map. Cells are indexed 0..Len()-1, row by
// row from the first hex, for fast searches; Index and Hex convert.
type Map struct {
	Grid  hex.Map
	Kinds Kinds
	cells []cell
}

// New makes a map of grid whose every hex has the first terrain, level 0,
// no hexside feature and no road.
func New(grid hex.Map, k Kinds) (*Map, error) {
	if err := grid.Check(); err != nil {
		return nil, err
	}
	if err := k.Check(); err != nil {
		return nil, err
	}
	m := &Map{Grid: grid, Kinds: k, cells: make([]cell, grid.Columns*grid.Rows)}
	for i := range m.cells {
		c := &m.cells[i]
		c.road = None
		h := m.hexAt(i)
		for d := range 6 {
			c.roads[d] = None
			c.next[d] = -1
			if j, ok := m.Index(h.Neighbour(d)); ok {
				c.next[d] = int32(j)
			}
		}
	}
	return m, nil
}

// Len is the number of hexes.
func (m *Map) Len() int { return len(m.cells) }

// Index is the index of hex h, and whether h is on the map.
func (m *Map) Index(h hex.Hex) (int, bool) {
	col, row := m.Grid.Layout.ToOffset(h)
	if col < 0 || row < 0 || col >= m.Grid.Columns || row >= m.Grid.Rows {
		return 0, false
	}
	return row*m.Grid.Columns + col, true
}

func (m *Map) hexAt(i int) hex.Hex {
	return m.Grid.Layout.FromOffset(i%m.Grid.Columns, i/m.Grid.Columns)
}

// Hex is the hex of index i.
func (m *Map) Hex(i int) hex.Hex { return m.hexAt(i) }

// At is the index of the hex at position p (its printed column and row),
// and whether p is a hex of the map.
func (m *Map) At(p geom.Point) (int, bool) {
	// A position is the printed column and row: the index follows from
	// them without the layout.
	col, row := p.X-float64(m.Grid.Layout.First), p.Y-float64(m.Grid.Layout.First)
	c, r := int(col), int(row)
	if float64(c) != col || float64(r) != row || c < 0 || r < 0 || c >= m.Grid.Columns || r >= m.Grid.Rows {
		return 0, false
	}
	return r*m.Grid.Columns + c, true
}

// Point is the position (printed column and row) of index i.
func (m *Map) Point(i int) geom.Point { return m.Grid.Point(m.hexAt(i)) }

// Label is the printed label of index i, such as 0412.
func (m *Map) Label(i int) string { return m.Grid.Format(m.Point(i)) }

// Next is the index of the neighbour of i in direction d (0..5), or -1 off
// the map.
func (m *Map) Next(i, d int) int { return int(m.cells[i].next[d]) }

// Dir is the direction from i to its neighbour j, or -1 if they do not
// touch.
func (m *Map) Dir(i, j int) int {
	for d, n := range m.cells[i].next {
		if int(n) == j {
			return d
		}
	}
	return -1
}

// Terrain is the index of the terrain of hex i in Kinds.Hexes.
func (m *Map) Terrain(i int) int { return int(m.cells[i].terrain) }

// TerrainName is the name of the terrain of hex i.
func (m *Map) TerrainName(i int) string { return m.Kinds.Hexes[m.cells[i].terrain].Name }

// Level is the elevation of hex i.
func (m *Map) Level(i int) int { return int(m.cells[i].level) }

// Features is the set of hexside features of the side of i in direction d,
// one bit for each of Kinds.Sides.
func (m *Map) Features(i, d int) uint16 { return m.cells[i].sides[d] }

// Has reports whether the side of i in direction d carries feature f (an
// index in Kinds.Sides).
func (m *Map) Has(i, d, f int) bool { return m.cells[i].sides[d]&(1<<f) != 0 }

// Road is the road (an index in Kinds.Roads) that crosses the side of i
// in direction d, or None.
func (m *Map) Road(i, d int) int { return int(m.cells[i].roads[d]) }

// RoadIn is the best road (highest index) through hex i, or None.
func (m *Map) RoadIn(i int) int { return int(m.cells[i].road) }

// SetTerrain gives hex i the terrain t (an index in Kinds.Hexes).
func (m *Map) SetTerrain(i, t int) { m.cells[i].terrain = uint8(t) }

// SetLevel gives hex i elevation level.
func (m *Map) SetLevel(i, level int) { m.cells[i].level = int8(level) }

// AddFeature puts feature f (an index in Kinds.Sides) on the side of i in
// direction d, seen from both hexes.
func (m *Map) AddFeature(i, d, f int) {
	m.cells[i].sides[d] |= 1 << f
	if j := m.cells[i].next[d]; j >= 0 {
		m.cells[j].sides[(d+3)%6] |= 1 << f
	}
}

// AddRoad runs road r (an index in Kinds.Roads) across the side of i in
// direction d; a better road already there stays.
func (m *Map) AddRoad(i, d, r int) {
	j := int(m.cells[i].next[d])
	if j < 0 {
		return
	}
	for _, e := range [2][2]int{{i, d}, {j, (d + 3) % 6}} {
		c := &m.cells[e[0]]
		if int(c.roads[e[1]]) < r {
			c.roads[e[1]] = int16(r)
		}
		if int(c.road) < r {
			c.road = int16(r)
		}
	}
}

// Distance is the number of hexes from i to j.
func (m *Map) Distance(i, j int) int { return hex.Distance(m.hexAt(i), m.hexAt(j)) }
