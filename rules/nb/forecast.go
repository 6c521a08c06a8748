package nb

import (
	"math"
	"slices"

	"orderly/battle"
	"orderly/game"
)

// Forecast says, for each formation an order is for, that its general will
// roll the order-delay table (SPEC NB-5) with his quality and his side's
// nation when he reads it; or, for an on-board reserve, that it acts on
// the order when it is delivered, with no roll (NB-9). Each also says when
// the order's messenger should deliver it and the order be read (NB-3,
// NB-4), if one would ride.
func (r *Rules) Forecast(sc *battle.Scenario, gs *game.State, side string, args any) ([]game.Forecast, error) {
	a, ok := args.(*Args)
	if !ok || a.Write == nil {
		return nil, game.Reject("", "a forecast is for an order to write: give write")
	}
	w, s := a.Write, of(gs)
	sd := sc.Side(side)
	if sd == nil {
		return nil, game.Reject("", "side %q is not in this game", side)
	}
	if len(w.For) == 0 {
		return nil, game.Reject("", "the order is for nobody; name a wing, corps or division")
	}
	var out []game.Forecast
	ride := r.delivery(sc, gs, side, w)
	for _, id := range w.For {
		f := s.Formation(id)
		if f == nil || f.Side != side {
			return nil, game.Reject("", "%s has no formation %s", side, id)
		}
		g := s.commander(f)
		if g == nil {
			return nil, game.Reject("NB-15", "formation %s has no general to read an order", id)
		}
		reserve := false
		for p := range s.Lineage(id) {
			reserve = reserve || p.Reserve == "on-board"
		}
		if reserve {
			out = append(out, game.Forecast{Formation: id, General: g.ID,
				Note:      "an on-board reserve acts on its order when it is delivered, with no roll (NB-9)",
				Messenger: readOn(ride, false)})
			continue
		}
		out = append(out, game.Forecast{Formation: id, General: g.ID, Table: r.delay.ID,
			Params:    map[string]string{"nation": sd.Nation, "quality": g.Quality},
			Messenger: readOn(ride, true)})
	}
	return out, nil
}

// Arrivals gives the turn each messenger of side (every one for the
// umpire) should reach its general (game.Courier).
func (r *Rules) Arrivals(gs *game.State, side string) map[string]int {
	s := of(gs)
	out := map[string]int{}
	for _, m := range s.Messengers {
		if m.To == "" || side != game.Umpire && m.Side != side {
			continue
		}
		if turn, ok := r.Arrival(gs, m); ok {
			out[m.ID] = turn
		}
	}
	return out
}

// delivery is when the messenger that order w of side would send should
// deliver it (SPEC NB-3): it leaves the army commander, rides his command
// range a turn to the general write would send it to (NB-11), and arrives
// when Arrival says for a messenger at that place. It is nil when no
// messenger would ride: the army commander is fallen or attached to a
// combat unit (NB-13, NB-15), or the order could not be carried as it stands (write says why).
func (r *Rules) delivery(sc *battle.Scenario, gs *game.State, side string, w *Write) *game.Delivery {
	s := of(gs)
	army := s.Formation(side)
	if army == nil {
		return nil
	}
	a := s.General(army.General)
	if a == nil || !a.Active() || s.WithUnit(a) || a.Range <= 0 {
		return nil
	}
	fs := make([]*Formation, 0, len(w.For))
	for _, id := range w.For {
		f := s.Formation(id)
		if f == nil {
			return nil
		}
		fs = append(fs, f)
	}
	allowed, err := recipients(of(gs), fs)
	if err != nil {
		return nil
	}
	to := allowed[0]
	if w.To != "" {
		if !slices.Contains(allowed, w.To) {
			return nil
		}
		to = w.To
	}
	g := s.General(to)
	if g == nil || !g.Active() {
		return nil
	}
	turn, ok := r.Arrival(gs, &Messenger{Side: side, To: to, At: a.At, Speed: a.Range})
	if !ok {
		return nil
	}
	return &game.Delivery{From: a.ID, To: to, Distance: a.At.Dist(g.At), Speed: a.Range, Delivered: turn}
}

// readOn is delivery d for one recipient, a copy of its own: the order is
// read in the communications step of the turn after delivery (SPEC NB-4),
// or, for an on-board reserve, acted on at delivery with no reading (NB-9).
func readOn(d *game.Delivery, read bool) *game.Delivery {
	if d == nil {
		return nil
	}
	out := *d
	if read {
		out.Read = out.Delivered + 1
	}
	return &out
}

// Arrival is the turn a messenger should reach its general (SPEC NB-3):
// it rides its speed once a turn (and reaches him from a hundredth of an
// inch beyond it), in the messengers step of the maneuver
// phase, so one still to ride this turn arrives a turn sooner than one that
// has ridden. A messenger that has reached its general delivers on its
// next ride.
func (r *Rules) Arrival(gs *game.State, m *Messenger) (int, bool) {
	g := of(gs).General(m.To)
	if g == nil || m.Speed <= 0 {
		return 0, false
	}
	// Within the precision of a whole number of rides counts as
	// that number, as when the messenger rides (toward).
	rides := max(1, int(math.Ceil((m.At.Dist(g.At)-r.p.precision)/m.Speed-1e-9)))
	if gs.Turn == 0 {
		return rides, true // the first ride is on turn 1
	}
	at := slices.IndexFunc(r.p.seq, func(st game.Step) bool { return st.Phase == gs.Phase && st.Name == gs.Step })
	ride := slices.IndexFunc(r.p.seq, func(st game.Step) bool { return st.Name == "messengers" })
	if at >= 0 && at < ride {
		return gs.Turn + rides - 1, true
	}
	return gs.Turn + rides, true
}

// Reach is the engagement range of SPEC NB-6, in inches.
func (r *Rules) Reach() float64 { return r.p.engagement }

// Reaching lists the combat units of the view s that engage an enemy
// within reach (SPEC NB-6): those on the table that have not routed.
func (r *Rules) Reaching(gs *game.State) []string {
	var out []string
	for _, u := range of(gs).Units {
		if u.OnTable && u.Status != "routed" {
			out = append(out, u.ID)
		}
	}
	return out
}

// Kinds lists the orders a player may write (SPEC NB-1; reserve is a
// status, not an order, NB-9).
func (r *Rules) Kinds() []string { return slices.Clone(r.p.newOrders) }

// Writes is the verb that writes an order.
func (r *Rules) Writes() string { return "write" }
