package bp_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/geom"
	"orderly/geom/foot"
	"orderly/rules"
	"orderly/rules/bp"
	"orderly/table"
)

// stage is a scenario of one French and one British brigade made of the
// units given, one YAML flow mapping a line.
func stage(french, british []string) []byte {
	var b strings.Builder
	b.WriteString(`name: stage
rules: bp
turns: 3
field: {width: 72, depth: 48}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: fa, at: [36, 47]}
    brigades:
      - id: fb
        general: {id: fg, staff: 8, at: [36, 40]}
        units:
`)
	for _, u := range french {
		b.WriteString("          - " + u + "\n")
	}
	b.WriteString(`  - id: british
    nation: british
    edge: north
    army: {id: ba, at: [36, 1]}
    brigades:
      - id: bb
        general: {id: bg, staff: 8, at: [36, 4]}
        units:
`)
	for _, u := range british {
		b.WriteString("          - " + u + "\n")
	}
	return []byte(b.String())
}

// house is BP under the built-in tables and a house-rules file.
func house(t *testing.T, text string) (*bp.Rules, error) {
	t.Helper()
	set, err := table.Load(rules.Builtin(), table.Source{Name: "house.yaml", Data: []byte(text)})
	if err != nil {
		t.Fatal(err)
	}
	return bp.New(set)
}

// TestNotClearAtHalf checks BP-5's "Units 50%+ out of front arc" at the
// boundary: f1 (6" wide, facing north, front edge on y = 30) has its
// front arc's right edge 11" right of its centre 8" ahead. A British line
// centred there is cut in halves by it: exactly half out, it is not clear
// and f1 may pass over it to the clear unit straight ahead; moved 0.06"
// in (51% in, 1/2 + 0.06/6) it is clear and the only legal target; moved
// 0.06" out it is not clear again.
func TestNotClearAtHalf(t *testing.T) {
	r := engine(t)
	for _, c := range []struct {
		x     float64
		share float64
		legal []string
	}{
		{25, 0.5, []string{"n", "far"}},
		{24.94, 0.51, []string{"n"}},
		{25.06, 0.49, []string{"n", "far"}},
	} {
		sc := read(t, r, "stage", stage(
			[]string{"{id: f1, type: infantry, formation: line, at: [14, 30], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}"},
			[]string{"{id: n, type: infantry, formation: line, at: [" + strconv.FormatFloat(c.x, 'f', -1, 64) + ", 22.75], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}",
				"{id: far, type: infantry, formation: line, at: [14, 16], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}"}))
		g, err := game.New(sc, r, game.Seeded(1))
		if err != nil {
			t.Fatal(err)
		}
		f := foot.Foot{At: geom.Pt(14, 30), Facing: 0, Width: 6, Depth: 1.5}
		n := foot.Foot{At: geom.Pt(c.x, 22.75), Facing: 180, Width: 6, Depth: 1.5}
		if s := f.InArc(n, foot.Front, bp.Half); math.Abs(s-c.share) > 1e-9 {
			t.Fatalf("n at x = %v: %v of it in the front arc; want %v", c.x, s, c.share)
		}
		if got := r.Legal(g.State(), sc, "f1", nil); !slices.Equal(got, c.legal) {
			t.Errorf("n at x = %v (%v in the arc): legal targets %v; want %v", c.x, c.share, got, c.legal)
		}
	}
}

