package terrain_test

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"orderly/geom"
	"orderly/geom/hex"
	"orderly/terrain"
)

// world is a random small map with a price for every step: cost[i*6+d]
// is what the step from cell i in direction d costs, -1 if it is not
// allowed.
type world struct {
	m    *terrain.Map
	cost []int
}

func (w world) step(i, d int) (int, bool) {
	c := w.cost[i*6+d]
	return c, c >= 0
}

// floor is the least an allowed step costs, 0 if none is allowed.
func (w world) floor() int {
	least := math.MaxInt
	for i := range w.m.Len() {
		for d := range 6 {
			if c := w.cost[i*6+d]; w.m.Next(i, d) >= 0 && c >= 0 {
				least = min(least, c)
			}
		}
	}
	if least == math.MaxInt {
		return 0
	}
	return least
}

// drawWorld draws a map of 1..12 by 1..12 hexes in any offset, whose
// allowed steps cost lo..hi, and some steps are not allowed.
func drawWorld(t *rapid.T, lo, hi int) world {
	g := hex.Map{
		Columns: rapid.IntRange(1, 12).Draw(t, "columns"),
		Rows:    rapid.IntRange(1, 12).Draw(t, "rows"),
		Layout: hex.Layout{
			Offset: hex.Offset(rapid.IntRange(int(hex.OddQ), int(hex.EvenR)).Draw(t, "offset")),
			First:  rapid.IntRange(0, 1).Draw(t, "first"),
			Digits: 2,
		},
	}
	m, err := terrain.New(g, terrain.Kinds{Hexes: []terrain.Kind{{"clear", '.'}}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	walls := rapid.IntRange(0, 2*(hi-lo+1)).Draw(t, "walls")
	raw := rapid.SliceOfN(rapid.IntRange(lo-walls, hi), 6*m.Len(), 6*m.Len()).Draw(t, "costs")
	cost := make([]int, len(raw))
	for k, c := range raw {
		cost[k] = c
		if c < lo {
			cost[k] = -1
		}
	}
	return world{m, cost}
}

// bellmanFord is the least cost of every cell from from, -1 if it cannot
// be reached: each step relaxed until none improves.
func bellmanFord(w world, from int) []int {
	best := make([]int, w.m.Len())
	for i := range best {
		best[i] = -1
	}
	best[from] = 0
	for changed := true; changed; {
		changed = false
		for i := range best {
			if best[i] < 0 {
				continue
			}
			for d := range 6 {
				j := w.m.Next(i, d)
				c, ok := w.step(i, d)
				if j < 0 || !ok {
					continue
				}
				if best[j] < 0 || best[i]+c < best[j] {
					best[j] = best[i] + c
					changed = true
				}
			}
		}
	}
	return best
}

// checkPath tests that path is a chain of allowed steps from from to to
// costing cost.
func checkPath(w world, from, to int, path []int, cost int) error {
	if from == to {
		if len(path) != 0 || cost != 0 {
			return fmt.Errorf("a path from a hex to itself is %v at %d, want none at 0", path, cost)
		}
		return nil
	}
	if len(path) == 0 {
		return fmt.Errorf("an empty path from %d to %d", from, to)
	}
	if last := path[len(path)-1]; last != to {
		return fmt.Errorf("the path %v ends at %d, not %d", path, last, to)
	}
	sum, at := 0, from
	for _, j := range path {
		d := w.m.Dir(at, j)
		if d < 0 {
			return fmt.Errorf("the path %v steps from %d to %d, which do not touch", path, at, j)
		}
		c, ok := w.step(at, d)
		if !ok {
			return fmt.Errorf("the path %v takes the step from %d to %d, which is not allowed", path, at, j)
		}
		sum += c
		at = j
	}
	if sum != cost {
		return fmt.Errorf("the path %v costs %d step by step, but Path says %d", path, sum, cost)
	}
	return nil
}

func TestPathIsLeastCost(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lo := rapid.IntRange(0, 6).Draw(t, "lo")
		w := drawWorld(t, lo, lo+rapid.IntRange(0, 20).Draw(t, "spread"))
		s := terrain.NewSearch(w.m)
		floor := w.floor()
		for range rapid.IntRange(1, 8).Draw(t, "searches") {
			from := rapid.IntRange(0, w.m.Len()-1).Draw(t, "from")
			to := rapid.IntRange(0, w.m.Len()-1).Draw(t, "to")
			best := bellmanFord(w, from)[to]
			limit := -1
			if rapid.Bool().Draw(t, "limited") {
				limit = rapid.IntRange(0, max(best, 0)+10).Draw(t, "limit")
			}
			want := best >= 0 && (limit < 0 || best <= limit)
			for _, f := range []int{0, floor} {
				path, cost, ok := s.Path(from, to, w.step, f, limit)
				if ok != want {
					t.Fatalf("Path(%d, %d, floor %d, limit %d) found %v, want %v (least cost %d)", from, to, f, limit, ok, want, best)
				}
				if !ok {
					if path != nil || cost != 0 {
						t.Fatalf("Path found nothing but gave %v at %d", path, cost)
					}
					continue
				}
				if cost != best {
					t.Fatalf("Path(%d, %d, floor %d, limit %d) costs %d, want %d", from, to, f, limit, cost, best)
				}
				if err := checkPath(w, from, to, path, cost); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// hexCosts prices the steps of w for hex.Path and hex.Reach.
type hexCosts world

func (c hexCosts) Step(from, to hex.Hex) (int, bool) {
	i, ok1 := c.m.Index(from)
	j, ok2 := c.m.Index(to)
	if !ok1 || !ok2 {
		return 0, false
	}
	d := c.m.Dir(i, j)
	if d < 0 {
		return 0, false
	}
	return world(c).step(i, d)
}

// TestPathAgreesWithHex checks the fast search against the slow one of
// package hex, cost for cost.
func TestPathAgreesWithHex(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t, 1, 18)
		s := terrain.NewSearch(w.m)
		from := rapid.IntRange(0, w.m.Len()-1).Draw(t, "from")
		want, err := hex.Reach(w.m.Hex(from), hexCosts(w), -1)
		if err != nil {
			t.Fatal(err)
		}
		for to := range w.m.Len() {
			_, cost, ok := s.Path(from, to, w.step, w.floor(), -1)
			c, reached := want[w.m.Hex(to)]
			if ok != reached || ok && cost != c {
				t.Fatalf("Path(%d, %d) = %d, %v; hex.Reach says %d, %v", from, to, cost, ok, c, reached)
			}
			_, hc, hok, err := hex.Path(w.m.Hex(from), w.m.Hex(to), hexCosts(w), -1)
			if err != nil || hok != ok || hok && hc != cost {
				t.Fatalf("Path(%d, %d) = %d, %v; hex.Path says %d, %v, %v", from, to, cost, ok, hc, hok, err)
			}
		}
	})
}

// TestPathWithoutAWay: a hex walled off, or a map cut in two, cannot be
// reached.
func TestPathWithoutAWay(t *testing.T) {
	g := hex.Map{Columns: 6, Rows: 5, Layout: hex.Layout{Offset: hex.EvenR, First: 1, Digits: 2}}
	m, err := terrain.New(g, terrain.Kinds{Hexes: []terrain.Kind{{"clear", '.'}}})
	if err != nil {
		t.Fatal(err)
	}
	s := terrain.NewSearch(m)
	// Column 4 (index 3) cannot be entered.
	step := func(i, d int) (int, bool) {
		j := m.Next(i, d)
		return 6, j%6 != 3
	}
	from, to := 0, 5
	if path, cost, ok := s.Path(from, to, step, 6, -1); ok {
		t.Errorf("Path across a wall: %v at %d", path, cost)
	}
	if _, _, ok := s.Path(from, 3, step, 0, -1); ok {
		t.Error("Path into a hex that cannot be entered")
	}
	// Out of the wall is allowed, and from within it.
	if path, cost, ok := s.Path(3, 4, step, 6, -1); !ok || cost != 6 || !slices.Equal(path, []int{4}) {
		t.Errorf("Path(3, 4) = %v, %d, %v; want [4], 6, true", path, cost, ok)
	}
	// Beyond the limit.
	if _, _, ok := s.Path(0, 2, step, 6, 11); ok {
		t.Error("Path of cost 12 within a limit of 11")
	}
	if path, cost, ok := s.Path(0, 2, step, 6, 12); !ok || cost != 12 || len(path) != 2 {
		t.Errorf("Path(0, 2) within 12 = %v, %d, %v", path, cost, ok)
	}
	if path, cost, ok := s.Path(2, 2, step, 6, 0); !ok || cost != 0 || path == nil || len(path) != 0 {
		t.Errorf("Path(2, 2) = %v, %d, %v; want [], 0, true", path, cost, ok)
	}
}

// checkReach tests got (after the first skip entries) against the least
// costs best within budget.
func checkReach(from int, best []int, budget int, got []terrain.Reached) error {
	if len(got) == 0 || got[0] != (terrain.Reached{I: from, Cost: 0}) {
		return fmt.Errorf("Reach from %d starts %v, not with it at 0", from, got[:min(len(got), 1)])
	}
	seen := map[int]bool{}
	for k, r := range got {
		if seen[r.I] {
			return fmt.Errorf("Reach gives %d twice: %v", r.I, got)
		}
		seen[r.I] = true
		if r.I < 0 || r.I >= len(best) || best[r.I] != r.Cost {
			return fmt.Errorf("Reach gives %d at %d; its least cost is %d", r.I, r.Cost, best[r.I])
		}
		if k > 1 && cmp.Or(cmp.Compare(got[k-1].Cost, r.Cost), cmp.Compare(got[k-1].I, r.I)) > 0 {
			return fmt.Errorf("Reach gives %v before %v", got[k-1], r)
		}
	}
	for i, c := range best {
		if c >= 0 && c <= budget && !seen[i] {
			return fmt.Errorf("Reach leaves out %d, at %d within %d", i, c, budget)
		}
		if seen[i] && c > budget {
			return fmt.Errorf("Reach gives %d at %d beyond %d", i, c, budget)
		}
	}
	return nil
}

func TestReachIsWithinBudget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lo := rapid.IntRange(1, 6).Draw(t, "lo")
		w := drawWorld(t, lo, lo+rapid.IntRange(0, 20).Draw(t, "spread"))
		s := terrain.NewSearch(w.m)
		var out []terrain.Reached
		for range rapid.IntRange(1, 6).Draw(t, "searches") {
			from := rapid.IntRange(0, w.m.Len()-1).Draw(t, "from")
			budget := rapid.IntRange(0, 120).Draw(t, "budget")
			best := bellmanFord(w, from)
			// Reach appends: what out held stays.
			prefix := rapid.IntRange(0, 3).Draw(t, "prefix")
			out = out[:0]
			for k := range prefix {
				out = append(out, terrain.Reached{I: -1, Cost: -k})
			}
			got := s.Reach(from, w.step, budget, out)
			for k := range prefix {
				if got[k] != (terrain.Reached{I: -1, Cost: -k}) {
					t.Fatalf("Reach overwrote entry %d of out: %v", k, got[k])
				}
			}
			if err := checkReach(from, best, budget, got[prefix:]); err != nil {
				t.Fatal(err)
			}
			out = got
		}
	})
}

