package bp

import (
	"math"

	"orderly/game"
	"orderly/geom"
	"orderly/geom/foot"
)

// footOf is a unit's footprint where its piece stands (SPEC BP readings:
// a rectangle placed by the centre of its front edge, sized by its
// formation from bp/footprint).
func (r *Rules) footOf(s *game.State, p *game.Piece) foot.Foot {
	fd := r.foot[p.Shape]
	return foot.Foot{At: p.At, Facing: p.Facing, Width: fd[0] * r.scale(ext(s).Unit(p.ID)), Depth: fd[1]}
}

// scale is how much wider than bp/footprint a unit stands: its own
// frontage in line (the scenario's frontage) against the line's.
func (r *Rules) scale(u *Unit) float64 {
	if u == nil || u.Frontage <= 0 {
		return 1
	}
	return u.Frontage / r.foot["line"][0]
}

// footAt is unit u's footprint moved to at, facing and formation.
func (r *Rules) footAt(u *Unit, at geom.Point, facing float64, shape string) foot.Foot {
	fd := r.foot[shape]
	return foot.Foot{At: at, Facing: facing, Width: fd[0] * r.scale(u), Depth: fd[1]}
}

// centre is the middle of a footprint.
func centre(f foot.Foot) geom.Point {
	a := f.Ahead()
	return geom.Pt(f.At.X-a.X*f.Depth/2, f.At.Y-a.Y*f.Depth/2)
}

// bearing is the facing, in degrees clockwise from north, that looks
// along v.
func bearing(v geom.Point) float64 {
	b := math.Atan2(v.X, -v.Y) * 180 / math.Pi
	if b < 0 {
		b += 360
	}
	if b >= 360 {
		b -= 360
	}
	return math.Round(b*100) / 100
}

// alive reports whether a unit is on the table and in the game.
func (st *State) alive(s *game.State, id string) bool {
	u := st.Unit(id)
	p := s.Piece(id)
	return u != nil && !u.Gone && p != nil && p.OnTable
}

// near lists the enemy units on the table within d of unit id, closest
// part to closest part, in scenario order, of those knows accepts.
func (r *Rules) near(s *game.State, id string, d float64, knows func(e *Unit) bool) []string {
	st := ext(s)
	u := st.Unit(id)
	p := s.Piece(id)
	if u == nil || p == nil {
		return nil
	}
	f := r.footOf(s, p)
	var out []string
	for i := range st.Units {
		e := &st.Units[i]
		if e.Side == u.Side || !st.alive(s, e.ID) || !knows(e) {
			continue
		}
		if f.Within(r.footOf(s, s.Piece(e.ID)), d) {
			out = append(out, e.ID)
		}
	}
	return out
}

// knownTo is whether seat knows of unit e: the umpire knows every unit,
// a side its own; it does not know the enemy's that the scenario hides
// from it, nor with fog of war those none of its pieces spots.
func knownTo(s *game.State, seat string) func(e *Unit) bool {
	return func(e *Unit) bool { return seat == game.Umpire || e.Side == seat || !e.Hidden && !s.Hidden(seat, e.ID) }
}

// inProximity reports whether a unit is within 12" of an enemy unit that
// seat knows of (BP-3, BP-7).
func (r *Rules) inProximity(s *game.State, id, seat string) bool {
	return len(r.near(s, id, Proximity, knownTo(s, seat))) > 0
}

// contact is where a unit standing at f ends when it goes straight toward
// the middle of g until it touches it, and how far it goes; ok is false if
// it touches already.
func contact(f, g foot.Foot) (geom.Point, float64, bool) {
	if f.Dist(g) <= 1e-6 {
		return f.At, 0, false
	}
	c := centre(g)
	dx, dy := c.X-f.At.X, c.Y-f.At.Y
	l := math.Hypot(dx, dy)
	if l < 1e-9 {
		return f.At, 0, false
	}
	dx, dy = dx/l, dy/l
	lo, hi := 0.0, l
	for range 60 {
		mid := (lo + hi) / 2
		m := f
		m.At = geom.Pt(f.At.X+dx*mid, f.At.Y+dy*mid)
		if m.Dist(g) <= 1e-6 {
			hi = mid
		} else {
			lo = mid
		}
	}
	at := geom.Pt(math.Round((f.At.X+dx*hi)*1000)/1000, math.Round((f.At.Y+dy*hi)*1000)/1000)
	return at, hi, true
}
