package server_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"orderly/game"
	"orderly/rules/nb"
	"orderly/server"
)

// TestConcurrentSeats has both sides (and their commanders) send moves to
// the same game at once: every accepted command's events are in the log
// exactly once, at the numbers its answer gave, and the log has nothing
// else.
func TestConcurrentSeats(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(true)
	g := "/api/games/" + id
	f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil) // on to the move step
	var info server.Info
	f.call("GET", g, tok["umpire"], nil, &info)
	if info.Step != "move" {
		t.Fatalf("step %s, want move", info.Step)
	}
	type mover struct {
		seat, token string
		unit        string
	}
	movers := []mover{{"french", tok["french"], "F-I-1-a"}, {"allies", tok["allies"], "A-I-1-a"}, {"french", tok["F-II"], "F-II-5-a"}, {"french", tok["french"], "F-VI-19-a"}}
	// Each side numbers its own events: where each starts.
	start := map[string]int{}
	for _, side := range []string{"french", "allies"} {
		var in server.Info
		f.call("GET", g, tok[side], nil, &in)
		start[side] = in.Version
	}
	const n = 40
	var mu sync.Mutex
	seen := map[string]map[int]server.Entry{"french": {}, "allies": {}} // by side, by the side's number
	var wg sync.WaitGroup
	for w, m := range movers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				body := fmt.Sprintf(`{"move":{"unit":%q,"to":[%d.%02d,%d]}}`, m.unit, []int{26, 12, 8, 56}[w], i, []int{32, 13, 32, 32}[w]) // by its start: within its speed (NB-16)
				var res server.Result
				code, data := f.call("POST", g+"/commands", m.token, body, &res)
				if code != 200 {
					t.Errorf("%s: %d %s", body, code, data)
					return
				}
				mu.Lock()
				for _, e := range res.Events {
					if _, dup := seen[m.seat][e.Event.Seq]; dup && m.token == tok[m.seat] {
						t.Errorf("%s: event %d given in two answers", m.seat, e.Event.Seq)
					}
					seen[m.seat][e.Event.Seq] = e
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	doc, err := f.srv.Export(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	// Every answered event is the logged one, under the side's number for
	// it; and every event logged since the start was answered to someone.
	covered := map[int]bool{}
	for side, got := range seen {
		var mine []game.Event // the side's events, its number n at mine[n-1]
		for _, e := range doc.Events {
			if e.Visible(side) {
				mine = append(mine, e)
			}
		}
		for num, ans := range got {
			if num <= start[side] || num > len(mine) {
				t.Errorf("%s: answered event number %d, outside %d..%d", side, num, start[side]+1, len(mine))
				continue
			}
			// As the side is shown it: its own number, and none of the
			// game's (no command origin, issue 36).
			e := mine[num-1].Shown(side, false)
			covered[e.Seq] = true
			e.Seq = num
			if a, b := mustJSON(t, ans), mustJSON(t, described(e)); string(a) != string(b) {
				t.Errorf("%s: event %d: answered %s, logged %s", side, num, a, b)
			}
		}
	}
	moves := 0
	for _, e := range doc.Events[info.Version:] {
		if !covered[e.Seq] {
			t.Errorf("event %d (%s) is in the log but no answer gave it", e.Seq, e.Type)
		}
		if e.Type == nb.Moved {
			moves++
		}
	}
	if moves != len(movers)*n {
		t.Errorf("%d moves logged, want %d", moves, len(movers)*n)
	}
	// The log replays to the state the server holds.
	if _, err := doc.Replay(engineOf(t)); err != nil {
		t.Error(err)
	}
}

// TestTwoServersOneFile runs two servers on one database file, as two
// processes would: each command made against a stale copy of the game is
// refused by the store, and the server reloads the game and tries again,
// so neither loses the other's events nor doubles its own.
func TestTwoServersOneFile(t *testing.T) {
	t.Parallel()
	a := newFixture(t)
	id, tok := a.demo(false)
	b := openFixture(t, a.path, 9) // loads the game as it stands now
	g := "/api/games/" + id
	a.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil) // b's copy is now stale
	for i := range 10 {
		f := []*fixture{a, b}[i%2]
		var res server.Result
		code, body := f.call("POST", g+"/commands", tok["french"], fmt.Sprintf(`{"move":{"unit":"F-I-1-a","to":[26,32.%d]}}`, i), &res)
		if code != 200 {
			t.Fatalf("move %d through server %d: %d %s", i, i%2, code, body)
		}
	}
	da, err := a.srv.Export(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	moves := 0
	for i, e := range da.Events {
		if e.Seq != i+1 {
			t.Fatalf("event %d has number %d", i+1, e.Seq)
		}
		if e.Type == nb.Moved {
			moves++
		}
	}
	if moves != 10 {
		t.Errorf("%d moves in the log, want 10", moves)
	}
	db, err := b.srv.Export(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	if db.Hash != da.Hash || len(db.Events) != len(da.Events) {
		t.Errorf("the two servers export different games: %s (%d events), %s (%d)", da.Hash, len(da.Events), db.Hash, len(db.Events))
	}
}
