// Package load is orderly serve's load generator: many clients over many
// games, each sending commands that the rules accept, over real HTTP, with
// every accepted command durably committed before its answer. It reports
// the rate of accepted commands and the latency of their answers, and
// beside them the raw rate of single-insert SQLite commits on the same
// disk, the yardstick for what group commit gains.
package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"orderly/geom"
	"orderly/server"
	"orderly/store"
	"orderly/store/postgres"
	"orderly/store/sqlite"
)

// Options shape a run.
type Options struct {
	Clients  int           // concurrent clients (200)
	Games    int           // games they share (100)
	Duration time.Duration // how long the clients send (10 s)
	// Warmup is how long the clients send before Duration starts, with
	// nothing they see counted: connections and caches open on the
	// first commands, and a hosted server runs for days, not seconds.
	Warmup time.Duration
	// Rate is the commands per second all clients send together, each on
	// a fixed schedule, with latency counted from when a command was due
	// (so a slow answer is not hidden by the client waiting for it), and
	// a refused command is not sent again; 0 sends as fast as answers
	// come, waiting after a refusal as long as its Retry-After asks.
	Rate   float64
	Dir    string // where the in-process server keeps its database (a temp dir)
	Seed   uint64 // for the clients' choices
	Engine server.Engine
	// ProbeCommits is how many single-insert commits measure the raw
	// SQLite rate (1,000; 0 skips the probe).
	ProbeCommits int
	// DB is a PostgreSQL database's URL to serve from instead of an
	// SQLite file in Dir; it must be empty (a new database).
	DB string
	// Instances is how many servers share the database (1 by default;
	// more only on PostgreSQL, where each hears the others' changes).
	// Client i sends to instance i mod Instances, so the two sides of a
	// game send to different instances when there are two.
	Instances int
	// Sticky sends every client of a game to one instance (game g's to
	// instance g mod Instances), as a proxy with sticky sessions would:
	// two instances then never take commands for one game at once.
	Sticky bool
	// Streams opens the umpire's event stream of every game on every
	// instance, and measures how long after a command's answer its event
	// reaches a stream on another instance (on the same one when there is
	// only one).
	Streams bool
}

// Report is what a run measured.
type Report struct {
	Clients, Games int
	Rate           float64     // the offered rate; 0 for as fast as answered
	Accepted       int         // commands accepted and committed
	Refused        int         // commands the rules or the server refused
	RefusedBy      map[int]int // Refused by HTTP status
	Seconds        float64     // the time the clients sent for
	PerSecond      float64     // accepted commands per second
	P50, P99, Max  time.Duration
	RawCommits     float64 // single-insert SQLite commits per second, on the same disk
	Instances      int
	// StreamP50 and StreamP99 are the times from a command's answer on
	// one instance to its event's arrival on a stream held by another
	// (Options.Streams); StreamMissed counts answered commands whose event
	// never arrived there.
	StreamP50, StreamP99, StreamMax time.Duration
	StreamMissed                    int
	// CPUPerCommand is the process's CPU time (user and system) while the
	// clients sent, per accepted command: the server's work on it, its
	// commit and its fan-out, and the in-process clients' share of
	// encoding and sending it. 0 where the system does not say.
	CPUPerCommand time.Duration
}

// Ratio is accepted commands per raw single-insert commit.
func (r Report) Ratio() float64 {
	if r.RawCommits == 0 {
		return 0
	}
	return r.PerSecond / r.RawCommits
}

