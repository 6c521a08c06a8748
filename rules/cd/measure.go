package cd

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/geom/area"
	"orderly/geom/foot"
)

// slack absorbs rounding in distances typed to the hundredth of an inch.
const slack = 0.01

// maxSamples bounds the points a way is sampled at (a road kept to, the
// blocks of a town passed), whatever length a client gives it.
const maxSamples = 4000

// isArt reports whether a unit is artillery.
func (u *Unit) isArt() bool { return u.Type == "artillery" }

// arm is a unit's column of cd/terrain.
func (u *Unit) arm() string {
	if u.isArt() {
		return "artillery"
	}
	return "infantry-cavalry"
}

// scale is how much wider than cd/footprint a unit stands: its own
// frontage in line against the line's (unlimbered for artillery).
func (r *Rules) scale(u *Unit) float64 {
	if u == nil || u.Frontage <= 0 {
		return 1
	}
	if u.isArt() {
		return u.Frontage / r.foot["unlimbered"][0]
	}
	return u.Frontage / r.foot["line"][0]
}

// footAt is u's footprint standing at at, facing and in formation shape.
func (r *Rules) footAt(u *Unit, at geom.Point, facing float64, shape string) foot.Foot {
	fd := r.foot[shape]
	return foot.Foot{At: at, Facing: facing, Width: fd[0] * r.scale(u), Depth: fd[1]}
}

// footOf is u's footprint where it stands.
func (r *Rules) footOf(u *Unit) foot.Foot { return r.footAt(u, u.At, u.Facing, u.Shape) }

// centre is the middle of a footprint.
func centre(f foot.Foot) geom.Point {
	a := f.Ahead()
	return geom.Pt(f.At.X-a.X*f.Depth/2, f.At.Y-a.Y*f.Depth/2)
}

// room is how much wider a unit not in line stands once in line, on each
// side: the space it needs to form line (CD-4).
func (r *Rules) room(u *Unit) float64 {
	if u.isArt() || u.Shape == "line" {
		return 0
	}
	return max(0, (r.foot["line"][0]-r.foot[u.Shape][0])*r.scale(u)/2)
}

// gap is how far apart two footprints are across the front and in depth
// of a frame facing facing: the gaps between their extents along each
// axis (0 where they overlap).
func gap(f, g foot.Foot, facing float64) (across, depth float64) {
	a := foot.Foot{Facing: facing}.Ahead()
	rt := geom.Pt(-a.Y, a.X)
	span := func(ft foot.Foot, n geom.Point) (float64, float64) {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, c := range ft.Corners() {
			v := c.X*n.X + c.Y*n.Y
			lo, hi = min(lo, v), max(hi, v)
		}
		return lo, hi
	}
	sep := func(n geom.Point) float64 {
		l1, h1 := span(f, n)
		l2, h2 := span(g, n)
		return max(0, l2-h1, l1-h2)
	}
	return sep(rt), sep(a)
}

// link is whether two units of a group stand close enough to move on one
// roll (CD-4), and the numbers that say so.
type link struct {
	across, depth, allowed float64
}

func (l link) ok(maxDepth float64) bool {
	return l.across <= l.allowed+slack && l.depth <= maxDepth+slack
}

// linkOf measures two units in the frame of the group's front (facing).
func (r *Rules) linkOf(u, v *Unit, facing float64) link {
	across, depth := gap(r.footOf(u), r.footOf(v), facing)
	return link{across: across, depth: depth, allowed: r.values["front"] + r.room(u) + r.room(v)}
}

// coherent checks that units (of one brigade) are coherent: every one is
// linked to the first through units within 1" across the front (plus the
// room to form line of those not in line) and 6" in depth of one another,
// measured in the first unit's frame (CD-4). The error names the unit
// left out and its nearest link.
func (r *Rules) coherent(us []*Unit) error {
	_, err := r.straggler(us)
	return err
}

