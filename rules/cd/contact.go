package cd

import (
	"math"
	"slices"

	"orderly/geom"
	"orderly/geom/foot"
)

// meeting is a unit of the acting side that came upon an enemy unit it
// did not spot (fog of war, issue 32).
type meeting struct{ unit, met string }

// contact emits the engine's contact event for m, if any
// (game.Contacted): from it on the side spots the unit it met.
func (k *cmd) contact(m *meeting, rule string) error {
	if m == nil {
		return nil
	}
	return k.x.Contact(k.side, m.unit, m.met, k.s.Piece(m.met).At, rule)
}

// held lists the town blocks that enemy units the acting side does not
// spot stand in, by the unit.
func (k *cmd) held() map[block]string {
	out := map[block]string{}
	for i := range k.st.Units {
		v := &k.st.Units[i]
		if !k.unknown(v) || !k.st.alive(k.s, v.ID) {
			continue
		}
		if b, ok := k.r.blockOf(k.sc, v, v.At, v.Facing, v.Shape); ok {
			if _, dup := out[b]; !dup {
				out[b] = v.ID
			}
		}
	}
	return out
}

// along is the point share t of the way from a to b, to the hundredth of
// an inch.
func along(a, b geom.Point, t float64) geom.Point {
	return geom.Pt(math.Round((a.X+(b.X-a.X)*t)*100)/100, math.Round((a.Y+(b.Y-a.Y)*t)*100)/100)
}

// firstMeet is the share of the way a moving body goes before one of its
// units first meets an enemy unit the side does not spot: its footprint,
// in the formation and facing it moves in, would touch the enemy's (and
// go on into it), or
// its middle would enter a town block the enemy holds (CD-9). It returns
// the share, the unit and the enemy met; 1 and nil if none is met. A unit
// whose way is clear but whose new formation or facing would touch one
// meets it at the end of its way.
func (k *cmd) firstMeet(out []moving, held map[block]string) (float64, *meeting) {
	best := 1.0
	var m *meeting
	for _, mv := range out {
		f := k.r.footOf(mv.u)
		end := shrink(k.r.footAt(mv.u, mv.to, mv.facing, mv.shape))
		for i := range k.st.Units {
			v := &k.st.Units[i]
			if !k.unknown(v) || !k.st.alive(k.s, v.ID) {
				continue
			}
			g := k.r.footOf(v)
			t, ok := f.Meets(mv.to, g)
			if !ok && end.Dist(g) <= 0 {
				t, ok = 1, true
			}
			if ok && (m == nil || t < best) {
				best, m = t, &meeting{unit: mv.u.ID, met: v.ID}
			}
		}
		if len(held) == 0 {
			continue
		}
		a, b := centre(k.r.footOf(mv.u)), centre(k.r.footAt(mv.u, mv.to, mv.u.Facing, mv.u.Shape))
		n := min(max(1, int(a.Dist(b)/0.05)), maxSamples)
		for i := 0; i <= n; i++ {
			t := float64(i) / float64(n)
			if m != nil && t >= best {
				break
			}
			if bl, ok := blockAt(k.sc.Field, geom.Pt(a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t)); ok && held[bl] != "" {
				best, m = max(0, t-1/float64(n)), &meeting{unit: mv.u.ID, met: held[bl]}
				break
			}
		}
	}
	return best, m
}

