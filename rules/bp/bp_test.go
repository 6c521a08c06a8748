package bp_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/dice"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules"
	"orderly/rules/bp"
	"orderly/script"
	"orderly/sim"
	"orderly/table"
)

func engine(t testing.TB) *bp.Rules {
	t.Helper()
	set, err := table.Load(rules.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	r, err := bp.New(set)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func read(t testing.TB, r *bp.Rules, name string, data []byte) *battle.Scenario {
	return gametest.Read(t, r, name, data)
}

func demo(t testing.TB, r *bp.Rules) *battle.Scenario {
	return gametest.ReadFile(t, r, "../../examples/bp/bp-demo.yaml")
}

// queue is dice that hand out given faces in order.
type queue = gametest.Queue

// duel is a scenario of one French and one British brigade whose units
// stand where the test puts them.
func duel(units string) []byte {
	return []byte(`name: duel
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
` + units + `
  - id: british
    nation: british
    edge: north
    army: {id: ba, at: [36, 1]}
    brigades:
      - id: bb
        general: {id: bg, staff: 8, at: [36, 4]}
        units:
          - {id: b1, type: infantry, formation: line, at: [36, 10], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: b2, type: skirmishers, formation: skirmish, at: [10, 10], facing: 180, shooting: 2, combat: 2, morale: 5, stamina: 2}
`)
}

func do(t *testing.T, g *game.Game, c game.Command) []game.Event {
	t.Helper()
	evs, err := g.Do(c)
	if err != nil {
		t.Fatalf("%s %+v: %v", c.Verb, c.Args, err)
	}
	return evs
}

func refused(t *testing.T, g *game.Game, c game.Command, rule, words string) {
	t.Helper()
	before := g.Hash()
	_, err := g.Do(c)
	var ge *game.Error
	if !errors.As(err, &ge) {
		t.Fatalf("%s %+v: want a refusal (%s), got %v", c.Verb, c.Args, rule, err)
	}
	if ge.Rule != rule || !strings.Contains(ge.Msg, words) {
		t.Fatalf("%s %+v: refused with %q (%s); want %s and %q", c.Verb, c.Args, ge.Msg, ge.Rule, rule, words)
	}
	if g.Hash() != before {
		t.Fatalf("the refused %s changed the game", c.Verb)
	}
}

func pt(x, y float64) *geom.Point { p := geom.Pt(x, y); return &p }

// TestProximityAtExactly12 checks BP-3 and BP-7 at the edge: a unit whose
// closest part is exactly 12" from an enemy's is in proximity; 12.1" is
// not.
func TestProximityAtExactly12(t *testing.T) {
	r := engine(t)
	for _, c := range []struct {
		y    string
		near bool
	}{{"22", true}, {"22.1", false}} {
		t.Run(c.y, func(t *testing.T) {
			// b1 is a line facing south whose front edge is at y=10;
			// f1, a line facing north, has its front edge at y.
			sc := read(t, r, "duel", duel("          - {id: f1, type: infantry, formation: line, at: [36, "+c.y+"], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}"))
			g, err := game.New(sc, r, game.Seeded(1))
			if err != nil {
				t.Fatal(err)
			}
			ini := game.Command{Side: "french", Verb: "initiative", Args: &bp.Args{Unit: "f1"}}
			if !c.near {
				refused(t, g, ini, "BP-3", "not within 12\"")
				return
			}
			do(t, g, ini)
			// BP-7: sideways is refused, forward within 45 degrees
			// accepted.
			refused(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(42, 22)}}, "BP-7", "only forward")
			do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(38, 20)}})
		})
	}
}

// TestAllowance checks BP-4: a formation change uses one move of the
// unit's allowance; more than the allowance is refused with the numbers.
func TestAllowance(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", duel("          - {id: f1, type: infantry, formation: column, at: [36, 40], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}"))
	// 2d6 = 6 against 8: moves-2, 24" with the example 12" move.
	g, err := game.New(sc, r, &queue{Faces: []int{3, 3}})
	if err != nil {
		t.Fatal(err)
	}
	evs := do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
	if d := evs[0].Data.(*bp.Ordered); d.Result != "moves-2" || d.Allow[0] != 24 {
		t.Fatalf("order gave %s and %v inches; want moves-2 and 24", d.Result, d.Allow)
	}
	refused(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(36, 27), Shape: "line"}}, "BP-4", "24\" of its moves left; this move takes 25\"")
	do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(36, 28), Shape: "line"}})
	refused(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(36, 27.9)}}, "BP-4", "0\" of its moves left")
	refused(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}}, "BP-1", "one order a turn")
}

