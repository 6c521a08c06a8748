package report_test

import (
	"testing"

	"orderly/report"
	"orderly/report/reporttest"
)

// BenchmarkBuild reports on each demo played to its end (NB, LOB, BP and
// CD by their plans, NES by its random commands), the longest games the
// tests play.
func BenchmarkBuild(b *testing.B) {
	for _, id := range reporttest.IDs {
		b.Run(id, func(b *testing.B) {
			doc := reporttest.Demo(b, id, 0)
			eng := reporttest.Engine(b)
			for b.Loop() {
				if _, err := report.Build(doc, eng); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(doc.Events)), "events")
		})
	}
}
