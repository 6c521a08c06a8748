package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"orderly/store/storetest"
)

// TestGroupCommit: appends to many games at once share transactions.
func TestGroupCommit(t *testing.T) {
	const games, n = 32, 20
	ctx := context.Background()
	d, path := openTemp(t)
	for i := range games {
		storetest.Create(t, d, fmt.Sprintf("g%d", i))
	}
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() {
			game := fmt.Sprintf("g%d", i)
			for j := range n {
				if _, err := d.Append(ctx, game, j, []json.RawMessage{storetest.Payload{N: j}.Event()}); err != nil {
					t.Errorf("%s: %v", game, err)
					return
				}
			}
		})
	}
	wg.Wait()
	for i := range games {
		storetest.CheckLog(t, d, fmt.Sprintf("g%d", i), 1, n)
	}
	checkRows(t, path)
	if d.grouped.Load() == 0 {
		t.Errorf("no transaction held more than one append (%d transactions)", d.batches.Load())
	}
	if total := int64(games * n); d.batches.Load() >= total {
		t.Errorf("%d transactions for %d appends", d.batches.Load(), total)
	}
	t.Logf("%d appends in %d transactions, %d of them grouped, at most %d in one",
		games*n, d.batches.Load(), d.grouped.Load(), d.largest.Load())
}

func TestMaxBatch(t *testing.T) {
	const games, n = 16, 10
	d, _ := openTemp(t, WithMaxBatch(3))
	for i := range games {
		storetest.Create(t, d, fmt.Sprintf("g%d", i))
	}
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() {
			for j := range n {
				if _, err := d.Append(context.Background(), fmt.Sprintf("g%d", i), j, []json.RawMessage{storetest.Payload{N: j}.Event()}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if l := d.largest.Load(); l > 3 {
		t.Errorf("a transaction held %d requests, the most allowed is 3", l)
	}
}

func TestOpenTogether(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	var wg sync.WaitGroup
	ds := make([]*DB, 3)
	for i := range ds {
		wg.Go(func() {
			d, err := Open(context.Background(), path)
			if err != nil {
				t.Errorf("Open %d: %v", i, err)
				return
			}
			ds[i] = d
		})
	}
	wg.Wait()
	for i, d := range ds {
		if d == nil {
			continue
		}
		storetest.Create(t, d, fmt.Sprintf("g%d", i))
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	}
}

// TestCloseInFlight closes the store under a stream of appends: each must
// either succeed and be kept, or fail with ErrClosed and not be.
func TestCloseInFlight(t *testing.T) {
	const writers = 16
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "orderly.db")
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	for w := range writers {
		storetest.Create(t, d, fmt.Sprintf("g%d", w))
	}
	kept := make([]int, writers)
	var wg sync.WaitGroup
	var started sync.WaitGroup
	started.Add(writers)
	for w := range writers {
		wg.Go(func() {
			game := fmt.Sprintf("g%d", w)
			for i := 0; ; i++ {
				if i == 3 {
					started.Done()
				}
				v, err := d.Append(ctx, game, i, []json.RawMessage{storetest.Payload{N: i}.Event()})
				if err != nil {
					if !errors.Is(err, ErrClosed) {
						t.Errorf("writer %d: %v", w, err)
					}
					if i < 3 {
						started.Done()
					}
					kept[w] = i
					return
				}
				if v != i+1 {
					t.Errorf("writer %d: version %d, want %d", w, v, i+1)
				}
			}
		})
	}
	started.Wait()
	closed := make(chan error)
	go func() { closed <- d.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return")
	}
	wg.Wait()

	d = openAt(t, path)
	for w := range writers {
		storetest.CheckLog(t, d, fmt.Sprintf("g%d", w), 1, kept[w])
	}
	checkRows(t, path)
}

// TestFailedBatch makes a COMMIT fail: every request in the batch gets the
// error, none of its writes is kept, and the store goes on afterwards.
func TestFailedBatch(t *testing.T) {
	const games = 8
	ctx := context.Background()
	hold := make(chan struct{})
	var calls atomic.Int32
	var failedSize atomic.Int32
	d, path := openTemp(t, func(c *config) {
		c.beforeCommit = func(n int) error {
			switch calls.Add(1) {
			case games + 1: // the first append: hold it while others queue
				<-hold
			case games + 2: // the batch of the queued ones
				failedSize.Store(int32(n))
				return errors.New("the disk is on fire")
			}
			return nil
		}
	})
	for i := range games {
		storetest.Create(t, d, fmt.Sprintf("g%d", i))
	}
	first := make(chan error)
	go func() {
		_, err := d.Append(ctx, "g0", 0, []json.RawMessage{storetest.Event("first")})
		first <- err
	}()
	for calls.Load() < games+1 {
		time.Sleep(time.Millisecond)
	}
	errs := make([]error, games)
	var wg sync.WaitGroup
	for i := 1; i < games; i++ {
		wg.Go(func() {
			_, errs[i] = d.Append(ctx, fmt.Sprintf("g%d", i), 0, []json.RawMessage{storetest.Event("doomed"), storetest.Event("doomed too")})
		})
	}
	time.Sleep(100 * time.Millisecond) // let them queue up behind the first
	close(hold)
	if err := <-first; err != nil {
		t.Fatalf("the first append: %v", err)
	}
	wg.Wait()
	failed := 0
	for i := 1; i < games; i++ {
		game := fmt.Sprintf("g%d", i)
		if errs[i] != nil {
			failed++
			if v := storetest.MustVersion(t, d, game); v != 0 {
				t.Errorf("%s failed (%v) but its version is %d", game, errs[i], v)
			}
			storetest.SameEvents(t, game, storetest.MustEvents(t, d, game, 0), nil)
		} else if v := storetest.MustVersion(t, d, game); v != 2 {
			t.Errorf("%s succeeded but its version is %d", game, v)
		}
	}
	if n := int(failedSize.Load()); n < 2 || failed != n {
		t.Errorf("%d appends failed, the failed batch had %d; want the same, and more than 1", failed, n)
	}
	// The store is still good.
	for i := range games {
		game := fmt.Sprintf("g%d", i)
		storetest.MustAppend(t, d, game, storetest.MustVersion(t, d, game), storetest.Event("after"))
	}
	checkRows(t, path)
}