// straggler is the unit coherent names as left out of units us, and its
// refusal; nil and nil when they are coherent (CD-4).
func (r *Rules) straggler(us []*Unit) (*Unit, error) {
	if len(us) < 2 {
		return nil, nil
	}
	facing := us[0].Facing
	in := make([]bool, len(us))
	in[0] = true
	for grew := true; grew; {
		grew = false
		for i, u := range us {
			if in[i] {
				continue
			}
			for j, v := range us {
				if in[j] && r.linkOf(u, v, facing).ok(r.values["depth"]) {
					in[i], grew = true, true
					break
				}
			}
		}
	}
	for i, u := range us {
		if in[i] {
			continue
		}
		best, bv := link{across: math.Inf(1)}, ""
		for j, v := range us {
			if !in[j] {
				continue
			}
			if l := r.linkOf(u, v, facing); l.across+l.depth < best.across+best.depth {
				best, bv = l, v.ID
			}
		}
		return u, game.Reject("CD-4", "%s is not coherent with the others: it stands %s\" across the front and %s\" in depth from %s; allowed %s\" across (1\" plus room to form line) and %s\" in depth",
			u.ID, inch(best.across), inch(best.depth), bv, inch(best.allowed), inch(r.values["depth"]))
	}
	return nil, nil
}

// commander is the figure of a formation's commander on the table, or
// nil for a stand-in or a lost one.
func (st *State) commander(s *game.State, f *Formation) *game.Piece {
	if f == nil || f.General == "" {
		return nil
	}
	g := st.General(f.General)
	if g == nil || g.Lost || g.Piece == nil || !g.OnTable {
		return nil
	}
	return s.Piece(g.ID)
}

// radiusOf is a formation's command radius (cd/command-radius): a wing's
// is a corps'.
func (r *Rules) radiusOf(k battle.Kind) float64 {
	if k == battle.Wing {
		return r.radius[battle.Corps]
	}
	return r.radius[k]
}

// inCommand says whether a unit is within its command radius: within its
// division commander's, he within his corps commander's (or the army
// commander's), and so up to the army (CD-8). The reason names the first
// link that fails, with the numbers.
func (r *Rules) inCommand(s *game.State, st *State, u *Unit) (bool, string) {
	div := st.Formation(u.Division)
	g := st.commander(s, div)
	if g == nil {
		return false, fmt.Sprintf("division %s has no commander on the table", u.Division)
	}
	if d := r.footOf(u).DistTo(g.At); d > r.radius[battle.Division]+slack {
		return false, fmt.Sprintf("%s stands %s\" from its division commander %s, beyond the division's radius of %s\"", u.ID, inch(d), g.ID, inch(r.radius[battle.Division]))
	}
	for f := div; f.Parent != ""; {
		p := st.Formation(f.Parent)
		if p == nil {
			break
		}
		pg := st.commander(s, p)
		if pg == nil {
			return false, fmt.Sprintf("%s %s has no commander on the table", p.Kind, p.ID)
		}
		if d := g.At.Dist(pg.At); d > r.radiusOf(p.Kind)+slack {
			return false, fmt.Sprintf("%s stands %s\" from %s, beyond the %s radius of %s\"", g.ID, inch(d), pg.ID, p.Kind, inch(r.radiusOf(p.Kind)))
		}
		f, g = p, pg
	}
	return true, ""
}

// covered reports whether a point lies in a feature that gives cover.
func covered(fd battle.Field, p geom.Point) bool {
	for _, f := range fd.Features {
		if f.Cover && f.Area != nil && f.Area.Contains(p) {
			return true
		}
	}
	return false
}

// inCover reports whether a unit stands in cover: the middle of its
// footprint in woods or a town.
func (r *Rules) inCover(sc *battle.Scenario, u *Unit) bool {
	return covered(sc.Field, centre(r.footOf(u)))
}

// block is a town block: the town and the block's index.
type block struct {
	town *battle.Feature
	i    int
}

func (b block) String() string { return fmt.Sprintf("block %d of %s", b.i+1, b.town.ID) }

// blockAt is the town block a point lies in.
func blockAt(fd battle.Field, p geom.Point) (block, bool) {
	for _, f := range fd.Features {
		if f.Type != "town" {
			continue
		}
		for i, b := range f.Blocks {
			if b.Contains(p) {
				return block{f, i}, true
			}
		}
	}
	return block{}, false
}

// street is how far apart two blocks of a town may stand and still be
// adjacent: across a street (our reading of CD-9).
const street = 1.0