// TestTraversingFootprint checks BP-5's traversing fire with the ground
// the mover's footprint sweeps: b1 (6" wide, facing south, front edge on
// y = 10) covers lanes x = 33..39; a march column (2" by 6") facing east
// with its head on y = 20 goes east past it; a line comes straight on.
func TestTraversingFootprint(t *testing.T) {
	r := engine(t)
	for _, c := range []struct {
		name  string
		unit  string
		to    geom.Point
		cross bool
	}{
		// The head's centre crosses 2" (37..39), the body all 6".
		{"body past the whole front", "{id: f1, type: infantry, formation: march-column, at: [37, 20], facing: 90, shooting: 3, combat: 6, morale: 4, stamina: 3}", geom.Pt(45, 20), true},
		{"exactly half", "{id: f1, type: infantry, formation: march-column, at: [37, 20], facing: 90, shooting: 3, combat: 6, morale: 4, stamina: 3}", geom.Pt(40, 20), true},
		{"under half", "{id: f1, type: infantry, formation: march-column, at: [37, 20], facing: 90, shooting: 3, combat: 6, morale: 4, stamina: 3}", geom.Pt(39.9, 20), false},
		{"straight on", "{id: f1, type: infantry, formation: line, at: [36, 21], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}", geom.Pt(36, 14), false},
		// Out of b1's range (2") at the end: no fire, though it crossed.
		{"out of range", "{id: f1, type: infantry, formation: march-column, at: [37, 20], facing: 90, shooting: 3, combat: 6, morale: 4, stamina: 3, move: 24}", geom.Pt(45, 20), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b1 := "{id: b1, type: infantry, formation: line, at: [36, 10], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}"
			if c.name == "out of range" {
				b1 = strings.Replace(b1, "stamina: 3}", "stamina: 3, range: 2}", 1)
			}
			sc := read(t, r, "stage", stage([]string{c.unit}, []string{b1}))
			g, err := game.New(sc, r, &queue{Faces: []int{1, 1}}) // moves-3
			if err != nil {
				t.Fatal(err)
			}
			do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
			to := c.to
			evs := do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: &to}})
			d := evs[0].Data.(*bp.Moved)
			if got := slices.Equal(d.Across, []string{"b1"}); got != c.cross {
				t.Fatalf("the move crossed %v; want b1 offered traversing fire: %v", d.Across, c.cross)
			}
			if got := g.Step().Name == bp.StepRespond; got != c.cross {
				t.Fatalf("after the move the step is %s", g.Step().Name)
			}
		})
	}
}

// TestCombatMargin checks BP-6 as our source has it and the house rule:
// f1 (6 dice: 4 5 6 1 2 3, three hits; b1 saves 1 2 5) inflicts 2
// casualties on b1, which inflicts none (4 1 1 1 1 1, saved on 6). By
// default b1, 2 casualties under its stamina of 3, takes no break test
// and no side loses; 4 casualties (one beyond) call its test at -1. With
// combat-margin yes (bp/options) the British lose by 2 and b1 tests at
// -2: 3 4 = 7 - 2 = 5, retreat.
func TestCombatMargin(t *testing.T) {
	on, err := house(t, "lookups:\n  - id: bp/options\n    cells:\n      combat-margin: \"yes\"\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		r      *bp.Rules
		faces  []int
		loser  string
		margin int
		tests  []bp.Test
		words  string
	}{
		{"source", engine(t), []int{4, 5, 6, 1, 2, 3, 1, 2, 5, 4, 1, 1, 1, 1, 1, 6, 3, 4}, "", 0, nil, "Combat: f1 2 on b1, b1 0 on f1"},
		{"source, beyond stamina", engine(t), []int{4, 4, 4, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 4}, "", 0,
			[]bp.Test{{Unit: "b1", Modifier: -1, Result: "retreat"}}, "Combat: f1 4 on b1, b1 0 on f1; b1 takes a break test at -1: retreat"},
		{"house rule", on, []int{4, 5, 6, 1, 2, 3, 1, 2, 5, 4, 1, 1, 1, 1, 1, 6, 3, 4}, "british", 2,
			[]bp.Test{{Unit: "b1", Modifier: -2, Result: "retreat"}}, "Combat: f1 2 on b1, b1 0 on f1; british lose by 2; b1 takes a break test at -2: retreat"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := read(t, c.r, "stage", stage(
				[]string{"{id: f1, type: infantry, formation: line, at: [36, 30], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}"},
				[]string{"{id: b1, type: infantry, formation: line, at: [36, 20], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}"}))
			q := &queue{}
			g, err := game.New(sc, c.r, q)
			if err != nil {
				t.Fatal(err)
			}
			do(t, g, game.Command{Side: "french", Verb: "initiative", Args: &bp.Args{Unit: "f1"}})
			do(t, g, game.Command{Side: "french", Verb: "charge", Args: &bp.Args{Unit: "f1", Target: "b1"}})
			do(t, g, game.Command{Side: "british", Verb: "respond", Args: &bp.Args{Response: "stand"}})
			do(t, g, game.Command{Side: "french", Verb: game.Ready})
			do(t, g, game.Command{Side: "french", Verb: game.Ready})
			q.Faces = c.faces
			evs := do(t, g, game.Command{Side: "french", Verb: "fight", Args: &bp.Args{Unit: "f1"}})
			d := evs[0].Data.(*bp.Fought)
			if d.Loser != c.loser || d.Margin != c.margin || !slices.Equal(d.Tests, c.tests) {
				t.Fatalf("fought %+v; want loser %q by %d and tests %+v", d, c.loser, c.margin, c.tests)
			}
			if got := c.r.Describe(&evs[0], func(id string) string { return id }); !strings.HasPrefix(got, c.words) || strings.Contains(c.words, "lose") != strings.Contains(got, "lose") {
				t.Fatalf("described %q; want %q", got, c.words)
			}
		})
	}
}

