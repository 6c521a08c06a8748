package hex

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestDistanceAndNeighbours(t *testing.T) {
	for _, c := range []struct {
		a, b Hex
		d    int
	}{
		{Hex{0, 0}, Hex{0, 0}, 0}, {Hex{0, 0}, Hex{3, -3}, 3}, {Hex{1, -3}, Hex{-2, 2}, 5},
		{Hex{0, 0}, Hex{2, 2}, 4}, {Hex{-4, 1}, Hex{3, 1}, 7}, {Hex{5, -2}, Hex{5, 6}, 8},
	} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%s, %s) = %d, want %d", c.a, c.b, got, c.d)
		}
		if got := Distance(c.b, c.a); got != c.d {
			t.Errorf("Distance is not symmetric for %s, %s", c.a, c.b)
		}
	}
	want := [6]Hex{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}
	if got := (Hex{}).Neighbours(); got != want {
		t.Errorf("Neighbours = %v, want %v", got, want)
	}
	h := Hex{3, -7}
	for d, n := range h.Neighbours() {
		if Distance(h, n) != 1 || h.Neighbour(d+6) != n || h.Neighbour(d-6) != n || n.Neighbour(d+3) != h {
			t.Errorf("direction %d: %s is not the neighbour both ways", d, n)
		}
	}
}

func TestSides(t *testing.T) {
	h := Hex{2, -1}
	seen := map[Side]bool{}
	for d := range 6 {
		s := h.Side(d)
		n := h.Neighbour(d)
		if other, ok := SideOf(n, h); !ok || other != s || n.Side(d+3) != s {
			t.Errorf("direction %d: the side is not the same from both cells: %s, %s", d, s, other)
		}
		if seen[s] {
			t.Errorf("side %s named twice", s)
		}
		seen[s] = true
	}
	if _, ok := SideOf(Hex{0, 0}, Hex{2, 0}); ok {
		t.Error("cells two apart share a side")
	}
	if _, ok := SideOf(Hex{0, 0}, Hex{0, 0}); ok {
		t.Error("a cell shares a side with itself")
	}
}