// meet cuts a move short where its body first meets an enemy unit the
// side does not spot (firstMeet): every unit stops after the same share
// of its way, short of touching, in the formation and facing it had, and
// its leg is to be measured again for the ground it went (cutLeg). A
// passage of lines holds only if the way still runs through the friend.
// It returns the move unchanged, and no meeting, if it meets none.
func (k *cmd) meet(out []moving, through *Unit) ([]moving, *Unit, *meeting) {
	held := k.held()
	t, m := k.firstMeet(out, held)
	if m == nil {
		return out, through, nil
	}
	cut := make([]moving, len(out))
	put := func(t float64) {
		for i, mv := range out {
			cut[i] = moving{u: mv.u, to: along(mv.u.At, mv.to, t), facing: mv.u.Facing, shape: mv.u.Shape}
		}
	}
	// Back, a twentieth of an inch of the longest way at a time, until no
	// unit touches an enemy it does not spot, stands in a block one holds,
	// or stands on a friend.
	longest := 0.0
	for _, mv := range out {
		longest = max(longest, mv.u.At.Dist(mv.to))
	}
	step := 0.05 / max(longest, 0.05)
	for n := 0; ; n++ {
		put(t)
		if t <= 0 || n > maxSamples || k.clear(cut, held) {
			break
		}
		t = max(0, t-step)
	}
	if t <= 0 {
		put(0)
	}
	if through != nil {
		f := shrink(k.r.footOf(cut[0].u))
		if !f.Sweeps(cut[0].to, k.r.footOf(through)) {
			through = nil
		}
	}
	return cut, through, m
}

// clear reports whether a cut move's units stand clear: touching no enemy
// unit the side does not spot, in no town block one holds, and on no
// friend that does not move with them (but in a town block they share).
func (k *cmd) clear(cut []moving, held map[block]string) bool {
	for _, mv := range cut {
		end := shrink(k.r.footAt(mv.u, mv.to, mv.facing, mv.shape))
		if b, ok := k.r.blockOf(k.sc, mv.u, mv.to, mv.facing, mv.shape); ok && held[b] != "" {
			return false
		}
		for i := range k.st.Units {
			v := &k.st.Units[i]
			if !k.st.alive(k.s, v.ID) || slices.ContainsFunc(cut, func(o moving) bool { return o.u == v }) {
				continue
			}
			if end.Dist(k.r.footOf(v)) > 0 {
				continue
			}
			if k.unknown(v) || v.Side == k.side && !k.bothInBlock(mv, v) {
				return false
			}
		}
	}
	return true
}

// cutLeg measures a unit's leg cut short (meet): in the formation it had,
// or if it cannot move so (an artillery mode the gun class lacks) in the
// one it was to take; failing both it stays where it stands.
func (k *cmd) cutLeg(mv moving, cut *moving) {
	for _, shape := range []string{cut.shape, mv.shape} {
		if l, err := k.r.leg(k.sc, mv.u, mv.u.At, cut.to, shape, k.a.Mode, k.a.Charge); err == nil {
			cut.leg, cut.shape = l, l.Shape
			return
		}
	}
	cut.to, cut.leg = mv.u.At, Leg{Unit: mv.u.ID, Shape: mv.u.Shape, Mode: mv.leg.Mode, Rate: mv.leg.Rate}
}

// backOff is where a unit coming back from the screen at to stands if its
// footprint there would lie on an enemy unit the side does not spot: moved
// straight toward bearing way (its division's rear), else to either side
// or ahead, by twentieths of an inch, to the first place on the table
// where it touches no unit, and the unit it met. ok is false, with the
// meeting, if it finds no such place: the unit stays in the screen.
func (k *cmd) backOff(u *Unit, to geom.Point, facing float64, shape string, way float64) (geom.Point, *meeting, bool) {
	on := func(at geom.Point) (string, bool) {
		end := shrink(k.r.footAt(u, at, facing, shape))
		for i := range k.st.Units {
			v := &k.st.Units[i]
			if v != u && k.st.alive(k.s, v.ID) && end.Dist(k.r.footOf(v)) <= 0 {
				return v.ID, true
			}
		}
		return "", false
	}
	id, hit := on(to)
	if !hit {
		return to, nil, true
	}
	m := &meeting{unit: u.ID, met: id}
	far := k.sc.Field.Width + k.sc.Field.Depth
	for _, turn := range []float64{0, -90, 90, 180} {
		a := foot.Foot{Facing: way + turn}.Ahead()
		for d := 0.05; d <= far; d += 0.05 {
			at := geom.Pt(math.Round((to.X+a.X*d)*100)/100, math.Round((to.Y+a.Y*d)*100)/100)
			if !k.sc.Field.Contains(at) {
				break
			}
			if _, hit := on(at); !hit {
				return at, m, true
			}
		}
	}
	return to, m, false
}
