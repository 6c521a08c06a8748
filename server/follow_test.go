package server_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"orderly/server"
	"orderly/store/pgtest"
	"orderly/store/postgres"
)

// pgFixture is a server on the PostgreSQL database at url that follows
// the other servers on it (Follow), ready once it listens.
func pgFixture(t testing.TB, url string, seed uint64, opts ...server.Option) *fixture {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := postgres.Open(ctx, url)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(tlog{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	opts = append([]server.Option{server.WithRand(rand.NewChaCha8([32]byte{byte(seed)})), server.WithLogger(log), bundle(t)}, opts...)
	srv, err := server.New(ctx, db, engine(t), opts...)
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
		_ = srv.Follow(ctx, db)
	}()
	ts := httptest.NewServer(srv.Handler())
	f := &fixture{t: t, srv: srv, ts: ts, db: db, host: host}
	t.Cleanup(func() {
		cancel()
		<-done
		f.close()
	})
	for deadline := time.Now().Add(10 * time.Second); ; {
		if code, _ := f.call("GET", "/readyz", "", nil, nil); code == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never became ready")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return f
}

// TestFollowTwoInstances: two servers on one database serve the same
// game. A command accepted by one reaches the other's streams, in order
// and once, with the same events and hashes; either takes commands; a
// seed revealed on one is told on the other's streams; a link reissued on
// one stops working on the other at once (its clock stands still, so no
// cache of seats expires) and ends the other's streams of it.
func TestFollowTwoInstances(t *testing.T) {
	t.Parallel()
	url := pgtest.DB(t)
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	a := pgFixture(t, url, 1)
	b := pgFixture(t, url, 2, server.WithClock(func() time.Time { return now }))
	id, tok := a.demo(false)
	g := "/api/games/" + id
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ump, err := b.subscribe(ctx, id, tok["umpire"], 0)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := b.subscribe(ctx, id, tok["french"], 0)
	if err != nil {
		t.Fatal(err)
	}
	onA, err := a.subscribe(ctx, id, tok["umpire"], 0)
	if err != nil {
		t.Fatal(err)
	}
	version := func(f *fixture, token string) int {
		var info struct {
			Version int `json:"version"`
		}
		if code, body := f.call("GET", g, token, nil, &info); code != 200 {
			t.Fatalf("game: %d %s", code, body)
		}
		return info.Version
	}
	start := version(a, tok["umpire"])
	if code, body := a.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil); code != 200 {
		t.Fatalf("end on a: %d %s", code, body)
	}
	// Commands on both, each after the other's.
	for i := range 6 {
		f, x := a, 26.0+float64(i)/10
		if i%2 == 1 {
			f = b
		}
		body := `{"move":{"unit":"F-I-1-a","to":[` + strconv.FormatFloat(x, 'f', -1, 64) + `,32]}}`
		if code, out := f.call("POST", g+"/commands", tok["french"], body, nil); code != 200 {
			t.Fatalf("move %d on %s: %d %s", i, f.ts.URL, code, out)
		}
	}
	// The last move was taken by b; a hears of it a moment later.
	for deadline := time.Now().Add(10 * time.Second); version(a, tok["umpire"]) != version(b, tok["umpire"]); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a and b hold different numbers of events 10 s after the last move")
		}
	}
	total := version(a, tok["umpire"])
	if total <= start {
		t.Fatalf("version %d after the commands, %d before", total, start)
	}
	for name, ch := range map[string]<-chan sse{"b's umpire": ump, "a's umpire": onA} {
		got := events(t, collect(t, ch, func(ms []sse) bool { return len(events(t, ms)) >= total }))
		for i, e := range got {
			if e.Event.Seq != i+1 {
				t.Fatalf("%s stream: message %d is event %d", name, i+1, e.Event.Seq)
			}
		}
	}
	// Both servers hold the same log, hash for hash.
	var pa, pb struct {
		Events []server.Entry `json:"events"`
	}
	a.call("GET", g+"/events", tok["umpire"], nil, &pa)
	b.call("GET", g+"/events", tok["umpire"], nil, &pb)
	la, lb := pa.Events, pb.Events
	if len(la) != total || len(lb) != total {
		t.Fatalf("logs of %d and %d events, want %d", len(la), len(lb), total)
	}
	for i := range la {
		if la[i].Event.Hash != lb[i].Event.Hash || la[i].Event.Hash == "" {
			t.Fatalf("event %d: hash %q on a, %q on b", i+1, la[i].Event.Hash, lb[i].Event.Hash)
		}
	}
	frTotal := version(b, tok["french"])
	got := events(t, collect(t, fr, func(ms []sse) bool { return len(events(t, ms)) >= frTotal }))
	if len(got) != frTotal || frTotal == 0 {
		t.Fatalf("the French stream on b brought %d events of %d", len(got), frTotal)
	}

	// A seed revealed on a is told on b.
	if code, body := a.call("POST", g+"/reveal", tok["umpire"], `{"confirm":true}`, nil); code != 200 {
		t.Fatalf("reveal: %d %s", code, body)
	}
	collect(t, ump, func(ms []sse) bool { return slices.ContainsFunc(ms, func(m sse) bool { return m.event == "seeds" }) })
	var info struct {
		Seeds []struct {
			Key []byte `json:"key"`
		} `json:"seeds"`
	}
	b.call("GET", g, tok["umpire"], nil, &info)
	if len(info.Seeds) != 2 || info.Seeds[0].Key == nil || info.Seeds[1].Key != nil {
		t.Fatalf("b's seeds after the reveal on a: %+v", info.Seeds)
	}

	// A link reissued on a stops working on b at once.
	if code, body := a.call("POST", g+"/seats/reissue", tok["umpire"], `{"seat":"french"}`, nil); code != 200 {
		t.Fatalf("reissue: %d %s", code, body)
	}
	deadline := time.After(5 * time.Second)
	for open := true; open; {
		select {
		case _, open = <-fr:
		case <-deadline:
			t.Fatal("the French stream on b outlived its reissued link")
		}
	}
	if code, body := b.call("GET", g, tok["french"], nil, nil); code != 401 {
		t.Fatalf("the old French link on b: %d %s", code, body)
	}
}

