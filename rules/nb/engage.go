package nb

import (
	"slices"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/sight"
)

// engager keeps what the engagement check reuses from one call to the next.
// It indexes each unit as it stood at the last check: where, whether on
// the table, whether it counts (un-routed); the touched units are brought
// up to date one at a time.
//
// Played with fog of war (the reading of NB-6 in SPEC), a unit counts an
// enemy unit within reach only if it spots it: its own sight (field), from
// where it stands to where the enemy stands, which depends on the two
// places, the spotter's kind and the ground alone. Each direction of a
// pair is counted on its own.
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
	// field is the ground units look over when fog of war is played,
	// nil without; kind is each unit's kind, as the fog of war knows it.
	field *sight.Field
	kind  []string
}

// tally is how many un-routed units of a division are within reach.
type tally struct{ div, n int32 }

func (s *State) engager(sc *battle.Scenario, field *sight.Field) *engager {
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
		field:  field,
	}
	if field != nil {
		e.kind = make([]string, len(s.Units))
		for i, u := range s.Units {
			e.kind[i] = u.Type
		}
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

// sees reports whether unit i, standing at p, counts enemy unit j,
// standing at q, within reach of it: always without fog of war, and with
// it if i spots j.
func (e *engager) sees(i int32, p geom.Point, j int32, q geom.Point) bool {
	return e.field == nil || e.field.Spotted(sight.Mark{Kind: e.kind[i], At: p}, sight.Mark{At: q})
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
		d, p := e.div[i], e.pts[i]
		e.enemies(e.side[i], p, reach, func(j int32) {
			if e.sees(j, e.pts[j], i, p) {
				e.add(j, d, -1)
			}
		})
	}
	e.grids[e.side[i]].Remove(i)
	if len(e.near[i]) > 0 {
		e.near[i] = e.near[i][:0]
		e.mark(e.div[i])
	}
	e.on[i], e.counts[i] = false, false
}

// put indexes unit i as it stands now: the enemies within reach count it
// if it is un-routed (and, with fog, they spot it), and it counts those of
// them that are (and that it spots).
func (e *engager) put(i int32, u *Unit, reach float64) {
	e.pts[i] = u.At
	e.on[i] = u.OnTable
	e.counts[i] = u.OnTable && u.Status != "routed"
	if !u.OnTable {
		return
	}
	d := e.div[i]
	e.enemies(e.side[i], u.At, reach, func(j int32) {
		if e.counts[i] && e.sees(j, e.pts[j], i, u.At) {
			e.add(j, d, 1)
		}
		if e.counts[j] && e.sees(i, u.At, j, e.pts[j]) {
			e.add(i, e.div[j], 1)
		}
	})
	e.grids[e.side[i]].Put(i, u.At)
}

// shift moves unit i, on the table before and after, from where it is
// indexed to where it stands now, in one search around its new place
// wide enough to take in its old neighbours: the counts change only for
// the enemies it comes into or goes out of reach of (or all of them, if
// it routed or rallied), and with fog of war for those it comes into or
// goes out of sight of, or that come into or go out of its sight.
func (e *engager) shift(i int32, u *Unit, reach float64) {
	old, was := e.pts[i], e.counts[i]
	now := u.Status != "routed"
	r2 := reach*reach + 1e-9 // as geom.Grid.Within
	di := e.div[i]
	fog := e.field != nil
	for sj, grid := range e.grids {
		if sj == e.side[i] {
			continue
		}
		e.buf = grid.Within(u.At, reach+old.Dist(u.At)+1e-6, e.buf[:0])
		for _, j := range e.buf {
			pj := e.pts[j]
			in0 := sq(pj.X-old.X)+sq(pj.Y-old.Y) <= r2
			in1 := sq(pj.X-u.At.X)+sq(pj.Y-u.At.Y) <= r2
			if !in0 && !in1 || !fog && in0 == in1 && was == now {
				continue
			}
			// Whether j counted i before and counts it now, and whether
			// i counted j before and counts it now.
			j0 := in0 && was && e.sees(j, pj, i, old)
			j1 := in1 && now && e.sees(j, pj, i, u.At)
			i0 := in0 && e.counts[j] && e.sees(i, old, j, pj)
			i1 := in1 && e.counts[j] && e.sees(i, u.At, j, pj)
			if j0 != j1 {
				e.add(j, di, step(j1))
			}
			if i0 != i1 {
				e.add(i, e.div[j], step(i1))
			}
		}
	}
	e.pts[i], e.counts[i] = u.At, now
	e.grids[e.side[i]].Put(i, u.At)
}