// TestTargetChoice checks BP-5: the closest enemy in the front arc and
// range; a skirmisher (not clear) may be passed over, a clear one may
// not; a declared cover makes it not clear.
func TestTargetChoice(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", []byte(strings.ReplaceAll(string(duel(
		"          - {id: f1, type: infantry, formation: line, at: [36, 25], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}")),
		"at: [10, 10], facing: 180, shooting: 2", "at: [36, 16], facing: 180, shooting: 2")))
	g, err := game.New(sc, r, game.Seeded(2))
	if err != nil {
		t.Fatal(err)
	}
	do(t, g, game.Command{Side: "french", Verb: game.Ready})
	legal := r.Legal(g.State(), sc, "f1", nil)
	if !slices.Equal(legal, []string{"b2", "b1"}) {
		t.Fatalf("legal targets %v; want b2 (skirmishers, not clear) then b1", legal)
	}
	// b2 closer and clear once it stands in line: b1 is then refused.
	sc2 := read(t, r, "duel", []byte(strings.ReplaceAll(string(duel(
		"          - {id: f1, type: infantry, formation: line, at: [36, 25], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}")),
		"type: skirmishers, formation: skirmish, at: [10, 10], facing: 180", "type: infantry, formation: line, at: [36, 16], facing: 180")))
	g2, err := game.New(sc2, r, game.Seeded(2))
	if err != nil {
		t.Fatal(err)
	}
	do(t, g2, game.Command{Side: "french", Verb: game.Ready})
	refused(t, g2, game.Command{Side: "french", Verb: "shoot", Args: &bp.Args{Unit: "f1", Target: "b1"}}, "BP-5", "closest clear enemy")
	do(t, g2, game.Command{Side: "french", Verb: "shoot", Args: &bp.Args{Unit: "f1", Target: "b1", Cover: []string{"b2"}}})
	refused(t, g2, game.Command{Side: "french", Verb: "shoot", Args: &bp.Args{Unit: "f1", Target: "b1", Cover: []string{"b2"}}}, "BP-5", "has shot")
}

// TestVolley checks BP-5 with fixed dice: 3 dice 6, 4, 1 give 2 hits (a
// natural 6 disorders), saves 4+ fail on 2 and pass on 5: 1 casualty.
func TestVolley(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", duel("          - {id: f1, type: infantry, formation: line, at: [36, 25], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}"))
	q := &queue{}
	g, err := game.New(sc, r, q)
	if err != nil {
		t.Fatal(err)
	}
	do(t, g, game.Command{Side: "french", Verb: game.Ready})
	q.Faces = []int{6, 4, 1, 2, 5}
	evs := do(t, g, game.Command{Side: "french", Verb: "shoot", Args: &bp.Args{Unit: "f1", Target: "b1"}})
	v := evs[0].Data.(*bp.Volley)
	if v.Hits != 2 || v.Casualties != 1 || !v.Disorders || v.Test != nil || v.After != 1 {
		t.Fatalf("volley %+v; want 2 hits, 1 casualty, disordered, no test", v)
	}
	if u := bp.StateOf(g.State()).Unit("b1"); !u.Disordered || u.Casualties != 1 {
		t.Fatalf("b1 after the volley: %+v", u)
	}
}

// TestCommandOddsAtEveryRating is BP-1 at every rating: moves-1 when the
// total is the rating or one less, moves-2 at two less, moves-3 at three
// or more less, fail above it, a blunder on a natural 12; the check of the
// catalogue: rating 8 gives 11/36, 5/36 and 10/36.
func TestCommandOddsAtEveryRating(t *testing.T) {
	r := engine(t)
	tb, err := r.Table("bp/command")
	if err != nil {
		t.Fatal(err)
	}
	for rating := 2; rating <= 12; rating++ {
		for a := 1; a <= 6; a++ {
			for b := 1; b <= 6; b++ {
				args, err := tb.Bind(map[string]string{"rating": fmt.Sprint(rating)})
				if err != nil {
					t.Fatal(err)
				}
				ro, err := tb.Resolve(args, dice.NewScripted(a, b))
				if err != nil {
					t.Fatal(err)
				}
				n := a + b
				want := "fail"
				switch {
				case n == 12:
					want = "blunder"
				case n > rating:
				case n >= rating-1:
					want = "moves-1"
				case n == rating-2:
					want = "moves-2"
				default:
					want = "moves-3"
				}
				if ro.Result != want {
					t.Fatalf("rating %d, 2d6 %d+%d: %s, want %s", rating, a, b, ro.Result, want)
				}
			}
		}
	}
	args, _ := tb.Bind(map[string]string{"rating": "8"})
	odds, err := tb.Odds(args)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]*big.Rat{"moves-1": big.NewRat(11, 36), "moves-2": big.NewRat(5, 36), "moves-3": big.NewRat(10, 36)}
	for _, o := range odds.Outcomes {
		if w, ok := want[o.Result]; ok && new(big.Rat).SetFrac(o.Num, odds.Den).Cmp(w) != 0 {
			t.Errorf("rating 8 %s: %s/%s, want %s", o.Result, o.Num, odds.Den, w)
		}
	}
}

// TestHiddenUnit checks that a hidden unit is out of the enemy's view
// and refused as missing, and seen once an enemy comes within 12".
func TestHiddenUnit(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", []byte(strings.ReplaceAll(string(duel(
		"          - {id: f1, type: infantry, formation: column, at: [10, 40], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}")),
		"stamina: 2}\n", "stamina: 2, hidden: true}\n")))
	g, err := game.New(sc, r, &queue{Faces: []int{1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	v := r.View(g.State(), "french")
	if v.Piece("b2") != nil || bp.StateOf(v).Unit("b2") != nil {
		t.Fatal("the French view shows the hidden b2")
	}
	if bp.StateOf(r.View(g.State(), "british")).Unit("b2") == nil {
		t.Fatal("the British view lacks their own b2")
	}
	if err := r.Unseen(g.State(), "french", &game.Command{Verb: "charge", Args: &bp.Args{Unit: "f1", Target: "b2"}}); err == nil {
		t.Fatal("a command naming the hidden b2 passes Unseen")
	}
	do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
	do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(10, 21)}})
	if bp.StateOf(r.View(g.State(), "french")).Unit("b2") == nil {
		t.Fatal("b2 is still hidden with f1 within 12\"")
	}
}

