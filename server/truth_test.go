package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"orderly/game"
	"orderly/server"
	"orderly/store"
	"orderly/store/pgtest"
	"orderly/store/postgres"
	"orderly/store/sqlite"
	"orderly/store/storetest"
)

// serveOn is a server on st, serving over loopback; with w, it follows
// the other servers on the store, ready once it listens. db is what the
// fixture closes at the end.
func serveOn(t *testing.T, st, db store.Store, w store.Watcher, seed uint64) *fixture {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(tlog{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := server.New(ctx, st, engine(t), server.WithRand(rand.NewChaCha8([32]byte{byte(seed)})), server.WithLogger(log), bundle(t))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	host, err := srv.NewHostToken()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if w != nil {
			_ = srv.Follow(ctx, w)
		}
	}()
	f := &fixture{t: t, srv: srv, ts: httptest.NewServer(srv.Handler()), db: db, host: host}
	t.Cleanup(func() {
		cancel()
		<-done
		f.close()
	})
	for deadline := time.Now().Add(10 * time.Second); w != nil; time.Sleep(5 * time.Millisecond) {
		if code, _ := f.call("GET", "/readyz", "", nil, nil); code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never became ready")
		}
	}
	return f
}

// answer is a request's status, its Retry-After and its error, if any.
type answer struct {
	code  int
	retry string
	err   server.Error
	body  []byte
}

// ask makes a request as call does, keeping the Retry-After header.
func (f *fixture) ask(method, path, token string, body string) answer {
	f.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.ts.URL+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	if method == "POST" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	out := answer{code: resp.StatusCode, retry: resp.Header.Get("Retry-After"), body: data}
	if resp.StatusCode >= 400 {
		out.err = apiError(f.t, data)
	}
	return out
}

// outage fails t unless a is the 503 of a store unavailable, with
// Retry-After and a message that says msg.
func outage(t *testing.T, what string, a answer, msg string) {
	t.Helper()
	if a.code != http.StatusServiceUnavailable || a.err.Code != server.Unavailable || a.retry == "" || !strings.Contains(a.err.Msg, msg) {
		t.Errorf("%s: %d %q (Retry-After %q), want 503 unavailable with Retry-After, saying %q", what, a.code, a.err.Msg, a.retry, msg)
	}
}

// follower follows a seat's stream as the page does: reconnecting from
// the last event it holds whenever the stream ends, and dropping what it
// holds past a reset. Any event that does not follow the one before is
// a fault.
type follower struct {
	mu     sync.Mutex
	got    []server.Entry
	faults []string
	more   chan struct{} // told each time got grows
}

func follow(ctx context.Context, f *fixture, game, token string) *follower {
	fl := &follower{more: make(chan struct{}, 1)}
	go func() {
		for ctx.Err() == nil {
			fl.mu.Lock()
			last := len(fl.got)
			fl.mu.Unlock()
			ch, err := subscribeAt(ctx, f.ts.Client(), f.ts.URL, game, token, last)
			if err != nil {
				// The store is down (503): the page waits a moment and
				// comes back, and so does this.
				select {
				case <-ctx.Done():
				case <-time.After(20 * time.Millisecond):
				}
				continue
			}
			for m := range ch {
				fl.take(m)
			}
		}
	}()
	return fl
}

func (fl *follower) take(m sse) {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	switch m.event {
	case "event":
		var e server.Entry
		if err := json.Unmarshal([]byte(m.data), &e); err != nil {
			fl.faults = append(fl.faults, fmt.Sprintf("event %q: %v", m.data, err))
			return
		}
		if e.Event.Seq != len(fl.got)+1 {
			fl.faults = append(fl.faults, fmt.Sprintf("event %d after event %d", e.Event.Seq, len(fl.got)))
		}
		fl.got = append(fl.got, e)
	case "reset":
		n, err := strconv.Atoi(m.id)
		if err != nil || n > len(fl.got) {
			fl.faults = append(fl.faults, fmt.Sprintf("a reset to %s, holding %d events", m.id, len(fl.got)))
			return
		}
		fl.faults = append(fl.faults, fmt.Sprintf("a reset from %d to %d: the stream had sent events the store does not hold", len(fl.got), n))
		fl.got = fl.got[:n]
	}
	select {
	case fl.more <- struct{}{}:
	default:
	}
}

