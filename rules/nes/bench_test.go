package nes_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/geom/hex"
	"orderly/rules/nes"
	"orderly/script"
	"orderly/sim"
	"orderly/terrain"
)

// BenchmarkTurn plays whole NES turns of a battle with 1,012 command
// units and 5,400 combat units (each side: 5 corps of 10 divisions of 9
// brigades of 6 units) on a 100 x 100 map: each side's markers step down
// and roll, its division leaders send 40 orders to brigades (some within
// the radius, rolled; some beyond, delayed), its mobilized commanders
// check continuation, a twentieth of its combat units move a hex by the
// least-cost path and back, and its combat phase passes.
func BenchmarkTurn(b *testing.B) {
	r := engine(b)
	sc := synthetic(b, 5, 10, 9, 6, 100)
	for _, s := range sc.Sides {
		pts := 99
		s.Points = &pts
	}
	var g *game.Game
	var err error
	rng := rand.New(rand.NewPCG(1, 2))
	var brigades [2][]*battle.Formation
	for si, s := range sc.Sides {
		for _, f := range s.Formations {
			if f.Kind == battle.Brigade {
				brigades[si] = append(brigades[si], f)
			}
		}
	}
	reset := func() {
		if g, err = game.New(sc, r, game.Seeded(1)); err != nil {
			b.Fatal(err)
		}
	}
	turn := func() {
		for si, s := range sc.Sides {
			for g.Step().Name != nes.StepOrders {
				ready(b, g)
			}
			for range 40 {
				br := brigades[si][rng.IntN(len(brigades[si]))]
				div := sc.Formation(br.Parent)
				if _, err := g.Do(game.Command{Side: s.ID, Verb: "send", Args: &nes.Args{From: div.General, To: br.General, Kind: "attack"}}); err != nil {
					b.Fatal(err)
				}
			}
			for g.Step().Name != nes.StepMove {
				ready(b, g)
			}
			st := g.State()
			k := st.Turn % 20
			for i, u := range s.Units {
				if i%20 != k {
					continue
				}
				p := st.Piece(u.ID)
				h, _ := sc.Map.Hex(p.At)
				to := sc.Map.Point(h.Neighbour([2]int{0, 3}[(st.Turn/20)%2]))
				if !sc.Map.Contains(to) {
					continue
				}
				// A move the rules refuse (overstacking, a standing
				// command's allowance) is part of the work too.
				_, _ = g.Do(game.Command{Side: s.ID, Verb: "move", Args: &nes.Args{Unit: u.ID, To: sc.Map.Format(to)}})
			}
			for g.Step().Name != nes.StepCombat {
				ready(b, g)
			}
			ready(b, g)
		}
	}
	reset()
	for range 3 {
		turn()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if g.State().Turn > 40 {
			b.StopTimer()
			reset()
			b.StartTimer()
		}
		turn()
	}
}

func ready(b *testing.B, g *game.Game) {
	b.Helper()
	acting := g.Acting()
	if len(acting) == 0 {
		b.Fatalf("no one acts in %s %s", g.State().Phase, g.State().Step)
	}
	if _, err := g.Do(game.Command{Side: acting[0], Verb: game.Ready}); err != nil {
		b.Fatal(err)
	}
}