// TestConformance plays random games of the demo and of a close fight
// under the engine's conformance suite.
func TestConformance(t *testing.T) {
	r := engine(t)
	gametest.Conformance(t, r, demo(t, r), 6)
	gametest.Conformance(t, r, read(t, r, "melee", melee), 8)
}

// TestRandomPlayReaches checks that random play reaches every event type
// and every reply to a charge, so that the conformance suite exercises
// them all; a third of the games are played with fog of war, which alone
// makes crossed events.
func TestRandomPlayReaches(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "melee", melee)
	types := map[string]int{}
	replies := map[string]int{}
	for seed := uint64(1); seed <= 90; seed++ {
		fog := game.FogOff
		if seed > 60 {
			fog = game.FogOn
		}
		g, err := game.New(sc, r, game.Seeded(seed), game.WithFog(fog))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		for i := 0; i < 3000 && !g.State().Over; i++ {
			evs, _ := g.Do(r.Random(g, rng))
			for _, e := range evs {
				types[e.Type]++
				if d, ok := e.Data.(*bp.Responded); ok {
					replies[d.Response]++
				}
			}
		}
	}
	for _, typ := range r.EventTypes() {
		if typ != bp.EvRevealed && types[typ] == 0 {
			t.Errorf("random play never made a %s event (%v)", typ, types)
		}
	}
	for _, resp := range bp.Responses {
		if replies[resp] == 0 {
			t.Errorf("random play never replied %s to a charge (%v)", resp, replies)
		}
	}
}

// melee is a scenario of lines 14" apart, cavalry on both sides, room
// behind everyone to evade.
var melee = []byte(`name: melee
rules: bp
turns: 8
field: {width: 72, depth: 60}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: fa, at: [36, 59]}
    brigades:
      - id: fb
        general: {id: fg, staff: 9, at: [36, 44]}
        units:
          - {id: f1, type: infantry, formation: line, at: [36, 36], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: f2, type: cavalry, formation: line, at: [26, 36], facing: 0, shooting: 0, combat: 8, morale: 4, stamina: 3}
          - {id: f3, type: artillery, formation: unlimbered, at: [46, 38], facing: 0, shooting: 2, combat: 1, morale: 4, stamina: 2}
          - {id: f4, type: skirmishers, formation: skirmish, at: [16, 36], facing: 0, shooting: 2, combat: 2, morale: 5, stamina: 2}
  - id: british
    nation: british
    edge: north
    army: {id: ba, at: [36, 1]}
    brigades:
      - id: bb
        general: {id: bg, staff: 9, at: [36, 14]}
        units:
          - {id: b1, type: infantry, formation: line, at: [36, 22], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: b2, type: skirmishers, formation: skirmish, at: [16, 22], facing: 180, shooting: 2, combat: 2, morale: 5, stamina: 2}
          - {id: b3, type: cavalry, formation: line, at: [26, 22], facing: 180, shooting: 0, combat: 6, morale: 4, stamina: 3}
          - {id: b4, type: cavalry, formation: line, at: [46, 22], facing: 180, shooting: 0, combat: 6, morale: 4, stamina: 3}
`)

// TestTraversingFire checks BP-5's traversing fire: a unit that crosses
// the front of an enemy unit within 12", over half its frontage, gives
// the enemy's side a reply in which that unit may fire, once a turn.
func TestTraversingFire(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", duel("          - {id: f1, type: infantry, formation: line, at: [24, 20], facing: 90, shooting: 3, combat: 6, morale: 4, stamina: 3}"))
	q := &queue{Faces: []int{3, 3}} // moves-2: 24"
	g, err := game.New(sc, r, q)
	if err != nil {
		t.Fatal(err)
	}
	do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
	// Along y=20, 10" ahead of b1's front (y=10): across all of its 6".
	evs := do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(42, 20)}})
	if d := evs[0].Data.(*bp.Moved); !slices.Equal(d.Across, []string{"b1"}) {
		t.Fatalf("the move crossed %v; want b1", d.Across)
	}
	if st := g.Step(); st.Name != bp.StepRespond || !slices.Equal(st.Verbs, []string{"traverse"}) || !slices.Equal(st.Actors, []string{"british"}) {
		t.Fatalf("after the move the step is %+v; want the British reply with traverse", st)
	}
	refused(t, g, game.Command{Side: "french", Verb: "traverse", Args: &bp.Args{Unit: "pass"}}, "", "does not act")
	// The page's board while the reply waits, for the replying side and
	// the umpire.
	for _, seat := range []string{"british", game.Umpire} {
		b := r.Annotate(r.View(g.State(), seat), g.Step(), seat).(bp.Board)
		if b.Traverse == nil || b.Traverse.Unit != "f1" {
			t.Fatalf("%s's board while traversing fire waits: %+v", seat, b.Traverse)
		}
	}
	// f1 shows b1 its flank: enfilade, so the miss (2) is rolled again (1); no natural 6, so f1 is not disordered.
	q.Faces = []int{5, 4, 2, 1, 1, 1}
	evs = do(t, g, game.Command{Side: "british", Verb: "traverse", Args: &bp.Args{Unit: "b1"}})
	if v := evs[0].Data.(*bp.Volley); !v.Traversing || !v.Enfilade || v.Shooter != "b1" || v.Target != "f1" || v.Hits != 2 || v.Casualties != 2 {
		t.Fatalf("traversing fire %+v; want b1 at f1 in enfilade, 2 hits and 2 casualties", v)
	}
	if st := g.Step(); st.Name != bp.StepOrders {
		t.Fatalf("after the fire the step is %s; want orders again", st.Name)
	}
	// Back across, with b1's fire of the turn spent: no reply.
	evs = do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(36, 20)}})
	if d := evs[0].Data.(*bp.Moved); len(d.Across) != 0 {
		t.Fatalf("the second move offers traversing fire to %v; b1 has fired this turn", d.Across)
	}
}

