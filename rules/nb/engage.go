package nb

import (
	"slices"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// engager keeps what the engagement check reuses from one call to the next.
type engager struct {
	pts []geom.Point // each unit's position at the last check
	// grids index, one per side, its units on the table (routed ones too,
	// which still engage their own division), where they stood at the
	// last check until the touched ones are moved.
	grids []*geom.Grid
	side  []int   // unit -> side index
	div   []int   // unit -> formation index of its division
	units [][]int // formation index -> unit indices (divisions only)
	// contact lists, for each unit on the table, the enemy divisions with
	// an un-routed unit on the table within reach of it, in order, as at
	// the last check.
	contact [][]int32
	queued  []int // unit -> last round that queued it
	moved   []int // unit -> last round in which it was a touched unit
	// alone marks the units with no enemy unit on the table (routed or
	// not) within reach, as at the last check.
	alone  []bool
	marked []int // formation index -> last round that marked it
	stamp  []int // formation index -> last union that saw it
	round  int
	check  int
	queue  []int32 // the units to look at again this round
	forms  []int   // the divisions to look at again this round
	buf    []int32
	sideOf map[string]int
}

func (s *State) engager(sc *battle.Scenario) *engager {
	if s.eng != nil {
		return s.eng
	}
	e := &engager{
		pts:     make([]geom.Point, len(s.Units)),
		side:    make([]int, len(s.Units)),
		div:     make([]int, len(s.Units)),
		units:   make([][]int, len(s.Formations)),
		contact: make([][]int32, len(s.Units)),
		queued:  make([]int, len(s.Units)),
		moved:   make([]int, len(s.Units)),
		alone:   make([]bool, len(s.Units)),
		marked:  make([]int, len(s.Formations)),
		stamp:   make([]int, len(s.Formations)),
		sideOf:  map[string]int{},
	}
	for i, side := range sc.Sides {
		e.sideOf[side.ID] = i
		e.grids = append(e.grids, nil)
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
// the divisions whose engagement changed, in scenario order.
//
// It keeps, for each unit, the enemy divisions within reach of it, and
// looks again only at the units a change can affect: those that moved or
// changed status since the last check, and the enemy units within reach
// of where they stood and of where they stand. The work then grows with
// what changed, not with the size of the armies.
func engagement(x *game.Tx, reach float64, rule string) error {
	s := st(x)
	if !s.touchedAll && len(s.touched) == 0 && s.eng != nil && s.engReach == reach {
		return nil
	}
	full := s.touchedAll || s.eng == nil || s.engReach != reach
	e := s.engager(x.Sc)
	if s.engReach != reach {
		// Cells of half the reach: a query then looks at less ground
		// outside the circle than with cells of the whole reach.
		for i := range e.grids {
			e.grids[i] = geom.NewGrid(x.Sc.Field.Bounds(), reach/2)
		}
		s.engReach = reach
	}
	e.round++
	e.queue, e.forms = e.queue[:0], e.forms[:0]
	queue := func(i int32) {
		if e.queued[i] != e.round {
			e.queued[i] = e.round
			e.queue = append(e.queue, i)
		}
	}
	buf := e.buf[:0]
	// The index follows the units that changed: a full check puts every
	// unit on the table in afresh, otherwise only the touched ones move.
	place := func(i int32) {
		u := s.Units[i]
		e.pts[i] = u.At
		if u.OnTable {
			e.grids[e.side[i]].Put(i, u.At)
		} else {
			e.grids[e.side[i]].Remove(i)
		}
	}
	if full {
		for _, grid := range e.grids {
			grid.Clear()
		}
		for i := range s.Units {
			queue(int32(i))
			place(int32(i))
		}
	} else {
		// The enemies within reach of where a changed unit stood, found
		// in the index as it was before it moved; a unit that had none
		// is spared the search. Those within reach of where it stands
		// are found with its own contacts, below.
		for _, ui := range s.touched {
			queue(ui)
			e.moved[ui] = e.round
			if e.alone[ui] {
				continue
			}
			for si, grid := range e.grids {
				if si != e.side[ui] {
					buf = grid.Within(e.pts[ui], reach, buf[:0])
					for _, j := range buf {
						queue(j)
					}
				}
			}
		}
		for _, ui := range s.touched {
			place(ui)
		}
	}
	s.touched, s.touchedAll = s.touched[:0], false
	// Each queued unit's contacts, afresh; its division is looked at again.
	// The enemies within reach of a changed unit join the queue as they
	// are found, since their contacts may now include it.
	for k := 0; k < len(e.queue); k++ {
		ui := e.queue[k]
		c := e.contact[ui][:0]
		alone := true
		if u := s.Units[ui]; u.OnTable {
			e.check++
			for si, grid := range e.grids {
				if si == e.side[ui] {
					continue
				}
				buf = grid.Within(u.At, reach, buf[:0])
				alone = alone && len(buf) == 0
				if !full && e.moved[ui] == e.round {
					for _, j := range buf {
						queue(j)
					}
				}
				for _, j := range buf {
					if s.Units[j].Status == "routed" {
						continue // a routed unit engages nobody
					}
					if d := e.div[j]; e.stamp[d] != e.check {
						e.stamp[d] = e.check
						c = append(c, int32(d))
					}
				}
			}
			slices.Sort(c)
		}
		e.contact[ui] = c
		e.alone[ui] = alone
		if d := e.div[ui]; e.marked[d] != e.round {
			e.marked[d] = e.round
			e.forms = append(e.forms, d)
		}
	}
	e.buf = buf
	slices.Sort(e.forms) // events in scenario order
	var with []int
	for _, fi := range e.forms {
		f := s.Formations[fi]
		if f.Kind != battle.Division {
			continue
		}
		e.check++
		with = with[:0]
		for _, ui := range e.units[fi] {
			for _, d := range e.contact[ui] {
				if e.stamp[d] != e.check {
					e.stamp[d] = e.check
					with = append(with, int(d))
				}
			}
		}
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
		ids := s.strs.Take(len(with))
		for i, d := range with {
			ids[i] = s.Formations[d].ID
		}
		if err := emit(x, game.Event{Type: Engaged, Side: f.Side, See: game.All, Rule: rule}, Data{Formation: f.ID, With: ids}); err != nil {
			return err
		}
	}
	return nil
}
