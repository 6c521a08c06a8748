package terrain_test

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"orderly/geom/hex"
	"orderly/terrain"
)

// layered is a world whose piece changes state on the way: for each
// layer a world of prices, and for each step the layer it leaves the
// piece in.
type layered struct {
	w      []world // by layer, on one map
	next   [][]int // by layer: next[l][i*6+d]
	better bool    // the second layer is never worse than the first
}

func (lw layered) step(l, i, d int) (int, int, bool) {
	c, ok := lw.w[l].step(i, d)
	return c, lw.next[l][i*6+d], ok
}

// drawLayered draws a map and 1..3 layers of prices over it, each step
// leading to a random layer; or two layers, the second never worse than
// the first (each step allowed in the first allowed in it at no more cost,
// and staying in it), as a formation that only ever helps; or a trap: a
// second layer cheaper than the first step for step, but whose every step
// leads into a third where no step is allowed, so that it is not better.
func drawLayered(t *rapid.T) layered {
	first := drawWorld(t, 1, rapid.IntRange(1, 9).Draw(t, "hi"))
	switch rapid.IntRange(0, 3).Draw(t, "kind") {
	case 1:
		size := len(first.cost)
		two := make([]int, size)
		for k := range two {
			two[k] = 2
		}
		next0 := rapid.SliceOfN(rapid.IntRange(0, 1), size, size).Draw(t, "next")
		return layered{
			w:    []world{{first.m, two}, {first.m, slices.Repeat([]int{1}, size)}, {first.m, slices.Repeat([]int{-1}, size)}},
			next: [][]int{next0, slices.Repeat([]int{2}, size), make([]int, size)},
		}
	case 0:
		cost := make([]int, len(first.cost))
		for k, c := range first.cost {
			cost[k] = c
			if c < 0 {
				cost[k] = rapid.IntRange(-1, 9).Draw(t, "opened")
				if cost[k] == 0 {
					cost[k] = -1
				}
			} else {
				cost[k] = max(1, c-rapid.IntRange(0, 3).Draw(t, "less"))
			}
		}
		next0 := rapid.SliceOfN(rapid.IntRange(0, 1), len(cost), len(cost)).Draw(t, "next")
		next1 := make([]int, len(cost))
		for k := range next1 {
			next1[k] = 1
		}
		return layered{w: []world{first, {first.m, cost}}, next: [][]int{next0, next1}, better: true}
	}
	n := rapid.IntRange(1, 3).Draw(t, "layers")
	lw := layered{w: []world{first}}
	for range n - 1 {
		raw := rapid.SliceOfN(rapid.IntRange(-2, 9), 6*first.m.Len(), 6*first.m.Len()).Draw(t, "costs")
		cost := make([]int, len(raw))
		for k, c := range raw {
			cost[k] = max(c, -1)
			if c == 0 {
				cost[k] = -1
			}
		}
		lw.w = append(lw.w, world{first.m, cost})
	}
	for range n {
		lw.next = append(lw.next, rapid.SliceOfN(rapid.IntRange(0, n-1), 6*first.m.Len(), 6*first.m.Len()).Draw(t, "next"))
	}
	return lw
}

// bestLayered is the least cost of every (layer, cell) from from in layer
// 0, -1 if it cannot be reached: each step relaxed until none improves.
func bestLayered(lw layered, from int) [][]int {
	m := lw.w[0].m
	best := make([][]int, len(lw.w))
	for l := range best {
		best[l] = make([]int, m.Len())
		for i := range best[l] {
			best[l][i] = -1
		}
	}
	best[0][from] = 0
	for changed := true; changed; {
		changed = false
		for l := range best {
			for i, b := range best[l] {
				if b < 0 {
					continue
				}
				for d := range 6 {
					j := m.Next(i, d)
					c, nl, ok := lw.step(l, i, d)
					if j < 0 || !ok {
						continue
					}
					if best[nl][j] < 0 || b+c < best[nl][j] {
						best[nl][j], changed = b+c, true
					}
				}
			}
		}
	}
	return best
}