// TestSimAgreesWithOdds runs the demo plan many times: the share of runs
// in which a brigade's first command roll, on turn 1, gives each result
// must agree with the exact odds of bp/command (BP-1), within 4.5
// standard errors.
func TestSimAgreesWithOdds(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	data, err := os.ReadFile("../../examples/bp/bp-demo-plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := script.LoadPlan("bp-demo-plan.yaml", data, sc, r)
	if err != nil {
		t.Fatal(err)
	}
	const runs = 10000
	res, err := sim.Run(sc, r, plan, sim.Options{Runs: runs, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := r.Table("bp/command")
	// Jamin: staff 8, decisive (+1 in bp/traits).
	args, err := tb.Bind(map[string]string{"rating": "8", "modifier": "1"})
	if err != nil {
		t.Fatal(err)
	}
	odds, err := tb.Odds(args)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Subjects["jamin"].Labels
	for _, o := range odds.Outcomes {
		p, _ := new(big.Rat).SetFrac(o.Num, odds.Den).Float64()
		share := got[o.Result]["1"]
		se := math.Sqrt(p * (1 - p) / runs)
		if math.Abs(share-p) > 4.5*se {
			t.Errorf("%s on turn 1: %.4f of runs, exact %.4f (%s/%s)", o.Result, share, p, o.Num, odds.Den)
		}
	}
}

// TestHiddenOrderUnseen checks that an order for a hidden unit is not seen
// by the enemy: the unit stays hidden until it moves.
func TestHiddenOrderUnseen(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", duel("          - {id: f1, type: infantry, formation: line, at: [10, 40], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3, hidden: true}"))
	g, err := game.New(sc, r, &queue{Faces: []int{1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	evs := do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
	if evs[0].See != "french" {
		t.Fatalf("the order for the hidden f1 is seen by %q; want french alone", evs[0].See)
	}
	if bp.StateOf(r.View(g.State(), "british")).Unit("f1") != nil {
		t.Fatal("the British see f1 once it is ordered")
	}
	evs = do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(10, 38)}})
	if evs[0].See != game.All || bp.StateOf(r.View(g.State(), "british")).Unit("f1") == nil {
		t.Fatal("f1 is still hidden from the British after it moved")
	}
}

// TestHiddenNotLeaked checks that a unit hidden from a side is not named
// to it by a refusal or a public event, and stops a move that comes within
// 12" of it, showing itself.
func TestHiddenNotLeaked(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", []byte(strings.ReplaceAll(string(duel(
		"          - {id: f1, type: infantry, formation: line, at: [10, 44], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}")),
		"at: [10, 10], facing: 180, shooting: 2, combat: 2, morale: 5, stamina: 2}", "at: [10, 20], facing: 180, shooting: 2, combat: 2, morale: 5, stamina: 2, hidden: true, status: disordered}")))
	g, err := game.New(sc, r, &queue{Faces: []int{1, 1}}) // moves-3: 36"
	if err != nil {
		t.Fatal(err)
	}
	do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
	// Straight through where b2 hides: the move stops where f1 comes
	// within 12" of it (b2's front edge is at y=20: f1 stops at y=32).
	evs := do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(10, 10)}})
	m := evs[0].Data.(*bp.Moved)
	if m.Stopped == "" || m.Distance != 12 || g.State().Piece("f1").At != geom.Pt(10, 32) {
		t.Fatalf("the move into the hidden b2 went %v\" to %v (%q); want it stopped after 12\" at (10, 32)", m.Distance, g.State().Piece("f1").At, m.Stopped)
	}
	if bp.StateOf(r.View(g.State(), "french")).Unit("b2") == nil {
		t.Fatal("b2 is not seen once f1 came within 12\"")
	}
	// The British end their turn: a disordered hidden unit recovers
	// without being named. (b2 is seen now, so the check uses a fresh
	// game where it stays hidden.)
	g2, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	for g2.State().Turn == 1 {
		evs, err := g2.Do(game.Command{Side: game.Umpire, Verb: game.End})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if d, ok := e.Data.(*bp.TurnEnded); ok && slices.Contains(d.Recovered, "b2") {
				t.Fatalf("the public turn-ended event names the hidden b2: %+v", d)
			}
		}
	}
	if bp.StateOf(g2.State()).Unit("b2").Disordered {
		t.Fatal("the hidden b2 did not recover from disorder at the end of its turn")
	}
}

