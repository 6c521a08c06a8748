package cd_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules"
	"orderly/rules/cd"
	"orderly/table"
)

func engine(t testing.TB) *cd.Rules {
	t.Helper()
	set, err := table.Load(rules.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	r, err := cd.New(set)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func read(t testing.TB, r *cd.Rules, name string, data []byte) *battle.Scenario {
	return gametest.Read(t, r, name, data)
}

func demo(t testing.TB, r *cd.Rules) *battle.Scenario {
	return gametest.ReadFile(t, r, "../../examples/cd/cd-demo.yaml")
}

// base is a scenario with one French brigade of three units and an
// Austrian unit far off, for the known answers; units and features are
// put in with fmt-free string replacement.
const base = `name: t
rules: cd
turns: 4
field:
  width: 72
  depth: 48
  features:
FEATURES
sides:
  - id: french
    nation: french
    edge: south
    army: {id: nap, rating: superior, style: STYLE, at: [36, 47]}
    divisions:
      - id: d1
        general: {id: d1-g, rating: good, at: [30, 44]}
        brigades:
          - id: b1
            general: {id: b1-g, rating: average, at: [30, 45]}
            units:
UNITS
  - id: austrian
    nation: austrian
    edge: north
    army: {id: aus, rating: average, style: ad-hoc, at: [36, 1]}
    divisions:
      - id: a1
        general: {id: a1-g, rating: average, at: [36, 2]}
        brigades:
          - id: ab
            general: {id: ab-g, rating: average, at: [36, 3]}
            units:
              - {id: enemy, type: infantry, formation: line, at: [66, 4], facing: 180}
`

func scenario(t *testing.T, r *cd.Rules, style, features string, units ...string) *battle.Scenario {
	t.Helper()
	if features == "" {
		features = "    - {id: far, type: gradual-slope, area: [[70, 46], [71, 46], [71, 47]]}"
	}
	var us []string
	for _, u := range units {
		us = append(us, "              - "+u)
	}
	src := strings.NewReplacer("STYLE", style, "FEATURES", features, "UNITS", strings.Join(us, "\n")).Replace(base)
	return read(t, r, "t.yaml", []byte(src))
}

// queue is dice that hand out given faces in order.
type queue = gametest.Queue

// play runs commands on a game of sc with the given dice faces, and
// returns the game and each command's error.
func play(t *testing.T, r *cd.Rules, sc *battle.Scenario, faces []int, cmds ...string) (*game.Game, []error) {
	t.Helper()
	g, err := game.New(sc, r, &queue{Faces: slices.Clone(faces)})
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	for _, c := range cmds {
		cmd, err := game.DecodeCommand(r, []byte(c), "cmd")
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		_, err = g.Do(cmd)
		errs = append(errs, err)
	}
	return g, errs
}

func refusal(err error) string {
	var ge *game.Error
	if errors.As(err, &ge) {
		return ge.Msg
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// TestCoherence: units in line are coherent at exactly 1" apart across
// the front and not at 1.1"; in depth at exactly 6" and not at 6.1";
// columns get the room to form line on top of the inch (CD-4).
func TestCoherence(t *testing.T) {
	r := engine(t)
	cases := []struct {
		name string
		b    string // the second unit
		ok   bool
	}{
		{"line 1 inch", "{id: u2, type: infantry, formation: line, at: [35, 40], facing: 0}", true},
		{"line 1.1 inch", "{id: u2, type: infantry, formation: line, at: [35.1, 40], facing: 0}", false},
		{"depth 6 inches", "{id: u2, type: infantry, formation: line, at: [30, 47], facing: 0}", true},
		{"depth 6.1 inches", "{id: u2, type: infantry, formation: line, at: [30, 47.1], facing: 0}", false},
		// A column 2" wide beside a line: 1" plus 1" of room to form line.
		{"column 2 inches", "{id: u2, type: infantry, formation: column, at: [35, 40], facing: 0}", true},
		{"column 2.1 inches", "{id: u2, type: infantry, formation: column, at: [35.1, 40], facing: 0}", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// u1 in line, 4" wide, at x 28..32, front at y 40, rear at 41.
			sc := scenario(t, r, "established", "", "{id: u1, type: infantry, formation: line, at: [30, 40], facing: 0}", c.b)
			_, errs := play(t, r, sc, []int{4, 4}, "{side: french, activate: {units: [u1, u2]}}")
			if got := errs[0] == nil; got != c.ok {
				t.Errorf("coherent %v, want %v: %s", got, c.ok, refusal(errs[0]))
			}
			if !c.ok && !strings.Contains(refusal(errs[0]), "not coherent") {
				t.Errorf("refusal %q does not say why", refusal(errs[0]))
			}
		})
	}
}

// TestStylePenalties: the penalty of each activation roll of a turn, as
// the source's examples give them (CD-5).
func TestStylePenalties(t *testing.T) {
	r := engine(t)
	want := map[string][]int{
		"ad-hoc":       {0, -1, -2},
		"established":  {0, 0, -1, -2},
		"french-model": {0, 0, -1, -1, -2},
		"glory-years":  {0, 0, -1, -1, -1, -2},
	}
	for style, pens := range want {
		var units, cmds []string
		for i := range pens {
			id := "u" + string(rune('a'+i))
			units = append(units, "{id: "+id+", type: infantry, formation: line, at: ["+itoa(8+i*8)+", 40], facing: 0}")
			cmds = append(cmds, "{side: french, activate: {unit: "+id+"}}")
		}
		sc := scenario(t, r, style, "", units...)
		faces := make([]int, 2*len(pens))
		for i := range faces {
			faces[i] = 4
		}
		g, errs := play(t, r, sc, faces, cmds...)
		for i, err := range errs {
			if err != nil {
				t.Fatalf("%s roll %d: %v", style, i+1, err)
			}
		}
		var got []int
		for _, e := range g.Log() {
			if e.Type != cd.EvActivated {
				continue
			}
			pen := 0
			for _, m := range e.Rolls[0].Mods {
				if m.Name == "command-style" {
					pen = m.Amount
				}
			}
			got = append(got, pen)
		}
		if !slices.Equal(got, pens) {
			t.Errorf("%s: penalties %v, want %v", style, got, pens)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestAllowance: rate x activation factor x terrain, for each type and
// formation on open ground, in light woods and across a hedge (CD-2,
// CD-3): the move to the allowance is taken, a hundredth of an inch more
// than the slack is refused.
func TestAllowance(t *testing.T) {
	r := engine(t)
	woods := "    - {id: w, type: light-woods, area: [[0, 0], [72, 0], [72, 38], [0, 38]]}"
	hedge := "    - {id: h, type: linear-obstacle, line: [[0, 38], [72, 38]]}"
	cases := []struct {
		name, unit, feature string
		faces               []int   // the activation roll
		allow               float64 // inches north from y 40
	}{
		{"infantry column x1", "{id: u1, type: infantry, formation: column, at: [30, 40], facing: 0}", "", []int{4, 4}, 8},
		{"infantry column x0.75", "{id: u1, type: infantry, formation: column, at: [30, 40], facing: 0}", "", []int{3, 4}, 6},
		{"infantry line x1", "{id: u1, type: infantry, formation: line, at: [30, 40], facing: 0}", "", []int{4, 4}, 4},
		{"light cavalry column x1", "{id: u1, type: light-cavalry, formation: column, at: [30, 40], facing: 0}", "", []int{6, 6}, 15},
		{"heavy cavalry general order x0.5", "{id: u1, type: heavy-cavalry, formation: general-order, at: [30, 40], facing: 0}", "", []int{2, 4}, 5},
		{"infantry road off road", "{id: u1, type: infantry, formation: road, at: [30, 40], facing: 0}", "", []int{4, 4}, 8},
		{"6# limbered field", "{id: u1, type: artillery, gun: \"6\", formation: limbered, at: [30, 40], facing: 0}", "", []int{4, 4}, 8},
		{"12# unlimbered prolonge", "{id: u1, type: artillery, gun: \"12\", formation: unlimbered, at: [30, 40], facing: 0}", "", []int{4, 4}, 1},
		// Into the woods at 3/4 of 8": 2" of open ground, then 6" x 3/4.
		{"column into light woods", "{id: u1, type: infantry, formation: column, at: [30, 40], facing: 0}", woods, []int{4, 4}, 6.5},
		// -1" for the hedge.
		{"column across a hedge", "{id: u1, type: infantry, formation: column, at: [30, 40], facing: 0}", hedge, []int{4, 4}, 7},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := scenario(t, r, "established", c.feature, c.unit)
			move := func(d float64) string {
				return "{side: french, move: {unit: u1, to: [30, " + fmtf(40-d) + "]}}"
			}
			_, errs := play(t, r, sc, c.faces, "{side: french, activate: {unit: u1}}", move(c.allow+0.02))
			if errs[0] != nil {
				t.Fatal(errs[0])
			}
			if errs[1] == nil || !strings.Contains(refusal(errs[1]), "of its move left") {
				t.Errorf("%v\" past the allowance: %v", c.allow+0.02, refusal(errs[1]))
			}
			_, errs = play(t, r, sc, c.faces, "{side: french, activate: {unit: u1}}", move(c.allow))
			if errs[1] != nil {
				t.Errorf("the allowance of %v\": %v", c.allow, refusal(errs[1]))
			}
		})
	}
}

func fmtf(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64) }

// TestConformance plays random games of the demo under the engine's
// conformance suite.
func TestConformance(t *testing.T) {
	r := engine(t)
	gametest.Conformance(t, r, demo(t, r), 8)
}

// TestGroupMovesAsOne: a brigade group moves as one body, keeping its
// relative positions, each unit held to its own allowance; a formation
// change by the group is all or nothing (CD-4, CD-8).
func TestGroupMovesAsOne(t *testing.T) {
	r := engine(t)
	sc := scenario(t, r, "established", "",
		"{id: u1, type: infantry, formation: line, at: [30, 40], facing: 0}",
		"{id: u2, type: infantry, formation: line, at: [35, 40], facing: 0}",
		"{id: gun, type: artillery, gun: \"6\", formation: limbered, at: [35, 44], facing: 0}")
	g, errs := play(t, r, sc, []int{4, 4},
		"{side: french, activate: {units: [u1, u2, gun]}}",
		"{side: french, move: {unit: u1, to: [30, 36], formation: column}}",
		"{side: french, move: {unit: u1, to: [30, 36.5]}}")
	if errs[0] != nil || errs[2] != nil {
		t.Fatalf("%v, %v", errs[0], errs[2])
	}
	if !strings.Contains(refusal(errs[1]), "gun cannot take formation column") {
		t.Errorf("a group's change of formation that one unit cannot make: %q", refusal(errs[1]))
	}
	st := cd.StateOf(g.State())
	for id, want := range map[string][2]float64{"u1": {30, 36.5}, "u2": {35, 36.5}, "gun": {35, 40.5}} {
		u := st.Unit(id)
		if math.Abs(u.At.X-want[0]) > 1e-6 || math.Abs(u.At.Y-want[1]) > 1e-6 {
			t.Errorf("%s at %v, want %v", id, u.At, want)
		}
	}
}

// FuzzCommand reads a CD command from YAML and, if it decodes, gives it
// to a fresh game of the demo: decoding never panics and every error is
// one line naming where the command came from; the game never panics on
// it, and a refusal is one line and changes nothing.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		"{side: french, activate: {units: [1-ligne, 2-ligne, foy-btty]}}",
		"{side: french, activate: {division: foy}}",
		"{side: french, activate: {unit: 4-leger, vacate: true}}",
		"{side: french, move: {unit: 1-ligne, to: [20, 36], facing: 10, formation: column}}",
		"{side: french, move: {unit: foy-btty, to: [25, 40], formation: unlimbered, mode: prolonge}}",
		"{side: french, move: {unit: 5-ligne, to: [14, 30], through: 4-leger}}",
		"{side: french, relieve: {unit: 2-ligne, relieved: 1-ligne}}",
		"{side: french, retire: {unit: 1-ligne, to: [20, 46]}}",
		"{side: french, screen: {unit: 4-leger}}",
		"{side: french, recall: {unit: 4-leger, to: [10, 46]}}",
		"{side: french, lose: {general: foy-g}}",
		"{side: umpire, mark: {unit: ir-1, shaken: true, casualties: 120, cw: 6}}",
		"{side: french, mark: {unit: 1-ligne}}",
		"{side: french, activate: {}}",
		"{side: french, move: {unit: 1-ligne, facing: 400}}",
		"{side: french, ready: true}",
		"",
		"[1, 2]",
	} {
		f.Add(s)
	}
	const where = "cmd.yaml"
	r := engine(f)
	start, err := game.Prepare(demo(f, r), r)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, ok := gametest.Decode(t, r, in, where)
		if !ok {
			return
		}
		g, err := start.New(game.Seeded(1))
		if err != nil {
			t.Fatal(err)
		}
		gametest.Do(t, g, c, in)
	})
}