// upTo is what the stream brought once it holds n events, or at the
// time limit; and the faults seen.
func (fl *follower) upTo(n int) ([]server.Entry, []string) {
	limit := time.After(10 * time.Second)
	for {
		fl.mu.Lock()
		got, faults := append([]server.Entry{}, fl.got...), append([]string{}, fl.faults...)
		fl.mu.Unlock()
		if len(got) >= n {
			return got, faults
		}
		select {
		case <-fl.more:
		case <-limit:
			return got, faults
		}
	}
}

// seen is a seat's view of a stored log: the hashes of the events it may
// see, in order.
func seen(t *testing.T, st store.Store, id, who string) []string {
	t.Helper()
	raw, err := st.Events(context.Background(), id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range raw {
		var e game.Event
		if err := json.Unmarshal(r, &e); err != nil {
			t.Fatal(err)
		}
		if e.Visible(who) {
			out = append(out, e.Hash)
		}
	}
	return out
}

func hashes(es []server.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Event.Hash
	}
	return out
}

// seatOf is who a seat of the demo game is to the engine.
func seatOf(seat string) string {
	if seat == "umpire" {
		return game.Umpire
	}
	return seat
}

// agree fails t unless every seat's game, board, events and stream on f
// hold exactly what the store holds.
func agree(t *testing.T, what string, f *fixture, st store.Store, id string, tok map[string]string, streams map[string]*follower) {
	t.Helper()
	g := "/api/games/" + id
	for seat, fl := range streams {
		want := seen(t, st, id, seatOf(seat))
		head := ""
		if len(want) > 0 {
			head = want[len(want)-1]
		}
		var info server.Info
		if code, body := f.call("GET", g, tok[seat], nil, &info); code != 200 || info.Version != len(want) || info.Head != head {
			t.Errorf("%s: %s's game: %d %s; version %d, head %.8s, want %d, %.8s", what, seat, code, body, info.Version, info.Head, len(want), head)
		}
		var board struct {
			Game server.Info `json:"game"`
		}
		if code, body := f.call("GET", g+"/board", tok[seat], nil, &board); code != 200 || board.Game.Version != len(want) || board.Game.Head != head {
			t.Errorf("%s: %s's board: %d %.200s; version %d, want %d", what, seat, code, body, board.Game.Version, len(want))
		}
		var page server.Events
		if code, body := f.call("GET", g+"/events", tok[seat], nil, &page); code != 200 || strings.Join(hashes(page.Events), " ") != strings.Join(want, " ") {
			t.Errorf("%s: %s's events: %d %.200s; %d events, want %d", what, seat, code, body, len(page.Events), len(want))
		}
		got, faults := fl.upTo(len(want))
		for _, fault := range faults {
			t.Errorf("%s: %s's stream: %s", what, seat, fault)
		}
		if strings.Join(hashes(got), " ") != strings.Join(want, " ") {
			t.Errorf("%s: %s's stream brought %d events, the store holds %d for it (or others)", what, seat, len(got), len(want))
		}
	}
}

// TestStoreFaults: commits and reads that fail, on SQLite, and on
// PostgreSQL with another instance writing to the game (so that commands
// are worked out with the game held there): after each,
// every seat's game, board, events and stream hold exactly what the store
// holds; the client is told 503 with Retry-After, and whether its command
// may have been saved; a command whose commit failed but was committed
// all the same is answered as done; and once the store is back, play goes
// on.
func TestStoreFaults(t *testing.T) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "orderly.db"))
		if err != nil {
			t.Fatal(err)
		}
		st, faults := storetest.Inject(db)
		f := serveOn(t, st, db, nil, 1)
		faultCases(t, f, nil, db, faults)
	})
	t.Run("postgres-held", func(t *testing.T) {
		url := pgtest.DB(t)
		db, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		st, faults := storetest.Inject(db)
		f := serveOn(t, st, db, db, 1)
		other := pgFixture(t, url, 2)
		faultCases(t, f, other, db, faults)
	})
}