// TestReady: /healthz and /readyz answer whatever the Host header, and
// /readyz is 503 while a store shared with other instances is not heard.
func TestReady(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, path := range []string{"/healthz", "/readyz"} {
		req, _ := http.NewRequest("GET", f.ts.URL+path, nil)
		req.Host = "orderly-a:8080"
		resp, err := f.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&out)
		resp.Body.Close()
		if resp.StatusCode != 200 || (out["ok"] != true && out["ready"] != true) {
			t.Errorf("%s: %d %v", path, resp.StatusCode, out)
		}
		if _, listens := out["listening"]; listens {
			t.Errorf("%s on an SQLite file says whether it listens: %v", path, out)
		}
	}
	// Any other path still needs a name the server answers to.
	req, _ := http.NewRequest("GET", f.ts.URL+"/api/scenarios", nil)
	req.Host = "orderly-a:8080"
	if resp, err := f.ts.Client().Do(req); err != nil || resp.StatusCode != http.StatusMisdirectedRequest {
		t.Fatalf("another host name: %v %v", resp, err)
	}

	// On PostgreSQL: ready once listening, 503 once the store is gone.
	p := pgFixture(t, pgtest.DB(t), 3)
	code, body := p.call("GET", "/readyz", "", nil, nil)
	if code != 200 || !strings.Contains(string(body), `"listening":true`) {
		t.Fatalf("readyz: %d %s", code, body)
	}
	p.db.Close()
	if code, body := p.call("GET", "/readyz", "", nil, nil); code != 503 || !strings.Contains(string(body), `"ready":false`) {
		t.Fatalf("readyz with the store closed: %d %s", code, body)
	}
}

