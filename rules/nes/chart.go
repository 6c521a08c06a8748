package nes

import (
	"fmt"
	"slices"
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
// a command unit. A move's mode changes on the way as the chart's effects
// take hold (see after).
type Mode struct {
	Column   string
	Road     bool // in road column
	GT       bool // grand tactical movement (NES-7: +2 MP)
	Command  bool // a command unit: 1 MP a hex whatever the terrain
	Disorder bool // infantry takes +1D at a stream rather than +2
	// Disordered: the piece is disordered. Disordered cavalry and
	// artillery may not enter woods (the chart's note 2); for the others
	// it prices nothing, but a move's search avoids disordering a formed
	// piece where a way as cheap does not (see rank).
	Disordered bool
	// General: light cavalry in general order (its column does not show
	// it; infantry's does). It prices nothing.
	General bool
}

// mounted reports whether chart column col is cavalry's or artillery's,
// which may not enter woods disordered (the chart's note 2).
func mounted(col string) bool { return col == colHeavy || col == colLight || col == colArtillery }

// after is the mode a piece moves on in after a step with effects s: the
// chart's effects take hold as the hex is entered and price the rest of
// the move (NES-7: G "upon entering", D "when crossing or entering").
// Infantry or light cavalry that takes general order is out of road
// column, and infantry goes on by the general order column; cavalry or
// artillery that disorders may enter no woods.
func (md Mode) after(s step) Mode {
	if s.general && (md.Column == colInfantry || md.Column == colLight) {
		md.Road = false
		if md.Column == colInfantry {
			md.Column = colGeneralOrder
		}
		md.General = true
	}
	if s.disorder && !md.Command {
		md.Disordered = true
	}
	return md
}

// rank is what the chart's effects have done to a piece in mode md, for
// the searches to break ties between ways of equal cost (NES-7, our
// reading): 2 if it is disordered, 1 more if it is in general order. A
// way that leaves a piece formed is taken before one as cheap that
// disorders it, and then one that keeps its formation before one that
// forces it into general order.
func (md Mode) rank() uint8 {
	var r uint8
	if md.Disordered {
		r += 2
	}
	if md.General || md.Column == colGeneralOrder {
		r++
	}
	return r
}

// canon is md without what cannot change a price, so that modes priced
// alike share their tables: the stream's choice is infantry's in line or
// column, disorder bars only cavalry and artillery that could otherwise
// enter woods, and a command unit pays 1 a hex however it moves.
func (r *Rules) canon(md Mode) Mode {
	if md.Command {
		return Mode{Command: true}
	}
	if md.Column != colInfantry {
		md.Disorder = false
	}
	if !mounted(md.Column) || r.chart.at("woods", md.Column).prohibit {
		md.Disordered = false
	}
	md.General = false
	return md
}

// state is md as the searches tell it apart: canon, but with the effects
// the piece has taken (rank), which the search's ties are broken by.
func (r *Rules) state(md Mode) Mode {
	c := r.canon(md)
	if c.Command {
		return c
	}
	c.Disordered = md.Disordered
	c.General = md.General && c.Column == colLight
	return c
}

// step is the price of one step over the map in mode md (see Price).
type step struct {
	mp                int
	disorder, general bool
	road              bool
}

// refusal is why a step may not be taken.
type refusal int

const (
	allowed    refusal = iota
	prohibited         // P or NA in the unit's column, or off the map
	// disorderedWoods: disordered cavalry or artillery may not enter
	// woods (the chart's note 2).
	disorderedWoods
	// crossingDisorders: the hexside into woods disorders cavalry or
	// artillery as it crosses, before it enters the hex (our reading of
	// D "when crossing"), and disordered it may not enter.
	crossingDisorders
)

// price is what entering the neighbour of hex i in direction d costs
// moving in mode md, and its effects; false if the step is prohibited.
func (r *Rules) price(m *terrain.Map, md Mode, i, d int) (step, bool) {
	s, why := r.enter(m, md, i, d)
	return s, why == allowed
}

// enter is what entering the neighbour of hex i in direction d costs
// moving in mode md, and its effects, or why it may not be entered. The
// whole step is priced in the mode the piece is in as it sets out on it;
// its D and G take hold once it is taken (Mode.after). Our reading of the
// chart:
//   - A step along a road (from a road hex to the next across a hexside
//     the road crosses) costs road column 1/2 or 2/3 of a point, plus the
//     road column's cells of the hexside and slope crossed (+1 down a steep
//     slope); grand tactical movement the road hex column's cost and
//     cells; anyone else 1 point whatever the terrain and hexside (the road
//     exemption, which lets heavy cavalry and artillery into woods: the
//     road negates the woods, and so its note 2 too).
//   - Otherwise the hex's cost plus each hexside feature's and the slope's
//     in the unit's column; grand tactical movement reads its own columns
//     (same: the normal cost) but keeps the normal column's P, D and G, and
//     ignores disorder at hexsides (the chart's stream notes).
//   - Road column takes no D or G from frozen wetlands (the chart's note 4);
//     disordered cavalry and artillery may not enter woods (note 2), nor
//     may those that a hexside into the woods disorders as they cross it.
func (r *Rules) enter(m *terrain.Map, md Mode, i, d int) (step, refusal) {
	j := m.Next(i, d)
	if j < 0 {
		return step{}, prohibited
	}
	if md.Command {
		return step{mp: Sixths}, allowed
	}
	p := &pricing{r: r, md: md, ter: r.kinds.Hexes[m.Terrain(j)].Name, side: md.Column}
	if road := m.Road(i, d); road != terrain.None {
		if !md.Road && !md.GT {
			return step{mp: Sixths, road: true}, allowed
		}
		p.alongRoad(road)
	} else if why := p.intoHex(m, j); why != allowed {
		return step{}, why
	}
	if !p.across(m, i, d, j) {
		return step{}, prohibited
	}
	if p.crossed && !p.out.road && p.ter == "woods" && mounted(md.Column) {
		return step{}, crossingDisorders
	}
	p.out.disorder = p.out.disorder || p.crossed
	return p.out, allowed
}

// pricing is one step of enter being priced: the step so far, and the
// columns its hexside and slope are read in.
type pricing struct {
	r   *Rules
	md  Mode
	ter string // the terrain of the hex entered
	out step
	// side is the column a hexside or slope is priced in, and gtc the
	// grand tactical column that may stand in for it ("" for none).
	side, gtc string
	crossed   bool // a hexside or slope disorders the piece as it crosses
}

// alongRoad prices a step along a road of kind road for the road column
// (its own cost, hexsides in its column) or grand tactical movement (the
// road hex column's cost where it gives one, else 1 point).
func (p *pricing) alongRoad(road int) {
	p.out.road = true
	if p.md.Road {
		p.out.mp = p.r.chart.at(p.r.kinds.Roads[road], colRoadColumn).mp
		p.side = colRoadColumn
		return
	}
	p.out.mp = Sixths
	if g := p.r.chart.at(p.ter, colGTRoad); !g.same && !g.prohibit && !g.na {
		p.out.mp = g.mp
	}
	p.gtc = colGTRoad
}

// intoHex prices entering hex j off the road: its terrain's cost, D and G
// in the unit's column (none from frozen wetlands for road column), or in
// the grand tactical columns where they differ; or why it may not.
func (p *pricing) intoHex(m *terrain.Map, j int) refusal {
	col := p.md.Column
	enter := p.r.chart.at(p.ter, col)
	if enter.prohibit || enter.na {
		return prohibited
	}
	if p.md.Disordered && p.ter == "woods" && mounted(col) {
		return disorderedWoods
	}
	p.out.mp, p.out.disorder, p.out.general = enter.mp, enter.disorder, enter.general
	if p.md.Road && p.ter == "frozen-wetlands" {
		p.out.disorder, p.out.general = false, false
	}
	if !p.md.GT {
		return allowed
	}
	p.gtc = colGT
	if m.RoadIn(j) != terrain.None {
		p.gtc = colGTRoad
	}
	if g := p.r.chart.at(p.ter, p.gtc); !g.same {
		if g.prohibit || g.na {
			return prohibited
		}
		p.out.mp = g.mp
	}
	return allowed
}

// across adds the hexside features crossed from hex i in direction d and
// the slope up or down to hex j; false if one of them is prohibited.
func (p *pricing) across(m *terrain.Map, i, d, j int) bool {
	k := p.r.kinds
	if f := m.Features(i, d); f != 0 {
		for n, name := range k.Sides {
			if f&(1<<n) != 0 && name != k.Steep && !p.add(name) {
				return false
			}
		}
	}
	up, down := m.Level(j) > m.Level(i), m.Level(j) < m.Level(i)
	if !up && !down {
		return true
	}
	steep := m.Has(i, d, indexOf(k.Sides, k.Steep))
	row := map[[2]bool]string{{true, false}: "slope-up", {false, false}: "slope-down", {true, true}: "steep-up", {false, true}: "steep-down"}[[2]bool{up, steep}]
	return p.add(row)
}

// add prices the chart's row (a hexside feature or slope) into the step:
// in the grand tactical column where it differs, its alternative for a
// piece that takes disorder; false if prohibited (in the piece's own
// column only off the road).
func (p *pricing) add(row string) bool {
	c := p.r.chart.at(row, p.side)
	if c.prohibit && !p.out.road {
		return false
	}
	if p.gtc != "" {
		if g := p.r.chart.at(row, p.gtc); !g.same {
			c = g
		}
	}
	if c.alt != nil && p.md.Disorder {
		c = *c.alt
	}
	if c.prohibit || c.na {
		return false
	}
	p.out.mp += c.mp
	p.crossed = p.crossed || c.disorder && p.gtc == ""
	p.out.general = p.out.general || c.general
	return true
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// Price is the cost function of mode md over m, the mode held the whole
// way (as a step's price reads it).
func (r *Rules) Price(m *terrain.Map, md Mode) terrain.Step {
	return func(i, d int) (int, bool) {
		s, ok := r.price(m, md, i, d)
		return s.mp, ok
	}
}

// Enter is the price of the step from hex i in direction d for a piece
// moving in mode md, and the mode it goes on in (NES-7's effects take
// hold as the hex is entered), with what prices nothing left out but
// its disorder and general order; false if the step may not be taken.
func (r *Rules) Enter(m *terrain.Map, md Mode, i, d int) (int, Mode, bool) {
	s, ok := r.price(m, md, i, d)
	if !ok {
		return 0, md, false
	}
	return s.mp, r.state(md.after(s)), true
}

// Layers works out, for the searches, the step costs over m of a piece
// that sets out in mode md, in every mode its way may bring it to (NES-7:
// the chart's effects take hold as each hex is entered and price the rest
// of the move): the layers, layer 0 md's, and the mode of each. A game
// keeps the layers of its map. The modes keep the piece's disorder and
// general order even where they price nothing, and rank the layers by
// them, so that of ways of equal cost a path takes the one that does
// least to the piece (Mode.rank), then the one of fewest hexes.
func (r *Rules) Layers(m *terrain.Map, md Mode) (terrain.Layers, []Mode) {
	modes := []Mode{r.state(md)}
	// next[l][e] is the layer a step with effects e (general order 1,
	// disorder 2) leaves a piece of layer l in, -1 until first needed.
	var next [][4]int
	ls := terrain.LayersOf(m, func(l, i, d int) (int, int, bool) {
		s, ok := r.price(m, modes[l], i, d)
		if !ok {
			return 0, 0, false
		}
		for len(next) <= l {
			next = append(next, [4]int{-1, -1, -1, -1})
		}
		e := 0
		if s.general {
			e |= 1
		}
		if s.disorder {
			e |= 2
		}
		if next[l][e] < 0 {
			x := r.state(modes[l].after(s))
			n := slices.Index(modes, x)
			if n < 0 {
				modes = append(modes, x)
				n = len(modes) - 1
			}
			next[l][e] = n
		}
		return s.mp, next[l][e], true
	})
	ranks := make([]uint8, len(modes))
	for l, x := range modes {
		ranks[l] = x.rank()
	}
	// A piece keeps its disorder and general order (after), so the ranks
	// never fall along a step and SetEffects takes them (were it to refuse
	// them, paths would still be of least cost, ties broken by search
	// order; TestPathsAgainstBruteForce checks that it takes them).
	_ = ls.SetEffects(ranks)
	return ls, modes
}

// Floor is the least a step costs for a piece that sets out in mode md,
// in any mode its way may bring it to: the searches steer by it.
func (r *Rules) Floor(md Mode) int {
	least := r.floor(md)
	for _, s := range []step{{general: true}, {disorder: true}, {general: true, disorder: true}} {
		least = min(least, r.floor(md.after(s)))
	}
	return least
}

// floor is the least a step costs in mode md.
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