// faultCases plays the demo game on f, whose store db fails as faults
// say, and checks each failure; with other (another instance on the same
// store), which writes first, f holds the game before each command.
func faultCases(t *testing.T, f, other *fixture, db store.Store, faults *storetest.Faults) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	id, tok := f.demo(false)
	g := "/api/games/" + id
	streams := map[string]*follower{}
	for _, seat := range []string{"umpire", "french", "allies"} {
		streams[seat] = follow(ctx, f, id, tok[seat])
	}
	by := f
	if other != nil {
		by = other
	}
	if code, body := by.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil); code != 200 {
		t.Fatalf("end: %d %s", code, body)
	}
	if other != nil {
		// f holds the game once it has heard other write to it.
		want := len(seen(t, db, id, game.Umpire))
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			var info server.Info
			if f.call("GET", g, tok["umpire"], nil, &info); info.Version == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("f never heard the other instance's command")
			}
		}
	}
	agree(t, "at the start", f, db, id, tok, streams)
	n := 0
	move := func() string {
		n++
		return fmt.Sprintf(`{"move":{"unit":"F-I-1-a","to":[26.%02d,32]}}`, n)
	}
	ok := func(what string) {
		t.Helper()
		if a := f.ask("POST", g+"/commands", tok["french"], move()); a.code != 200 {
			t.Fatalf("%s: %d %s", what, a.code, a.body)
		}
	}
	ok("a move")

	// A take-back (issue 36) whose commit fails before it commits changes
	// nothing: the move stands and may still be taken back; one that
	// commits all the same is done, and every seat holds what the store
	// holds.
	faults.FailAppend(storetest.BeforeCommit)
	outage(t, "a take-back whose commit failed", f.ask("POST", g+"/commands", tok["french"], `{"take-back":true}`), "nothing was changed")
	agree(t, "after a take-back whose commit failed", f, db, id, tok, streams)
	var in server.Info
	if code, body := f.call("GET", g, tok["french"], nil, &in); code != 200 || in.Undo == "" {
		t.Errorf("after a take-back whose commit failed the move may not be taken back: %d %s", code, body)
	}
	faults.FailAppend(storetest.AfterCommit)
	if a := f.ask("POST", g+"/commands", tok["french"], `{"take-back":true}`); a.code != 200 || !strings.Contains(string(a.body), `"type":"taken-back"`) {
		t.Errorf("a take-back committed though its commit failed: %d %s", a.code, a.body)
	}
	agree(t, "after a take-back committed though its commit failed", f, db, id, tok, streams)
	ok("a move after the take-back")

	// Before commit, the store readable: nothing changed, and it says so.
	faults.FailAppend(storetest.BeforeCommit)
	outage(t, "a move whose commit failed", f.ask("POST", g+"/commands", tok["french"], move()), "nothing was changed")
	agree(t, "after a commit that failed", f, db, id, tok, streams)

	// After commit, the store readable: the command is done, and shown
	// once.
	faults.FailAppend(storetest.AfterCommit)
	if a := f.ask("POST", g+"/commands", tok["french"], move()); a.code != 200 || !strings.Contains(string(a.body), `"type":"moved"`) {
		t.Errorf("a move committed though its commit failed: %d %s", a.code, a.body)
	}
	agree(t, "after a commit that failed once it had committed", f, db, id, tok, streams)

	// Either, the store unreadable: the client cannot be told more than
	// that it may have been saved; nothing is served from the game until
	// the store can be read, and then it is what the store holds.
	for _, when := range []storetest.Fault{storetest.BeforeCommit, storetest.AfterCommit} {
		what := fmt.Sprintf("fault %d with the store unreadable", when)
		faults.FailAppend(when)
		faults.FailReads(true)
		outage(t, what, f.ask("POST", g+"/commands", tok["french"], move()), "may or may not have been saved")
		for _, path := range []string{g, g + "/board", g + "/events"} {
			outage(t, what+": GET "+path, f.ask("GET", path, tok["allies"], ""), "try again")
		}
		outage(t, what+": odds", f.ask("POST", g+"/odds", tok["french"], `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12]}}`), "try again")
		outage(t, what+": a stream", streamAnswer(f, id, tok["umpire"]), "try again")
		outage(t, what+": another move", f.ask("POST", g+"/commands", tok["french"], move()), "try again")
		faults.FailReads(false)
		agree(t, what+", once it can be read", f, db, id, tok, streams)
	}

	// The store down altogether, then back: play goes on.
	faults.Down(true)
	outage(t, "a move with the store down", f.ask("POST", g+"/commands", tok["french"], move()), "")
	faults.Down(false)
	ok("a move once the store is back")
	agree(t, "at the end", f, db, id, tok, streams)
	if other != nil {
		agree(t, "on the other instance", other, db, id, tok, map[string]*follower{"allies": follow(ctx, other, id, tok["allies"])})
	}
}