// benchMap is a 100 x 100 NES map of mixed terrain and hexsides, seeded:
// woods, towns, farmettes, light cover and frozen wetlands among clear
// ground, elevation in bands with steep slopes, brooks and streams, and
// roads across it.
func benchMap(b *testing.B) *terrain.Map {
	b.Helper()
	grid := hex.Map{Columns: 100, Rows: 100, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 3}}
	m, err := terrain.New(grid, nes.Kinds())
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range m.Len() {
		switch x := rng.IntN(100); {
		case x < 55:
		case x < 70:
			m.SetTerrain(i, 1)
		case x < 78:
			m.SetTerrain(i, 2)
		case x < 90:
			m.SetTerrain(i, 3)
		case x < 94:
			m.SetTerrain(i, 4)
		default:
			m.SetTerrain(i, 5)
		}
		col := int(m.Point(i).X)
		m.SetLevel(i, (col/15)%3)
	}
	for i := range m.Len() {
		for d := range 3 {
			j := m.Next(i, d)
			if j < 0 {
				continue
			}
			if m.Level(i) != m.Level(j) && rng.IntN(3) == 0 {
				m.AddFeature(i, d, 4) // steep
			}
			switch x := rng.IntN(100); {
			case x < 6:
				m.AddFeature(i, d, 0) // brook
			case x < 9:
				m.AddFeature(i, d, 1) // stream
			case x < 10:
				m.AddFeature(i, d, 3) // light cover hexside
			}
		}
	}
	for row := 10; row <= 100; row += 30 {
		for col := 1; col < 100; col++ {
			a, _ := m.At(m.Grid.Point(m.Grid.Layout.FromOffset(col-1, row-1)))
			c, _ := m.At(m.Grid.Point(m.Grid.Layout.FromOffset(col, row-1)))
			if d := m.Dir(a, c); d >= 0 {
				m.AddRoad(a, d, 1)
			}
		}
	}
	return m
}

// BenchmarkPath is the least-cost path for infantry in line across the
// 100 x 100 map of benchMap, corner to corner, priced by the terrain
// chart (NES-7), as a move to a chosen hex searches it: the search
// follows the unit into general order where a hex on the way gives it.
func BenchmarkPath(b *testing.B) {
	r := engine(b)
	m := benchMap(b)
	md := nes.Mode{Column: "infantry"}
	t, _ := r.Layers(m, md)
	s := terrain.NewSearch(m)
	from, to := 0, m.Len()-1
	for t.Cost[from*6] < 0 && t.Cost[from*6+5] < 0 {
		from++
	}
	_, c, ok := s.PathLayers(from, to, &t, nil, r.Floor(md), -1)
	if !ok {
		b.Fatal("no path")
	}
	b.Logf("%s to %s: %s MP", m.Label(from), m.Label(to), nes.MP(c))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, got, ok := s.PathLayers(from, to, &t, nil, r.Floor(md), -1); !ok || got != c {
			b.Fatalf("cost %d, want %d", got, c)
		}
	}
}

// BenchmarkReach is every hex infantry in line reaches with 8 MP from the
// middle of the map of benchMap, following it into general order where a
// hex on the way gives it (NES-7).
func BenchmarkReach(b *testing.B) {
	r := engine(b)
	m := benchMap(b)
	md := nes.Mode{Column: "infantry"}
	t, _ := r.Layers(m, md)
	s := terrain.NewSearch(m)
	from, _ := m.At(m.Grid.Point(m.Grid.Layout.FromOffset(50, 50)))
	out := s.ReachLayers(from, &t, nil, 8*nes.Sixths, nil)
	b.Logf("%d hexes within 8 MP of %s (layers never worse: %v)", len(out), m.Label(from), t.Better)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		out = s.ReachLayers(from, &t, nil, 8*nes.Sixths, out[:0])
	}
}

// BenchmarkSim is Monte Carlo runs of the radii scenario under its plan
// (orderly sim): three orders sent at one, two and three command radii,
// eight turns of markers, delivery rolls and continuation checks a run. It
// reports runs per second.
func BenchmarkSim(b *testing.B) {
	r := engine(b)
	data, err := os.ReadFile("../../examples/nes/nes-radii.yaml")
	if err != nil {
		b.Fatal(err)
	}
	sc := read(b, r, "nes-radii.yaml", data)
	pd, err := os.ReadFile("../../examples/nes/nes-radii-plan.yaml")
	if err != nil {
		b.Fatal(err)
	}
	plan, err := script.LoadPlan("nes-radii-plan.yaml", pd, sc, r)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := sim.Run(sc, r, plan, sim.Options{Runs: b.N, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
}
