package nes_test

import (
	"testing"

	"orderly/geom/hex"
	"orderly/rules/nes"
	"orderly/terrain"
)

// pair is a map of two hexes side by side, 0101 and 0201, the second of
// terrain ter, their hexside carrying side (if any), at levels lo and hi.
func pair(t *testing.T, ter, side string, lo, hi int) (*terrain.Map, int, int) {
	t.Helper()
	grid := hex.Map{Columns: 2, Rows: 1, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 2}}
	k := nes.Kinds()
	m, err := terrain.New(grid, k)
	if err != nil {
		t.Fatal(err)
	}
	a, b := 0, 1
	for i, h := range k.Hexes {
		if h.Name == ter {
			m.SetTerrain(b, i)
		}
	}
	m.SetLevel(a, lo)
	m.SetLevel(b, hi)
	if side != "" {
		for f, n := range k.Sides {
			if n == side {
				m.AddFeature(a, m.Dir(a, b), f)
			}
		}
	}
	return m, a, b
}

// cost is what the chart says of one step: movement points in sixths,
// prohibited, disorders, takes general order.
type cost struct {
	sixths int
	p      bool
	d, g   bool
}

var (
	P = cost{p: true}
)

func mp(n int) cost    { return cost{sixths: 6 * n} }
func mpD(n int) cost   { return cost{sixths: 6 * n, d: true} }
func mpG(n int) cost   { return cost{sixths: 6 * n, g: true} }
func plus(n int) cost  { return cost{sixths: 6 * (1 + n)} } // crossing into clear: 1 + the side
func plusD(n int) cost { return cost{sixths: 6 * (1 + n), d: true} }

// TestChartHexes: every terrain hex of NES-7 entered from clear ground, in
// each movement column: the chart's cost and its D and G, or P (SPEC
// NES-7, our reading of the flattened chart; light cavalry takes general
// order in frozen wetlands by the chart's note; grand tactical movement
// keeps the normal column's D, G and P).
func TestChartHexes(t *testing.T) {
	r := engine(t)
	modes := []struct {
		name string
		md   nes.Mode
	}{
		{"infantry", nes.Mode{Column: "infantry"}},
		{"cavalry-heavy", nes.Mode{Column: "cavalry-heavy"}},
		{"cavalry-light", nes.Mode{Column: "cavalry-light"}},
		{"artillery", nes.Mode{Column: "artillery"}},
		{"skirmish", nes.Mode{Column: "skirmish"}},
		{"general-order", nes.Mode{Column: "general-order"}},
		{"grand-tactical", nes.Mode{Column: "infantry", GT: true}},
		{"command", nes.Mode{Command: true}},
	}
	want := map[string][]cost{
		//                 inf      cav-h    cav-l    art      skirm  gen-ord GT(inf) command
		"clear":           {mp(1), mp(1), mp(1), mp(1), mp(1), mp(1), mp(1), mp(1)},
		"light-cover":     {mp(1), mp(1), mp(1), mp(2), mp(1), mp(1), mp(1), mp(1)},
		"farmette":        {mpG(1), mpD(2), mpG(1), mpD(2), mp(1), mp(1), mpG(1), mp(1)},
		"woods":           {mpG(2), P, mpG(2), P, mp(1), mp(2), mpG(2), mp(1)},
		"town":            {mpG(2), mpD(2), mpG(2), mpD(3), mp(1), mp(2), mpG(2), mp(1)},
		"frozen-wetlands": {mpG(2), mpD(2), mpG(2), P, mp(2), mp(2), mpG(2), mp(1)},
	}
	for ter, costs := range want {
		m, a, b := pair(t, ter, "", 0, 0)
		for i, mo := range modes {
			checkStep(t, r, m, mo.md, a, b, ter+" "+mo.name, costs[i])
		}
	}
}

