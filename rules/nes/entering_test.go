package nes_test

import (
	"fmt"
	"strings"
	"testing"

	"orderly/game"
	"orderly/geom"
	"orderly/rules/nes"
	"orderly/terrain"
)

// column is a 9 x 5 map whose column 01 holds the hexes 0101, 0102, ...
// (each the next one's northern neighbour) of terrains ters (a letter
// each), with the hexside feature sides[k] between the k-th and the next.
func column(t *testing.T, ters string, sides map[int]string) (*terrain.Map, []int) {
	t.Helper()
	m := sightMap(t, "", "") // 9 x 5, odd-q
	k := nes.Kinds()
	var hexes []int
	for n, c := range ters {
		i := at(t, m, fmt.Sprintf("01%02d", n+1))
		hexes = append(hexes, i)
		for ti, h := range k.Hexes {
			if h.Letter == c {
				m.SetTerrain(i, ti)
			}
		}
	}
	for n, side := range sides {
		a, b := hexes[n], hexes[n+1]
		for f, name := range k.Sides {
			if name == side {
				m.AddFeature(a, m.Dir(a, b), f)
			}
		}
	}
	return m, hexes
}

// TestEffectsTakeHoldOnEntering: the chart's G and D take hold as the hex
// is entered and price the rest of the move (SPEC NES-7 and its reading):
// infantry in line that enters woods crosses a brook beyond at the general
// order column's cost (3 MP, as two moves pay, where the line column
// would make it 4); the other way round the brook is crossed in line (4);
// light cavalry disordered by a stream may not go on into woods, nor
// cross a stream straight into woods, but may in grand tactical movement
// (which ignores a hexside's disorder) or when formed; a road negates the
// woods for a disordered unit; road column takes general order off the
// road too, but not in frozen wetlands (the chart's note 4).
func TestEffectsTakeHoldOnEntering(t *testing.T) {
	r := engine(t)
	inf := nes.Mode{Column: "infantry"}
	lc := nes.Mode{Column: "cavalry-light"}
	cases := []struct {
		name  string
		ters  string
		sides map[int]string
		md    nes.Mode
		road  bool // a minor road runs down the column
		cost  int  // sixths; -1 refused
		why   string
		gAt   int // the hex (in the column, from 0) where it takes general order, -1 none
		dAt   int
	}{
		{"line: woods then a brook", ".w.", map[int]string{1: "brook"}, inf, false, 18, "", 1, -1},
		{"line: a brook then woods", "..w", map[int]string{0: "brook"}, inf, false, 24, "", 2, -1},
		{"line: a farmette then a stream", ".f.", map[int]string{1: "stream"}, inf, false, 18, "", 1, -1},
		{"line: clear then a stream", "...", map[int]string{1: "stream"}, inf, false, 24, "", -1, -1},
		{"general order: woods then a brook", ".w.", map[int]string{1: "brook"}, nes.Mode{Column: "general-order"}, false, 18, "", -1, -1},
		{"road column off the road: woods then a brook", ".w.", map[int]string{1: "brook"}, nes.Mode{Column: "infantry", Road: true}, false, 18, "", 1, -1},
		{"road column: frozen wetlands then a brook", ".m.", map[int]string{1: "brook"}, nes.Mode{Column: "infantry", Road: true}, false, 24, "", -1, -1},
		{"light cavalry: a stream then woods", "..w", map[int]string{0: "stream"}, lc, false, -1, "disordered at hex 0102", -1, 1},
		{"light cavalry: a stream straight into woods", ".w", map[int]string{0: "stream"}, lc, false, -1, "crossing into hex 0102 disorders it", -1, -1},
		{"light cavalry: clear then woods", "..w", nil, lc, false, 18, "", 2, -1},
		{"light cavalry, grand tactical: a stream then woods", "..w", map[int]string{0: "stream"}, nes.Mode{Column: "cavalry-light", GT: true}, false, 24, "", 2, -1},
		{"light cavalry: a farmette then woods", ".fw", nil, lc, false, 18, "", 1, -1},
		{"heavy cavalry: a farmette then on", ".f.", nil, nes.Mode{Column: "cavalry-heavy"}, false, 18, "", -1, 1},
		{"disordered light cavalry into woods", ".w", nil, nes.Mode{Column: "cavalry-light", Disordered: true}, false, -1, "it is disordered", -1, -1},
		{"disordered light cavalry along a road through woods", ".w.", nil, nes.Mode{Column: "cavalry-light", Disordered: true}, true, 12, "", -1, -1},
		{"light cavalry: a stream, then a road through woods", "..w.", map[int]string{0: "stream"}, lc, true, 6 * 4, "", -1, 1},
	}
	for _, c := range cases {
		m, hexes := column(t, c.ters, c.sides)
		if c.road {
			from := 0
			if c.sides != nil {
				from = 1 // the road starts beyond the stream
			}
			for k := from; k+1 < len(hexes); k++ {
				m.AddRoad(hexes[k], m.Dir(hexes[k], hexes[k+1]), 0)
			}
		}
		rt, why := r.Route(m, c.md, hexes[0], hexes[1:])
		if c.cost < 0 {
			if why == "" || !strings.Contains(why, c.why) {
				t.Errorf("%s: %s MP (%q), want it refused: %s", c.name, nes.MP(rt.Cost), why, c.why)
			}
			continue
		}
		if why != "" || rt.Cost != c.cost {
			t.Errorf("%s: %s MP (%s), want %s", c.name, nes.MP(rt.Cost), why, nes.MP(c.cost))
			continue
		}
		if rt.General != (c.gAt >= 0) || c.gAt >= 0 && rt.GeneralAt != hexes[c.gAt] {
			t.Errorf("%s: general order %v at %s, want at %d", c.name, rt.General, m.Label(rt.GeneralAt), c.gAt)
		}
		if rt.Disorder != (c.dAt >= 0) || c.dAt >= 0 && rt.DisorderAt != hexes[c.dAt] {
			t.Errorf("%s: disorder %v at %s, want at %d", c.name, rt.Disorder, m.Label(rt.DisorderAt), c.dAt)
		}
	}
}