func (r Report) String() string {
	offered := "as fast as answered"
	if r.Rate > 0 {
		offered = fmt.Sprintf("offering %.0f/s", r.Rate)
	}
	s := fmt.Sprintf("%d clients over %d games, %s, for %.1f s: %d commands accepted (%.0f/s), %d refused; latency p50 %s, p99 %s, max %s",
		r.Clients, r.Games, offered, r.Seconds, r.Accepted, r.PerSecond, r.Refused, ms(r.P50), ms(r.P99), ms(r.Max))
	if len(r.RefusedBy) > 0 {
		codes := slices.Sorted(maps.Keys(r.RefusedBy))
		parts := make([]string, len(codes))
		for i, c := range codes {
			parts[i] = fmt.Sprintf("%d × %d", r.RefusedBy[c], c)
		}
		s = strings.Replace(s, " refused;", " refused ("+strings.Join(parts, ", ")+");", 1)
	}
	if r.Instances > 1 {
		s = fmt.Sprintf("%d instances, ", r.Instances) + s
	}
	if r.StreamP99 > 0 || r.StreamMissed > 0 {
		where := "another instance's"
		if r.Instances < 2 {
			where = "the same instance's"
		}
		s += fmt.Sprintf("; answer to %s stream p50 %s, p99 %s, max %s, %d never arrived", where, ms(r.StreamP50), ms(r.StreamP99), ms(r.StreamMax), r.StreamMissed)
	}
	if r.CPUPerCommand > 0 {
		s += fmt.Sprintf("; CPU %d µs a command (server and clients)", r.CPUPerCommand.Microseconds())
	}
	if r.RawCommits > 0 {
		s += fmt.Sprintf("\nraw SQLite single-insert commits on the same disk: %.0f/s; accepted commands per raw commit: %.1f", r.RawCommits, r.Ratio())
	}
	return s
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// Run starts o.Instances servers in this process on a fresh database (an
// SQLite file in o.Dir, or the PostgreSQL database o.DB), makes o.Games
// demo games, moves each to its move step, and has o.Clients clients send
// move commands (each for a piece of its own side, to a point near it) as
// fast as they are answered, or at o.Rate, for o.Duration.
func Run(ctx context.Context, o Options) (Report, error) {
	if o.Clients < 1 || o.Games < 1 || o.Duration <= 0 {
		return Report{}, fmt.Errorf("load: clients, games and duration must be positive")
	}
	o.Instances = max(o.Instances, 1)
	if o.Instances > 1 && o.DB == "" {
		return Report{}, fmt.Errorf("load: %d instances need a PostgreSQL database (DB); an SQLite file serves one", o.Instances)
	}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "orderly-load-")
		if err != nil {
			return Report{}, err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	rep := Report{Clients: o.Clients, Games: o.Games, Rate: o.Rate, Instances: o.Instances}
	if o.ProbeCommits > 0 {
		rate, err := sqlite.Probe(ctx, filepath.Join(dir, "probe.db"), o.ProbeCommits)
		if err != nil {
			return rep, err
		}
		rep.RawCommits = rate
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	var bases []string
	for range o.Instances {
		base, closer, err := instance(ctx, o, dir)
		if err != nil {
			return rep, err
		}
		defer closer()
		bases = append(bases, base)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 2 * o.Clients, MaxIdleConnsPerHost: 2 * o.Clients}}
	seats, umpires, err := setup(ctx, client, bases[0], o.Games)
	if err != nil {
		return rep, err
	}
	var w *watcher
	if o.Streams {
		if w, err = watch(ctx, client, bases, umpires); err != nil {
			return rep, err
		}
	}
	rep, err = drive(ctx, client, bases, seats, o, rep, w)
	if err != nil || w == nil {
		return rep, err
	}
	w.report(&rep, 5*time.Second)
	return rep, nil
}

// instance starts one server on o's database and returns its address,
// once it is ready (on PostgreSQL: hearing the other instances).
func instance(ctx context.Context, o Options, dir string) (string, func(), error) {
	var st store.Store
	var err error
	if o.DB != "" {
		st, err = postgres.Open(ctx, o.DB)
	} else {
		st, err = sqlite.Open(ctx, filepath.Join(dir, "load.db"))
	}
	if err != nil {
		return "", nil, err
	}
	srv, err := server.New(ctx, st, o.Engine, loadOpts...)
	if err != nil {
		st.Close()
		return "", nil, err
	}
	if sw, ok := st.(store.Watcher); ok {
		go func() { _ = srv.Follow(ctx, sw) }()
	}
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		st.Close()
		return "", nil, err
	}
	hs := srv.HTTPServer(ctx)
	go func() { _ = hs.Serve(ln) }()
	closer := func() { hs.Close(); st.Close() }
	base := "http://" + ln.Addr().String()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, closer, nil
			}
		}
		if time.Now().After(deadline) {
			closer()
			return "", nil, fmt.Errorf("load: the server at %s was not ready in 30 s", base)
		}
	}
}

// loadOpts open the server to the load generator's games: it makes
// hundreds from one address, and opens many streams a seat, and many
// connections from that address.
var loadOpts = []server.Option{server.WithOpen(true),
	server.WithLimits(server.Limits{Games: 1 << 20, GamesPerHour: 1 << 20, StreamsPerSeat: 1 << 12, Connections: 1 << 14, PerAddress: 1 << 14})}

