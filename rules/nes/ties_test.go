package nes_test

import (
	"fmt"
	"slices"
	"testing"

	"orderly/geom/hex"
	"orderly/rules/nes"
	"orderly/terrain"
)

// clearMap is a 9 x 6 map of clear ground in layout off.
func clearMap(t *testing.T, off hex.Offset) *terrain.Map {
	t.Helper()
	grid := hex.Map{Columns: 9, Rows: 6, Layout: hex.Layout{Offset: off, First: 1, Digits: 2}}
	m, err := terrain.New(grid, nes.Kinds())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// kindOf is the index of a hex terrain or hexside feature of an NES map.
func kindOf(t *testing.T, name string) int {
	t.Helper()
	k := nes.Kinds()
	for i, h := range k.Hexes {
		if h.Name == name {
			return i
		}
	}
	if i := slices.Index(k.Sides, name); i >= 0 {
		return i
	}
	t.Fatalf("no terrain %q", name)
	return -1
}

// TestEqualRoutes (NES-7, our reading): of ways of equal cost, a move's
// path takes the one that does least to the piece: not disordered before
// disordered, then not forced into general order, then the fewest hexes;
// its cost is the least cost, as before. The review's cases, in every
// direction and map layout, each beside its neighbour where the only
// cheapest way has the effect:
//   - light cavalry to its neighbour across a stream: straight across is
//     1 + 1D = 2 MP and disorders it; round by either hex the two share is
//     1 + 1 = 2 MP and does not. With both shared hexes woods (2G: 3 MP
//     round) it goes straight across and disorders; with both farmettes
//     (1G: 2 MP round) it takes general order rather than disorder.
//   - line infantry that chose to take the stream's +1D: as light cavalry.
//   - line infantry to a hex two away by either of two middle hexes, one
//     a farmette (1G): 1 + 1 = 2 MP either way; it goes by the clear one.
//     With both farmettes it takes general order (2 MP).
//   - heavy cavalry likewise, the farmette 2D (2 + 1 = 3 MP), the clear
//     middle hex behind a brook (1 + 1 + 1 = 3 MP); it goes by the brook
//     and stays formed. To a hex two away in line beyond a farmette it
//     goes round by three clear hexes (3 MP: fewer effects before fewer
//     hexes); with woods (P) all round it crosses the farmette and
//     disorders.
func TestEqualRoutes(t *testing.T) {
	r := engine(t)
	light, inf := nes.Mode{Column: "cavalry-light"}, nes.Mode{Column: "infantry"}
	streamInf := nes.Mode{Column: "infantry", Disorder: true}
	heavy := nes.Mode{Column: "cavalry-heavy"}
	stream, brook := kindOf(t, "stream"), kindOf(t, "brook")
	farmette, woods := kindOf(t, "farmette"), kindOf(t, "woods")
	type want struct {
		mp, hexes         int
		disorder, general bool
	}
	type layout struct {
		md   nes.Mode
		to   func(m *terrain.Map, c, d int) int
		set  func(m *terrain.Map, c, d int)
		want want
	}
	neighbour := func(m *terrain.Map, c, d int) int { return m.Next(c, d) }
	twoAway := func(m *terrain.Map, c, d int) int { return m.Next(m.Next(c, d), (d+1)%6) }
	across := func(m *terrain.Map, c, d int) { m.AddFeature(c, d, stream) }
	shared := func(ter int) func(m *terrain.Map, c, d int) {
		return func(m *terrain.Map, c, d int) {
			across(m, c, d)
			m.SetTerrain(m.Next(c, (d+1)%6), ter)
			m.SetTerrain(m.Next(c, (d+5)%6), ter)
		}
	}
	middle := func(which int) func(m *terrain.Map, c, d int) {
		return func(m *terrain.Map, c, d int) { m.SetTerrain(m.Next(c, (d+which)%6), farmette) }
	}
	both := func(m *terrain.Map, c, d int) { middle(0)(m, c, d); middle(1)(m, c, d) }
	// brooks puts a brook on the hexside from each middle hex not a
	// farmette into the hex two away.
	brooks := func(farm ...int) func(m *terrain.Map, c, d int) {
		return func(m *terrain.Map, c, d int) {
			to := twoAway(m, c, d)
			for k := range 2 {
				a := m.Next(c, (d+k)%6)
				if slices.Contains(farm, k) {
					m.SetTerrain(a, farmette)
				} else {
					m.AddFeature(a, m.Dir(a, to), brook)
				}
			}
		}
	}
	inLine := func(m *terrain.Map, c, d int) int { return m.Next(m.Next(c, d), d) }
	// between is a farmette between a hex and the one two away in line,
	// and woods on every other hex if walled.
	between := func(walled bool) func(m *terrain.Map, c, d int) {
		return func(m *terrain.Map, c, d int) {
			to, a := inLine(m, c, d), m.Next(c, d)
			for i := range m.Len() {
				if walled && i != c && i != to {
					m.SetTerrain(i, woods)
				}
			}
			m.SetTerrain(a, farmette)
		}
	}
	cases := map[string]layout{
		"light cavalry across a stream, round as cheap":               {light, neighbour, across, want{12, 2, false, false}},
		"light cavalry across a stream, woods round":                  {light, neighbour, shared(woods), want{12, 1, true, false}},
		"light cavalry across a stream, farmettes round":              {light, neighbour, shared(farmette), want{12, 2, false, true}},
		"infantry taking +1D across a stream, round as cheap":         {streamInf, neighbour, across, want{12, 2, false, false}},
		"infantry taking +1D across a stream, woods round":            {streamInf, neighbour, shared(woods), want{12, 1, true, false}},
		"infantry two away, farmette on the first middle hex":         {inf, twoAway, middle(0), want{12, 2, false, false}},
		"infantry two away, farmette on the second middle hex":        {inf, twoAway, middle(1), want{12, 2, false, false}},
		"infantry two away, farmettes on both":                        {inf, twoAway, both, want{12, 2, false, true}},
		"heavy cavalry two away, farmette on the first, brook behind": {heavy, twoAway, brooks(0), want{18, 2, false, false}},
		"heavy cavalry two away, farmette on the second, brook first": {heavy, twoAway, brooks(1), want{18, 2, false, false}},
		"heavy cavalry two away in line, farmette between":            {heavy, inLine, between(false), want{18, 3, false, false}},
		"heavy cavalry two away in line, woods all round":             {heavy, inLine, between(true), want{18, 2, true, false}},
	}
	for name, c := range cases {
		for _, off := range []hex.Offset{hex.OddQ, hex.EvenQ, hex.OddR, hex.EvenR} {
			for d := range 6 {
				m := clearMap(t, off)
				from := at(t, m, "0503")
				c.set(m, from, d)
				to := c.to(m, from, d)
				where := fmt.Sprintf("%s (layout %d, direction %d, %s to %s)", name, off, d, m.Label(from), m.Label(to))
				ls, _ := r.Layers(m, c.md)
				path, cost, ok := terrain.NewSearch(m).PathLayers(from, to, &ls, nil, r.Floor(c.md), -1)
				if !ok {
					t.Fatalf("%s: no path", where)
				}
				if least := bruteForce(r, m, c.md, from)[to]; cost != least || cost != c.want.mp {
					t.Fatalf("%s: the path costs %d sixths; least by brute force %d, want %d", where, cost, least, c.want.mp)
				}
				rt, why := r.Route(m, c.md, from, path)
				got := want{rt.Cost, len(path), rt.Disorder, rt.General}
				if why != "" || got != c.want {
					t.Errorf("%s: path %v: %+v %s; want %+v", where, labels(m, path), got, why, c.want)
				}
			}
		}
	}
}

// labels are the labels of hexes i.
func labels(m *terrain.Map, is []int) []string {
	out := make([]string, len(is))
	for k, i := range is {
		out[k] = m.Label(i)
	}
	return out
}
