package load

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"orderly/server"
	"orderly/store/sqlite"
)

// Memory is what holding many games costs.
type Memory struct {
	Games     int
	Events    int     // events in all their logs
	ResidentM float64 // resident memory of the process after the restart, MiB
	HeapM     float64 // Go heap in use, MiB
	LoadTime  time.Duration
}

func (m Memory) String() string {
	return fmt.Sprintf("%d games (%d events) loaded in %s: %.0f MiB resident, %.0f MiB Go heap in use",
		m.Games, m.Events, m.LoadTime.Round(time.Millisecond), m.ResidentM, m.HeapM)
}

// Hold makes n demo games in a database in dir, each played for turns
// turns (both sides writing an order a turn), then starts a fresh server
// on that database, has a seat of every game ask for it (which loads it),
// and measures the process's resident memory.
func Hold(ctx context.Context, dir string, n, turns int, eng server.Engine) (Memory, error) {
	path := filepath.Join(dir, "hold.db")
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		return Memory{}, err
	}
	srv, err := server.New(ctx, st, eng, loadOpts...)
	if err != nil {
		st.Close()
		return Memory{}, err
	}
	h := srv.Handler()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	sem := make(chan struct{}, 16)
	var mu sync.Mutex
	umpires := map[string]string{} // game -> the umpire's token
	for range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			id, tok, err := play(ctx, srv, h, turns)
			if err != nil {
				errs <- err
				return
			}
			mu.Lock()
			umpires[id] = tok
			mu.Unlock()
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		st.Close()
		return Memory{}, err
	}
	if err := st.Close(); err != nil {
		return Memory{}, err
	}
	srv, h, st = nil, nil, nil
	runtime.GC()
	debug.FreeOSMemory()

	start := time.Now()
	st2, err := sqlite.Open(ctx, path)
	if err != nil {
		return Memory{}, err
	}
	defer st2.Close()
	srv2, err := server.New(ctx, st2, eng, loadOpts...)
	if err != nil {
		return Memory{}, err
	}
	h2 := srv2.Handler()
	for id, tok := range umpires {
		if err := local(h2, "GET", "/api/games/"+id, tok, ""); err != nil {
			return Memory{}, err
		}
	}
	m := Memory{Games: srv2.Games(), LoadTime: time.Since(start), Events: srv2.Events()}
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.HeapM = float64(ms.HeapInuse) / (1 << 20)
	m.ResidentM, err = resident()
	runtime.KeepAlive(srv2)
	return m, err
}

// play makes a demo game and plays it for some turns through the
// handler; it returns the game's id and its umpire's token.
func play(ctx context.Context, srv *server.Server, h http.Handler, turns int) (string, string, error) {
	made, err := srv.Create(ctx, server.Setup{Scenario: "demo"})
	if err != nil {
		return "", "", err
	}
	g := "/api/games/" + made.Game.ID
	do := func(token, body string) error {
		return local(h, "POST", g+"/commands", token, body)
	}
	for t := range turns {
		if err := do(made.Seats[1].Token, fmt.Sprintf(`{"write":{"for":["F-I"],"kind":"attack","objective":[%d,14],"note":"turn %d"}}`, 20+t, t)); err != nil {
			return "", "", err
		}
		if err := do(made.Seats[2].Token, `{"write":{"for":["A-I"],"kind":"defend"}}`); err != nil {
			return "", "", err
		}
		for range 2 {
			if err := do(made.Seats[0].Token, `{"end":true}`); err != nil {
				return "", "", err
			}
		}
	}
	return made.Game.ID, made.Seats[0].Token, nil
}

// resident reads the process's resident set size in MiB (Linux).
func resident() (float64, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/self/status")
}

// Fanout is how fast one event reaches many subscribers.
type Fanout struct {
	Subscribers   int
	Games         int
	Rounds        int
	P50, P99, Max time.Duration // from the command's answer to a subscriber's receipt
	Connect       time.Duration // to open every stream
}

func (f Fanout) String() string {
	return fmt.Sprintf("%d subscribers over %d games, %d rounds (opened in %s): event delivered to all, p50 %s, p99 %s, max %s after the command's answer",
		f.Subscribers, f.Games, f.Rounds, f.Connect.Round(time.Millisecond), ms(f.P50), ms(f.P99), ms(f.Max))
}

