package nb

import (
	"slices"

	"orderly/battle"
	"orderly/game"
)

// Offers says which of the step's commands seat may give for each of the
// pieces and formations of its view (game.Offerer): move for the pieces
// that may move (the umpire's, units only, with an override), write for the
// formations that may take a new order (NB-1, NB-10, NB-15), react for cavalry that
// may react (NB-14), complete for a formation on an attack order (NB-8),
// combat for units that may start it with a division they are engaged
// with (NB-6, NB-10, NB-12), rout and rally for
// units not yet in that state; attach for a general on the table not yet
// attached who has something to attach to, detach for one attached, and
// redirect for a messenger that may ride to another general (NB-11,
// NB-13; their targets are in Annotate's board). The checks are the ones
// the commands make.
func (r *Rules) Offers(gs *game.State, step game.Step, seat string) map[string][]string {
	s := of(gs)
	out := map[string][]string{}
	add := func(id, verb string) { out[id] = append(out[id], verb) }
	mine := func(side string) bool { return seat == game.Umpire || side == seat }
	for _, verb := range step.Verbs {
		if seat == game.Umpire && verb != "move" && !slices.Contains(r.p.anytime, verb) {
			continue // the umpire gives only the outcomes of combat, and moves with an override
		}
		switch verb {
		case "move":
			// A side moves its units and generals on the table, a
			// general unless fallen or attached (NB-10, NB-13, NB-15);
			// the umpire only units, past their speed with an override
			// and a reason (NB-16).
			for _, u := range s.Units {
				if u.OnTable && mine(u.Side) {
					add(u.ID, verb)
				}
			}
			for _, g := range s.Generals {
				if seat != game.Umpire && g.Side == seat && g.Active() && g.Attached == "" {
					add(g.ID, verb)
				}
			}
		case "react", "combat", "rout", "rally":
			for _, u := range s.Units {
				if u.OnTable && mine(u.Side) && unitOffered(s, gs.Turn, u, verb) {
					add(u.ID, verb)
				}
			}
		case "remove", "replace", "attach", "detach":
			for _, g := range s.Generals {
				if mine(g.Side) && generalOffered(s, g, verb) {
					add(g.ID, verb)
				}
			}
		case "redirect":
			for _, m := range s.Messengers {
				if m.Side == seat && len(redirectTargets(s, m)) > 0 {
					add(m.ID, verb)
				}
			}
		case "complete":
			for _, f := range s.Formations {
				if mine(f.Side) && completable(f) == nil {
					add(f.ID, verb)
				}
			}
		case "write":
			// The formations an order may be written for, each alone
			// (NB-1: any below the army; NB-10, NB-15), while the side
			// may write at all (NB-2, NB-13, NB-15).
			for _, f := range s.Formations {
				if f.Kind != battle.Army && seat != game.Umpire && f.Side == seat && orderable(s, f) == nil && r.writing(s, f.Side) == nil && receivable(s, f) {
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

// unitOffered reports whether unit u on the table may be given verb in
// turn: react if it may react (NB-14), combat if it may start it with a
// division its own is engaged with (NB-6), which the command names, rout
// unless routed, rally if routed.
func unitOffered(s *State, turn int, u *Unit, verb string) bool {
	switch verb {
	case "react":
		return reactable(s, u) == nil
	case "combat":
		return combatant(s, turn, u) == nil && len(s.division(u).With) > 0
	case "rout":
		return u.Status != "routed"
	case "rally":
		return u.Status == "routed"
	}
	return false
}

// generalOffered reports whether general g may be given verb: remove if
// he is on the table and has not fallen, replace if he has fallen and is
// not yet replaced (NB-15), attach if he has something to attach to,
// detach if he is attached (NB-13).
func generalOffered(s *State, g *General, verb string) bool {
	switch verb {
	case "remove":
		return g.OnTable && g.Fate == ""
	case "replace":
		return g.Fate != "" && g.Replaced == ""
	case "attach":
		return len(attachTargets(s, g)) > 0
	case "detach":
		return g.Attached != ""
	}
	return false
}

// orderable refuses a new order for a formation whose general has fallen
// and is not yet replaced (NB-15), or for an off-board reserve whose
// general is not yet at the edge (NB-10).
func orderable(s *State, f *Formation) error {
	if g := s.commander(f); g == nil || g.Fate != "" {
		id, fate := f.General, "gone"
		if g != nil {
			id, fate = g.ID, g.Fate
		}
		return game.Reject("NB-15", "general %s of %s is %s; the formation takes no new orders until he is replaced", id, f.ID, fate)
	}
	if f.Reserve == "off-board" && !f.Placed {
		return game.Reject("NB-10", "off-board reserve %s has no general on the table yet; he is placed at the edge two turns before it may enter", f.ID)
	}
	return nil
}

// receivable reports whether one of the generals an order for f may be
// carried to is on the table to receive it (NB-11).
func receivable(s *State, f *Formation) bool {
	to, err := recipients(s, []*Formation{f})
	if err != nil {
		return false
	}
	return slices.ContainsFunc(to, func(id string) bool { return s.General(id).Active() })
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