// streamAnswer opens a seat's stream and returns the answer if it is not
// a stream.
func streamAnswer(f *fixture, id, token string) answer {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/api/games/"+id+"/stream", nil)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	out := answer{code: resp.StatusCode, retry: resp.Header.Get("Retry-After")}
	if resp.StatusCode != 200 {
		out.body, _ = io.ReadAll(resp.Body)
		out.err = apiError(f.t, out.body)
	}
	return out
}

// TestFullDisk: on a store whose disk is full (an SQLite file that may
// not grow), a new game is refused with 503 and Retry-After, and so is a
// command, which changes nothing: every seat's board, events and stream
// hold what the store holds.
func TestFullDisk(t *testing.T) {
	t.Parallel()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "orderly.db"), sqlite.WithMaxSize(400<<10))
	if err != nil {
		t.Fatal(err)
	}
	f := serveOn(t, db, db, nil, 1)
	id, tok := f.demo(false)
	var made answer
	for range 50 {
		if made = f.ask("POST", "/api/games", f.host, `{"scenario":"demo"}`); made.code != http.StatusCreated {
			break
		}
	}
	outage(t, "a new game on a full disk", made, "nothing was made")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := map[string]*follower{}
	for _, seat := range []string{"umpire", "french", "allies"} {
		streams[seat] = follow(ctx, f, id, tok[seat])
	}
	g := "/api/games/" + id
	if a := f.ask("POST", g+"/commands", tok["umpire"], `{"end":true}`); a.code != 200 {
		t.Fatalf("end: %d %s", a.code, a.body)
	}
	var moved answer
	for i := range 500 {
		if moved = f.ask("POST", g+"/commands", tok["french"], fmt.Sprintf(`{"move":{"unit":"F-I-1-a","to":[%d.5,32]}}`, 26+i%2)); moved.code != 200 {
			break
		}
	}
	outage(t, "a move on a full disk", moved, "nothing was changed")
	agree(t, "on a full disk", f, db, id, tok, streams)
}

// board is a board as read: the number of events its seat may see, and
// the hash of the last.
type board struct {
	version int
	head    string
}