// Fan opens subs event streams spread over games demo games (the seats of
// each game taking turns), then, rounds times, sends a command in every
// game and times its arrival on every stream.
func Fan(ctx context.Context, dir string, subs, games, rounds int, eng server.Engine) (Fanout, error) {
	st, err := sqlite.Open(ctx, filepath.Join(dir, "fan.db"))
	if err != nil {
		return Fanout{}, err
	}
	defer st.Close()
	srv, err := server.New(ctx, st, eng, loadOpts...)
	if err != nil {
		return Fanout{}, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Fanout{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	hs := &http.Server{Handler: srv.Handler(), BaseContext: func(net.Listener) context.Context { return ctx }}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	base := "http://" + ln.Addr().String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: subs + games, MaxConnsPerHost: 0}}
	gs, err := fanGames(ctx, srv, client, base, games)
	if err != nil {
		return Fanout{}, err
	}
	got := make(chan fanReceipt, subs*rounds)
	t0 := time.Now()
	if err := fanSubscribe(ctx, client, gs, subs, got); err != nil {
		return Fanout{}, err
	}
	out := Fanout{Subscribers: subs, Games: games, Rounds: rounds, Connect: time.Since(t0)}
	var lat []time.Duration
	for r := range rounds {
		if lat, err = fanRound(ctx, client, gs, r, subs, got, lat); err != nil {
			return out, err
		}
	}
	slices.Sort(lat)
	out.P50, out.P99, out.Max = lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1]
	return out, nil
}

// fanGame is a game of a fan-out run.
type fanGame struct {
	url      string
	tokens   []string
	versions []int // each seat's own count of its events
}

// fanReceipt is a stream's receipt of a move in game number game.
type fanReceipt struct {
	game int
	at   time.Time
}

// fanGames makes games demo games on srv, ends the first turn of each,
// and notes each seat's count of its events, the point its stream starts
// from.
func fanGames(ctx context.Context, srv *server.Server, client *http.Client, base string, games int) ([]fanGame, error) {
	var gs []fanGame
	for range games {
		made, err := srv.Create(ctx, server.Setup{Scenario: "demo"})
		if err != nil {
			return nil, err
		}
		g := fanGame{url: base + "/api/games/" + made.Game.ID}
		for _, s := range made.Seats {
			g.tokens = append(g.tokens, s.Token)
		}
		if err := call(ctx, client, g.url+"/commands", g.tokens[0], map[string]any{"end": true}, nil); err != nil {
			return nil, err
		}
		for _, tok := range g.tokens {
			var in server.Info
			if err := call(ctx, client, g.url, tok, nil, &in); err != nil {
				return nil, err
			}
			g.versions = append(g.versions, in.Version)
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// fanSubscribe opens subs streams over the games, each sending a receipt
// to got for every move it hears of, and returns once all are open.
func fanSubscribe(ctx context.Context, client *http.Client, gs []fanGame, subs int, got chan<- fanReceipt) error {
	games := len(gs)
	ready := make(chan error, subs)
	for i := range subs {
		g := gs[i%games]
		k := i / games % len(g.tokens)
		tok := g.tokens[k]
		go func() {
			req, _ := http.NewRequestWithContext(ctx, "GET", g.url+"/stream?since="+strconv.Itoa(g.versions[k]), nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			resp, err := client.Do(req)
			if err != nil {
				ready <- err
				return
			}
			defer resp.Body.Close()
			ready <- nil
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				if line := sc.Text(); strings.HasPrefix(line, "data: ") && strings.Contains(line, `"type":"moved"`) {
					got <- fanReceipt{i % games, time.Now()}
				}
			}
		}()
	}
	for range subs {
		if err := <-ready; err != nil {
			return err
		}
	}
	return nil
}

// fanRound, round r, moves a French unit in every game at once and adds
// to lat the time from each command's answer to each of the subs streams'
// receipt of it.
func fanRound(ctx context.Context, client *http.Client, gs []fanGame, r, subs int, got <-chan fanReceipt, lat []time.Duration) ([]time.Duration, error) {
	answered := make([]time.Time, len(gs))
	var wg sync.WaitGroup
	for i, g := range gs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := map[string]any{"move": map[string]any{"unit": "F-I-1-a", "to": [2]float64{26 + float64(r)/10, 31}}}
			_ = call(ctx, client, g.url+"/commands", g.tokens[1], body, nil)
			answered[i] = time.Now()
		}()
	}
	wg.Wait()
	// The stream of every seat sees a French move (it is in the open).
	timeout := time.After(30 * time.Second)
	for range subs {
		select {
		case rc := <-got:
			lat = append(lat, max(0, rc.at.Sub(answered[rc.game])))
		case <-timeout:
			return lat, fmt.Errorf("round %d: not every subscriber heard of the move within 30 s", r+1)
		}
	}
	return lat, nil
}

// local sends a request straight to a handler.
func local(h http.Handler, method, path, token, body string) error {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = "localhost"
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code/100 != 2 {
		return &apiErr{status: w.Code, body: w.Body.String()}
	}
	return nil
}
