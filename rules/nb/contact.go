package nb

import (
	"math"

	"orderly/game"
	"orderly/geom"
)

// Contact with unseen enemies under fog of war (issue 32). NB leaves
// movement to the base game (NB-16 adds only the speed): a move never
// stops at an enemy piece, seen or not, and units are points on the table,
// with no footprint to touch. The one rule that keeps a unit away from the
// enemy is NB-10's: a reserve's unit may not end its entry turn within 8"
// of an un-routed enemy combat unit. Played with fog of war, that rule
// is held to what the moving side knows. A move ending within 8" of an
// enemy unit it spots is refused, as without fog; one ending within 8" of
// an enemy unit it does not spot is carried out in a straight line up to
// the contact, a hundredth of an inch short of the first point within 8"
// of an unseen un-routed enemy unit, and the inches it moved are spent
// (NB-16); then the engine's contact event records the meeting, and each
// side spots the other's unit while both stand still. A reserve entering
// (NB-10) is set down clear of the enemy units its side spots; a unit set
// down within 8" of one it does not spot comes upon it.

// known reports whether seat (a side, or the umpire) knows of enemy unit
// u: the umpire knows every unit, and a side every one without fog of war
// and those it spots with it.
func known(x *game.Tx, seat string, u *Unit) bool { return !x.S.Hidden(seat, u.ID) }

// clearOf reports whether p is more than the entry clearance (NB-10) from
// every un-routed enemy unit of side on the table that seat knows of
// (known is true) or does not (known is false).
func (r *Rules) clearOf(x *game.Tx, side, seat string, p geom.Point, knows bool) bool {
	for _, u := range st(x).Units {
		if u.Side != side && u.OnTable && u.Status != "routed" && known(x, seat, u) == knows && u.At.Within(p, r.p.entryClear) {
			return false
		}
	}
	return true
}

// meet is where a unit of side, moving in a straight line from a to b
// (which ends within the entry clearance of an enemy unit that seat does
// not know of), stops: a hundredth of an inch short of the first point of
// the line within the clearance of an un-routed enemy unit seat does not
// know of, rounded as positions are; and that unit. It is a itself if the
// unit stands within the clearance already.
func (r *Rules) meet(x *game.Tx, side, seat string, a, b geom.Point) (geom.Point, *Unit) {
	c := r.p.entryClear
	first, met := math.Inf(1), (*Unit)(nil)
	d := geom.Pt(b.X-a.X, b.Y-a.Y)
	dd := d.X*d.X + d.Y*d.Y
	for _, u := range st(x).Units {
		if u.Side == side || !u.OnTable || u.Status == "routed" || known(x, seat, u) {
			continue
		}
		// The least t in [0, 1] with |a + t·d - u| = c.
		f := geom.Pt(a.X-u.At.X, a.Y-u.At.Y)
		cc := f.X*f.X + f.Y*f.Y - c*c
		t := 0.0
		if cc > 1e-9 {
			bb := 2 * (f.X*d.X + f.Y*d.Y)
			disc := bb*bb - 4*dd*cc
			if dd == 0 || disc < 0 {
				continue
			}
			t = (-bb - math.Sqrt(disc)) / (2 * dd)
			if t < 0 || t > 1 {
				continue
			}
		}
		if t < first {
			first, met = t, u
		}
	}
	if met == nil {
		return b, nil
	}
	long := math.Sqrt(dd)
	for back := 0.01; first*long-back > 0; back += 0.01 {
		p, _ := a.Toward(b, first*long-back)
		if p = p.Round(); r.clearOf(x, side, seat, p, false) {
			return p, met
		}
	}
	return a, met
}

// contact is a unit's meeting with an enemy unit its side did not spot.
type contact struct {
	unit string
	met  *Unit
}

// contacts emits the engine's contact event for each meeting, after the
// move or entry that made them (NB-10).
func contacts(x *game.Tx, side string, cs []contact) error {
	for _, c := range cs {
		if err := x.Contact(side, c.unit, c.met.ID, c.met.At, "NB-10"); err != nil {
			return err
		}
	}
	return nil
}
