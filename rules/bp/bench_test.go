package bp_test

import (
	"os"
	"testing"

	"orderly/script"
	"orderly/sim"
)

// BenchmarkSim is runs of the BP demo under its plan (orderly sim): four
// turns of orders, moves, volleys, combats and break tests a run. It
// reports runs per second.
func BenchmarkSim(b *testing.B) {
	r := engine(b)
	sc := demo(b, r)
	data, err := os.ReadFile("../../examples/bp/bp-demo-plan.yaml")
	if err != nil {
		b.Fatal(err)
	}
	plan, err := script.LoadPlan("bp-demo-plan.yaml", data, sc, r)
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
