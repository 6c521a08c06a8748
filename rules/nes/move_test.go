package nes_test

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"orderly/game"
	"orderly/geom/hex"
	"orderly/rules/nes"
	"orderly/terrain"
)

// drawMap draws a small NES map of random terrain, elevation, hexside
// features and roads.
func drawMap(t *rapid.T) *terrain.Map {
	grid := hex.Map{Columns: rapid.IntRange(1, 9).Draw(t, "columns"), Rows: rapid.IntRange(1, 9).Draw(t, "rows"),
		Layout: hex.Layout{Offset: hex.Offset(rapid.IntRange(0, 3).Draw(t, "offset")), First: 1, Digits: 2}}
	k := nes.Kinds()
	m, err := terrain.New(grid, k)
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Len() {
		m.SetTerrain(i, rapid.IntRange(0, len(k.Hexes)-1).Draw(t, "terrain"))
		m.SetLevel(i, rapid.IntRange(0, 2).Draw(t, "level"))
	}
	for i := range m.Len() {
		for d := range 3 {
			j := m.Next(i, d)
			if j < 0 {
				continue
			}
			if f := rapid.IntRange(-4, len(k.Sides)-1).Draw(t, "side"); f >= 0 && (k.Sides[f] != k.Steep || m.Level(i) != m.Level(j)) {
				m.AddFeature(i, d, f)
			}
			if rd := rapid.IntRange(-6, 1).Draw(t, "road"); rd >= 0 {
				m.AddRoad(i, d, rd)
			}
		}
	}
	return m
}

var modes = []nes.Mode{
	{Column: "infantry"}, {Column: "infantry", Disorder: true}, {Column: "cavalry-heavy"}, {Column: "cavalry-light"},
	{Column: "cavalry-light", Disordered: true}, {Column: "cavalry-light", Road: true}, {Column: "infantry", Road: true},
	{Column: "artillery"}, {Column: "artillery", Road: true}, {Column: "skirmish"}, {Column: "general-order"},
	{Column: "infantry", GT: true}, {Column: "cavalry-light", GT: true}, {Column: "cavalry-heavy", GT: true}, {Command: true},
	{Column: "infantry", Disordered: true}, {Column: "cavalry-heavy", Disordered: true}, {Column: "cavalry-light", General: true},
	{Column: "infantry", Road: true, Disorder: true},
}

// state is a hex and the mode a piece moves on in there.
type state struct {
	hex  int
	mode nes.Mode
}

// bruteForce is the least cost of every hex from from for a piece that
// sets out in mode md (see bruteForceWays); -1 where no way leads.
func bruteForce(r *nes.Rules, m *terrain.Map, md nes.Mode, from int) []int {
	out := make([]int, m.Len())
	for i, w := range bruteForceWays(r, m, md, from) {
		out[i] = w.cost
	}
	return out
}

// way is what a way to a hex costs, what the chart's effects have done
// to the piece at its end (rank), and its hexes.
type way struct{ cost, rank, hexes int }

// rank is what a piece that set out in mode md is at the end of a way
// that disordered it (dis) or gave it general order (gen), if either: 2
// if disordered, 1 more if in general order.
func rank(md nes.Mode, dis, gen bool) int {
	n := 0
	if dis || md.Disordered {
		n += 2
	}
	if gen || md.General || md.Column == "general-order" {
		n++
	}
	return n
}

// less orders ways by cost, then effects, then hexes.
func (a way) less(b way) bool {
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.hexes < b.hexes
}

// bruteForceWays is the least way to every hex from from for a piece
// that sets out in mode md, by cost, then by effects, then by hexes:
// every (hex, mode, disordered on the way, general order on the way)
// state relaxed by the chart's price of each step, the mode it leaves the
// piece in and its effects (Route of the one step), keeping the least
// cost, then the fewest hexes, until none improves; the least of the
// states of each hex. Cost -1 where no way leads.
func bruteForceWays(r *nes.Rules, m *terrain.Map, md nes.Mode, from int) []way {
	type key struct {
		state
		dis, gen bool
	}
	type label struct{ cost, hexes int }
	best := map[key]label{{state: state{from, md}}: {}}
	for changed := true; changed; {
		changed = false
		for x, c := range best {
			for d := range 6 {
				j := m.Next(x.hex, d)
				if j < 0 {
					continue
				}
				p, next, ok := r.Enter(m, x.mode, x.hex, d)
				if !ok {
					continue
				}
				rt, _ := r.Route(m, x.mode, x.hex, []int{j})
				y := key{state{j, next}, x.dis || rt.Disorder, x.gen || rt.General}
				n := label{c.cost + p, c.hexes + 1}
				if old, seen := best[y]; !seen || n.cost < old.cost || n.cost == old.cost && n.hexes < old.hexes {
					best[y], changed = n, true
				}
			}
		}
	}
	out := make([]way, m.Len())
	for i := range out {
		out[i].cost = -1
	}
	for x, c := range best {
		w := way{c.cost, rank(md, x.dis, x.gen), c.hexes}
		if x.hex == from {
			w = way{}
		}
		if out[x.hex].cost < 0 || w.less(out[x.hex]) {
			out[x.hex] = w
		}
	}
	return out
}