// TestContended: many commands at once on one game through two servers
// on one database, both sides on both: every command is accepted (the
// servers hold the game once they see each other write to it, and retry
// a stale append before that), and both servers end with the same log,
// each command's move in it once.
func TestContended(t *testing.T) {
	url := pgtest.DB(t)
	a := pgFixture(t, url, 1)
	b := pgFixture(t, url, 2)
	id, tok := a.demo(false)
	g := "/api/games/" + id
	if code, body := a.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil); code != 200 {
		t.Fatalf("end: %d %s", code, body)
	}
	units := map[string]string{"french": "F-I-1-a", "allies": "A-I-1-a"}
	var board struct {
		State struct {
			Units []struct {
				ID string     `json:"id"`
				At [2]float64 `json:"at"`
			} `json:"units"`
		} `json:"state"`
	}
	if code, body := a.call("GET", g+"/board", tok["umpire"], nil, &board); code != 200 {
		t.Fatalf("board: %d %s", code, body)
	}
	at := map[string][2]float64{}
	for _, u := range board.State.Units {
		at[u.ID] = u.At
	}
	type result struct {
		code int
		body string
	}
	const each = 6
	results := make(chan result, 4*4*each)
	var wg sync.WaitGroup
	n := 0
	for _, f := range []*fixture{a, b} {
		for side, unit := range units {
			for w := range 4 {
				n++
				wg.Add(1)
				go func(k int) {
					defer wg.Done()
					for i := range each {
						p := at[unit]
						x := strconv.FormatFloat(p[0]+float64(k)/100+float64(i)/1000, 'f', -1, 64)
						y := strconv.FormatFloat(p[1], 'f', -1, 64)
						body := `{"move":{"unit":"` + unit + `","to":[` + x + `,` + y + `]}}`
						code, out := f.call("POST", g+"/commands", tok[side], body, nil)
						results <- result{code, string(out)}
					}
				}(n*10 + w)
			}
		}
	}
	wg.Wait()
	close(results)
	ok := 0
	for r := range results {
		if r.code != 200 {
			t.Errorf("a command was refused: %d %s", r.code, r.body)
			continue
		}
		ok++
	}
	if ok != n*each {
		t.Fatalf("%d of %d commands accepted", ok, n*each)
	}
	// The last command's notice may still be on its way to the other
	// server (reads across instances are eventual): wait for both to
	// hold the same number of events.
	version := func(f *fixture) int {
		var info struct {
			Version int `json:"version"`
		}
		if code, body := f.call("GET", g, tok["umpire"], nil, &info); code != 200 {
			t.Fatalf("game: %d %s", code, body)
		}
		return info.Version
	}
	for deadline := time.Now().Add(10 * time.Second); version(a) != version(b); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the servers hold %d and %d events 10 s after the last command", version(a), version(b))
		}
	}
	var pa, pb struct {
		Events []server.Entry `json:"events"`
	}
	a.call("GET", g+"/events", tok["umpire"], nil, &pa)
	b.call("GET", g+"/events", tok["umpire"], nil, &pb)
	if len(pa.Events) != len(pb.Events) {
		t.Fatalf("logs of %d and %d events", len(pa.Events), len(pb.Events))
	}
	moves := map[string]int{}
	for i := range pa.Events {
		if pa.Events[i].Event.Hash != pb.Events[i].Event.Hash {
			t.Fatalf("event %d differs between the servers", i+1)
		}
		for _, m := range pa.Events[i].Event.Moves {
			moves[strconv.FormatFloat(m.To.X, 'f', -1, 64)]++
		}
	}
	for x, c := range moves {
		if c != 1 {
			t.Errorf("the move to x=%s is in the log %d times", x, c)
		}
	}
	if len(moves) != n*each {
		t.Errorf("%d moves in the log, want %d", len(moves), n*each)
	}
}
