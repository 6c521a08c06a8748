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
// the order when it is delivered, with no roll (NB-9).
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
	for _, id := range w.For {
		f := s.Formation(id)
		if f == nil || f.Side != side {
			return nil, game.Reject("", "%s has no formation %s", side, id)
		}
		g := s.General(f.General)
		if g == nil {
			return nil, game.Reject("NB-15", "formation %s has no general to read an order", id)
		}
		reserve := false
		for p := range s.Lineage(id) {
			reserve = reserve || p.Reserve == "on-board"
		}
		if reserve {
			out = append(out, game.Forecast{Formation: id, General: g.ID,
				Note: "an on-board reserve acts on its order when it is delivered, with no roll (NB-9)"})
			continue
		}
		out = append(out, game.Forecast{Formation: id, General: g.ID, Table: r.delay.ID,
			Params: map[string]string{"nation": sd.Nation, "quality": g.Quality}})
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

// Arrival is the turn a messenger should reach its general (SPEC NB-3):
// it rides its speed once a turn, in the messengers step of the maneuver
// phase, so one still to ride this turn arrives a turn sooner than one that
// has ridden. A messenger that has reached its general delivers on its
// next ride.
func (r *Rules) Arrival(gs *game.State, m *Messenger) (int, bool) {
	g := of(gs).General(m.To)
	if g == nil || m.Speed <= 0 {
		return 0, false
	}
	rides := max(1, int(math.Ceil(m.At.Dist(g.At)/m.Speed-1e-9)))
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

// Kinds lists the orders a player may write (SPEC NB-1; reserve is a
// status, not an order, NB-9).
func (r *Rules) Kinds() []string { return slices.Clone(r.p.newOrders) }

// Writes is the verb that writes an order.
func (r *Rules) Writes() string { return "write" }
