package nes

import (
	"fmt"
	"strconv"
	"strings"

	"orderly/table"
	"orderly/terrain"
)

// The columns of the terrain effects chart (NES-7) that price movement,
// as the lookup nes/terrain names them.
const (
	colInfantry     = "infantry"
	colHeavy        = "cavalry-heavy"
	colLight        = "cavalry-light"
	colArtillery    = "artillery"
	colSkirmish     = "skirmish"
	colGeneralOrder = "general-order"
	colGT           = "grand-tactical"
	colGTRoad       = "grand-tactical-road"
	colRoadColumn   = "road-column"
)

// column is the chart column a combat unit of type ty in formation shape
// moves by (road column off a road and line or column take their type's):
// skirmish and general order are infantry's only, light cavalry in general
// order pays its cavalry cost (NES-7's note).
func column(ty, shape string) string {
	switch ty {
	case "heavy-cavalry":
		return colHeavy
	case "light-cavalry":
		return colLight
	case "artillery":
		return colArtillery
	}
	switch shape {
	case "skirmish":
		return colSkirmish
	case "general-order":
		return colGeneralOrder
	}
	return colInfantry
}

// cost is one cell of the chart as movement reads it.
type cost struct {
	mp        int  // sixths of a movement point: to enter, or added to cross
	prohibit  bool // P
	other     bool // OT: the hex's other terrain applies
	same      bool // same: the unit's normal cost applies
	na        bool // NA: the column does not apply here
	disorder  bool // D
	general   bool // G
	alt       *cost
	text      string
	given     bool
	additive  bool // written +n
	fractions bool // written a/b
}