// TestLayers: over layers, a path is the least cost over every sequence
// of states its steps lead to, in whatever layer it ends; its cost is the
// sum of the prices of its steps, each in the layer the steps before it
// left the piece in; Reach gives each cell at its least cost in any layer,
// once. One layer searches as a Table does.
func TestLayers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lw := drawLayered(t)
		m := lw.w[0].m
		ls := terrain.LayersOf(m, lw.step)
		if got, want := len(ls.Cost), 6*m.Len()*len(lw.w); got > want {
			t.Fatalf("LayersOf made %d entries, want at most %d", got, want)
		}
		if lw.better && len(ls.Cost) == 12*m.Len() && ls.Better[0]&2 == 0 {
			t.Fatalf("the second layer is never worse than the first, and LayersOf does not say so: %v", ls.Better)
		}
		s := terrain.NewSearch(m)
		from := rapid.IntRange(0, m.Len()-1).Draw(t, "from")
		best := bestLayered(lw, from)
		least := make([]int, m.Len())
		for i := range least {
			least[i] = -1
			for l := range best {
				if c := best[l][i]; c >= 0 && (least[i] < 0 || c < least[i]) {
					least[i] = c
				}
			}
		}
		floor := 0
		if rapid.Bool().Draw(t, "floor") {
			floor = 1 // every allowed step costs 1 or more
		}
		for to := range m.Len() {
			limit := rapid.IntRange(-1, 40).Draw(t, "limit")
			path, cost, ok := s.PathLayers(from, to, &ls, nil, floor, limit)
			want := least[to] >= 0 && (limit < 0 || least[to] <= limit)
			if ok != want || ok && cost != least[to] {
				t.Fatalf("PathLayers(%d, %d, limit %d) = %d %v; least %d", from, to, limit, cost, ok, least[to])
			}
			if !ok {
				continue
			}
			sum, at, l := 0, from, 0
			for _, j := range path {
				d := m.Dir(at, j)
				c, nl, ok := lw.step(l, at, d)
				if d < 0 || !ok {
					t.Fatalf("the path %v takes a step %d to %d not allowed in layer %d", path, at, j, l)
				}
				sum, at, l = sum+c, j, nl
			}
			if at != to || sum != cost {
				t.Fatalf("the path %v ends at %d for %d step by step; PathLayers says %d to %d", path, at, sum, cost, to)
			}
		}
		budget := rapid.IntRange(0, 40).Draw(t, "budget")
		if err := checkReach(from, least, budget, s.ReachLayers(from, &ls, nil, budget, nil)); err != nil {
			t.Fatal(err)
		}
		// One layer is a table.
		if len(lw.w) == 1 {
			tab := terrain.TableOf(m, lw.w[0].step)
			if ls.Next != nil || !slices.Equal(ls.Cost, tab) {
				t.Fatalf("LayersOf of one layer is not TableOf")
			}
		}
	})
}

// TestLayersBlocked: a blocked hex is entered in no layer.
func TestLayersBlocked(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lw := drawLayered(t)
		m := lw.w[0].m
		ls := terrain.LayersOf(m, lw.step)
		blocked := make([]bool, m.Len())
		for i := range blocked {
			blocked[i] = rapid.IntRange(0, 3).Draw(t, "blocked") == 0
		}
		from := rapid.IntRange(0, m.Len()-1).Draw(t, "from")
		blocked[from] = false
		s := terrain.NewSearch(m)
		for _, x := range s.ReachLayers(from, &ls, blocked, -1, nil) {
			if blocked[x.I] {
				t.Fatalf("Reach enters the blocked hex %d", x.I)
			}
		}
		for to := range m.Len() {
			path, _, ok := s.PathLayers(from, to, &ls, blocked, 0, -1)
			if ok && slices.ContainsFunc(path, func(j int) bool { return blocked[j] }) {
				t.Fatalf("the path %v enters a blocked hex", path)
			}
			if blocked[to] && ok && to != from {
				t.Fatalf("a path to the blocked hex %d", to)
			}
		}
	})
}