// TestPathsAgainstBruteForce: the least-cost path a move takes over a
// random NES map costs what an exhaustive relaxation of every step finds,
// each step priced by the chart in the mode the steps before it left the
// piece in (general order, disorder: SPEC NES-7, the effects take hold as
// each hex is entered), in every mode of movement; its cost is the sum of
// the chart's prices along it, and the page's reach agrees. Of the ways
// of least cost it is one that does least to the piece (disorder, then
// general order), then of fewest hexes (TestEqualRoutes).
func TestPathsAgainstBruteForce(t *testing.T) {
	r := engine(t)
	rapid.Check(t, func(t *rapid.T) {
		m := drawMap(t)
		md := modes[rapid.IntRange(0, len(modes)-1).Draw(t, "mode")]
		from := rapid.IntRange(0, m.Len()-1).Draw(t, "from")
		ways := bruteForceWays(r, m, md, from)
		best := make([]int, len(ways))
		for i, w := range ways {
			best[i] = w.cost
		}
		s := terrain.NewSearch(m)
		ls, _ := r.Layers(m, md)
		if ls.Effects == nil {
			t.Fatalf("%v: the layers are not ranked by effects", md)
		}
		for to := range m.Len() {
			path, cost, ok := s.PathLayers(from, to, &ls, nil, r.Floor(md), -1)
			if ok != (best[to] >= 0) || ok && cost != best[to] {
				t.Fatalf("%v from %s to %s: %d %v, brute force %d", md, m.Label(from), m.Label(to), cost, ok, best[to])
			}
			if !ok {
				continue
			}
			rt, why := r.Route(m, md, from, path)
			if why != "" || rt.Cost != cost {
				t.Fatalf("%v: the path %v costs %d by the chart (%s), the search says %d", md, path, rt.Cost, why, cost)
			}
			if got := (way{cost, rank(md, rt.Disorder, rt.General), len(path)}); to != from && got != ways[to] {
				t.Fatalf("%v from %s to %s: the path %v is %+v (cost, effects, hexes); the least by brute force %+v", md, m.Label(from), m.Label(to), labels(m, path), got, ways[to])
			}
		}
		reach := s.ReachLayers(from, &ls, nil, 8*nes.Sixths, nil)
		var got []int
		for _, x := range reach {
			got = append(got, x.I)
			if best[x.I] != x.Cost {
				t.Fatalf("reach gives %s at %d, brute force %d", m.Label(x.I), x.Cost, best[x.I])
			}
		}
		for i, c := range best {
			if c >= 0 && c <= 8*nes.Sixths && !slices.Contains(got, i) {
				t.Fatalf("reach leaves out %s at %d", m.Label(i), c)
			}
		}
	})
}

// sightMap is a 9 x 5 map from text, elevation from digits.
func sightMap(t *testing.T, ter, elev string) *terrain.Map {
	t.Helper()
	grid := hex.Map{Columns: 9, Rows: 5, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 2}}
	m, err := terrain.Parse(grid, nes.Kinds(), terrain.Text{Terrain: ter, Elevation: elev})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func at(t *testing.T, m *terrain.Map, label string) int {
	t.Helper()
	p, err := m.Grid.Parse(label)
	if err != nil {
		t.Fatal(err)
	}
	i, _ := m.At(p)
	return i
}