// TestReplyRestrictions checks BP-4's replies: a unit already in combat
// only stands; the umpire's odds are those of the side that acts.
func TestReplyRestrictions(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "melee", melee)
	g, err := game.New(sc, r, &queue{Faces: []int{1, 1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Forecast(sc, g.State(), game.Umpire, &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}); err != nil {
		t.Fatalf("the umpire's odds of a French order: %v", err)
	}
	do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1", "f2"}, Kind: "charge"}})
	do(t, g, game.Command{Side: "french", Verb: "charge", Args: &bp.Args{Unit: "f2", Target: "b3"}})
	do(t, g, game.Command{Side: "british", Verb: "respond", Args: &bp.Args{Response: "stand"}})
	// b3 in combat is charged again: it may not turn and face.
	do(t, g, game.Command{Side: "french", Verb: "charge", Args: &bp.Args{Unit: "f1", Target: "b3"}})
	refused(t, g, game.Command{Side: "british", Verb: "respond", Args: &bp.Args{Response: "turn-and-face"}}, "BP-4", "in combat already")
}

// TestDisorderedMidMove checks BP-3 for a unit disordered by traversing
// fire during its moves: what is left of them may only take it away from
// the enemy, and it may not charge.
func TestDisorderedMidMove(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", duel("          - {id: f1, type: infantry, formation: line, at: [24, 20], facing: 90, shooting: 3, combat: 6, morale: 4, stamina: 3}"))
	q := &queue{Faces: []int{3, 3}} // moves-2: 24"
	g, err := game.New(sc, r, q)
	if err != nil {
		t.Fatal(err)
	}
	do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "charge"}})
	do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(42, 20)}})
	q.Faces = []int{6, 5, 2, 1, 1, 1} // a natural 6: f1 is disordered
	do(t, g, game.Command{Side: "british", Verb: "traverse", Args: &bp.Args{Unit: "b1"}})
	if !bp.StateOf(g.State()).Unit("f1").Disordered {
		t.Fatal("f1 is not disordered by the natural 6")
	}
	refused(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(38, 20)}}, "BP-3", "only retreat away")
	refused(t, g, game.Command{Side: "french", Verb: "charge", Args: &bp.Args{Unit: "f1", Target: "b1"}}, "BP-3", "disordered")
	do(t, g, game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(46, 20)}})
}

// TestFrontage checks a unit's own frontage: 12" in line where
// bp/footprint gives 6", so every formation stands twice as wide, and
// proximity is measured from its true width.
func TestFrontage(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "duel", duel("          - {id: f1, type: infantry, formation: line, at: [36, 40], facing: 0, frontage: 12, shooting: 3, combat: 6, morale: 4, stamina: 3}"))
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	b := r.Annotate(g.State(), g.Step(), "french").(bp.Board)
	c := b.Units["f1"].Corners
	if w := c[0].Dist(c[1]); math.Abs(w-12) > 1e-9 {
		t.Fatalf("f1 in line is %v\" wide; want its frontage of 12\"", w)
	}
	if c := b.Units["b1"].Corners; math.Abs(c[0].Dist(c[1])-6) > 1e-9 {
		t.Fatalf("b1, with no frontage of its own, is %v\" wide; want bp/footprint's 6\"", c[0].Dist(c[1]))
	}
}

// TestFog is the fog-of-war property test on the demo and the close
// fight.
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
	gametest.Blind(t, r, demo(t, r), 8, probe)
	gametest.Blind(t, r, read(t, r, "melee", melee), 4, probe)
	gametest.Blind(t, r, read(t, r, "woods", woods), 12, probe)
}

// woods is a fight on both sides of two woods, where a unit in the trees
// is spotted only close by (rules/bp/sight.yaml): hidden units stand next
// to the enemy's, in its way and within 12" of it.
var woods = []byte(`name: woods
rules: bp
turns: 8
field:
  width: 72
  depth: 48
  features:
    - {id: west-wood, type: heavy-woods, area: [[6, 16], [30, 16], [30, 32], [6, 32]]}
    - {id: east-wood, type: light-woods, area: [[42, 18], [66, 18], [66, 30], [42, 30]]}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: fa, at: [36, 46]}
    brigades:
      - id: fb
        general: {id: fg, staff: 9, at: [24, 40]}
        units:
          - {id: f1, type: infantry, formation: line, at: [18, 36], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: f2, type: cavalry, formation: line, at: [30, 37], facing: 0, shooting: 0, combat: 8, morale: 4, stamina: 3}
          - {id: f3, type: skirmishers, formation: skirmish, at: [12, 34], facing: 0, shooting: 2, combat: 2, morale: 5, stamina: 2}
      - id: fc
        general: {id: fcg, staff: 8, at: [50, 40]}
        units:
          - {id: f4, type: infantry, formation: attack-column, at: [48, 34], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: f5, type: infantry, formation: line, at: [58, 34], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: f6, type: artillery, formation: unlimbered, at: [38, 38], facing: 0, shooting: 2, combat: 1, morale: 4, stamina: 2}
  - id: british
    nation: british
    edge: north
    army: {id: ba, at: [36, 2]}
    brigades:
      - id: bb
        general: {id: bg, staff: 9, at: [20, 8]}
        units:
          - {id: b1, type: infantry, formation: line, at: [18, 12], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: b2, type: skirmishers, formation: skirmish, at: [20, 24], facing: 180, shooting: 2, combat: 2, morale: 5, stamina: 2, hidden: true}
          - {id: b3, type: infantry, formation: line, at: [28, 20], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
      - id: bc
        general: {id: bcg, staff: 8, at: [52, 8]}
        units:
          - {id: b4, type: cavalry, formation: line, at: [54, 14], facing: 180, shooting: 0, combat: 6, morale: 4, stamina: 3}
          - {id: b5, type: infantry, formation: line, at: [50, 24], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: b6, type: artillery, formation: unlimbered, at: [36, 10], facing: 180, shooting: 2, combat: 1, morale: 4, stamina: 2}
`)

