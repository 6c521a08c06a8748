package game

import (
	"slices"

	"orderly/battle"
	"orderly/geom"
)

// engager keeps what the engagement check reuses from one call to the next.
type engager struct {
	pts    []geom.Point
	grids  []*geom.Grid // one per side, of its un-routed units on the table
	side   []int        // unit -> side index
	div    []int        // unit -> formation index of its division
	units  [][]int      // formation index -> unit indices (divisions only)
	stamp  []int        // formation index -> last check that saw it
	buf    []int32
	idx    [][]int32 // side -> its un-routed units on the table
	check  int
	sideOf map[string]int
}

func (g *Game) engager() *engager {
	if g.eng != nil {
		return g.eng
	}
	s := g.st
	e := &engager{
		pts:    make([]geom.Point, len(s.Units)),
		side:   make([]int, len(s.Units)),
		div:    make([]int, len(s.Units)),
		units:  make([][]int, len(s.Formations)),
		stamp:  make([]int, len(s.Formations)),
		sideOf: map[string]int{},
	}
	for i, side := range g.sc.Sides {
		e.sideOf[side.ID] = i
		e.grids = append(e.grids, geom.NewGrid(g.sc.Field.Bounds(), 17))
		e.idx = append(e.idx, nil)
	}
	for i, u := range s.Units {
		e.side[i] = e.sideOf[u.Side]
		e.div[i] = s.form[u.Division]
		e.units[e.div[i]] = append(e.units[e.div[i]], i)
	}
	g.eng = e
	return e
}

// Engagement recomputes which divisions are engaged (SPEC NB-6): a division
// is engaged while any of its combat units is within reach of an un-routed
// enemy combat unit on the table. It emits engaged and disengaged events for
// the divisions whose engagement changed, and does nothing when no piece has
// moved or changed status since the last check. Each unit looks only at the
// grid cells around it, so the cost grows with the number of units, not its
// square.
func (x *Tx) Engagement(reach float64, rule string) error {
	s := x.S
	if !s.dirty && x.g.eng != nil && x.g.engReach == reach {
		return nil
	}
	e := x.g.engager()
	if x.g.engReach != reach {
		for i := range e.grids {
			e.grids[i] = geom.NewGrid(x.Sc.Field.Bounds(), reach)
		}
		x.g.engReach = reach
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
	s.dirty = false
	var with []int
	buf := e.buf[:0]
	for fi, f := range s.Formations {
		if f.Kind != battle.Division {
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
				if err := x.Emit(Event{Type: Disengaged, Side: f.Side, See: All, Formation: f.ID, Rule: rule}); err != nil {
					return err
				}
			}
			continue
		}
		slices.Sort(with)
		ids := make([]string, len(with))
		for i, d := range with {
			ids[i] = s.Formations[d].ID
		}
		if f.Engaged && slices.Equal(ids, f.With) {
			continue
		}
		if err := x.Emit(Event{Type: Engaged, Side: f.Side, See: All, Formation: f.ID, With: ids, Rule: rule}); err != nil {
			return err
		}
	}
	return nil
}