func TestLine(t *testing.T) {
	for _, c := range []struct {
		a, b Hex
		want []Hex
	}{
		{Hex{0, 0}, Hex{0, 0}, []Hex{{0, 0}}},
		{Hex{0, 0}, Hex{3, 0}, []Hex{{0, 0}, {1, 0}, {2, 0}, {3, 0}}},
		{Hex{0, 0}, Hex{0, -3}, []Hex{{0, 0}, {0, -1}, {0, -2}, {0, -3}}},
		// Along a hexside: the line through (1, -0.5) keeps to the same
		// side of it every time.
		{Hex{0, 0}, Hex{2, -1}, []Hex{{0, 0}, {1, 0}, {2, -1}}},
		{Hex{0, 0}, Hex{4, -2}, []Hex{{0, 0}, {1, 0}, {2, -1}, {3, -1}, {4, -2}}},
	} {
		if got := Line(c.a, c.b); !slices.Equal(got, c.want) {
			t.Errorf("Line(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a, b := Hex{r.IntN(41) - 20, r.IntN(41) - 20}, Hex{r.IntN(41) - 20, r.IntN(41) - 20}
		l := Line(a, b)
		if len(l) != Distance(a, b)+1 || l[0] != a || l[len(l)-1] != b {
			t.Fatalf("Line(%s, %s) = %v", a, b, l)
		}
		for i := 1; i < len(l); i++ {
			if !Adjacent(l[i-1], l[i]) {
				t.Fatalf("Line(%s, %s): %s and %s are not neighbours", a, b, l[i-1], l[i])
			}
		}
	}
}

func TestRing(t *testing.T) {
	c := Hex{2, 3}
	for n := range 5 {
		ring := Ring(c, n)
		want := max(1, 6*n)
		seen := map[Hex]bool{}
		for _, h := range ring {
			if Distance(c, h) != n || seen[h] {
				t.Fatalf("Ring(%s, %d) has %s (distance %d, twice %v)", c, n, h, Distance(c, h), seen[h])
			}
			seen[h] = true
		}
		if len(ring) != want {
			t.Errorf("Ring(%s, %d) has %d cells, want %d", c, n, len(ring), want)
		}
	}
}

// Labels as printed maps number them: 0101 is the first column's first
// row, and the shifted columns or rows follow the layout.
func TestLabels(t *testing.T) {
	for _, c := range []struct {
		layout Layout
		h      Hex
		label  string
	}{
		{Layout{OddQ, 1, 2}, Hex{0, 0}, "0101"},
		{Layout{OddQ, 1, 2}, Hex{1, 0}, "0201"},  // column 2 is shifted down
		{Layout{OddQ, 1, 2}, Hex{2, -1}, "0301"}, // column 3 is not
		{Layout{OddQ, 1, 2}, Hex{1, -1}, ""},     // above the first row of column 2
		{Layout{EvenQ, 1, 2}, Hex{1, 0}, "0202"},
		{Layout{EvenQ, 1, 2}, Hex{1, -1}, "0201"},
		{Layout{OddR, 1, 2}, Hex{0, 1}, "0102"},
		{Layout{OddR, 1, 2}, Hex{-1, 2}, "0103"},
		{Layout{EvenR, 1, 2}, Hex{0, 1}, "0202"},
		{Layout{OddQ, 0, 3}, Hex{12, -3}, "012003"},
		{Layout{OddQ, 1, 2}, Hex{99, 0}, ""}, // column 100 does not fit two digits
	} {
		got, err := c.layout.Label(c.h)
		switch {
		case c.label == "" && err == nil:
			t.Errorf("%v: Label(%s) = %s, want an error", c.layout.Offset, c.h, got)
		case c.label != "" && (err != nil || got != c.label):
			t.Errorf("%v: Label(%s) = %s, %v; want %s", c.layout.Offset, c.h, got, err, c.label)
		}
		if c.label == "" {
			continue
		}
		if back, err := c.layout.Parse(c.label); err != nil || back != c.h {
			t.Errorf("%v: Parse(%s) = %s, %v; want %s", c.layout.Offset, c.label, back, err, c.h)
		}
	}
	// Every cell of a 40 by 40 map, in every layout, round-trips, and
	// neighbours on the printed map are neighbours here.
	for o := OddQ; o <= EvenR; o++ {
		l := Layout{Offset: o, First: 1}
		for col := range 40 {
			for row := range 40 {
				h := l.FromOffset(col, row)
				if c, r := l.ToOffset(h); c != col || r != row {
					t.Fatalf("%v: (%d, %d) -> %s -> (%d, %d)", o, col, row, h, c, r)
				}
				label, err := l.Label(h)
				if back, err2 := l.Parse(label); err != nil || err2 != nil || back != h {
					t.Fatalf("%v: %s -> %s -> %s (%v, %v)", o, h, label, back, err, err2)
				}
				dashed := fmt.Sprintf("%d-%d", col+1, row+1)
				if back, err := l.Parse(dashed); err != nil || back != h {
					t.Fatalf("%v: Parse(%s) = %s, %v; want %s", o, dashed, back, err, h)
				}
			}
		}
	}
	for _, bad := range []string{"", "041", "04a2", "0-5", "x-1", "12345", "-1-1", "04-", strings.Repeat("9", 40)} {
		if h, err := (Layout{Offset: OddQ, First: 1}).Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %s, want an error", bad, h)
		} else if strings.Contains(err.Error(), "\n") || len(err.Error()) > 200 {
			t.Errorf("Parse(%q): %q is not one short line", bad, err)
		}
	}
	if o, err := ParseOffset("even-q"); err != nil || o != EvenQ {
		t.Errorf("ParseOffset(even-q) = %v, %v", o, err)
	}
	if _, err := ParseOffset("odd"); err == nil || !strings.Contains(err.Error(), "odd-q, even-q, odd-r, even-r") {
		t.Errorf("ParseOffset(odd) = %v", err)
	}
}

// randomMap is a map of the cells within radius of the origin, with a
// price to enter each (some prohibited) and a price to cross each hexside
// that depends on the way across (some prohibited), as a brute force and
// Path both read it.
type randomMap struct {
	radius int
	enter  map[Hex]int // absent: prohibited
	cross  map[Side][2]int
}

func newRandomMap(r *rand.Rand, radius int) *randomMap {
	m := &randomMap{radius: radius, enter: map[Hex]int{}, cross: map[Side][2]int{}}
	for q := -radius; q <= radius; q++ {
		for rr := -radius; rr <= radius; rr++ {
			h := Hex{q, rr}
			if Distance(Hex{}, h) > radius {
				continue
			}
			if r.IntN(10) > 0 || h == (Hex{}) {
				m.enter[h] = r.IntN(5) // 0 to 4: free cells too
			}
			for d := range 3 {
				s := h.Side(d)
				price := func() int {
					if r.IntN(20) == 0 {
						return -1 // prohibited this way
					}
					return r.IntN(4)
				}
				m.cross[s] = [2]int{price(), price()}
			}
		}
	}
	return m
}

func (m *randomMap) terrain() Terrain {
	return Terrain{
		Enter: func(h Hex) (int, bool) { c, ok := m.enter[h]; return c, ok },
		Cross: func(s Side, from, to Hex) (int, bool) {
			c := m.cross[s][0]
			if from != s.A {
				c = m.cross[s][1]
			}
			return c, c >= 0
		},
	}
}

// brute is the least cost to every cell from from, by relaxing every step
// until nothing changes (Bellman-Ford), without a queue or an order.
func (m *randomMap) brute(from Hex) map[Hex]int {
	t := m.terrain()
	best := map[Hex]int{from: 0}
	for changed := true; changed; {
		changed = false
		for h, c := range best {
			for _, n := range h.Neighbours() {
				step, ok := t.Step(h, n)
				if !ok {
					continue
				}
				if old, seen := best[n]; !seen || c+step < old {
					best[n] = c + step
					changed = true
				}
			}
		}
	}
	return best
}

func TestPathsAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := range 40 {
		m := newRandomMap(r, 6)
		costs := m.terrain()
		want := m.brute(Hex{})
		reach, err := Reach(Hex{}, costs, -1)
		if err != nil {
			t.Fatal(err)
		}
		if len(reach) != len(want) {
			t.Fatalf("map %d: Reach found %d cells, the brute force %d", trial, len(reach), len(want))
		}
		for h, c := range want {
			if reach[h] != c {
				t.Fatalf("map %d: Reach gives %s at %d, the brute force %d", trial, h, reach[h], c)
			}
		}
		budget := 1 + r.IntN(12)
		within, err := Reach(Hex{}, costs, budget)
		if err != nil {
			t.Fatal(err)
		}
		for h, c := range want {
			if _, in := within[h]; in != (c <= budget) || in && within[h] != c {
				t.Fatalf("map %d: budget %d: %s (cost %d) in reach %v at %d", trial, budget, h, c, in, within[h])
			}
		}
		for h := range m.enter {
			path, cost, ok, err := Path(Hex{}, h, costs, -1)
			if err != nil {
				t.Fatal(err)
			}
			c, reachable := want[h]
			if ok != reachable || ok && cost != c {
				t.Fatalf("map %d: Path to %s = %v, %d; the brute force %v, %d", trial, h, ok, cost, reachable, c)
			}
			if !ok {
				continue
			}
			// The path is real: neighbours all the way, its steps adding up.
			sum, at := 0, Hex{}
			for _, next := range path {
				step, allowed := costs.Step(at, next)
				if !allowed {
					t.Fatalf("map %d: Path to %s steps from %s to %s, which is not allowed", trial, h, at, next)
				}
				sum, at = sum+step, next
			}
			if sum != cost || at != h {
				t.Fatalf("map %d: Path to %s costs %d by its steps, says %d", trial, h, sum, cost)
			}
			again, _, _, _ := Path(Hex{}, h, costs, -1)
			if !slices.Equal(again, path) {
				t.Fatalf("map %d: Path to %s is not the same twice", trial, h)
			}
			if lp, _, lok, _ := Path(Hex{}, h, costs, cost-1); cost > 0 && (lok || lp != nil) {
				t.Fatalf("map %d: Path to %s found within %d, below its least cost %d", trial, h, cost-1, cost)
			}
		}
	}
}