// probe aims the side's units near at (where a hidden enemy unit stands
// in one game of a differential pair) at it and past it, as the step
// allows: moves, the furthest move their allowance allows toward it,
// moves with a change of formation, charges at the enemy units it sees,
// initiative moves and orders (whose blunders go straight ahead); and
// volleys, whose target a closer hidden unit would change. A commander's
// move meets nothing (BP-4) and is left to the random commands.
func probe(g *game.Game, side string, at geom.Point, rng *rand.Rand) []game.Command {
	s, sc, step := g.State(), g.Scenario(), g.Step()
	st := bp.StateOf(s)
	// toward is the point d inches from p on the way to at, or beyond it.
	toward := func(p geom.Point, d float64) *geom.Point {
		l := p.Dist(at)
		if l < 1e-9 {
			return pt(at.X, at.Y)
		}
		x := math.Min(math.Max(p.X+(at.X-p.X)*d/l, 0), sc.Field.Width)
		y := math.Min(math.Max(p.Y+(at.Y-p.Y)*d/l, 0), sc.Field.Depth)
		return pt(math.Round(x*100)/100, math.Round(y*100)/100)
	}
	var enemy []string
	for _, u := range st.Units {
		if u.Side != side && !u.Gone && u.OnTable && !u.Hidden {
			enemy = append(enemy, u.ID)
		}
	}
	var out []game.Command
	for _, u := range st.Units {
		if u.Side != side || u.Gone || !u.OnTable || u.At.Dist(at) > 40 || len(out) > 16 {
			continue
		}
		l, left := u.At.Dist(at), u.Allow-u.Used
		switch step.Name {
		case bp.StepOrders:
			shapes := g.Rules().(*bp.Rules).Shapes()[u.Type]
			out = append(out,
				game.Command{Verb: "move", Args: &bp.Args{Unit: u.ID, To: toward(u.At, l)}},
				game.Command{Verb: "move", Args: &bp.Args{Unit: u.ID, To: toward(u.At, l+2+rng.Float64()*6)}},
				game.Command{Verb: "move", Args: &bp.Args{Unit: u.ID, To: toward(u.At, min(left, l+4))}},
				game.Command{Verb: "move", Args: &bp.Args{Unit: u.ID, To: toward(u.At, min(left/2, l)), Shape: shapes[rng.IntN(len(shapes))]}},
				game.Command{Verb: "initiative", Args: &bp.Args{Unit: u.ID}},
				game.Command{Verb: "order", Args: &bp.Args{Brigade: u.Brigade, Units: []string{u.ID}, Kind: []string{"advance", "charge"}[rng.IntN(2)]}},
			)
			if len(enemy) > 0 {
				out = append(out, game.Command{Verb: "charge", Args: &bp.Args{Unit: u.ID, Target: enemy[rng.IntN(len(enemy))]}})
			}
		case bp.StepShoot:
			for _, e := range enemy {
				out = append(out, game.Command{Verb: "shoot", Args: &bp.Args{Unit: u.ID, Target: e}})
			}
		}
	}
	return out
}

func TestFog(t *testing.T) {
	r := engine(t)
	gametest.Fog(t, r, demo(t, r), 4)
	gametest.Fog(t, r, read(t, r, "melee", melee), 4)
}

// TestHiddenAsMissing: with fog of war a command naming an enemy unit or
// commander the side does not spot is refused as one naming an id not in
// the game, with Command's own words for a missing id.
func TestHiddenAsMissing(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	unit := gametest.EnemyPieces(func(s *game.State, id string) bool { return bp.StateOf(s).Unit(id) != nil })
	general := gametest.EnemyPieces(func(s *game.State, id string) bool { return bp.StateOf(s).General(id) != nil })
	own := func(s *game.State, side string) string { // a unit of side on the table
		for _, u := range bp.StateOf(s).Units {
			if u.Side == side && u.OnTable && !u.Gone {
				return u.ID
			}
		}
		return ""
	}
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "charge", IDs: unit, Make: func(s *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "charge", Args: &bp.Args{Unit: own(s, side), Target: id}}
	}})
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "shoot", IDs: unit, Make: func(s *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "shoot", Args: &bp.Args{Unit: own(s, side), Target: id}}
	}})
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "fight", IDs: unit, Make: func(s *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "fight", Args: &bp.Args{Unit: id}}
	}})
	to := geom.Pt(1, 1)
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "move", IDs: general, Make: func(s *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "move", Args: &bp.Args{General: id, To: &to}}
	}})
	gametest.HiddenAsMissing(t, r, sc, gametest.Naming{Verb: "move", IDs: unit, Make: func(s *game.State, side, id string) game.Command {
		return game.Command{Side: side, Verb: "move", Args: &bp.Args{Unit: id, To: &to}}
	}})
}

