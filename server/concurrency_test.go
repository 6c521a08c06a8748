package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"orderly/game"
	"orderly/server"
)

// TestConcurrentSeats has both sides (and their commanders) send moves to
// the same game at once: every accepted command's events are in the log
// exactly once, at the numbers its answer gave, and the log has nothing
// else.
func TestConcurrentSeats(t *testing.T) {
	f := newFixture(t)
	id, tok := f.demo(true)
	g := "/api/games/" + id
	f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil) // on to the move step
	var info server.Info
	f.call("GET", g, tok["umpire"], nil, &info)
	if info.Step != "move" {
		t.Fatalf("step %s, want move", info.Step)
	}
	start := info.Version
	type mover struct {
		token string
		unit  string
	}
	movers := []mover{{tok["french"], "F-I-1-a"}, {tok["allies"], "A-I-1-a"}, {tok["F-II"], "F-II-5-a"}, {tok["french"], "F-VI-19-a"}}
	const n = 40
	var mu sync.Mutex
	seen := map[int]game.Event{}
	var wg sync.WaitGroup
	for w, m := range movers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				body := fmt.Sprintf(`{"move":{"unit":%q,"to":[%d.%02d,%d]}}`, m.unit, 10+w*20, i, 20+w%2)
				var res server.Result
				code, data := f.call("POST", g+"/commands", m.token, body, &res)
				if code != 200 {
					t.Errorf("%s: %d %s", body, code, data)
					return
				}
				mu.Lock()
				for _, e := range res.Events {
					if _, dup := seen[e.Seq]; dup {
						t.Errorf("event %d given in two answers", e.Seq)
					}
					seen[e.Seq] = e
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
	log := doc.Events[start:]
	moves := 0
	for _, e := range log {
		got, ok := seen[e.Seq]
		if !ok {
			t.Errorf("event %d (%s) is in the log but no answer gave it", e.Seq, e.Type)
			continue
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(e)
		if string(a) != string(b) {
			t.Errorf("event %d: answered %s, logged %s", e.Seq, a, b)
		}
		if e.Type == game.Moved {
			moves++
		}
	}
	if moves != len(movers)*n || len(seen) != len(log) {
		t.Errorf("%d moves logged, %d answered events, %d logged; want %d moves", moves, len(seen), len(log), len(movers)*n)
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
	a := newFixture(t)
	id, tok := a.demo(false)
	b := openFixture(t, a.path, 9) // loads the game as it stands now
	g := "/api/games/" + id
	a.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil) // b's copy is now stale
	for i := range 10 {
		f := []*fixture{a, b}[i%2]
		var res server.Result
		code, body := f.call("POST", g+"/commands", tok["french"], fmt.Sprintf(`{"move":{"unit":"F-I-1-a","to":[26,%d]}}`, 20+i), &res)
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
		if e.Type == game.Moved {
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