// adjacent reports whether two blocks of a town are next to each other:
// no more than a street apart (CD-9).
func adjacent(a, b block) bool {
	if a.town != b.town {
		return false
	}
	if a.i == b.i {
		return true
	}
	p, q := a.town.Blocks[a.i], b.town.Blocks[b.i]
	ring := func(pg area.Polygon) area.Line { return append(area.Line(slices.Clone(pg)), pg[0]) }
	for _, c := range p {
		if ring(q).Dist(c) <= street+slack {
			return true
		}
	}
	for _, c := range q {
		if ring(p).Dist(c) <= street+slack {
			return true
		}
	}
	return false
}

// blockOf is the town block a unit stands in: the middle of its footprint.
func (r *Rules) blockOf(sc *battle.Scenario, u *Unit, at geom.Point, facing float64, shape string) (block, bool) {
	return r.blockWhere(sc.Field, at, facing, shape)
}

// blockWhere is the town block of a unit standing at at, facing facing, in
// formation shape: the middle of its footprint, which its frontage does not
// move.
func (r *Rules) blockWhere(fd battle.Field, at geom.Point, facing float64, shape string) (block, bool) {
	return blockAt(fd, centre(foot.Foot{At: at, Facing: facing, Depth: r.foot[shape][1]}))
}

// stands counts the friendly stands in a block, but the units in except.
func (r *Rules) stands(s *game.State, st *State, side string, b block, except []string) int {
	n := 0
	for i := range st.Units {
		v := &st.Units[i]
		if v.Side != side || !st.alive(s, v.ID) || slices.Contains(except, v.ID) {
			continue
		}
		if vb, ok := r.blockOf(st.sc, v, v.At, v.Facing, v.Shape); ok && vb == b {
			n += v.Stands
		}
	}
	return n
}

// onRoad reports whether the straight way from a to b keeps to a road:
// every point of it within half the road's width (at least half an inch)
// of one road.
func onRoad(fd battle.Field, a, b geom.Point) bool {
	for _, f := range fd.Features {
		if f.Type != "road" {
			continue
		}
		w := max(f.Width/2, 0.5) + slack
		n := min(max(1, int(a.Dist(b)/0.25)), maxSamples)
		ok := true
		for i := 0; i <= n && ok; i++ {
			t := float64(i) / float64(n)
			ok = f.Course.Dist(geom.Pt(a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t)) <= w
		}
		if ok {
			return true
		}
	}
	return false
}

// Leg is what one straight move of a unit costs and meets (CD-2, CD-3,
// CD-6).
type Leg struct {
	Unit     string  `json:"unit"`
	Distance float64 `json:"distance"` // inches of ground
	// Cost is the share of the unit's rate the leg takes (the allowance
	// is the activation's factor).
	Cost float64 `json:"cost"`
	// Rate is the rate the leg is measured at, in inches, and Mode what
	// gives it: a formation, or an artillery mode (cd/artillery-movement).
	Rate float64 `json:"rate"`
	Mode string  `json:"mode"`
	AP   int     `json:"ap,omitempty"` // action points the artillery mode costs
	Road bool    `json:"road,omitempty"`
	// Terrain lists the features that slowed the leg.
	Terrain []string `json:"terrain,omitempty"`
	// Disruptive is the worst disruptive rating the leg entered, if the
	// unit must roll for it (CD-6); Feature is the feature.
	Disruptive string `json:"disruptive,omitempty"`
	Feature    string `json:"feature,omitempty"`
	// Shape is the formation the unit ends in (general order forced by
	// disruptive terrain included).
	Shape string `json:"formation,omitempty"`
	// Change is the share of the rate a shaken unit's change of
	// formation costs (a quarter of its move, CD-8).
	Change float64 `json:"change,omitempty"`
}

// gunMode is an artillery move's row of cd/artillery-movement, from the
// formation before and after and the mode the player names.
func gunMode(from, to, asked string, road bool) string {
	switch {
	case from == "limbered" && to == "limbered" && road:
		return "road"
	case from == "limbered" && to == "limbered":
		return "field"
	case from == "unlimbered" && to == "limbered":
		return "limber-move"
	case from == "limbered" && to == "unlimbered":
		return "move-unlimber-fire"
	case asked == "limber-move-unlimber-fire":
		return asked
	}
	return "prolonge"
}