// enteringScenario: french infantry in line at 0205 two hexes from 0307,
// round which a stream runs, with a farmette (0306) and a clear hex (0206)
// between; light cavalry at 0406 north of a stream that runs between rows
// 06 and 07 from column 01 to 07, woods at 0408 south of it; light cavalry
// at 0902, a stream on all six of its hexsides, woods at 0904.
const enteringScenario = `
name: entering
rules: nes
turns: 1
map:
  columns: 12
  rows: 10
  layout: odd-q
  terrain: |
    ............
    ............
    ............
    ........w...
    ............
    ..f.........
    ............
    ...w........
    ............
    ............
  hexsides:
    stream: 0206/0307 0207/0307 0406/0307 0407/0307 0306/0307 0308/0307 0106/0107 0206/0107 0206/0207 0406/0507 0406/0407 0506/0507 0606/0707 0606/0507 0606/0607 0706/0707 0801/0902 0802/0902 1001/0902 1002/0902 0901/0902 0902/0903
sides:
  - id: french
    nation: french
    edge: north
    command-points: 1
    army: {id: napoleon, at: "1201", range: 6, bonus: 2}
    divisions:
      - id: d1
        general: {id: friant, at: "1202", bonus: 0, rating: 9, range: 3}
        order: move
        units:
          - {id: gf, type: infantry, formation: line, at: "0205", strength: 4}
          - {id: lf, type: light-cavalry, formation: column, at: "0406", strength: 4}
          - {id: lw, type: light-cavalry, formation: column, at: "0902", strength: 4}
  - id: russian
    nation: russian
    edge: south
    command-points: 1
    army: {id: kutuzov, at: "1210", range: 6, bonus: 1}
    divisions:
      - id: r1
        general: {id: r1-g, at: "1110", bonus: 1, rating: 9, range: 3}
        units:
          - {id: u-r1, type: infantry, at: "1110", strength: 5, formation: line}
`

