package sim_test

import (
	"os"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/rules"
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
	eng := engine(t)
	data, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadScenario("demo.yaml", data, eng)
	if err != nil {
		t.Fatal(err)
	}
	r, err := eng(sc.Rules)
	if err != nil {
		t.Fatal(err)
	}
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
