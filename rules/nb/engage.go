package nb

import (
	"slices"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
)

// engager keeps what the engagement check reuses from one call to the next.
// It indexes each unit as it stood at the last check: where, whether on
// the table, whether it counts (un-routed); the touched units are brought
// up to date one at a time.
type engager struct {
	pts    []geom.Point // each unit's position as indexed
	on     []bool       // on the table, as indexed
	counts []bool       // on the table and not routed, as indexed
	grids  []*geom.Grid // per side, its units on the table as indexed
	side   []int        // unit -> side index
	div    []int        // unit -> formation index of its division
	units  [][]int      // formation index -> unit indices (divisions only)
	// near lists, for each unit on the table, the enemy divisions with an
	// un-routed unit on the table within reach of it, each with how many
	// such units it has there; a division is engaged with those named in
	// its units' lists.
	near   [][]tally
	seen   []int // unit -> last round that brought it up to date
	marked []int // formation index -> last round that marked it
	stamp  []int // formation index -> last union that saw it
	round  int
	check  int
	forms  []int // the divisions to look at again this round
	buf    []int32
	with   []int
	sideOf map[string]int
}

// tally is how many un-routed units of a division are within reach.
type tally struct{ div, n int32 }

func (s *State) engager(sc *battle.Scenario) *engager {
	if s.eng != nil {
		return s.eng
	}
	e := &engager{
		pts:    make([]geom.Point, len(s.Units)),
		on:     make([]bool, len(s.Units)),
		counts: make([]bool, len(s.Units)),
		side:   make([]int, len(s.Units)),
		div:    make([]int, len(s.Units)),
		units:  make([][]int, len(s.Formations)),
		near:   make([][]tally, len(s.Units)),
		seen:   make([]int, len(s.Units)),
		marked: make([]int, len(s.Formations)),
		stamp:  make([]int, len(s.Formations)),
		sideOf: map[string]int{},
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

// mark has division fi looked at again this round.
func (e *engager) mark(fi int) {
	if e.marked[fi] != e.round {
		e.marked[fi] = e.round
		e.forms = append(e.forms, fi)
	}
}

// add changes by k the count of division d's units within reach of unit
// i, and marks i's division when d comes into or goes out of its list.
func (e *engager) add(i int32, d int, k int32) {
	l := e.near[i]
	for j := range l {
		if l[j].div == int32(d) {
			l[j].n += k
			if l[j].n == 0 {
				l[j] = l[len(l)-1]
				e.near[i] = l[:len(l)-1]
				e.mark(e.div[i])
			}
			return
		}
	}
	e.near[i] = append(l, tally{int32(d), k})
	e.mark(e.div[i])
}

// enemies calls fn for each enemy unit on the table, as indexed, within
// reach of p, enemies of a unit of side si.
func (e *engager) enemies(si int, p geom.Point, reach float64, fn func(j int32)) {
	for sj, grid := range e.grids {
		if sj == si {
			continue
		}
		e.buf = grid.Within(p, reach, e.buf[:0])
		for _, j := range e.buf {
			fn(j)
		}
	}
}

// take takes unit i out of the index: the enemies within reach of where
// it stood stop counting it, and its own list is emptied.
func (e *engager) take(i int32, reach float64) {
	if !e.on[i] {
		return
	}
	if e.counts[i] {
		d := e.div[i]
		e.enemies(e.side[i], e.pts[i], reach, func(j int32) { e.add(j, d, -1) })
	}
	e.grids[e.side[i]].Remove(i)
	if len(e.near[i]) > 0 {
		e.near[i] = e.near[i][:0]
		e.mark(e.div[i])
	}
	e.on[i], e.counts[i] = false, false
}

// put indexes unit i as it stands now: the enemies within reach count it
// if it is un-routed, and it counts those of them that are.
func (e *engager) put(i int32, u *Unit, reach float64) {
	e.pts[i] = u.At
	e.on[i] = u.OnTable
	e.counts[i] = u.OnTable && u.Status != "routed"
	if !u.OnTable {
		return
	}
	d := e.div[i]
	e.enemies(e.side[i], u.At, reach, func(j int32) {
		if e.counts[i] {
			e.add(j, d, 1)
		}
		if e.counts[j] {
			e.add(i, e.div[j], 1)
		}
	})
	e.grids[e.side[i]].Put(i, u.At)
}

// shift moves unit i, on the table before and after, from where it is
// indexed to where it stands now, in one search around its new place
// wide enough to take in its old neighbours: the counts change only for
// the enemies it comes into or goes out of reach of (or all of them, if
// it routed or rallied).
func (e *engager) shift(i int32, u *Unit, reach float64) {
	old, was := e.pts[i], e.counts[i]
	now := u.Status != "routed"
	r2 := reach*reach + 1e-9 // as geom.Grid.Within
	di := e.div[i]
	for sj, grid := range e.grids {
		if sj == e.side[i] {
			continue
		}
		e.buf = grid.Within(u.At, reach+old.Dist(u.At)+1e-6, e.buf[:0])
		for _, j := range e.buf {
			pj := e.pts[j]
			in0 := sq(pj.X-old.X)+sq(pj.Y-old.Y) <= r2
			in1 := sq(pj.X-u.At.X)+sq(pj.Y-u.At.Y) <= r2
			if in0 == in1 && was == now {
				continue
			}
			if in0 && was {
				e.add(j, di, -1)
			}
			if in1 && now {
				e.add(j, di, 1)
			}
			if e.counts[j] && in0 != in1 {
				k := int32(1)
				if in0 {
					k = -1
				}
				e.add(i, e.div[j], k)
			}
		}
	}
	e.pts[i], e.counts[i] = u.At, now
	e.grids[e.side[i]].Put(i, u.At)
}

func sq(v float64) float64 { return v * v }

// engagement recomputes which divisions are engaged (SPEC NB-6): a division
// is engaged while any of its combat units is within reach of an un-routed
// enemy combat unit on the table. It emits engaged and disengaged events for
// the divisions whose engagement changed, in scenario order.
//
// It keeps, for each unit, how many un-routed units of each enemy division
// are within reach of it, and brings up to date only what a change
// affects: a unit that moved or changed status is taken out where it
// stood (the enemies there count it no more) and put in where it stands
// (the enemies there count it, and it counts them). The work then grows
// with what changed and the enemies around it, not with the size of the
// armies.
func engagement(x *game.Tx, reach float64, rule string) error {
	s := st(x)
	if !s.touchedAll && len(s.touched) == 0 && s.eng != nil && s.engReach == reach {
		return nil
	}
	full := s.touchedAll || s.eng == nil || s.engReach != reach
	e := s.engager(x.Sc)
	if s.engReach != reach {
		// Cells of the whole reach: a query looks at nine cells. (Cells
		// of half the reach look at less ground but walk more lists; on
		// the benchmarks the two come out even, this a little ahead.)
		for i := range e.grids {
			e.grids[i] = geom.NewGrid(x.Sc.Field.Bounds(), reach)
		}
		s.engReach = reach
	}
	e.round++
	e.forms = e.forms[:0]
	if full {
		for _, grid := range e.grids {
			grid.Clear()
		}
		for i := range s.Units {
			e.on[i], e.counts[i] = false, false
			e.near[i] = e.near[i][:0]
		}
		for i, u := range s.Units {
			e.put(int32(i), u, reach)
		}
		for fi := range s.Formations {
			e.mark(fi)
		}
	} else {
		for _, ui := range s.touched {
			if e.seen[ui] == e.round {
				continue
			}
			e.seen[ui] = e.round
			if u := s.Units[ui]; e.on[ui] && u.OnTable && e.pts[ui].Dist(u.At) <= reach {
				e.shift(ui, u, reach)
				continue
			}
			e.take(ui, reach)
			e.put(ui, s.Units[ui], reach)
		}
	}
	s.touched, s.touchedAll = s.touched[:0], false
	slices.Sort(e.forms) // events in scenario order
	for _, fi := range e.forms {
		f := s.Formations[fi]
		if f.Kind != battle.Division {
			continue
		}
		e.check++
		with := e.with[:0]
		for _, ui := range e.units[fi] {
			for _, t := range e.near[ui] {
				if e.stamp[t.div] != e.check {
					e.stamp[t.div] = e.check
					with = append(with, int(t.div))
				}
			}
		}
		e.with = with
		if len(with) == 0 {
			if f.Engaged {
				if err := emit(x, game.Event{Type: Disengaged, Side: f.Side, See: game.All, Rule: rule}, &Data{Formation: f.ID}); err != nil {
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
		if err := emit(x, game.Event{Type: Engaged, Side: f.Side, See: game.All, Rule: rule}, &Data{Formation: f.ID, With: ids}); err != nil {
			return err
		}
	}
	return nil
}