// TestOptionsMustBeYesOrNo: a house rule that sets an option of
// bp/options to anything but yes or no is refused, naming it.
func TestOptionsMustBeYesOrNo(t *testing.T) {
	_, err := house(t, "lookups:\n  - id: bp/options\n    cells:\n      combat-margin: \"maybe\"\n")
	if err == nil || !strings.Contains(err.Error(), "bp/options option=combat-margin: \"maybe\" is neither yes nor no") {
		t.Fatalf("New with combat-margin maybe: %v", err)
	}
}

// TestFormationByType checks that a scenario giving a unit a formation its
// type cannot take (BP-4) is refused in one sentence naming the unit, the
// formation and the allowed ones, and that its neighbours load.
func TestFormationByType(t *testing.T) {
	r := engine(t)
	load := func(unit string) error {
		_, err := battle.Read("stage.yaml", stage([]string{unit},
			[]string{"{id: b1, type: infantry, formation: line, at: [36, 10], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}"}),
			func(string) (battle.RuleSet, error) { return r, nil })
		return err
	}
	for _, c := range []struct {
		unit, want string
	}{
		{"{id: i1, type: infantry, formation: limbered, at: [36, 30], facing: 0, combat: 6, morale: 4, stamina: 3}",
			"sides[0].brigades[0].units[0].formation: i1 is infantry, which cannot take formation limbered (BP-4); allowed for infantry: line, column, attack-column, march-column, square, skirmish, mixed"},
		{"{id: a1, type: artillery, formation: square, at: [36, 30], facing: 0, combat: 1, morale: 4, stamina: 2}",
			"sides[0].brigades[0].units[0].formation: a1 is artillery, which cannot take formation square (BP-4); allowed for artillery: limbered, unlimbered"},
		{"{id: h1, type: horse-artillery, formation: line, at: [36, 30], facing: 0, combat: 1, morale: 4, stamina: 2}",
			"allowed for horse-artillery: limbered, unlimbered"},
		{"{id: c1, type: cavalry, formation: unlimbered, at: [36, 30], facing: 0, combat: 8, morale: 4, stamina: 3}",
			"allowed for cavalry: line, column"},
		{"{id: i1, type: infantry, formation: square, at: [36, 30], facing: 0, combat: 6, morale: 4, stamina: 3}", ""},
		{"{id: a1, type: artillery, formation: limbered, at: [36, 30], facing: 0, combat: 1, morale: 4, stamina: 2}", ""},
		{"{id: h1, type: horse-artillery, formation: unlimbered, at: [36, 30], facing: 0, combat: 1, morale: 4, stamina: 2}", ""},
	} {
		err := load(c.unit)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v; want it to load", c.unit, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v; want %q", c.unit, err, c.want)
		}
	}
}
