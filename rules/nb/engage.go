package nb

import (
	"slices"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// engager keeps what the engagement check reuses from one call to the next.
type engager struct {
	pts       []geom.Point
	grids     []*geom.Grid // one per side, of its un-routed units on the table
	side      []int        // unit -> side index
	div       []int        // unit -> formation index of its division
	units     [][]int      // formation index -> unit indices (divisions only)
	stamp     []int        // formation index -> last check that saw it
	cand      []int        // formation index -> last round that made it a candidate
	mine      []int        // formation index -> last round in which one of its units was touched
	round     int
	whole     *geom.Grid // every unit on the table, for finding the candidates
	divisions int
	all       []int32
	buf       []int32
	idx       [][]int32 // side -> its un-routed units on the table
	check     int
	sideOf    map[string]int
}

func (s *State) engager(sc *battle.Scenario) *engager {
	if s.eng != nil {
		return s.eng
	}
	e := &engager{
		pts:    make([]geom.Point, len(s.Units)),
		side:   make([]int, len(s.Units)),
		div:    make([]int, len(s.Units)),
		units:  make([][]int, len(s.Formations)),
		stamp:  make([]int, len(s.Formations)),
		cand:   make([]int, len(s.Formations)),
		mine:   make([]int, len(s.Formations)),
		sideOf: map[string]int{},
	}
	for i, side := range sc.Sides {
		e.sideOf[side.ID] = i
		e.grids = append(e.grids, nil)
		e.idx = append(e.idx, nil)
	}
	for _, f := range s.Formations {
		if f.Kind == battle.Division {
			e.divisions++
		}
	}
	for i, u := range s.Units {
		e.side[i] = e.sideOf[u.Side]
		e.div[i] = s.form[u.Division]
		e.units[e.div[i]] = append(e.units[e.div[i]], i)
	}
	s.eng = e
	return e
}

// engagement recomputes which divisions are engaged (SPEC NB-6): a division
// is engaged while any of its combat units is within reach of an un-routed
// enemy combat unit on the table. It emits engaged and disengaged events for
// the divisions whose engagement changed. It does nothing when no unit has
// moved or changed status since the last check, and otherwise looks again
// only at the divisions those units can affect: their own, the enemy
// divisions they were engaged with, and those now within their reach. Each unit looks only at the
// grid cells around it, so the cost grows with the number of units, not its
// square.
func engagement(x *game.Tx, reach float64, rule string) error {
	s := st(x)
	if !s.touchedAll && len(s.touched) == 0 && s.eng != nil && s.engReach == reach {
		return nil
	}
	full := s.touchedAll || s.eng == nil || s.engReach != reach
	e := s.engager(x.Sc)
	if !full {
		// Looking again at every division is cheaper when the touched
		// units are spread over many of them.
		e.round++
		n := 0
		for _, ui := range s.touched {
			if d := e.div[ui]; e.mine[d] != e.round {
				e.mine[d] = e.round
				n++
			}
		}
		full = 8*n > e.divisions
	}
	if s.engReach != reach {
		// Cells of half the reach: a query then looks at less ground
		// outside the circle than with cells of the whole reach.
		for i := range e.grids {
			e.grids[i] = geom.NewGrid(x.Sc.Field.Bounds(), reach/2)
		}
		e.whole = geom.NewGrid(x.Sc.Field.Bounds(), reach/2)
		s.engReach = reach
	}
	for i, u := range s.Units {
		e.pts[i] = u.At
	}
	for si := range e.idx {
		e.idx[si] = e.idx[si][:0]
	}
	for i, u := range s.Units {
		if u.OnTable && u.Status != "routed" {
			e.idx[e.side[i]] = append(e.idx[e.side[i]], int32(i))
		}
	}
	for si, grid := range e.grids {
		grid.BuildOf(e.pts, e.idx[si])
	}
	var with []int
	buf := e.buf[:0]
	if !full {
		// Only these divisions can change: those of the touched units;
		// the enemy divisions that were engaged with one of those (a unit
		// that moves away or routs may end it); and the enemy divisions
		// with a unit, routed or not, now in reach of a touched unit.
		e.all = e.all[:0]
		for i, u := range s.Units {
			if u.OnTable {
				e.all = append(e.all, int32(i))
			}
		}
		e.whole.BuildOf(e.pts, e.all)
		for _, ui := range s.touched {
			d := e.div[ui]
			e.cand[d] = e.round
			u := s.Units[ui]
			if !u.OnTable {
				continue
			}
			buf = e.whole.Within(u.At, reach, buf[:0])
			for _, j := range buf {
				if e.side[j] != e.side[ui] {
					e.cand[e.div[j]] = e.round
				}
			}
		}
		for fi, f := range s.Formations {
			for _, id := range f.With {
				if e.mine[s.form[id]] == e.round {
					e.cand[fi] = e.round
					break
				}
			}
		}
	}
	s.touched, s.touchedAll = s.touched[:0], false
	for fi, f := range s.Formations {
		if f.Kind != battle.Division || !full && e.cand[fi] != e.round {
			continue
		}
		e.check++
		with = with[:0]
		for _, ui := range e.units[fi] {
			u := s.Units[ui]
			if !u.OnTable {
				continue
			}
			for si, grid := range e.grids {
				if si == e.side[ui] {
					continue
				}
				buf = grid.Within(u.At, reach, buf[:0])
				for _, j := range buf {
					d := e.div[j]
					if e.stamp[d] != e.check {
						e.stamp[d] = e.check
						with = append(with, d)
					}
				}
			}
		}
		e.buf = buf
		if len(with) == 0 {
			if f.Engaged {
				if err := emit(x, game.Event{Type: Disengaged, Side: f.Side, See: game.All, Rule: rule}, Data{Formation: f.ID}); err != nil {
					return err
				}
			}
			continue
		}
		slices.Sort(with)
		if f.Engaged && len(f.With) == len(with) && slices.EqualFunc(with, f.With, func(d int, id string) bool { return s.Formations[d].ID == id }) {
			continue
		}
		ids := make([]string, len(with))
		for i, d := range with {
			ids[i] = s.Formations[d].ID
		}
		if err := emit(x, game.Event{Type: Engaged, Side: f.Side, See: game.All, Rule: rule}, Data{Formation: f.ID, With: ids}); err != nil {
			return err
		}
	}
	return nil
}