// TestFog is the fog-of-war property test on the demo.
// TestTableDice plays the demo to the end with every roll thrown at the
// table, and in mixed dice (issue 15).
func TestTableDice(t *testing.T) {
	r := engine(t)
	gametest.TableDice(t, r, demo(t, r), 2, game.DiceTable)
	gametest.TableDice(t, r, demo(t, r), 2, game.DiceMixed)
}

// TestBlind is the differential property of fog of war (issue 32): a side
// is given the same whatever hidden enemy pieces do.
func TestBlind(t *testing.T) {
	r := engine(t)
	gametest.Blind(t, r, demo(t, r), 24, probe)
}

// probe aims the side's units near at (where a hidden enemy unit stands
// in one game of a differential pair) at it and past it: their
// activations, moves of them and their groups onto it, past it, part of
// the way and with a change of formation or a charge, a forced move
// toward it, and a recall from the skirmish screen onto it.
func probe(g *game.Game, side string, at geom.Point, rng *rand.Rand) []game.Command {
	sc := g.Scenario()
	st := cd.StateOf(g.State())
	// toward is the point d inches from p on the way to at, or beyond it.
	toward := func(p geom.Point, d float64) *geom.Point {
		l := p.Dist(at)
		if l < 1e-9 {
			return &geom.Point{X: at.X, Y: at.Y}
		}
		x := math.Min(math.Max(p.X+(at.X-p.X)*d/l, 0), sc.Field.Width)
		y := math.Min(math.Max(p.Y+(at.Y-p.Y)*d/l, 0), sc.Field.Depth)
		return &geom.Point{X: math.Round(x*100) / 100, Y: math.Round(y*100) / 100}
	}
	var out []game.Command
	for _, u := range st.Units {
		if u.Side != side || len(out) > 16 {
			continue
		}
		if u.Screened {
			out = append(out, game.Command{Verb: "recall", Args: &cd.Args{Unit: u.ID, To: toward(at, 0)}})
			continue
		}
		if !u.OnTable || u.At.Dist(at) > 40 {
			continue
		}
		l := u.At.Dist(at)
		if u.Act == 0 {
			out = append(out, game.Command{Verb: "activate", Args: &cd.Args{Unit: u.ID}})
		}
		shapes := g.Rules().(*cd.Rules).Shapes()[u.Type]
		out = append(out,
			game.Command{Verb: "move", Args: &cd.Args{Unit: u.ID, To: toward(u.At, l)}},
			game.Command{Verb: "move", Args: &cd.Args{Unit: u.ID, To: toward(u.At, l+1+rng.Float64()*4)}},
			game.Command{Verb: "move", Args: &cd.Args{Unit: u.ID, To: toward(u.At, min(l, 2+rng.Float64()*6))}},
			game.Command{Verb: "move", Args: &cd.Args{Unit: u.ID, To: toward(u.At, l), Shape: shapes[rng.IntN(len(shapes))]}},
			game.Command{Verb: "move", Args: &cd.Args{Unit: u.ID, To: toward(u.At, l), Charge: true}},
		)
		if rng.IntN(4) == 0 {
			// Rarely: a forced move needs no activation, and ends most
			// pairs at once by bringing the hidden unit into sight.
			out = append(out, game.Command{Verb: "retire", Args: &cd.Args{Unit: u.ID, To: toward(u.At, min(l+1, 6))}})
		}
	}
	return out
}