// seat is one side of one game, with the pieces it moves; game is the
// game's path on any instance.
type seat struct {
	game, token string
	pieces      []piece
}

// umpire is a game's path and its umpire's token.
type umpire struct{ game, token string }

type piece struct {
	unit string
	at   [2]float64
}

func setup(ctx context.Context, c *http.Client, base string, games int) ([]seat, []umpire, error) {
	var out []seat
	var umps []umpire
	for range games {
		var made server.Created
		if err := call(ctx, c, base+"/api/games", "", server.Setup{Scenario: "demo"}, &made); err != nil {
			return nil, nil, fmt.Errorf("make a game: %w", err)
		}
		path := "/api/games/" + made.Game.ID
		g := base + path
		if err := call(ctx, c, g+"/commands", made.Seats[0].Token, map[string]any{"end": true}, nil); err != nil {
			return nil, nil, fmt.Errorf("start the move step: %w", err)
		}
		umps = append(umps, umpire{path, made.Seats[0].Token})
		for _, s := range made.Seats[1:] {
			var b struct {
				State struct {
					Units []struct {
						ID      string     `json:"id"`
						Side    string     `json:"side"`
						At      geom.Point `json:"at"`
						OnTable bool       `json:"on-table"`
					} `json:"units"`
				} `json:"state"`
			}
			if err := call(ctx, c, g+"/board", s.Token, nil, &b); err != nil {
				return nil, nil, err
			}
			st := seat{game: path, token: s.Token}
			for _, u := range b.State.Units {
				if u.Side == s.Side && u.OnTable {
					st.pieces = append(st.pieces, piece{unit: u.ID, at: [2]float64{u.At.X, u.At.Y}})
				}
			}
			out = append(out, st)
		}
	}
	return out, umps, nil
}

// drive runs o.Clients clients on the seats, spread over the instances
// at bases, for the warm-up and then the duration, and reports in rep what
// they measured after the warm-up.
func drive(ctx context.Context, c *http.Client, bases []string, seats []seat, o Options, rep Report, w *watcher) (Report, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Warmup+o.Duration)
	defer cancel()
	var mu sync.Mutex
	var all tally
	var wg sync.WaitGroup
	start := time.Now()
	measured := start.Add(o.Warmup) // commands due before are not counted
	for i := range o.Clients {
		d := newDriver(c, bases, seats, o, i, start, w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := d.run(ctx)
			mu.Lock()
			all.merge(t, &rep)
			mu.Unlock()
		}()
	}
	select {
	case <-time.After(time.Until(measured)):
	case <-ctx.Done():
	}
	cpu0 := cpuTime()
	wg.Wait()
	elapsed, cpu := time.Since(measured), cpuTime()-cpu0
	if all.err != nil {
		return rep, all.err
	}
	return all.report(rep, elapsed, cpu), nil
}

// tally is what clients of a run counted after the warm-up.
type tally struct {
	lat               []time.Duration // accepted commands' latencies
	accepted, refused int
	codes             map[int]int // refused by HTTP status
	err               error       // the first failure other than a refusal
}

// merge adds a client's tally t to the run's, and its refusals to rep's
// RefusedBy.
func (all *tally) merge(t tally, rep *Report) {
	all.lat = append(all.lat, t.lat...)
	all.accepted += t.accepted
	all.refused += t.refused
	for c, n := range t.codes {
		if rep.RefusedBy == nil {
			rep.RefusedBy = map[int]int{}
		}
		rep.RefusedBy[c] += n
	}
	if t.err != nil && all.err == nil {
		all.err = t.err
	}
}

// report fills rep from the run's tally: counts, rate, CPU per command
// and latency percentiles over elapsed, the measured time.
func (all *tally) report(rep Report, elapsed, cpu time.Duration) Report {
	lat := all.lat
	slices.Sort(lat)
	rep.Accepted, rep.Refused, rep.Seconds = all.accepted, all.refused, elapsed.Seconds()
	rep.PerSecond = float64(all.accepted) / elapsed.Seconds()
	if all.accepted > 0 && cpu > 0 {
		rep.CPUPerCommand = cpu / time.Duration(all.accepted)
	}
	if n := len(lat); n > 0 {
		rep.P50, rep.P99, rep.Max = lat[n/2], lat[min(n-1, n*99/100)], lat[n-1]
	}
	return rep
}

