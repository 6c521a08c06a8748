package sqlite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"orderly/store/storetest"
)

// event300 is an event of about 300 bytes.
func event300(i int) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"type":"order","n":%d,"pad":%q}`, i, bytes.Repeat([]byte("x"), 260)))
}

// BenchmarkAppendParallel appends one ~300-byte event per operation from
// many goroutines, each to its own game, with the default durable
// synchronous=FULL: the throughput group commit is for.
func BenchmarkAppendParallel(b *testing.B) {
	ctx := context.Background()
	d, _ := openTemp(b)
	var games atomic.Int64
	b.SetParallelism(16) // 16 × GOMAXPROCS clients, as a busy server would have
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprintf("g%d", games.Add(1))
		g, seats, seeds := storetest.NewGame(id)
		if err := d.Create(ctx, g, seats, seeds, nil); err != nil {
			b.Error(err)
			return
		}
		v := 0
		for pb.Next() {
			var err error
			if v, err = d.Append(ctx, id, v, []json.RawMessage{event300(v)}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	elapsed := time.Since(start)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "appends/s")
	if n := d.batches.Load(); n > 0 {
		b.ReportMetric(float64(b.N)/float64(n), "appends/commit")
	}
}

// BenchmarkProbe measures the disk's rate of single-insert commits, the
// rate appends would have without group commit.
func BenchmarkProbe(b *testing.B) {
	rate, err := Probe(context.Background(), filepath.Join(b.TempDir(), "probe.db"), b.N)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(rate, "commits/s")
}

func TestProbe(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "probe.db")
	rate, err := Probe(ctx, path, 20)
	if err != nil {
		t.Fatal(err)
	}
	if rate <= 0 {
		t.Errorf("Probe = %v commits/s", rate)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("Probe left %v behind", left)
	}

	// An existing file is not Probe's to write or delete.
	if err := os.WriteFile(path, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Probe(ctx, path, 20); err == nil {
		t.Error("Probe of an existing file succeeded")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "precious" {
		t.Errorf("Probe touched the existing file: %q, %v", b, err)
	}
	if _, err := Probe(ctx, filepath.Join(dir, "other.db"), 0); err == nil {
		t.Error("Probe of 0 commits succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Probe(cancelled, filepath.Join(dir, "cancelled.db"), 20); err == nil {
		t.Error("Probe with a cancelled context succeeded")
	}
	if left, _ := os.ReadDir(dir); len(left) != 1 {
		t.Errorf("Probe left %v behind", left)
	}
}