func TestFog(t *testing.T) {
	r := engine(t)
	gametest.Fog(t, r, demo(t, r), 6)
}

// TestHiddenAsMissing: with fog of war a command naming an enemy unit the
// side does not spot is refused as one naming an id not in the game, with
// Command's own words for a missing id.
func TestHiddenAsMissing(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	own := func(s *game.State, side string) string { // a unit of side on the table
		for _, u := range cd.StateOf(s).Units {
			if u.Side == side && u.OnTable && !u.Screened {
				return u.ID
			}
		}
		return ""
	}
	units := gametest.EnemyPieces(func(s *game.State, id string) bool { return cd.StateOf(s).Unit(id) != nil })
	for _, verb := range []string{"activate", "move", "retire", "screen", "mark"} {
		gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: verb, IDs: units, Make: func(s *game.State, side, id string) game.Command {
			return game.Command{Side: side, Verb: verb, Args: &cd.Args{Unit: id, To: &geom.Point{X: 1, Y: 1}}}
		}})
	}
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "relieve", IDs: units, Make: func(s *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "relieve", Args: &cd.Args{Unit: own(s, side), Relieved: id}}
	}})
}

// TestContactUnderFog: with fog of war a move whose way runs into an
// enemy unit its side does not spot (in light woods, spotted from 8") is
// carried out up to where the footprints touch, keeps what it cost, and
// records the contact, after which the side spots the unit (issue 32).
// Without fog the same move is refused, naming the unit, as before.
func TestContactUnderFog(t *testing.T) {
	r := engine(t)
	woods := "    - {id: woods, type: light-woods, area: [[20, 20], [40, 20], [40, 28], [20, 28]]}"
	sc := read(t, r, "t.yaml", []byte(strings.NewReplacer("STYLE", "established", "FEATURES", woods,
		"UNITS", "              - {id: u1, type: light-cavalry, formation: column, at: [30, 31], facing: 0}",
		"at: [66, 4], facing: 180", "at: [30, 22], facing: 180").Replace(base)))
	activate := game.Command{Side: "french", Verb: "activate", Args: &cd.Args{Unit: "u1"}}
	// 11" north, through the enemy, on x1 (15").
	move := game.Command{Side: "french", Verb: "move", Args: &cd.Args{Unit: "u1", To: &geom.Point{X: 30, Y: 20}}}
	g, err := game.New(sc, r, &queue{Faces: []int{6, 6}}, game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	if !g.State().Hidden("french", "enemy") {
		t.Fatal("the French spot the enemy in the woods from 9\" off")
	}
	if _, err := g.Do(activate); err != nil {
		t.Fatal(err)
	}
	evs, err := g.Do(move)
	if err != nil {
		t.Fatal(err)
	}
	// The enemy's front edge is at y=22: u1's touches it after 9", 3" in
	// the open and 6" in the woods at 3/4 (8"): 11" of its 15".
	if len(evs) != 2 || evs[0].Type != cd.EvMoved || evs[1].Type != game.Contacted {
		t.Fatalf("the move's events are %+v; want moved, then contact", evs)
	}
	l := evs[0].Data.(*cd.Moved).Legs[0]
	if l.Distance != 9 || math.Abs(l.Cost-11.0/15) > 1e-9 || g.State().Piece("u1").At != geom.Pt(30, 22) {
		t.Fatalf("the move went %v\" for %v of its rate to %v; want 9\" for 11/15 to (30, 22)", l.Distance, l.Cost, g.State().Piece("u1").At)
	}
	if u := cd.StateOf(g.State()).Unit("u1"); math.Abs(u.Used-11.0/15) > 1e-9 {
		t.Fatalf("u1 has used %v of its rate; want the 11/15 it went", u.Used)
	}
	if c := evs[1].Data.(*game.Contact); *c != (game.Contact{Piece: "u1", Met: "enemy", At: "(30, 22)"}) || !evs[1].Visible("french") || !evs[1].Visible("austrian") {
		t.Fatalf("contact %+v, seen by %s; want u1 upon enemy at (30, 22), seen by both", c, evs[1].See)
	}
	if g.State().Hidden("french", "enemy") || cd.StateOf(g.Sees("french")).Unit("enemy") == nil {
		t.Fatal("after the contact the French do not see the enemy")
	}
	// Without fog nothing is hidden: the move is refused as before.
	_, errs := play(t, r, sc, []int{6, 6}, "{side: french, activate: {unit: u1}}", "{side: french, move: {unit: u1, to: [30, 20]}}")
	if errs[0] != nil || !strings.Contains(refusal(errs[1]), "runs into the enemy's enemy") {
		t.Fatalf("without fog: %v, %q; want the move refused, naming the enemy", errs[0], refusal(errs[1]))
	}
}

// TestGroupContactUnderFog: a brigade group moving as one body stops as
// one when one of its units meets an enemy unit the side does not spot:
// both after the same 9" of their 11" (issue 32).
func TestGroupContactUnderFog(t *testing.T) {
	r := engine(t)
	woods := "    - {id: woods, type: light-woods, area: [[20, 20], [40, 20], [40, 28], [20, 28]]}"
	sc := read(t, r, "t.yaml", []byte(strings.NewReplacer("STYLE", "established", "FEATURES", woods,
		"UNITS", "              - {id: u1, type: light-cavalry, formation: column, at: [25, 31], facing: 0}\n              - {id: u2, type: light-cavalry, formation: column, at: [30, 31], facing: 0}",
		"at: [66, 4], facing: 180", "at: [30, 22], facing: 180").Replace(base)))
	g, err := game.New(sc, r, &queue{Faces: []int{6, 6}}, game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []game.Command{
		{Side: "french", Verb: "activate", Args: &cd.Args{Units: []string{"u1", "u2"}}},
		{Side: "french", Verb: "move", Args: &cd.Args{Unit: "u1", To: &geom.Point{X: 25, Y: 20}}},
	} {
		if _, err := g.Do(c); err != nil {
			t.Fatal(err)
		}
	}
	st := cd.StateOf(g.State())
	for id, want := range map[string]geom.Point{"u1": geom.Pt(25, 22), "u2": geom.Pt(30, 22)} {
		if u := st.Unit(id); u.At != want || math.Abs(u.Used-11.0/15) > 1e-9 {
			t.Errorf("%s stands at %v, %v of its rate used; want %v, 11/15", id, u.At, u.Used, want)
		}
	}
	if g.State().Hidden("french", "enemy") {
		t.Error("after the contact the French do not see the enemy")
	}
}

// TestRecallOntoUnseen: with fog of war a unit recalled from the screen
// onto an enemy unit its side does not spot (in heavy woods at the rear)
// comes back touching it, toward its rear, and the contact is recorded;
// without fog the recall is refused, naming the unit (issue 32).
func TestRecallOntoUnseen(t *testing.T) {
	r := engine(t)
	woods := "    - {id: woods, type: heavy-woods, area: [[20, 42], [40, 42], [40, 48], [20, 48]]}"
	sc := read(t, r, "t.yaml", []byte(strings.NewReplacer("STYLE", "established", "FEATURES", woods,
		"UNITS", "              - {id: u1, type: infantry, formation: column, at: [30, 36], facing: 0, skirmish: true}",
		"at: [30, 44]}", "at: [30, 38]}", "at: [30, 45]}", "at: [34, 38]}",
		"at: [66, 4], facing: 180", "at: [30, 45.2], facing: 180").Replace(base)))
	screen := game.Command{Side: "french", Verb: "screen", Args: &cd.Args{Unit: "u1"}}
	recall := game.Command{Side: "french", Verb: "recall", Args: &cd.Args{Unit: "u1", To: &geom.Point{X: 30, Y: 44.5}}}
	g, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	if !g.State().Hidden("french", "enemy") {
		t.Fatal("the French spot the enemy in the woods")
	}
	if _, err := g.Do(screen); err != nil {
		t.Fatal(err)
	}
	evs, err := g.Do(recall)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].Type != cd.EvRecalled || evs[1].Type != game.Contacted {
		t.Fatalf("the recall's events are %+v; want recalled, then contact", evs)
	}
	if at := g.State().Piece("u1").At; at != geom.Pt(30, 45.2) {
		t.Fatalf("u1 came back at %v; want (30, 45.2), touching the enemy's rear edge", at)
	}
	if c := evs[1].Data.(*game.Contact); c.Piece != "u1" || c.Met != "enemy" || g.State().Hidden("french", "enemy") {
		t.Fatalf("contact %+v; want u1 upon enemy, and the enemy seen", c)
	}
	open, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := open.Do(screen); err != nil {
		t.Fatal(err)
	}
	if _, err := open.Do(recall); !strings.Contains(refusal(err), "would come back on top of enemy") {
		t.Fatalf("without fog the recall is answered %q; want it refused, naming the enemy", refusal(err))
	}
}