// inWood is a French battalion 18" south of a British one that stands in
// heavy woods, where it is spotted only from 4" (rules/bp/sight.yaml).
var inWood = []byte(`name: in-wood
rules: bp
turns: 3
field:
  width: 72
  depth: 48
  features:
    - {id: wood, type: heavy-woods, area: [[28, 14], [44, 14], [44, 26], [28, 26]]}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: fa, at: [36, 47]}
    brigades:
      - id: fb
        general: {id: fg, staff: 8, at: [60, 44]}
        units:
          - {id: f1, type: infantry, formation: line, at: [36, 40], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
  - id: british
    nation: british
    edge: north
    army: {id: ba, at: [66, 1]}
    brigades:
      - id: bb
        general: {id: bg, staff: 8, at: [66, 4]}
        units:
          - {id: b1, type: infantry, formation: line, at: [36, 22], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
`)

// TestContactUnderFog: with fog of war a move whose way runs into an
// enemy unit its side does not spot is carried out up to where the
// footprints would touch, keeps what it cost, and records the contact,
// after which the side spots the unit (issue 32). Without fog the same
// move is refused, naming the unit, as before.
func TestContactUnderFog(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "in-wood", inWood)
	order := game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}}
	// 23" north, through b1, on moves-2 (24").
	move := game.Command{Side: "french", Verb: "move", Args: &bp.Args{Unit: "f1", To: pt(36, 17)}}
	g, err := game.New(sc, r, &queue{Faces: []int{3, 3}}, game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	if !g.State().Hidden("french", "b1") {
		t.Fatal("the French spot b1 in the wood from 18\" off")
	}
	do(t, g, order)
	evs := do(t, g, move)
	// b1's front edge is at y=22: f1's touches it after 18", and stops a
	// hundredth of an inch short.
	if len(evs) != 2 || evs[0].Type != bp.EvMoved || evs[1].Type != game.Contacted {
		t.Fatalf("the move's events are %v; want moved, then contact", types(evs))
	}
	m := evs[0].Data.(*bp.Moved)
	if m.Distance != 17.99 || m.Cost != 17.99 || m.Stopped != "it came upon an enemy unit it had not seen" || g.State().Piece("f1").At != geom.Pt(36, 22.01) {
		t.Fatalf("the move went %v\" for %v\" to %v (%q); want 17.99\" to (36, 22.01), stopped", m.Distance, m.Cost, g.State().Piece("f1").At, m.Stopped)
	}
	if c := evs[1].Data.(*game.Contact); *c != (game.Contact{Piece: "f1", Met: "b1", At: "(36, 22)"}) || !evs[1].Visible("french") || !evs[1].Visible("british") {
		t.Fatalf("contact %+v, seen by %s; want f1 upon b1 at (36, 22), seen by both", c, evs[1].See)
	}
	if u := bp.StateOf(g.State()).Unit("f1"); math.Abs(u.Allow-u.Used-6.01) > 1e-9 {
		t.Fatalf("f1 has %v\" left; want the 6.01\" it did not go", u.Allow-u.Used)
	}
	if g.State().Hidden("french", "b1") || bp.StateOf(g.Sees("french")).Unit("b1") == nil {
		t.Fatal("after the contact the French do not see b1")
	}
	// Without fog nothing is hidden: the move is refused as before.
	open, err := game.New(sc, r, &queue{Faces: []int{3, 3}})
	if err != nil {
		t.Fatal(err)
	}
	do(t, open, order)
	refused(t, open, move, "BP-4", "passes through b1")
}

// TestVolleyShowsShooter: with fog of war a unit that shoots from where
// its target's side does not spot it is seen by that side from then on: a
// contact shown to the target's side alone (issue 32). b1 stands at the
// edge of the wood, where it sees out and is seen only from 4".
func TestVolleyShowsShooter(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "in-wood", bytes.ReplaceAll(inWood, []byte("at: [36, 22], facing: 180"), []byte("at: [36, 24.5], facing: 180")))
	g, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	for g.State().Phase != "british-shooting" {
		do(t, g, game.Command{Side: game.Umpire, Verb: game.End})
	}
	if !g.State().Hidden("french", "b1") {
		t.Fatal("the French spot b1 in the wood")
	}
	evs := do(t, g, game.Command{Side: "british", Verb: "shoot", Args: &bp.Args{Unit: "b1", Target: "f1"}})
	if len(evs) != 2 || evs[0].Type != game.Contacted || evs[1].Type != bp.EvShot {
		t.Fatalf("the volley's events are %v; want contact, then shot", types(evs))
	}
	if c := evs[0].Data.(*game.Contact); c.Piece != "b1" || c.Met != "f1" || evs[0].See != "french" {
		t.Fatalf("contact %+v shown to %s; want b1 upon f1, shown to french", c, evs[0].See)
	}
	if g.State().Hidden("french", "b1") || !evs[1].Visible("french") {
		t.Fatal("after b1's volley the French do not see it, or its volley")
	}
	if _, err := game.Replay(sc, r, g.Log(), game.WithFog(game.FogOn)); err != nil {
		t.Fatalf("the log does not replay under fog: %v", err)
	}
}