// TestReachFreeSteps: with steps of cost 0 allowed, Reach still gives
// every hex within the budget at its least cost, once, in order of cost.
// (Of hexes of equal cost it does not always give the lower index first:
// see TestReachOrderWithFreeSteps.)
func TestReachFreeSteps(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t, 0, rapid.IntRange(0, 12).Draw(t, "hi"))
		s := terrain.NewSearch(w.m)
		from := rapid.IntRange(0, w.m.Len()-1).Draw(t, "from")
		budget := rapid.IntRange(0, 60).Draw(t, "budget")
		best := bellmanFord(w, from)
		got := s.Reach(from, w.step, budget, nil)
		if len(got) == 0 || got[0] != (terrain.Reached{I: from}) {
			t.Fatalf("Reach starts %v", got)
		}
		seen := map[int]int{}
		for k, r := range got {
			if _, twice := seen[r.I]; twice {
				t.Fatalf("Reach gives %d twice", r.I)
			}
			seen[r.I] = r.Cost
			if best[r.I] != r.Cost || r.Cost > budget {
				t.Fatalf("Reach gives %d at %d; least %d, budget %d", r.I, r.Cost, best[r.I], budget)
			}
			if k > 0 && got[k-1].Cost > r.Cost {
				t.Fatalf("Reach gives %v before %v", got[k-1], r)
			}
		}
		for i, c := range best {
			if _, ok := seen[i]; c >= 0 && c <= budget && !ok {
				t.Fatalf("Reach leaves out %d at %d", i, c)
			}
		}
	})
}

