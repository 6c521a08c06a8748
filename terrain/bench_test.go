package terrain_test

import (
	"math/rand/v2"
	"testing"

	"orderly/geom/hex"
	"orderly/terrain"
)

// benchWorld is a 100 by 100 map of mixed terrain, seeded: 60% costing 6
// sixths of a movement point to enter, 25% 12, 10% 18, 5% not to be
// entered, and a hedge costing 6 more to cross on about a tenth of the
// hexsides. Its step costs are worked out once, so the step function is
// a look-up; no step costs less than 6.
func benchWorld(b *testing.B) (*terrain.Map, []int32) {
	b.Helper()
	g := hex.Map{Columns: 100, Rows: 100, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 3}}
	k := terrain.Kinds{
		Hexes: []terrain.Kind{{"clear", '.'}, {"woods", 'w'}, {"marsh", 'm'}, {"lake", '~'}},
		Sides: []string{"hedge"},
	}
	m, err := terrain.New(g, k)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range m.Len() {
		switch x := r.IntN(100); {
		case x < 60:
			m.SetTerrain(i, 0)
		case x < 85:
			m.SetTerrain(i, 1)
		case x < 95:
			m.SetTerrain(i, 2)
		default:
			m.SetTerrain(i, 3)
		}
		for d := range 3 { // each side once, from one of its hexes
			if m.Next(i, d) >= 0 && r.IntN(10) == 0 {
				m.AddFeature(i, d, 0)
			}
		}
	}
	enter := []int32{6, 12, 18, -1}
	cost := make([]int32, 6*m.Len())
	for i := range m.Len() {
		for d := range 6 {
			j := m.Next(i, d)
			if j < 0 || enter[m.Terrain(j)] < 0 {
				cost[i*6+d] = -1
				continue
			}
			cost[i*6+d] = enter[m.Terrain(j)]
			if m.Has(i, d, 0) {
				cost[i*6+d] += 6
			}
		}
	}
	return m, cost
}

// open is the hex nearest i (in index order) that can be entered.
func open(m *terrain.Map, i, step int) int {
	for m.Terrain(i) == 3 {
		i += step
	}
	return i
}

func BenchmarkPath100(b *testing.B) {
	m, cost := benchWorld(b)
	step := func(i, d int) (int, bool) { c := cost[i*6+d]; return int(c), c >= 0 }
	from, to := open(m, 0, 1), open(m, m.Len()-1, -1)
	s := terrain.NewSearch(m)
	path, c, ok := s.Path(from, to, step, 6, -1)
	if !ok {
		b.Fatalf("no path from %s to %s", m.Label(from), m.Label(to))
	}
	b.Logf("%s to %s: %d hexes, %d sixths", m.Label(from), m.Label(to), len(path), c)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, got, ok := s.Path(from, to, step, 6, -1); !ok || got != c {
			b.Fatalf("Path = %d, %v; want %d", got, ok, c)
		}
	}
}

func BenchmarkReach8(b *testing.B) {
	m, cost := benchWorld(b)
	step := func(i, d int) (int, bool) { c := cost[i*6+d]; return int(c), c >= 0 }
	from := open(m, 50*100+50, 1)
	s := terrain.NewSearch(m)
	out := s.Reach(from, step, 48, nil)
	n := len(out)
	b.Logf("from %s: %d hexes within 8 MP", m.Label(from), n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out = s.Reach(from, step, 48, out[:0])
		if len(out) != n {
			b.Fatalf("Reach gave %d hexes, want %d", len(out), n)
		}
	}
}

// BenchmarkPathOver100 is BenchmarkPath100 over a Table, as the rule sets
// search.
func BenchmarkPathOver100(b *testing.B) {
	m, cost := benchWorld(b)
	t := terrain.Table(cost)
	from, to := open(m, 0, 1), open(m, m.Len()-1, -1)
	s := terrain.NewSearch(m)
	_, c, ok := s.PathOver(from, to, t, nil, 6, -1)
	if !ok {
		b.Fatalf("no path from %s to %s", m.Label(from), m.Label(to))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, got, ok := s.PathOver(from, to, t, nil, 6, -1); !ok || got != c {
			b.Fatalf("PathOver = %d, %v; want %d", got, ok, c)
		}
	}
}

// BenchmarkReachOver8 is BenchmarkReach8 over a Table.
func BenchmarkReachOver8(b *testing.B) {
	m, cost := benchWorld(b)
	t := terrain.Table(cost)
	from := open(m, 50*100+50, 1)
	s := terrain.NewSearch(m)
	out := s.ReachOver(from, t, nil, 48, nil)
	n := len(out)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out = s.ReachOver(from, t, nil, 48, out[:0])
		if len(out) != n {
			b.Fatalf("ReachOver gave %d hexes, want %d", len(out), n)
		}
	}
}
