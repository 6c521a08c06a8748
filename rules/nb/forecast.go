package nb

import (
	"slices"

	"orderly/battle"
	"orderly/game"
)

// Forecast says, for each formation an order is for, that its general will
// roll the order-delay table (SPEC NB-5) with his quality and his side's
// nation when he reads it.
func (r *Rules) Forecast(sc *battle.Scenario, s *game.State, side string, w game.Write) ([]game.Forecast, error) {
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
		out = append(out, game.Forecast{Formation: id, General: g.ID, Table: r.delay.ID,
			Params: map[string]string{"nation": sd.Nation, "quality": g.Quality}})
	}
	return out, nil
}

// Reach is the engagement range of SPEC NB-6, in inches.
func (r *Rules) Reach() float64 { return r.p.engagement }

// Kinds lists the orders a player may write (SPEC NB-1; reserve is a
// status, not an order, NB-9).
func (r *Rules) Kinds() []string { return slices.Clone(r.p.newOrders) }