// TestReachOrderWithFreeSteps: Reach promises hexes in order of cost,
// then index. On a row of three hexes 0 - 1 - 2, from 2: entering 1 costs
// 5, and going on to 0 costs nothing, so 0 and 1 both cost 5, and 0 (the
// lower index) comes first.
func TestReachOrderWithFreeSteps(t *testing.T) {
	g := hex.Map{Columns: 3, Rows: 1, Layout: hex.Layout{Offset: hex.OddR, First: 1, Digits: 2}}
	m, err := terrain.New(g, terrain.Kinds{Hexes: []terrain.Kind{{"clear", '.'}}})
	if err != nil {
		t.Fatal(err)
	}
	step := func(i, d int) (int, bool) {
		switch j := m.Next(i, d); {
		case i == 2 && j == 1:
			return 5, true
		case i == 1 && j == 0:
			return 0, true
		}
		return 0, false
	}
	got := terrain.NewSearch(m).Reach(2, step, 10, nil)
	want := []terrain.Reached{{2, 0}, {0, 5}, {1, 5}}
	if !slices.Equal(got, want) {
		t.Errorf("Reach = %v, want %v", got, want)
	}
}

// TestSearchReuse: one Search over many searches, Path and Reach mixed,
// answers as a fresh Search does, path for path.
func TestSearchReuse(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t, 0, rapid.IntRange(0, 18).Draw(t, "hi"))
		s := terrain.NewSearch(w.m)
		floor := w.floor()
		for range rapid.IntRange(1, 20).Draw(t, "searches") {
			from := rapid.IntRange(0, w.m.Len()-1).Draw(t, "from")
			if rapid.Bool().Draw(t, "reach") {
				budget := rapid.IntRange(0, 80).Draw(t, "budget")
				got := s.Reach(from, w.step, budget, nil)
				want := terrain.NewSearch(w.m).Reach(from, w.step, budget, nil)
				if !slices.Equal(got, want) {
					t.Fatalf("Reach(%d, %d) reused: %v; fresh: %v", from, budget, got, want)
				}
				continue
			}
			to := rapid.IntRange(0, w.m.Len()-1).Draw(t, "to")
			limit := rapid.IntRange(-1, 80).Draw(t, "limit")
			f := rapid.SampledFrom([]int{0, floor}).Draw(t, "floor")
			p1, c1, ok1 := s.Path(from, to, w.step, f, limit)
			p2, c2, ok2 := terrain.NewSearch(w.m).Path(from, to, w.step, f, limit)
			if !slices.Equal(p1, p2) || c1 != c2 || ok1 != ok2 {
				t.Fatalf("Path(%d, %d, %d, %d) reused: %v %d %v; fresh: %v %d %v", from, to, f, limit, p1, c1, ok1, p2, c2, ok2)
			}
		}
	})
}