// parseCost reads a cell of the movement columns: a number (1, +2, 2/3)
// with D or G after it, P, OT, NA, -, same, or two choices joined by or.
func parseCost(text string) (cost, error) {
	s := strings.TrimSpace(text)
	c := cost{text: s, given: true}
	if a, b, ok := strings.Cut(s, " or "); ok {
		first, err := parseCost(a)
		if err != nil {
			return c, err
		}
		second, err := parseCost(b)
		if err != nil {
			return c, err
		}
		first.alt, first.text = &second, s
		return first, nil
	}
	switch s {
	case "P":
		c.prohibit = true
		return c, nil
	case "OT":
		c.other = true
		return c, nil
	case "NA":
		c.na = true
		return c, nil
	case "-", "":
		return c, nil
	case "same":
		c.same = true
		return c, nil
	}
	if rest, ok := strings.CutPrefix(s, "+"); ok {
		s, c.additive = rest, true
	}
	for strings.HasSuffix(s, "D") || strings.HasSuffix(s, "G") {
		if strings.HasSuffix(s, "D") {
			c.disorder = true
		} else {
			c.general = true
		}
		s = s[:len(s)-1]
	}
	if a, b, ok := strings.Cut(s, "/"); ok {
		n, err1 := strconv.Atoi(a)
		d, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || d <= 0 || n < 0 || (n*Sixths)%d != 0 {
			return c, fmt.Errorf("%q is not a movement cost in sixths of a point", text)
		}
		c.mp, c.fractions = n*Sixths/d, true
		return c, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > 99 {
		return c, fmt.Errorf("%q is not a movement cost; allowed: a number with D or G after it, +n, a/b, P, OT, NA, same, - or two of them joined by or", text)
	}
	c.mp = n * Sixths
	return c, nil
}

// chart is the movement part of the terrain effects chart: for each of
// its rows (terrains, hexsides, roads, slopes) and movement columns, the
// cost.
type chart struct {
	cells map[[2]string]cost
}

// moveColumns are the chart's columns that movement reads.
var moveColumns = []string{colInfantry, colHeavy, colLight, colArtillery, colSkirmish, colGeneralOrder, colGT, colGTRoad, colRoadColumn}

// chartRows are the rows movement reads: every terrain, hexside and road
// of an NES map, and the four slopes.
func chartRows() []string {
	k := Kinds()
	var rows []string
	for _, h := range k.Hexes {
		rows = append(rows, h.Name)
	}
	for _, s := range k.Sides {
		if s != k.Steep {
			rows = append(rows, s)
		}
	}
	return append(append(rows, k.Roads...), "slope-up", "slope-down", "steep-up", "steep-down")
}

// readChart reads the movement columns of nes/terrain, refusing a cell it
// cannot read, so that a house rule's chart fails at load, not in play.
func readChart(l *table.Lookup) (*chart, error) {
	c := &chart{cells: map[[2]string]cost{}}
	for _, row := range chartRows() {
		for _, col := range moveColumns {
			cell, err := l.Get(map[string]string{"terrain": row, "unit": col})
			if err != nil {
				return nil, fmt.Errorf("nes: nes/terrain: %w", err)
			}
			v, err := parseCost(cell.Text)
			if err != nil {
				return nil, fmt.Errorf("nes: nes/terrain terrain=%s unit=%s: %w", row, col, err)
			}
			c.cells[[2]string{row, col}] = v
		}
	}
	return c, nil
}

// at is the cost of row in column col.
func (c *chart) at(row, col string) cost { return c.cells[[2]string{row, col}] }

// enterable reports whether a unit moving by column col may stand in
// terrain t (an index in Kinds().Hexes).
func (c *chart) enterable(t int, col string) bool {
	return !c.at(Kinds().Hexes[t].Name, col).prohibit
}

// Mode is how a piece moves: the chart column of its type and formation,
// and whether it moves in road column, by grand tactical movement, or as
// a command unit.
type Mode struct {
	Column   string
	Road     bool // in road column
	GT       bool // grand tactical movement (NES-7: +2 MP)
	Command  bool // a command unit: 1 MP a hex whatever the terrain
	Disorder bool // infantry takes +1D at a stream rather than +2
}

// step is the price of one step over the map in mode md (see Price).
type step struct {
	mp                int
	disorder, general bool
	road              bool
}

// price is what entering the neighbour of hex i in direction d costs
// moving in mode md, and its effects; false if the step is prohibited.
// Our reading of the chart: a step along a road (from a road hex to the
// next across a side the road crosses) costs road column 1/2 or 2/3 of a
// point, and anyone else 1 point, whatever the terrain and hexside (the
// road negates them; the exemption lets heavy cavalry and artillery into
// woods); otherwise the hex's cost plus each hexside feature's and the
// slope's, grand tactical movement reading its own columns (same: the
// normal cost).
func (r *Rules) price(m *terrain.Map, md Mode, i, d int) (step, bool) {
	j := m.Next(i, d)
	if j < 0 {
		return step{}, false
	}
	if md.Command {
		return step{mp: Sixths}, true
	}
	k := r.kinds
	if road := m.Road(i, d); road != terrain.None {
		if md.Road {
			return step{mp: r.chart.at(k.Roads[road], colRoadColumn).mp, road: true}, true
		}
		return step{mp: Sixths, road: true}, true
	}
	col := md.Column
	var out step
	enter := r.chart.at(k.Hexes[m.Terrain(j)].Name, col)
	gc := colGT
	if m.RoadIn(j) != terrain.None {
		gc = colGTRoad
	}
	if enter.prohibit || enter.na {
		return step{}, false
	}
	out.mp, out.disorder, out.general = enter.mp, enter.disorder, enter.general
	if md.GT {
		// Grand tactical movement prices the hex by its own column (same:
		// the normal cost); what the unit may not enter it still may not,
		// and the normal column's D and G still follow (our reading: the
		// chart lifts disorder only at streams).
		if g := r.chart.at(k.Hexes[m.Terrain(j)].Name, gc); !g.same {
			if g.prohibit || g.na {
				return step{}, false
			}
			out.mp = g.mp
		}
	}
	add := func(row string) bool {
		c := r.chart.at(row, col)
		if c.prohibit {
			return false
		}
		if md.GT {
			if g := r.chart.at(row, gc); !g.same {
				c = g
			}
		}
		if c.alt != nil && md.Disorder {
			c = *c.alt
		}
		if c.prohibit {
			return false
		}
		out.mp += c.mp
		// The chart's notes on streams: disorder is ignored in grand
		// tactical movement (our reading: for every hexside).
		out.disorder = out.disorder || c.disorder && !md.GT
		out.general = out.general || c.general
		return true
	}
	if f := m.Features(i, d); f != 0 {
		for n, name := range k.Sides {
			if f&(1<<n) != 0 && name != k.Steep && !add(name) {
				return step{}, false
			}
		}
	}
	if up, down := m.Level(j) > m.Level(i), m.Level(j) < m.Level(i); up || down {
		steep := m.Has(i, d, indexOf(k.Sides, k.Steep))
		row := map[[2]bool]string{{true, false}: "slope-up", {false, false}: "slope-down", {true, true}: "steep-up", {false, true}: "steep-down"}[[2]bool{up, steep}]
		if !add(row) {
			return step{}, false
		}
	}
	return out, true
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// Price is the cost function of mode md over m, for the searches.
func (r *Rules) Price(m *terrain.Map, md Mode) terrain.Step {
	return func(i, d int) (int, bool) {
		s, ok := r.price(m, md, i, d)
		return s.mp, ok
	}
}

// StepTable is the step costs of mode md over m, for the searches
// (terrain.Table: sixths of a movement point, -1 prohibited); it is
// worked out once for each map and mode.
func (r *Rules) StepTable(m *terrain.Map, md Mode) terrain.Table { return r.table(m, md) }

// Floor is the least a step costs in mode md, which steers the searches.
func (r *Rules) Floor(md Mode) int { return r.floor(md) }

// floor is the least a step costs in mode md: the searches steer by it.
func (r *Rules) floor(md Mode) int {
	if md.Command {
		return Sixths
	}
	least := Sixths
	for _, rd := range r.kinds.Roads {
		if c := r.chart.at(rd, colRoadColumn); md.Road && c.mp < least {
			least = c.mp
		}
	}
	for _, h := range r.kinds.Hexes {
		for _, col := range []string{md.Column, colGT, colGTRoad} {
			if c := r.chart.at(h.Name, col); !c.prohibit && !c.na && !c.same && c.mp < least {
				least = c.mp
			}
		}
	}
	return least
}