func types(evs []game.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

// TestChargeMeetsUnseen: with fog of war a charge at a unit the side sees
// whose way runs into one it does not (b1, in a copse) stops where the
// footprints would touch: a move that spends what it went, and a contact,
// not a charge; without fog it is refused, naming b1 (issue 32).
func TestChargeMeetsUnseen(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "copse", []byte(`name: copse
rules: bp
turns: 3
field:
  width: 72
  depth: 48
  features:
    - {id: copse, type: heavy-woods, area: [[39, 27], [45, 27], [45, 33], [39, 33]]}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: fa, at: [36, 47]}
    brigades:
      - id: fb
        general: {id: fg, staff: 8, at: [60, 44]}
        units:
          - {id: f1, type: infantry, formation: line, at: [36, 40], facing: 0, shooting: 3, combat: 6, morale: 4, stamina: 3}
  - id: british
    nation: british
    edge: north
    army: {id: ba, at: [66, 1]}
    brigades:
      - id: bb
        general: {id: bg, staff: 8, at: [66, 4]}
        units:
          - {id: b1, type: infantry, formation: line, at: [41.5, 30.5], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
          - {id: b2, type: infantry, formation: line, at: [36, 20], facing: 180, shooting: 3, combat: 6, morale: 4, stamina: 3}
`))
	order := game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "charge"}}
	charge := game.Command{Side: "french", Verb: "charge", Args: &bp.Args{Unit: "f1", Target: "b2"}}
	g, err := game.New(sc, r, &queue{Faces: []int{3, 3}}, game.WithFog(game.FogOn))
	if err != nil {
		t.Fatal(err)
	}
	if !g.State().Hidden("french", "b1") || g.State().Hidden("french", "b2") {
		t.Fatal("the French should see b2 and not b1")
	}
	do(t, g, order)
	evs := do(t, g, charge)
	// f1's front edge, going north, meets b1's (y=30.5) after 9.5".
	if len(evs) != 2 || evs[0].Type != bp.EvMoved || evs[1].Type != game.Contacted {
		t.Fatalf("the charge's events are %v; want moved, then contact", types(evs))
	}
	if m := evs[0].Data.(*bp.Moved); m.Distance != 9.49 || m.Cost != 9.49 || m.Stopped == "" || g.State().Piece("f1").At != geom.Pt(36, 30.51) {
		t.Fatalf("the charge went %v\" for %v\" to %v (%q); want a move of 9.49\" to (36, 30.51), stopped", m.Distance, m.Cost, g.State().Piece("f1").At, m.Stopped)
	}
	if c := evs[1].Data.(*game.Contact); c.Piece != "f1" || c.Met != "b1" {
		t.Fatalf("contact %+v; want f1 upon b1", c)
	}
	if st := bp.StateOf(g.State()); st.Charge != nil || g.Step().Name != bp.StepOrders {
		t.Fatalf("after the stopped charge: charge %+v, step %s; want no charge and the orders step", st.Charge, g.Step().Name)
	}
	open, err := game.New(sc, r, &queue{Faces: []int{3, 3}})
	if err != nil {
		t.Fatal(err)
	}
	do(t, open, order)
	refused(t, open, charge, "BP-4", "passes through b1")
}

// TestBlunderMeetsUnseen: a blunder's forced move stops short of any enemy
// unit (BP-2); with fog of war, short of one the side does not spot, it
// is a contact too (issue 32).
func TestBlunderMeetsUnseen(t *testing.T) {
	r := engine(t)
	sc := read(t, r, "in-wood", inWood)
	for _, fog := range []string{game.FogOff, game.FogOn} {
		// A natural 12, then rush: two moves (24") straight ahead.
		g, err := game.New(sc, r, &queue{Faces: []int{6, 6, 6}}, game.WithFog(fog))
		if err != nil {
			t.Fatal(err)
		}
		evs := do(t, g, game.Command{Side: "french", Verb: "order", Args: &bp.Args{Brigade: "fb", Units: []string{"f1"}, Kind: "advance"}})
		d := evs[0].Data.(*bp.Ordered)
		if d.Blunder != "rush" || len(d.Forced) != 1 || d.Forced[0] != 17.99 {
			t.Fatalf("fog %s: the blunder %q went %v\"; want rush, 17.99\" (short of b1)", fog, d.Blunder, d.Forced)
		}
		contact := len(evs) == 2 && evs[1].Type == game.Contacted
		if contact != (fog == game.FogOn) {
			t.Fatalf("fog %s: the blunder's events are %v; want a contact only under fog", fog, types(evs))
		}
	}
}