// TestCells checks the cells of maps of every offset: Index, Hex, At,
// Point and Label agree and number the hexes row by row; Next and Dir
// agree with the neighbours of package hex.
func TestCells(t *testing.T) {
	for o := range hex.Offsets() {
		for _, size := range [][2]int{{1, 1}, {1, 7}, {7, 1}, {5, 4}, {4, 5}, {9, 11}} {
			cols, rows := size[0], size[1]
			for first := range 2 {
				g := hex.Map{Columns: cols, Rows: rows, Layout: hex.Layout{Offset: hex.Offset(o), First: first, Digits: 2}}
				name := fmt.Sprintf("%s %dx%d from %d", hex.Offset(o), cols, rows, first)
				m, err := terrain.New(g, kinds)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				checkCells(t, name, m)
			}
		}
	}
}

func checkCells(t *testing.T, name string, m *terrain.Map) {
	t.Helper()
	g := m.Grid
	if m.Len() != g.Columns*g.Rows {
		t.Fatalf("%s: Len %d", name, m.Len())
	}
	for i := range m.Len() {
		col, row := i%g.Columns, i/g.Columns
		want := geom.Pt(float64(col+g.Layout.First), float64(row+g.Layout.First))
		if p := m.Point(i); p != want {
			t.Errorf("%s: Point(%d) = %v, want %v", name, i, p, want)
		}
		if j, ok := m.At(want); !ok || j != i {
			t.Errorf("%s: At(%v) = %d, %v; want %d", name, want, j, ok, i)
		}
		h := m.Hex(i)
		if j, ok := m.Index(h); !ok || j != i {
			t.Errorf("%s: Index(Hex(%d)) = %d, %v", name, i, j, ok)
		}
		if h != g.Layout.FromOffset(col, row) {
			t.Errorf("%s: Hex(%d) = %v, not column %d row %d", name, i, h, col, row)
		}
		label := fmt.Sprintf("%02d%02d", col+g.Layout.First, row+g.Layout.First)
		if m.Label(i) != label {
			t.Errorf("%s: Label(%d) = %s, want %s", name, i, m.Label(i), label)
		}
		if p, err := g.Parse(label); err != nil || p != want {
			t.Errorf("%s: Parse(%s) = %v, %v", name, label, p, err)
		}
		for d := range 6 {
			n := h.Neighbour(d)
			j, on := m.Index(n)
			if !on {
				j = -1
			}
			if got := m.Next(i, d); got != j {
				t.Errorf("%s: Next(%d, %d) = %d, want %d", name, i, d, got, j)
			}
			if on {
				if got := m.Dir(i, j); got != d {
					t.Errorf("%s: Dir(%d, %d) = %d, want %d", name, i, j, got, d)
				}
				if got := m.Dir(j, i); got != (d+3)%6 {
					t.Errorf("%s: Dir(%d, %d) = %d, want %d", name, j, i, got, (d+3)%6)
				}
				if m.Distance(i, j) != 1 {
					t.Errorf("%s: Distance(%d, %d) = %d", name, i, j, m.Distance(i, j))
				}
			} else if _, ok := m.At(g.Point(n)); ok {
				t.Errorf("%s: the hex off the map at %v is at a hex of the map", name, g.Point(n))
			}
		}
		for j := range m.Len() {
			if hex.Distance(h, m.Hex(j)) != 1 && m.Dir(i, j) != -1 {
				t.Errorf("%s: Dir(%d, %d) = %d for hexes that do not touch", name, i, j, m.Dir(i, j))
			}
			if m.Distance(i, j) != hex.Distance(h, m.Hex(j)) {
				t.Errorf("%s: Distance(%d, %d) = %d", name, i, j, m.Distance(i, j))
			}
		}
	}
	for _, p := range []geom.Point{
		geom.Pt(float64(g.Layout.First-1), float64(g.Layout.First)),
		geom.Pt(float64(g.Layout.First+g.Columns), float64(g.Layout.First)),
		geom.Pt(float64(g.Layout.First), float64(g.Layout.First+g.Rows)),
		geom.Pt(float64(g.Layout.First)+0.5, float64(g.Layout.First)),
	} {
		if i, ok := m.At(p); ok {
			t.Errorf("%s: At(%v) = %d, a hex of the map", name, p, i)
		}
	}
}

// TestNeighboursOddQ: the neighbours of 0202 on an odd-q map, known: its
// column lies half a hex below its neighbours'.
func TestNeighboursOddQ(t *testing.T) {
	m, err := terrain.New(grid, kinds)
	if err != nil {
		t.Fatal(err)
	}
	i := at(t, m, "0202")
	want := []string{"0303", "0302", "0201", "0102", "0103", "0203"}
	for d, label := range want {
		if got := m.Label(m.Next(i, d)); got != label {
			t.Errorf("neighbour %d of 0202 is %s, want %s", d, got, label)
		}
	}
	corner := at(t, m, "0101")
	for d, want := range []bool{true, false, false, false, false, true} {
		if on := m.Next(corner, d) >= 0; on != want {
			t.Errorf("neighbour %d of 0101 on the map: %v, want %v", d, on, want)
		}
	}
}