// step is 1 for a count that begins, -1 for one that ends.
func step(begins bool) int32 {
	if begins {
		return 1
	}
	return -1
}

func sq(v float64) float64 { return v * v }

// engagement recomputes which divisions are engaged (SPEC NB-6): a division
// is engaged while any of its combat units is within reach of an un-routed
// enemy combat unit on the table. It emits engaged and disengaged events for
// the divisions whose engagement changed, in scenario order.
//
// Played with fog of war, a unit engages only the enemy units it spots
// (with sr, its own sight: the reading of NB-6 in SPEC), so that a division
// is engaged only with enemy divisions its side spots; and since the enemy's
// engagement comes from what his units spot, which may be units the side
// does not, each division's engaged and disengaged events go to its own side
// alone (and the umpire). Without fog nothing changes: the events are
// everyone's.
//
// It keeps, for each unit, how many un-routed units of each enemy division
// are within reach of it, and brings up to date only what a change
// affects: a unit that moved or changed status is taken out where it
// stood (the enemies there count it no more) and put in where it stands
// (the enemies there count it, and it counts them). The work then grows
// with what changed and the enemies around it, not with the size of the
// armies.
func engagement(x *game.Tx, reach float64, sr *sight.Rules, rule string) error {
	s := st(x)
	fog := x.S.Fogged()
	if s.eng != nil && (s.eng.field != nil) != fog {
		s.eng = nil // a state reused for a game of another fog mode
	}
	if !s.touchedAll && len(s.touched) == 0 && s.eng != nil && s.engReach == reach {
		return nil
	}
	full := s.touchedAll || s.eng == nil || s.engReach != reach
	var field *sight.Field
	if fog && s.eng == nil {
		field = sight.On(sr, x.Sc)
	}
	e := s.engager(x.Sc, field)
	if s.engReach != reach || len(e.grids) > 0 && e.grids[0] == nil {
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
		e.recountAll(s, reach)
	} else {
		e.recountTouched(s, reach)
	}
	s.touched, s.touchedAll = s.touched[:0], false
	slices.Sort(e.forms) // events in scenario order
	for _, fi := range e.forms {
		if s.Formations[fi].Kind != battle.Division {
			continue
		}
		if err := tellEngagement(x, s.Formations[fi], e.enemiesOf(fi), rule); err != nil {
			return err
		}
	}
	return nil
}

// recountAll counts again every unit's enemies within reach, from scratch,
// and marks every formation to be looked at.
func (e *engager) recountAll(s *State, reach float64) {
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
}

// recountTouched brings the counts up to date for the units that moved or
// changed status (s.touched) alone: each is taken out where it stood and
// put in where it stands, or shifted if it stayed within reach of where it
// was indexed.
func (e *engager) recountTouched(s *State, reach float64) {
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

// enemiesOf lists, sorted, the enemy divisions (their formation indices)
// within reach of any unit of formation fi; the list is the engager's
// scratch, good until the next call.
func (e *engager) enemiesOf(fi int) []int {
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
	slices.Sort(with)
	e.with = with
	return with
}

// tellEngagement emits the event of a division whose engagement changed: disengaged
// when no enemy division is within reach (with) and it was engaged,
// engaged when its enemies are not those it was engaged with. With fog of
// war the event goes to the division's side alone (and the umpire).
func tellEngagement(x *game.Tx, f *Formation, with []int, rule string) error {
	s := st(x)
	see := game.All
	if x.S.Fogged() {
		see = f.Side
	}
	if len(with) == 0 {
		if !f.Engaged {
			return nil
		}
		return emit(x, game.Event{Type: Disengaged, Side: f.Side, See: see, Rule: rule}, &Data{Formation: f.ID})
	}
	if f.Engaged && len(f.With) == len(with) && slices.EqualFunc(with, f.With, func(d int, id string) bool { return s.Formations[d].ID == id }) {
		return nil
	}
	ids := s.strs.Take(len(with))
	for i, d := range with {
		ids[i] = s.Formations[d].ID
	}
	return emit(x, game.Event{Type: Engaged, Side: f.Side, See: see, Rule: rule}, &Data{Formation: f.ID, With: ids})
}