// TestSight: line of sight (NES-5, NES-7) is blocked by woods, farmette
// and town in the hexes between, and by a hex between higher than both
// ends; not by those terrains at either end, by light cover or frozen
// wetlands, or by ground as high as an end.
func TestSight(t *testing.T) {
	r := engine(t)
	cases := []struct {
		name     string
		ter      string
		elev     string
		from, to string
		clear    bool
		by       string
	}{
		{"open ground", ".........\n.........\n.........\n.........\n.........", "", "0103", "0903", true, ""},
		{"woods between", ".........\n.........\n....w....\n.........\n.........", "", "0103", "0903", false, "woods at 0503"},
		{"town on both sides of the line", ".........\n...t.....\n...t.....\n.........\n.........", "", "0103", "0903", false, "town at 0403"},
		{"town on one side of a line along hexsides", ".........\n.........\n...t.....\n.........\n.........", "", "0103", "0903", true, ""},
		{"farmette between", ".........\n.........\n......f..\n.........\n.........", "", "0103", "0903", false, "farmette at 0703"},
		{"woods at the target", ".........\n.........\n........w\n.........\n.........", "", "0103", "0903", true, ""},
		{"woods at the firer", ".........\n.........\nw........\n.........\n.........", "", "0103", "0903", true, ""},
		{"light cover and wetlands do not block", ".........\n.........\n..l.m....\n.........\n.........", "", "0103", "0903", true, ""},
		{"a hill between", "", "000000000\n000000000\n000010000\n000000000\n000000000", "0103", "0903", false, "higher ground (level 1) at 0503"},
		{"a hill as high as the firer", "", "000000000\n000000000\n100010000\n000000000\n000000000", "0103", "0903", true, ""},
		{"a hill off the line", "", "000010000\n000000000\n000000000\n000000000\n000000000", "0103", "0903", true, ""},
	}
	for _, c := range cases {
		m := sightMap(t, c.ter, c.elev)
		ok, by := r.LineOfSight(m, at(t, m, c.from), at(t, m, c.to))
		if ok != c.clear || by != c.by {
			t.Errorf("%s: sight %v (%q), want %v (%q)", c.name, ok, by, c.clear, c.by)
		}
	}
	// A line that runs along hexsides (0101 to 0202 on odd-q: between
	// 0201 and 0102) is blocked only if both sides block it.
	line := hex.Lines(hex.Hex{Q: 0, R: 0}, hex.Hex{Q: 1, R: 1})
	if slices.Equal(line[0], line[1]) {
		t.Fatalf("the two sides of a line along hexsides are the same cells: %v", line[0])
	}
	for _, c := range []struct {
		ter   string
		clear bool
	}{
		{".w.......\n.........\n.........\n.........\n.........", true},
		{".........\nw........\n.........\n.........\n.........", true},
		{".w.......\nw........\n.........\n.........\n.........", false},
	} {
		m := sightMap(t, c.ter, "")
		a, b := at(t, m, "0101"), at(t, m, "0202")
		if ok, by := r.LineOfSight(m, a, b); ok != c.clear {
			t.Errorf("along the hexside with %q: sight %v (%s), want %v", strings.ReplaceAll(c.ter, "\n", "/"), ok, by, c.clear)
		}
	}
}

// TestViewHidesOrders: a side's view holds its own orders, markers and
// command points, and none of the enemy's; command states are open.
func TestViewHidesOrders(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(4))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Do(game.Command{Side: "french", Verb: "send", Args: &nes.Args{From: "napoleon", To: "ney", Kind: "attack", Note: "secret plan"}}); err != nil {
		t.Fatal(err)
	}
	full := nes.StateOf(g.State())
	ney := full.Leader("ney")
	if ney.Order == nil && ney.Pending == nil {
		t.Fatalf("ney has no order after it was sent: %+v", ney)
	}
	for seat, sees := range map[string]bool{"french": true, "russian": false, game.Umpire: true} {
		v := nes.StateOf(r.View(g.State(), seat))
		l := v.Leader("ney")
		got := l.Order != nil || l.Pending != nil || l.Marker != ""
		if got != sees {
			t.Errorf("%s sees ney's order: %v, want %v", seat, got, sees)
		}
		if l.State != ney.State {
			t.Errorf("%s sees ney %s, want %s (command states are open)", seat, l.State, ney.State)
		}
		if pts := v.Side("french").Points; (pts > 0) != sees {
			t.Errorf("%s sees %d french command points", seat, pts)
		}
		if l := v.Leader("davout"); (l.Order != nil) != sees {
			t.Errorf("%s sees davout's order from the start: %v, want %v", seat, l.Order != nil, sees)
		}
	}
}

// TestSightShort: a hex sees itself and its neighbours, whatever stands
// there (there is no hex between).
func TestSightShort(t *testing.T) {
	r := engine(t)
	m := sightMap(t, ".........\n.w.......\n.........\n.........\n.........", "")
	for _, c := range [][2]string{{"0202", "0202"}, {"0102", "0202"}, {"0505", "0505"}} {
		if ok, by := r.LineOfSight(m, at(t, m, c[0]), at(t, m, c[1])); !ok {
			t.Errorf("%s to %s: blocked by %s", c[0], c[1], by)
		}
	}
}
