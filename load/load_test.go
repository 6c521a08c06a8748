package load_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"orderly/load"
	"orderly/rules"
)

func engine(t testing.TB) rules.Maker {
	eng, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestRun runs a short, small load: commands are accepted and the report
// adds up.
func TestRun(t *testing.T) {
	rep, err := load.Run(context.Background(), load.Options{Clients: 8, Games: 4, Duration: 300 * time.Millisecond,
		Dir: t.TempDir(), Engine: engine(t), ProbeCommits: 20})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted == 0 || rep.Refused != 0 || rep.PerSecond <= 0 || rep.P99 < rep.P50 || rep.Max < rep.P99 || rep.RawCommits <= 0 {
		t.Errorf("report: %+v", rep)
	}
	paced, err := load.Run(context.Background(), load.Options{Clients: 8, Games: 4, Duration: 500 * time.Millisecond, Rate: 100,
		Dir: t.TempDir(), Engine: engine(t)})
	if err != nil {
		t.Fatal(err)
	}
	if paced.PerSecond < 60 || paced.PerSecond > 140 {
		t.Errorf("offered 100/s, accepted %.0f/s", paced.PerSecond)
	}
	if _, err := load.Run(context.Background(), load.Options{Clients: 0, Games: 1, Duration: time.Second}); err == nil {
		t.Error("no clients: no error")
	}
}

// BenchmarkServe is the load: 200 clients over 100 games for 10
// seconds, with durable commits, beside the raw single-insert rate in the
// same run: offering 2,000 commands a second (the target: p99 at most
// 25 ms), and as fast as answered (the most the server takes). Run it with
// -benchtime 1x.
func BenchmarkServe(b *testing.B) {
	b.Run("rate=2000", func(b *testing.B) { serve(b, 2000) })
	b.Run("rate=max", func(b *testing.B) { serve(b, 0) })
}

func serve(b *testing.B, rate float64) {
	eng := engine(b)
	for b.Loop() {
		rep, err := load.Run(context.Background(), load.Options{Clients: 200, Games: 100, Duration: 10 * time.Second,
			Rate: rate, Dir: b.TempDir(), Engine: eng, ProbeCommits: 1000})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(rep.PerSecond, "cmds/s")
		b.ReportMetric(float64(rep.P50.Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(rep.P99.Microseconds())/1000, "p99-ms")
		b.ReportMetric(rep.RawCommits, "raw-commits/s")
		b.ReportMetric(rep.Ratio(), "ratio")
		b.ReportMetric(float64(rep.CPUPerCommand.Microseconds()), "cpu-µs/cmd")
		b.Logf("%s", rep)
	}
}

// TestScale runs Hold and Fan small.
func TestScale(t *testing.T) {
	m, err := load.Hold(context.Background(), t.TempDir(), 5, 2, engine(t))
	if err != nil {
		t.Fatal(err)
	}
	if m.Games != 5 || m.Events < 5*40 || m.ResidentM <= 0 || m.HeapM <= 0 {
		t.Errorf("hold: %+v", m)
	}
	f, err := load.Fan(context.Background(), t.TempDir(), 30, 3, 2, engine(t))
	if err != nil {
		t.Fatal(err)
	}
	if f.Subscribers != 30 || f.Max < f.P50 {
		t.Errorf("fan: %+v", f)
	}
}

// BenchmarkHold1000 loads 1,000 demo games, each played for all 12 turns, into
// a fresh server and reports its resident memory (target: 300 MiB).
func BenchmarkHold1000(b *testing.B) {
	for b.Loop() {
		m, err := load.Hold(context.Background(), b.TempDir(), 1000, 12, engine(b))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(m.ResidentM, "MiB-resident")
		b.ReportMetric(m.HeapM, "MiB-heap")
		b.ReportMetric(float64(m.Events), "events")
		b.Logf("%s", m)
	}
}

// BenchmarkFan1000 opens 1,000 event streams over 100 games and times how
// soon a move reaches every one.
func BenchmarkFan1000(b *testing.B) {
	for b.Loop() {
		f, err := load.Fan(context.Background(), b.TempDir(), 1000, 100, 5, engine(b))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(f.P99.Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(f.Max.Microseconds())/1000, "max-ms")
		b.Logf("%s", f)
	}
}

// TestSlow opens a few streams that never read, on clients with small
// receive buffers: the server drops them all after its stream timeout.
func TestSlow(t *testing.T) {
	s, err := load.Slow(context.Background(), t.TempDir(), 20, 1000, 4096, 500*time.Millisecond, engine(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Log(s)
	if s.Dropped != s.Streams || s.Peak <= 0 {
		t.Errorf("%s", s)
	}
}

// BenchmarkSlow500 is the measure: 500 streams that never read,
// each asking for a 1,000-event catch-up; the server's resident memory
// while they hang, and after it drops them. Run it with -benchtime 1x.
func BenchmarkSlow500(b *testing.B) {
	for _, buf := range []int{0, 4096} {
		b.Run(fmt.Sprintf("rcvbuf=%d", buf), func(b *testing.B) {
			for b.Loop() {
				s, err := load.Slow(context.Background(), b.TempDir(), 500, 1000, buf, 2*time.Second, engine(b))
				if err != nil {
					b.Fatal(err)
				}
				b.Log(s)
				b.ReportMetric(s.Peak, "peak-MiB")
				b.ReportMetric(s.Peak-s.Base, "added-MiB")
				b.ReportMetric(s.After, "after-MiB")
				b.ReportMetric(float64(s.Dropped), "dropped")
			}
		})
	}
}