// entering starts the scenario and plays it to the french movement step.
func entering(t *testing.T, r *nes.Rules) *game.Game {
	t.Helper()
	g, err := game.New(read(t, r, "entering.yaml", []byte(enteringScenario)), r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	for g.Step().Name != nes.StepMove {
		if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// reach is the cost the page's reach gives a unit for a hex, "" if the
// hex is not in it.
func reach(b nes.Board, unit string, p geom.Point) string {
	for _, c := range b.Units[unit].Reach {
		if c.At == p {
			return c.Cost
		}
	}
	return ""
}

// TestSearchFollowsTheUnitsState: the least-cost path to a hex (to:), the
// page's reach and the move's forecast follow the unit's formation and
// state as the chart's effects change them on the way (SPEC NES-7): line
// infantry goes through a farmette to cross a stream in general order (3
// MP, where every way in line costs 4); light cavalry sent to woods beyond
// a stream goes round the stream's end rather than across it, which would
// disorder it and keep it out of the woods (9 MP, where straight across
// would be 4); light cavalry that must cross a stream to go anywhere
// reaches no woods; a refused path changes nothing.
func TestSearchFollowsTheUnitsState(t *testing.T) {
	r := engine(t)
	g := entering(t, r)
	sc := g.Scenario()
	pt := func(label string) geom.Point {
		p, err := sc.Map.Parse(label)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	b := r.Annotate(g.State(), g.Step(), "french").(nes.Board)
	for _, c := range []struct{ unit, hex, want string }{
		{"gf", "0307", "3"},
		{"gf", "0306", "1"},
		{"lf", "0408", "9"},
		{"lf", "0407", "2"}, // across the stream, disordered: no woods beyond
		{"lw", "0904", ""},  // every way out crosses the stream first
		{"lw", "0903", "2"},
	} {
		if got := reach(b, c.unit, pt(c.hex)); got != c.want {
			t.Errorf("%s's reach gives %s at %q, want %q", c.unit, c.hex, got, c.want)
		}
	}
	fc, err := r.Forecast(sc, g.State(), "french", &nes.Args{Unit: "gf", To: "0307"})
	if err != nil || len(fc) != 1 || !strings.Contains(fc[0].Note, "for 3 MP") || !strings.Contains(fc[0].Note, "general order at 0306") {
		t.Fatalf("gf's forecast to 0307: %+v, %v", fc, err)
	}
	if got := fc[0].Path; len(got) != 3 || got[1] != pt("0306") {
		t.Errorf("gf's forecast path %v, want through 0306", got)
	}
	fc, err = r.Forecast(sc, g.State(), "french", &nes.Args{Unit: "lf", To: "0408"})
	if err != nil || len(fc) != 1 || !strings.Contains(fc[0].Note, "for 9 MP") || strings.Contains(fc[0].Note, "disorders") {
		t.Fatalf("lf's forecast to 0408: %+v, %v", fc, err)
	}
	// Straight across: refused, and nothing changes.
	before := g.Len()
	_, err = g.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{Unit: "lf", To: "0408", Path: []string{"0407", "0408"}}})
	if err == nil || !strings.Contains(err.Error(), "disordered at hex 0407") {
		t.Fatalf("lf across the stream into the woods: %v", err)
	}
	if g.Len() != before || nes.StateOf(g.State()).Unit("lf").Used != 0 {
		t.Fatalf("a refused move changed the game")
	}
	_, err = g.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{Unit: "lw", To: "0904"}})
	if err == nil || !strings.Contains(err.Error(), "cannot reach hex 0904") {
		t.Errorf("lw to the woods beyond the stream: %v", err)
	}
	// The moves themselves.
	for _, c := range []struct {
		unit, to string
		cost     int
		shape    string
		status   string
	}{{"gf", "0307", 18, "general-order", "formed"}, {"lf", "0408", 54, "general-order", "formed"}} {
		if _, err := g.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{Unit: c.unit, To: c.to}}); err != nil {
			t.Fatalf("%s to %s: %v", c.unit, c.to, err)
		}
		u := nes.StateOf(g.State()).Unit(c.unit)
		if u.Used != c.cost || u.Shape != c.shape || u.Status != c.status || g.State().Piece(c.unit).At != pt(c.to) {
			t.Errorf("%s after its move: at %v, %d sixths used, %s, %s; want %s, %d, %s, %s", c.unit, g.State().Piece(c.unit).At, u.Used, u.Shape, u.Status, c.to, c.cost, c.shape, c.status)
		}
	}
}

// TestReachIsAccepted: every hex the page's reach offers is one the move
// there is accepted for, at the cost the reach gives (the page offers only
// what will be accepted). After a move by grand tactical movement the
// unit goes on by it, with its allowance; a hex holding as many of the
// side's combat units as may stack is not offered, though passed through.
func TestReachIsAccepted(t *testing.T) {
	r := engine(t)
	first := &nes.Args{Unit: "gf", To: "0204", GT: true}
	g := entering(t, r)
	if _, err := g.Do(game.Command{Side: "french", Verb: "move", Args: first}); err != nil {
		t.Fatal(err)
	}
	b := r.Annotate(g.State(), g.Step(), "french").(nes.Board)
	cells := b.Units["gf"].Reach
	if len(cells) == 0 {
		t.Fatal("gf reaches nothing after its grand tactical move")
	}
	for _, c := range cells {
		g := entering(t, r)
		if _, err := g.Do(game.Command{Side: "french", Verb: "move", Args: first}); err != nil {
			t.Fatal(err)
		}
		before := nes.StateOf(g.State()).Unit("gf").Used
		to := g.Scenario().Map.Format(c.At)
		if _, err := g.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{Unit: "gf", To: to, GT: true}}); err != nil {
			t.Errorf("reach offers %s at %s after a grand tactical move; the move is refused: %v", to, c.Cost, err)
			continue
		}
		if got := nes.MP(nes.StateOf(g.State()).Unit("gf").Used - before); got != c.Cost {
			t.Errorf("reach prices %s at %s; the move cost %s", to, c.Cost, got)
		}
	}

	sc := strings.Replace(enteringScenario, `          - {id: lf, type: light-cavalry`, `          - {id: s1, type: infantry, formation: line, at: "0204", strength: 4}
          - {id: s2, type: infantry, formation: line, at: "0204", strength: 4}
          - {id: lf, type: light-cavalry`, 1)
	g2, err := game.New(read(t, r, "stacked.yaml", []byte(sc)), r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	for g2.Step().Name != nes.StepMove {
		if _, err := g2.Do(game.Command{Side: g2.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	full, _ := g2.Scenario().Map.Parse("0204")
	b = r.Annotate(g2.State(), g2.Step(), "french").(nes.Board)
	if got := reach(b, "gf", full); got != "" {
		t.Errorf("reach offers 0204, which holds two french combat units, at %s", got)
	}
	if _, err := g2.Do(game.Command{Side: "french", Verb: "move", Args: &nes.Args{Unit: "gf", To: "0204"}}); err == nil {
		t.Error("the move into 0204, which holds two french combat units, is accepted")
	}
}