// leg measures a unit's straight move from a to b, changing formation
// from shape to to (CD-2, CD-3, CD-6, CD-8). asked is an artillery mode
// the player names; a cavalry charge adds its inches to the rate (CD-2).
// It refuses terrain the unit cannot enter and a river crossed away from a
// ford or a road.
func (r *Rules) leg(sc *battle.Scenario, u *Unit, a, b geom.Point, to, asked string, charge bool) (Leg, error) {
	dist := a.Dist(b)
	l := Leg{Unit: u.ID, Distance: round(dist), Shape: to}
	road := dist > slack && onRoad(sc.Field, a, b)
	from := u.From
	if from == "" {
		from = u.Shape
	}
	// A road leg: a road column, or limbered artillery, keeping to a road.
	roadLeg := road && (u.isArt() && gunMode(from, to, asked, true) == "road" || !u.isArt() && to == "road")
	crossed := sc.Field.Crossing(a, b)
	if !roadLeg && dist > slack {
		l.Disruptive, l.Feature = disruption(u, crossed)
	}
	// Before it enters disruptive terrain the unit moves in the formation
	// it had; from there on in general order (CD-6).
	before, pre := 0.0, rate{}
	if l.Disruptive != "" && !u.isArt() && to != "general-order" {
		for _, c := range crossed {
			if c.Feature.ID == l.Feature {
				before = entry(c.Feature.Area, a, b)
			}
		}
		sh := to
		if sh == "road" {
			sh = "column"
		}
		pre = r.rates[[2]string{u.Type, sh}]
		l.Shape = "general-order"
	}
	rt, err := r.legRate(u, &l, from, asked, roadLeg, dist > slack, charge)
	if err != nil {
		return l, err
	}
	l.Road = roadLeg
	l.Rate = rt.in
	if !rt.ok {
		return l, nil // no move at all: a change in place
	}
	ground := dist
	if !l.Road {
		if ground, err = r.ground(sc, u, &l, crossed, a, b); err != nil {
			return l, err
		}
	}
	if dist > slack {
		l.Cost = ground / rt.in
		if pre.ok && before > 0 {
			l.Cost = before/pre.in + (ground-before)/rt.in
		}
	}
	return l, nil
}

// disruption is the worst disruptive terrain (CD-6) a unit's way crossed
// enters or moves in, and the feature: none for a unit in open order, or
// a skirmisher in cover.
func disruption(u *Unit, crossed []battle.Crossed) (rating, feature string) {
	for _, c := range crossed {
		f := c.Feature
		if f.Disruptive == "" || f.Area == nil || (c.Inside <= slack && !c.Ends) {
			continue
		}
		if u.OpenOrder || (u.Skirmish && f.Cover) {
			continue
		}
		if f.Disruptive > rating {
			rating, feature = f.Disruptive, f.ID
		}
	}
	return rating, feature
}

// legRate is the rate of leg l of unit u, setting its mode: a battery's
// mode runs from the formation it had when it activated (from), so that a
// move split into legs is priced as one; off a road a road column moves
// at the column's rate (our reading of CD-2). A charge adds its inches
// (CD-2). moves says the leg covers ground: a battery's mode it cannot
// carry out is refused only then, or once it has moved.
func (r *Rules) legRate(u *Unit, l *Leg, from, asked string, roadLeg, moves, charge bool) (rate, error) {
	var rt rate
	if u.isArt() {
		l.Mode = gunMode(from, l.Shape, asked, roadLeg)
		rt = r.rates[[2]string{u.Gun, l.Mode}]
		if !rt.ok && (moves || u.Used > 0) {
			return rt, game.Reject("CD-2", "a battery of gun class %s cannot %s in one turn (cd/artillery-movement: NA)", u.Gun, strings.ReplaceAll(l.Mode, "-", ", "))
		}
		l.AP = rt.ap
	} else {
		l.Mode = l.Shape
		if l.Shape == "road" && !roadLeg {
			l.Mode = "column"
		}
		rt = r.rates[[2]string{u.Type, l.Mode}]
		if !rt.ok {
			return rt, game.Reject("CD-2", "%s has no %s formation (cd/movement)", u.Type, l.Shape)
		}
	}
	if charge {
		bonus, ok := r.charge[u.Type]
		if !ok || u.isArt() {
			return rt, game.Reject("CD-2", "%s does not charge (cd/movement: -)", u.Type)
		}
		rt.in += bonus
		l.Mode += "-charge"
	}
	return rt, nil
}