// driver is one client of a run: it moves its seat's pieces by small
// random steps through one instance, at its share of the offered rate or
// as fast as answered.
type driver struct {
	c        *http.Client
	base     string // the instance it sends to
	at       int    // that instance's index in the run's bases
	seat     seat
	rng      *rand.Rand
	start    time.Time
	measured time.Time     // the end of the warm-up
	every    time.Duration // between commands; 0 for as fast as answered
	w        *watcher
}

// newDriver is client i of a run started at start.
func newDriver(c *http.Client, bases []string, seats []seat, o Options, i int, start time.Time, w *watcher) *driver {
	at := i % len(bases)
	if o.Sticky {
		at = (i % len(seats) / 2) % len(bases) // seats come two by two, a game's sides
	}
	d := &driver{c: c, base: bases[at], at: at, seat: seats[i%len(seats)], rng: rand.New(rand.NewPCG(o.Seed, uint64(i))),
		start: start, measured: start.Add(o.Warmup), w: w}
	if o.Rate > 0 {
		d.every = time.Duration(float64(o.Clients) / o.Rate * float64(time.Second))
	}
	return d
}

// run sends commands until ctx ends or a call fails other than by a
// refusal, and returns what it counted after the warm-up.
func (d *driver) run(ctx context.Context) tally {
	t := tally{codes: map[int]int{}}
	due := d.start
	if d.every > 0 {
		due = d.start.Add(time.Duration(d.rng.Int64N(int64(d.every)))) // spread the clients out
	}
	for ctx.Err() == nil {
		if d.every > 0 && !waitFor(ctx, due) {
			break
		}
		to, sent, answered, e := d.send(ctx)
		t0 := sent
		if d.every > 0 {
			t0 = due // latency from when the command was due
			due = due.Add(d.every)
		}
		if sent.Before(d.measured) {
			// Sent in the warm-up. A command due then but sent
			// after (an overloaded server's backlog) counts.
			if e != nil && !errors.As(e, new(*apiErr)) {
				t.err = e
				break
			}
			continue
		}
		if e != nil {
			var ae *apiErr
			if !errors.As(e, &ae) {
				t.err = e
				break
			}
			t.refused++
			t.codes[ae.status]++
			continue
		}
		t.accepted++
		t.lat = append(t.lat, answered.Sub(t0))
		if d.w != nil {
			d.w.answered(d.at, moveKey(d.seat.game, to[0], to[1]), answered)
		}
	}
	return t
}

// waitFor waits until due, and says whether ctx is still live after.
func waitFor(ctx context.Context, due time.Time) bool {
	if wait := time.Until(due); wait > 0 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			return false
		}
	}
	return true
}

// send moves a random piece of the seat up to a unit each way, and
// returns where to, when it was sent and answered, and the call's error.
// As fast as answered, an answer to wait (Retry-After) is waited out
// before it returns: a client that did not would only keep the server
// busy refusing it.
func (d *driver) send(ctx context.Context) (to [2]float64, sent, answered time.Time, e error) {
	p := d.seat.pieces[d.rng.IntN(len(d.seat.pieces))]
	to = [2]float64{p.at[0] + d.rng.Float64()*2 - 1, p.at[1] + d.rng.Float64()*2 - 1}
	body := map[string]any{"move": map[string]any{"unit": p.unit, "to": to}}
	sent = time.Now()
	e = call(context.WithoutCancel(ctx), d.c, d.base+d.seat.game+"/commands", d.seat.token, body, nil)
	answered = time.Now()
	if ae := (*apiErr)(nil); d.every == 0 && errors.As(e, &ae) && ae.retry > 0 {
		select {
		case <-time.After(ae.retry):
		case <-ctx.Done():
		}
	}
	return to, sent, answered, e
}

// apiErr is an answer other than 2xx.
type apiErr struct {
	status int
	body   string
	retry  time.Duration // Retry-After, if the answer had one
}

func (e *apiErr) Error() string { return fmt.Sprintf("status %d: %s", e.status, e.body) }

func call(ctx context.Context, c *http.Client, url, token string, in, out any) error {
	method := "GET"
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		method, body = "POST", bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		e := &apiErr{status: resp.StatusCode, body: string(data)}
		if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && n > 0 {
			e.retry = time.Duration(n) * time.Second
		}
		return e
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}
