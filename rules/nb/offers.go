package nb

import (
	"slices"

	"orderly/game"
)

// Offers says which of the step's commands seat may give for each of the
// pieces and formations of its view (game.Offerer): react for cavalry that
// may react (NB-14), complete for a formation on an attack order (NB-8),
// combat for units that may start it with a division they are engaged
// with (NB-6, NB-10, NB-12), rout and rally for
// units not yet in that state. The checks are the ones the commands make.
func (r *Rules) Offers(gs *game.State, step game.Step, seat string) map[string][]string {
	s := of(gs)
	out := map[string][]string{}
	add := func(id, verb string) { out[id] = append(out[id], verb) }
	mine := func(side string) bool { return seat == game.Umpire || side == seat }
	for _, verb := range step.Verbs {
		if seat == game.Umpire && !slices.Contains(r.p.anytime, verb) {
			continue // the umpire gives only the outcomes of combat
		}
		switch verb {
		case "react", "combat", "rout", "rally":
			for _, u := range s.Units {
				if !u.OnTable || !mine(u.Side) {
					continue
				}
				var ok bool
				switch verb {
				case "react":
					ok = reactable(s, u) == nil
				case "combat":
					// With one of the divisions its own is engaged with
					// (NB-6), which the command names.
					ok = combatant(s, gs.Turn, u) == nil && len(s.division(u).With) > 0
				case "rout":
					ok = u.Status != "routed"
				case "rally":
					ok = u.Status == "routed"
				}
				if ok {
					add(u.ID, verb)
				}
			}
		case "complete":
			for _, f := range s.Formations {
				if mine(f.Side) && completable(f) == nil {
					add(f.ID, verb)
				}
			}
		}
	}
	for id, vs := range out {
		out[id] = slices.Compact(vs)
	}
	return out
}

// completable refuses to complete the order of a formation that is not on
// an attack order (NB-8).
func completable(f *Formation) error {
	if f.Order == nil || f.Order.Kind != "attack" {
		return game.Reject("NB-8", "formation %s is not on an attack order", f.ID)
	}
	return nil
}

// reactable refuses a reaction by anything but cavalry that is not routed
// and whose division is engaged or on a defend order (NB-14).
func reactable(s *State, u *Unit) error {
	if !u.Cavalry() {
		return game.Reject("NB-14", "unit %s is %s; only cavalry reacts", u.ID, u.Type)
	}
	if u.Status == "routed" {
		return game.Reject("", "unit %s is routed", u.ID)
	}
	d := s.division(u)
	if !d.Engaged && (d.Order == nil || d.Order.Kind != "defend") {
		return game.Reject("NB-14", "cavalry of %s reacts only when engaged or on a defend order", d.ID)
	}
	return nil
}

// combatant refuses to start combat with a routed unit, or one whose
// reserve entered from off the table this turn (NB-10).
func combatant(s *State, turn int, u *Unit) error {
	if u.Status == "routed" {
		return game.Reject("", "unit %s is routed", u.ID)
	}
	for f := range s.Lineage(u.Division) {
		if f.Entered == turn {
			return game.Reject("NB-10", "unit %s entered this turn and may not start combat", u.ID)
		}
	}
	return nil
}
