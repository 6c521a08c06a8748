package cd_test

import (
	"os"
	"testing"

	"orderly/game"
	"orderly/script"
	"orderly/sim"
)

// BenchmarkSim runs the CD demo plan (three French turns of four
// activations and moves each, through the demo's terrain) as orderly sim
// does, and reports runs per second.
func BenchmarkSim(b *testing.B) {
	r := engine(b)
	sc := demo(b, r)
	pd, err := os.ReadFile("../../examples/cd/cd-demo-plan.yaml")
	if err != nil {
		b.Fatal(err)
	}
	plan, err := script.LoadPlan("cd-demo-plan.yaml", pd, sc, r)
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

// BenchmarkOffers is the page's board for the French in the demo's first
// activate step: every activation checked, the coherent groups and the
// divisions worked out (Offers and Annotate).
func BenchmarkOffers(b *testing.B) {
	r := engine(b)
	g, err := game.New(demo(b, r), r, game.Seeded(1))
	if err != nil {
		b.Fatal(err)
	}
	v := r.View(g.State(), "french")
	step := g.Step()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		r.Offers(v, step, "french")
		r.Annotate(v, step, "french")
	}
}