// ground is the inches of open ground a leg off the road from a to b is
// worth, with the terrain it crossed (cd/terrain, CD-3) named in l: a
// river only at a ford or a road, terrain the unit cannot enter refused.
func (r *Rules) ground(sc *battle.Scenario, u *Unit, l *Leg, crossed []battle.Crossed, a, b geom.Point) (float64, error) {
	ground := a.Dist(b)
	for _, c := range crossed {
		f := c.Feature
		if f.Type == "river" && c.Crosses > 0 {
			for _, t := range f.Course.Meets(a, b) {
				p := geom.Pt(a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t)
				if !fordOrBridge(sc.Field, p) {
					return 0, game.Reject("CD-3", "the way from %s to %s crosses %s at %s, away from a ford or a road", a, b, f.ID, p.Round())
				}
			}
			continue
		}
		e, ok := r.terrain[[2]string{f.Type, u.arm()}]
		if !ok {
			continue
		}
		switch {
		case e.none && (c.Inside > slack || c.Ends):
			return 0, game.Reject("CD-3", "%s cannot enter %s (%s, cd/terrain: none for %s)", u.ID, f.ID, f.Type, u.arm())
		case e.minus > 0 && c.Crosses > 0:
			ground += e.minus * float64(c.Crosses)
			l.Terrain = append(l.Terrain, f.ID)
		case e.factor > 0 && e.factor < 1 && c.Inside > slack:
			ground += c.Inside * (1/e.factor - 1)
			l.Terrain = append(l.Terrain, f.ID)
		}
	}
	return ground, nil
}

// fastest is the most inches a unit's move could cover for the share of
// its rate it has left: at its best rate (a road's, a charge's), before
// any terrain; a move longer than that is refused before it is measured.
func (r *Rules) fastest(u *Unit, charge bool) float64 {
	best := 0.0
	for k, rt := range r.rates {
		if rt.ok && (k[0] == u.Type || u.isArt() && k[0] == u.Gun) {
			best = max(best, rt.in)
		}
	}
	if charge {
		best += r.charge[u.Type]
	}
	return best * max(0, u.Factor-u.Used)
}

// entry is how far the straight way from a to b runs before it first
// enters the area, to a twentieth of an inch.
func entry(pg area.Polygon, a, b geom.Point) float64 {
	d := a.Dist(b)
	n := min(max(1, int(d/0.05)), maxSamples)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		if pg.Contains(geom.Pt(a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t)) {
			return d * t
		}
	}
	return d
}

// fordOrBridge reports whether a river may be crossed at p: in a ford, or
// where a road crosses (a bridge).
func fordOrBridge(fd battle.Field, p geom.Point) bool {
	for _, f := range fd.Features {
		switch {
		case f.Type == "ford" && f.Area.Contains(p):
			return true
		case f.Type == "road" && f.Course.Dist(p) <= max(f.Width/2, 0.5)+slack:
			return true
		}
	}
	return false
}

// place moves p by the rigid motion that takes from to to and turns by
// turn degrees about to.
func place(p, from, to geom.Point, turn float64) geom.Point {
	sin, cos := math.Sincos(turn * math.Pi / 180)
	dx, dy := p.X-from.X, p.Y-from.Y
	return geom.Pt(math.Round((to.X+dx*cos-dy*sin)*1000)/1000, math.Round((to.Y+dx*sin+dy*cos)*1000)/1000)
}

// norm is a facing in 0..360.
func norm(f float64) float64 {
	f = math.Mod(f, 360)
	if f < 0 {
		f += 360
	}
	return math.Round(f*100) / 100
}

// veer is the angle between a facing and the way from a to b, in degrees.
func veer(facing float64, a, b geom.Point) float64 {
	if a.Dist(b) < 1e-9 {
		return 0
	}
	dir := math.Atan2(b.X-a.X, -(b.Y-a.Y)) * 180 / math.Pi
	d := math.Abs(math.Mod(dir-facing+540, 360) - 180)
	return d
}