// TestLayersEffects: with the layers ranked by effects (SetEffects), a
// path is still of least cost, and of the paths of least cost it is one
// that ends in a layer of least effects, then one of fewest hexes: what
// an exhaustive relaxation of every (layer, cell) by (cost, hexes) finds.
// Reach is unchanged.
func TestLayersEffects(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lw := drawLayered(t)
		m := lw.w[0].m
		ls := terrain.LayersOf(m, lw.step)
		n := len(ls.Cost) / (6 * m.Len())
		fx := make([]uint8, n)
		for l := range fx {
			fx[l] = uint8(rapid.IntRange(0, 3).Draw(t, "effects"))
		}
		// Raise each layer a step leads to to the rank of the layer it
		// leads from, until none falls: a piece keeps its effects.
		for changed := true; changed; {
			changed = false
			for e, c := range ls.Cost {
				if nx := ls.Next; c >= 0 && nx != nil && fx[nx[e]] < fx[e/(6*m.Len())] {
					fx[nx[e]], changed = fx[e/(6*m.Len())], true
				}
			}
		}
		if err := ls.SetEffects(fx); err != nil {
			t.Fatal(err)
		}
		from := rapid.IntRange(0, m.Len()-1).Draw(t, "from")
		// best[l][i]: the least (cost, hexes) to cell i in layer l.
		type label struct{ cost, hexes int }
		best := make([][]label, n)
		for l := range best {
			best[l] = make([]label, m.Len())
			for i := range best[l] {
				best[l][i].cost = -1
			}
		}
		best[0][from] = label{}
		for changed := true; changed; {
			changed = false
			for l := range best {
				for i, b := range best[l] {
					if b.cost < 0 {
						continue
					}
					for d := range 6 {
						j := m.Next(i, d)
						e := (l*m.Len()+i)*6 + d
						if j < 0 || ls.Cost[e] < 0 {
							continue
						}
						nl := 0
						if ls.Next != nil {
							nl = int(ls.Next[e])
						}
						c, old := label{b.cost + int(ls.Cost[e]), b.hexes + 1}, best[nl][j]
						if old.cost < 0 || c.cost < old.cost || c.cost == old.cost && c.hexes < old.hexes {
							best[nl][j], changed = c, true
						}
					}
				}
			}
		}
		type way struct{ cost, fx, hexes int }
		less := func(a, b way) bool {
			return a.cost < b.cost || a.cost == b.cost && (a.fx < b.fx || a.fx == b.fx && a.hexes < b.hexes)
		}
		s := terrain.NewSearch(m)
		floor := 0
		if rapid.Bool().Draw(t, "floor") {
			floor = 1
		}
		for to := range m.Len() {
			if to == from {
				continue
			}
			want := way{cost: -1}
			for l := range best {
				if b := best[l][to]; b.cost >= 0 {
					if w := (way{b.cost, int(fx[l]), b.hexes}); want.cost < 0 || less(w, want) {
						want = w
					}
				}
			}
			path, cost, ok := s.PathLayers(from, to, &ls, nil, floor, -1)
			if ok != (want.cost >= 0) {
				t.Fatalf("PathLayers(%d, %d) found %v; brute force %+v", from, to, ok, want)
			}
			if !ok {
				continue
			}
			sum, at, l := 0, from, 0
			for _, j := range path {
				c, nl, ok := lw.step(l, at, m.Dir(at, j))
				if !ok {
					t.Fatalf("the path %v takes a step to %d not allowed in layer %d", path, j, l)
				}
				sum, at, l = sum+c, j, nl
			}
			if got := (way{sum, int(fx[l]), len(path)}); got != want || cost != sum || at != to {
				t.Fatalf("PathLayers(%d, %d) = %v for %d: %+v; least by brute force %+v (effects %v)", from, to, path, cost, got, want, fx)
			}
		}
		budget := rapid.IntRange(0, 40).Draw(t, "budget")
		least := make([]int, m.Len())
		for i := range least {
			least[i] = -1
			for l := range best {
				if c := best[l][i].cost; c >= 0 && (least[i] < 0 || c < least[i]) {
					least[i] = c
				}
			}
		}
		if err := checkReach(from, least, budget, s.ReachLayers(from, &ls, nil, budget, nil)); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSetEffectsRefuses: effects that fall along a step, a rank over
// MaxEffects, or one rank short are refused, and the layers keep none.
func TestSetEffectsRefuses(t *testing.T) {
	lw := layered{w: []world{{}, {}}}
	g := hex.Map{Columns: 2, Rows: 1, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 2}}
	m, err := terrain.New(g, terrain.Kinds{Hexes: []terrain.Kind{{Name: "clear", Letter: '.'}}})
	if err != nil {
		t.Fatal(err)
	}
	ones := slices.Repeat([]int{1}, 6*m.Len())
	lw.w[0], lw.w[1] = world{m, ones}, world{m, ones}
	lw.next = [][]int{ones, ones} // every step leads into layer 1
	for _, fx := range [][]uint8{{1, 0}, {0, terrain.MaxEffects + 1}, {0}} {
		ls := terrain.LayersOf(m, lw.step)
		if err := ls.SetEffects(fx); err == nil || ls.Effects != nil {
			t.Errorf("SetEffects(%v) = %v, effects %v; want refused", fx, err, ls.Effects)
		}
	}
	ls := terrain.LayersOf(m, lw.step)
	if err := ls.SetEffects([]uint8{0, 1}); err != nil || ls.Effects == nil {
		t.Errorf("SetEffects([0 1]) = %v", err)
	}
}