// A dear hexside is walked around when that is cheaper: a river with one
// ford.
func TestRiverAndFord(t *testing.T) {
	river := map[Side]bool{}
	for r := -3; r <= 3; r++ {
		a := Hex{0, r}
		for _, b := range []Hex{{1, r}, {1, r - 1}} {
			s, _ := SideOf(a, b)
			river[s] = true
		}
	}
	ford, _ := SideOf(Hex{0, 3}, Hex{1, 3})
	costs := Terrain{
		Enter: func(h Hex) (int, bool) { return 1, Distance(Hex{}, h) <= 6 },
		Cross: func(s Side, _, _ Hex) (int, bool) {
			switch {
			case s == ford:
				return 1, true
			case river[s]:
				return 0, false
			}
			return 0, true
		},
	}
	path, cost, ok, err := Path(Hex{0, 0}, Hex{1, 0}, costs, -1)
	if err != nil || !ok {
		t.Fatalf("no way across the river: %v", err)
	}
	// Down to the ford (3), across (1 + 1), and back up (3).
	if cost != 8 || !slices.Contains(path, Hex{1, 3}) {
		t.Errorf("path %v costs %d; want 8 by the ford", path, cost)
	}
}

func TestSearchBounds(t *testing.T) {
	free := Terrain{Enter: func(Hex) (int, bool) { return 0, true }}
	if _, err := Reach(Hex{}, free, -1); err == nil || !strings.Contains(err.Error(), "gave up") {
		t.Errorf("an endless free map: %v", err)
	}
	negative := Terrain{Enter: func(Hex) (int, bool) { return -1, true }}
	if _, err := Reach(Hex{}, negative, 10); err == nil || !strings.Contains(err.Error(), "costs -1") {
		t.Errorf("a negative step: %v", err)
	}
	// Free cells on a bounded map are all reached for nothing.
	small := Terrain{Enter: func(h Hex) (int, bool) { return 0, Distance(Hex{}, h) <= 3 }}
	if got, err := Reach(Hex{}, small, 0); err != nil || len(got) != 37 {
		t.Errorf("free cells within 3: %d reached, %v; want 37", len(got), err)
	}
	if p, c, ok, err := Path(Hex{1, 1}, Hex{1, 1}, free, 0); !ok || err != nil || c != 0 || len(p) != 0 {
		t.Errorf("a path to where one stands: %v %d %v %v", p, c, ok, err)
	}
}

// FuzzParse: a label either parses to a cell whose label reads back the
// same numbers, or is refused in one line.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"0101", "0412", "4-12", "99-99", "0000", "-", "1-", "0a01"} {
		f.Add(s)
	}
	l := Layout{Offset: OddQ, First: 1}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := l.Parse(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q: %q", s, err)
			}
			return
		}
		col, row := l.ToOffset(h)
		var c, r int
		if _, err := fmt.Sscanf(strings.Replace(s, "-", " ", 1), "%d %d", &c, &r); err != nil || !strings.Contains(s, "-") {
			c, r = atoi(s[:len(s)/2]), atoi(s[len(s)/2:])
		}
		if col+1 != c || row+1 != r {
			t.Fatalf("%q parsed to %s, column %d row %d", s, h, col+1, row+1)
		}
	})
}

func atoi(s string) int {
	n := 0
	for _, ch := range s {
		n = n*10 + int(ch-'0')
	}
	return n
}