// TestDatabaseStops: two instances on one PostgreSQL take commands from
// clients, spread over both, while the database is stopped as by a crash
// (pg_ctl stop -m immediate) and started again: one game is played
// through both instances (so that each holds it before a command), one
// through the first alone. Then no command answered 200 is missing from
// the store, and no event the store lacks was shown anywhere: in a
// command's answer, on any board read meanwhile (its last event's hash),
// or on any seat's stream on either instance, each of which brought
// exactly the store's events for its seat, in order, once. Play goes on
// once the database is back.
func TestDatabaseStops(t *testing.T) {
	t.Parallel()
	c, err := pgtest.StartCrashSafe()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("PostgreSQL is needed in CI: %v", err)
		}
		t.Skipf("no PostgreSQL to test against: %v", err)
	}
	t.Cleanup(func() { _ = c.Stop() }) // after the servers' own cleanups
	url, err := c.Database(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The servers' clock stands still but when moved, so that the seats
	// they found stay known while the database is stopped (the commands
	// and boards reach the games, whatever the load of the machine).
	clk := newClock()
	a, b := pgFixture(t, url, 1, server.WithClock(clk.Now)), pgFixture(t, url, 2, server.WithClock(clk.Now))
	servers := []*fixture{a, b}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seats := []string{"umpire", "french", "allies"}

	// A game, and what its clients and board readers were shown.
	type played struct {
		id      string
		tok     map[string]string
		clients []*fixture // one a side, each in turn
		streams [2]map[string]*follower
		shown   map[string]bool           // the hash of every event in an answer
		boards  map[string]map[board]bool // by seat, the boards read
		acked   []string                  // the x of each move answered 200
		// With the database stopped: the commands refused, and the boards
		// asked for after the first of them.
		downRefused, downBoards int
	}
	games := []*played{{clients: servers}, {clients: []*fixture{a}}}
	for _, p := range games {
		p.id, p.tok = a.demo(false)
		if code, body := a.call("POST", "/api/games/"+p.id+"/commands", p.tok["umpire"], `{"end":true}`, nil); code != 200 {
			t.Fatalf("end: %d %s", code, body)
		}
		p.shown, p.boards = map[string]bool{}, map[string]map[board]bool{}
		for i, f := range servers {
			p.streams[i] = map[string]*follower{}
			for _, seat := range seats {
				p.streams[i][seat] = follow(ctx, f, p.id, p.tok[seat])
				p.boards[seat] = map[board]bool{}
			}
		}
	}

	// Long after the games were made: the first instance works the
	// second game's commands out without holding it (its last rival
	// write, the game's creation, is past), the first game's holding it
	// (the other instance writes to it too).
	clk.add(2 * time.Minute)

	var mu sync.Mutex
	var ok, refused, others int
	down := false // the database is stopped
	more := make(chan struct{}, 1)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	pause := func() bool {
		select {
		case <-stop:
			return false
		case <-time.After(10 * time.Millisecond): // as a client waits before it tries again
			return true
		}
	}
	units := map[string]string{"french": "F-I-1-a", "allies": "A-I-1-a"}
	at := map[string][2]float64{} // where each side's unit stands at the start
	var start struct {
		State struct {
			Units []struct {
				ID string     `json:"id"`
				At [2]float64 `json:"at"`
			} `json:"units"`
		} `json:"state"`
	}
	if code, body := a.call("GET", "/api/games/"+games[0].id+"/board", games[0].tok["umpire"], nil, &start); code != 200 {
		t.Fatalf("board: %d %s", code, body)
	}
	for _, u := range start.State.Units {
		for side, id := range units {
			if u.ID == id {
				at[side] = u.At
			}
		}
	}
	for _, p := range games {
		g := "/api/games/" + p.id
		for k, f := range p.clients {
			for _, side := range []string{"french", "allies"} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; ; i++ {
						select {
						case <-stop:
							return
						default:
						}
						// A move each client sends once, a short way from
						// where the unit stood, so that the rules take
						// every one.
						x := strconv.FormatFloat(at[side][0]+float64(k)/10+float64(i)/10000, 'f', 4, 64)
						y := strconv.FormatFloat(at[side][1], 'f', -1, 64)
						ans := f.ask("POST", g+"/commands", p.tok[side], `{"move":{"unit":"`+units[side]+`","to":[`+x+`,`+y+`]}}`)
						var res server.Result
						if ans.code == 200 {
							if err := json.Unmarshal(ans.body, &res); err != nil {
								t.Errorf("a command's answer: %v", err)
							}
						}
						mu.Lock()
						for _, e := range res.Events {
							p.shown[e.Event.Hash] = true
						}
						switch ans.code {
						case http.StatusOK:
							p.acked = append(p.acked, x)
							ok++
						case http.StatusServiceUnavailable:
							refused++
							if down {
								p.downRefused++
							}
						default:
							others++
						}
						mu.Unlock()
						select {
						case more <- struct{}{}:
						default:
						}
						if ans.code != 200 && !pause() {
							return
						}
					}
				}()
			}
		}
		for _, f := range servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					seat := seats[i%len(seats)]
					var read struct {
						Game server.Info `json:"game"`
					}
					mu.Lock()
					after := down && p.downRefused > 0
					mu.Unlock()
					code, _ := f.call("GET", g+"/board", p.tok[seat], nil, &read)
					mu.Lock()
					if code == 200 {
						p.boards[seat][board{read.Game.Version, read.Game.Head}] = true
					}
					if after {
						p.downBoards++
					}
					mu.Unlock()
					select {
					case more <- struct{}{}:
					default:
					}
					if code != 200 && !pause() {
						return
					}
				}
			}()
		}
	}
	// until returns once cond holds of the counts, or fails t.
	until := func(what string, cond func(ok, refused int) bool) {
		t.Helper()
		limit := time.After(30 * time.Second)
		for {
			mu.Lock()
			done := cond(ok, refused)
			mu.Unlock()
			if done {
				return
			}
			select {
			case <-more:
			case <-limit:
				close(stop)
				wg.Wait()
				t.Fatalf("timed out waiting for %s: %d commands answered 200, %d not", what, ok, refused)
			}
		}
	}
	until("commands to be answered", func(ok, _ int) bool { return ok >= 12 })
	if err := c.Halt("immediate"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	down = true
	mu.Unlock()
	// Every game's commands are refused, and its boards read after, on
	// both instances, while the database is stopped.
	until("commands to be refused and boards read with the database stopped", func(int, int) bool {
		for _, p := range games {
			if p.downRefused < 8 || p.downBoards < 12 {
				return false
			}
		}
		return true
	})
	if err := c.Resume(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	down = false
	mu.Unlock()
	mu.Lock()
	after := ok
	mu.Unlock()
	until("commands to be answered once the database is back", func(ok, _ int) bool { return ok >= after+12 })
	close(stop)
	wg.Wait()

	for n, p := range games {
		// Both instances hold what the store holds, and it holds every
		// command answered 200.
		g := "/api/games/" + p.id
		total := func(f *fixture) int {
			var info server.Info
			f.call("GET", g, p.tok["umpire"], nil, &info)
			return info.Version
		}
		waitFor(t, "both instances to hold what the store holds", func() bool {
			n := len(seen(t, a.db, p.id, game.Umpire))
			return total(a) == n && total(b) == n
		})
		raw, err := a.db.Events(context.Background(), p.id, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		stored, moved := map[string]bool{}, map[string]bool{}
		for _, r := range raw {
			var e game.Event
			if err := json.Unmarshal(r, &e); err != nil {
				t.Fatal(err)
			}
			stored[e.Hash] = true
			for _, m := range e.Moves {
				moved[strconv.FormatFloat(m.To.X, 'f', 4, 64)] = true
			}
		}
		for _, x := range p.acked {
			if !moved[x] {
				t.Errorf("game %d: the move to x=%s was answered 200 but is not in the store", n+1, x)
			}
		}
		for h := range p.shown {
			if !stored[h] {
				t.Errorf("game %d: a command's answer showed event %.12s, which the store does not hold", n+1, h)
			}
		}
		for _, seat := range seats {
			want := seen(t, a.db, p.id, seatOf(seat))
			for bd := range p.boards[seat] {
				if bd.version > len(want) || bd.version > 0 && want[bd.version-1] != bd.head {
					t.Errorf("game %d: %s's board showed %d events, the last %.12s, which the store does not hold", n+1, seat, bd.version, bd.head)
				}
			}
		}
		for i, f := range servers {
			agree(t, fmt.Sprintf("game %d on instance %d", n+1, i+1), f, a.db, p.id, p.tok, p.streams[i])
		}
		t.Logf("game %d: %d events stored, %d commands answered 200", n+1, len(raw), len(p.acked))
	}
	t.Logf("commands answered: %d 200, %d 503, %d otherwise", ok, refused, others)
}
