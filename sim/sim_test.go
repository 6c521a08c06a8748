package sim_test

import (
	"encoding/json"
	"math"
	"os"
	"strconv"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/rules"
	"orderly/rules/nb"
	"orderly/script"
	"orderly/sim"
)

func engine(t testing.TB) script.Engine {
	t.Helper()
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	return func(id string) (game.Rules, error) { return rules.Engine(id, set) }
}

func demo(t testing.TB) (*battle.Scenario, game.Rules, *script.Plan) {
	t.Helper()
	sc, r := sim.DemoForTest(t)
	pdata, err := os.ReadFile("../examples/nb/demo-plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := script.LoadPlan("demo-plan.yaml", pdata, sc, r)
	if err != nil {
		t.Fatal(err)
	}
	return sc, r, plan
}

// BenchmarkSim measures whole runs of the demo scenario under its plan, on
// all cores; runs/s is the figure the issue sets (at least 10,000).
func BenchmarkSim(b *testing.B) {
	sc, r, plan := demo(b)
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := sim.Run(sc, r, plan, sim.Options{Runs: b.N, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
}

func seedExample(t *testing.T) (*battle.Scenario, game.Rules, *script.Plan) {
	t.Helper()
	eng := engine(t)
	data, err := os.ReadFile("../examples/nb/seed-example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := script.Load("../examples/nb/seed-example.yaml", data, eng, script.Disk)
	if err != nil {
		t.Fatal(err)
	}
	r, err := eng("nb")
	if err != nil {
		t.Fatal(err)
	}
	pdata, err := os.ReadFile("testdata/seed-plan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := script.LoadPlan("testdata/seed-plan.yaml", pdata, s.Scenario, r)
	if err != nil {
		t.Fatal(err)
	}
	return s.Scenario, r, plan
}

// TestAgreesWithOdds: when the turn a formation acts is one table roll (the
// order is read on turn 6, so it acts on 6 + the NB-5 delay), the sim's
// shares must match the table's exact odds within five standard errors.
func TestAgreesWithOdds(t *testing.T) {
	sc, r, plan := seedExample(t)
	const runs = 20000
	res, err := sim.Run(sc, r, plan, sim.Options{Runs: runs, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	tab, err := r.Table("nb/order-delay")
	if err != nil {
		t.Fatal(err)
	}
	args, err := tab.Bind(map[string]string{"nation": "french", "quality": "average"})
	if err != nil {
		t.Fatal(err)
	}
	odds, err := tab.Odds(args)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Subjects["I"].First
	sum := 0.0
	for _, c := range odds.Outcomes {
		turn := strconv.Itoa(6 + *tab.Result(c.Result).Value)
		p := odds.Float(c)
		se := math.Sqrt(p * (1 - p) / runs)
		if d := math.Abs(got[turn] - p); d > 5*se+1e-12 {
			t.Errorf("%s (turn %s): sim %.4f, exact %.4f, off by %.4f (5 SE = %.4f)", c.Result, turn, got[turn], p, d, 5*se)
		}
		sum += got[turn]
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("the shares of formation I sum to %v; some runs acted outside turns 6..10 or never: %v", sum, got)
	}
	// Its divisions follow the corps order at the same turn (both are in
	// d'Erlon's range).
	for _, d := range []string{"I-1", "I-2"} {
		for k, v := range got {
			if res.Subjects[d].First[k] != v {
				t.Errorf("division %s: %v, corps: %v", d, res.Subjects[d].First, got)
				break
			}
		}
	}
}

// TestWorkersDoNotMatter: the result depends on the seed, not on how the
// runs are spread over goroutines.
func TestWorkersDoNotMatter(t *testing.T) {
	sc, r, plan := demo(t)
	one, err := sim.Run(sc, r, plan, sim.Options{Runs: 300, Seed: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	three, err := sim.Run(sc, r, plan, sim.Options{Runs: 300, Seed: 3, Workers: 3})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(one)
	b, _ := json.Marshal(three)
	if string(a) != string(b) {
		t.Fatalf("1 worker: %s\n3 workers: %s", a, b)
	}
	other, err := sim.Run(sc, r, plan, sim.Options{Runs: 300, Seed: 4, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := json.Marshal(other); string(c) == string(a) {
		t.Fatal("seeds 3 and 4 gave the same result")
	}
}

// TestTalliesMatchReplays plays each run of a small simulation again,
// alone, from its seed, counts by hand the turn each formation first acts
// on an order written in the game, and checks the simulation's shares are
// exactly those counts over the runs.
func TestTalliesMatchReplays(t *testing.T) {
	sc, r, plan := demo(t)
	const runs = 40
	res, err := sim.Run(sc, r, plan, sim.Options{Runs: runs, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	first := map[string]map[string]int{} // formation -> turn -> runs
	for i := range runs {
		g, err := game.New(sc, r, game.Seeded(sim.SeedOf(3, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		if err := plan.Play(g, nil); err != nil {
			t.Fatal(err)
		}
		acted := map[string]int{}
		for _, e := range g.Log() {
			// Acting on an order written in the game: not an initial order,
			// nor an off-board reserve's order noted for its entry.
			d := nb.DataOf(&e)
			if e.Type != nb.OrderActive || d == nil || d.Order == nil || d.How == "initial" || d.How == "for-entry" || e.Turn > plan.Until {
				continue
			}
			for _, f := range append([]string{d.Formation}, d.Divisions...) {
				if _, done := acted[f]; !done {
					acted[f] = e.Turn
				}
			}
		}
		for f, turn := range acted {
			if first[f] == nil {
				first[f] = map[string]int{}
			}
			first[f][strconv.Itoa(turn)]++
		}
	}
	if len(first) < 10 || len(res.Subjects) != len(first) {
		t.Fatalf("%d formations acted in the replays, %d in the result", len(first), len(res.Subjects))
	}
	for f, byTurn := range first {
		got := res.Subjects[f]
		if got == nil {
			t.Fatalf("%s acted in the replays but is not in the result", f)
		}
		never := runs
		for turn, k := range byTurn {
			never -= k
			if share := got.First[turn]; math.Abs(share*runs-float64(k)) > 1e-9 {
				t.Errorf("%s turn %s: share %v of %d runs, counted %d", f, turn, share, runs, k)
			}
		}
		if share := got.First[sim.Never]; math.Abs(share*runs-float64(never)) > 1e-9 {
			t.Errorf("%s never: share %v of %d runs, counted %d", f, share, runs, never)
		}
		if len(got.First) != len(byTurn)+min(never, 1) {
			t.Errorf("%s: result turns %v, counted %v (never %d)", f, got.First, byTurn, never)
		}
	}
}

// TestResultKeys: the JSON of a result uses the keys its rule set names,
// so each rule set reports what it measures in its own words.
func TestResultKeys(t *testing.T) {
	r := &sim.Result{Runs: 4, Seed: 9,
		Measure: game.Measure{Subjects: "brigades", First: "first-order-turn", Labels: "kinds"},
		Subjects: map[string]*sim.Subject{
			"B-1": {First: map[string]float64{"2": 0.75, sim.Never: 0.25}, Labels: map[string]map[string]float64{"charge": {"2": 0.75}}},
			"B-2": {First: map[string]float64{"1": 1}},
		}}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"brigades":{"B-1":{"first-order-turn":{"2":0.75,"never":0.25},"kinds":{"charge":{"2":0.75}}},"B-2":{"first-order-turn":{"1":1}}},"runs":4,"seed":9}`
	if string(b) != want {
		t.Errorf("JSON:\n%s\nwant\n%s", b, want)
	}
}