// TestChartHexsides: every hexside of NES-7 crossed into clear ground,
// and the slopes from the elevations, up and down.
func TestChartHexsides(t *testing.T) {
	r := engine(t)
	inf := nes.Mode{Column: "infantry"}
	hv := nes.Mode{Column: "cavalry-heavy"}
	art := nes.Mode{Column: "artillery"}
	sk := nes.Mode{Column: "skirmish"}
	gt := nes.Mode{Column: "infantry", GT: true}
	cases := []struct {
		side   string
		lo, hi int
		md     nes.Mode
		name   string
		want   cost
	}{
		{"brook", 0, 0, inf, "infantry", plus(1)},
		{"brook", 0, 0, art, "artillery", plus(1)},
		{"brook", 0, 0, sk, "skirmish", plus(0)},
		{"brook", 0, 0, gt, "grand tactical", plus(1)},
		{"brook", 0, 0, nes.Mode{Column: "cavalry-heavy", GT: true}, "heavy cavalry in grand tactical", plus(1)},
		{"stream", 0, 0, inf, "infantry, formed", plus(2)},
		{"stream", 0, 0, nes.Mode{Column: "infantry", Disorder: true}, "infantry, disordering", plusD(1)},
		{"stream", 0, 0, hv, "heavy cavalry", plusD(1)},
		{"stream", 0, 0, art, "artillery", plusD(2)},
		{"stream", 0, 0, sk, "skirmish", plus(1)},
		{"stream", 0, 0, gt, "grand tactical", plus(1)},
		{"major-stream", 0, 0, inf, "infantry", plusD(2)},
		{"major-stream", 0, 0, art, "artillery", P},
		{"major-stream", 0, 0, sk, "skirmish", plus(2)},
		{"major-stream", 0, 0, gt, "grand tactical (same, disorder ignored)", plus(2)},
		{"stream", 0, 0, nes.Mode{Column: "artillery", GT: true}, "artillery in grand tactical", plus(1)},
		{"light-cover-side", 0, 0, inf, "infantry", plus(1)},
		{"light-cover-side", 0, 0, art, "artillery", plusD(1)},
		{"light-cover-side", 0, 0, sk, "skirmish", plus(0)},
		{"", 0, 1, inf, "infantry up a slope", plus(0)},
		{"", 0, 1, art, "artillery up a slope", plus(1)},
		{"", 1, 0, art, "artillery down a slope", plus(0)},
		{"steep", 0, 1, inf, "infantry up steep", plus(1)},
		{"steep", 1, 0, inf, "infantry down steep", plus(0)},
		{"steep", 0, 1, art, "artillery up steep", plus(2)},
		{"steep", 1, 0, art, "artillery down steep", plus(1)},
		{"steep", 0, 1, gt, "grand tactical up steep", plus(1)},
		{"steep", 1, 0, gt, "grand tactical down steep", plus(1)},
		{"steep", 0, 1, nes.Mode{Command: true}, "a command unit up steep", mp(1)},
	}
	for _, c := range cases {
		m, a, b := pair(t, "clear", c.side, c.lo, c.hi)
		checkStep(t, r, m, c.md, a, b, c.side+" "+c.name, c.want)
	}
}

// TestChartRoads: along a road, road column pays 1/2 a hex (major) or 2/3
// (minor) and anyone else 1 (the road exemption), whatever the terrain
// and hexside: even artillery into woods across a major stream.
func TestChartRoads(t *testing.T) {
	r := engine(t)
	for _, c := range []struct {
		road string
		md   nes.Mode
		want int
	}{
		{"major-road", nes.Mode{Column: "artillery", Road: true}, 3},
		{"minor-road", nes.Mode{Column: "artillery", Road: true}, 4},
		{"major-road", nes.Mode{Column: "artillery"}, 6},
		{"minor-road", nes.Mode{Column: "cavalry-heavy"}, 6},
	} {
		m, a, b := pair(t, "woods", "major-stream", 0, 1)
		ri := 0
		if c.road == "major-road" {
			ri = 1
		}
		m.AddRoad(a, m.Dir(a, b), ri)
		checkStep(t, r, m, c.md, a, b, c.road, cost{sixths: c.want})
	}
}

func checkStep(t *testing.T, r *nes.Rules, m *terrain.Map, md nes.Mode, a, b int, name string, want cost) {
	t.Helper()
	rt, why := r.Route(m, md, a, []int{b})
	if want.p {
		if why == "" {
			t.Errorf("%s: costs %s MP, want it prohibited", name, nes.MP(rt.Cost))
		}
		return
	}
	if why != "" {
		t.Errorf("%s: refused (%s), want %s MP", name, why, nes.MP(want.sixths))
		return
	}
	if rt.Cost != want.sixths || rt.Disorder != want.d || rt.General != want.g {
		t.Errorf("%s: %s MP, disorder %v, general order %v; want %s MP, %v, %v", name, nes.MP(rt.Cost), rt.Disorder, rt.General, nes.MP(want.sixths), want.d, want.g)
	}
}

// TestGrandTacticalKeepsProhibitions: grand tactical movement prices by
// its own columns but does not open to heavy cavalry or artillery the
// woods the chart closes to them (they enter only by road).
func TestGrandTacticalKeepsProhibitions(t *testing.T) {
	r := engine(t)
	for _, md := range []nes.Mode{{Column: "cavalry-heavy", GT: true}, {Column: "artillery", GT: true}} {
		m, a, b := pair(t, "woods", "", 0, 0)
		checkStep(t, r, m, md, a, b, md.Column+" into woods in grand tactical", P)
		m, a, b = pair(t, "clear", "major-stream", 0, 0)
		if md.Column == "artillery" {
			checkStep(t, r, m, md, a, b, "artillery across a major stream in grand tactical", P)
		}
	}
}

// TestChartRoadsAndSlopes: along a road, road column still pays its
// column's +1 going down a steep slope and grand tactical movement its
// road-hex column's +1 for a steep slope either way; the road exemption
// pays 1 whatever it crosses (SPEC NES-7, our reading).
func TestChartRoadsAndSlopes(t *testing.T) {
	r := engine(t)
	for _, c := range []struct {
		name   string
		md     nes.Mode
		lo, hi int
		want   int
	}{
		{"road column down steep", nes.Mode{Column: "infantry", Road: true}, 1, 0, 3 + 6},
		{"road column up steep", nes.Mode{Column: "infantry", Road: true}, 0, 1, 3},
		{"grand tactical up steep along a road", nes.Mode{Column: "infantry", GT: true}, 0, 1, 6 + 6},
		{"grand tactical down steep along a road", nes.Mode{Column: "infantry", GT: true}, 1, 0, 6 + 6},
		{"the road exemption down steep", nes.Mode{Column: "artillery"}, 1, 0, 6},
	} {
		m, a, b := pair(t, "clear", "steep", c.lo, c.hi)
		m.AddRoad(a, m.Dir(a, b), 1)
		checkStep(t, r, m, c.md, a, b, c.name, cost{sixths: c.want})
	}
}

// TestChartNotes: the chart's notes: heavy cavalry in road column does not
// disorder in frozen wetlands (note 4); disordered cavalry and artillery
// may not enter woods (note 2), formed light cavalry may.
func TestChartNotes(t *testing.T) {
	r := engine(t)
	m, a, b := pair(t, "frozen-wetlands", "", 0, 0)
	checkStep(t, r, m, nes.Mode{Column: "cavalry-heavy", Road: true}, a, b, "heavy cavalry in road column into frozen wetlands", mp(2))
	checkStep(t, r, m, nes.Mode{Column: "cavalry-heavy"}, a, b, "heavy cavalry into frozen wetlands", mpD(2))
	m, a, b = pair(t, "woods", "", 0, 0)
	checkStep(t, r, m, nes.Mode{Column: "cavalry-light", Disordered: true}, a, b, "disordered light cavalry into woods", P)
	checkStep(t, r, m, nes.Mode{Column: "cavalry-light"}, a, b, "light cavalry into woods", mpG(2))
}
