package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"orderly/game"
	"orderly/game/gametest"
	"orderly/geom"
	"orderly/rules"
	"orderly/store/sqlite"
)

// TestBlindHTTP is the differential property of fog of war through the
// API (issue 32): two servers, alike to their random source, each make the
// same game of every rule set's demo under fog; the umpire then places
// some enemy pieces that a side does not spot, in each server elsewhere,
// where it still does not spot them, and one of the side's own pieces
// where one of those would spot it in one server and not in the other.
// From there both are sent the same requests: random commands of every
// seat (some ill-formed), the side's odds of its commands, and its board,
// game, events and event stream, its commanders' boards under strict fog.
// While the side knows the same in both games (gametest.Knows) every
// answer it gets must be byte for byte the same, status and body, save
// the event hashes and heads: the chain is keyed by a secret seed, so a
// hash tells nothing until the seed is revealed.
func TestBlindHTTP(t *testing.T) {
	t.Parallel()
	// One pair of servers for every game: each is given the same requests
	// as the other, so their random sources stay alike.
	w := newTwins(t, 1)
	watches.Store(0)
	defer func() {
		if !t.Failed() && watches.Load() == 0 {
			t.Error("no demo had a hidden piece watching one of the side's pieces: the envelope of its place was never compared")
		}
	}()
	for i, demo := range []string{"demo", "bp-demo", "cd-demo", "nes-demo", "lob-demo"} {
		mode := game.FogOn
		if i%2 == 1 {
			mode = game.FogStrict
		}
		t.Run(demo+"-"+mode, func(t *testing.T) { blindHTTP(t, w, demo, mode, uint64(i+1)) })
	}
}

// watches counts the games in which the umpire placed a piece of the side
// where a hidden enemy spots it in one server only.
var watches atomic.Int32

// twin is one of a pair of servers given the same requests.
type twin struct {
	srv *Server
	ts  *httptest.Server
}

// twinEngine is the rule sets, made once for every pair of twins, so that
// each tables file is read once.
var twinEngine = sync.OnceValues(func() (rules.Maker, error) { return rules.Make() })

func newTwins(t *testing.T, seed uint64) [2]*twin {
	t.Helper()
	eng, err := twinEngine()
	if err != nil {
		t.Fatal(err)
	}
	var out [2]*twin
	for i := range out {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "orderly.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		srv, err := New(context.Background(), db, eng, WithRand(rand.NewChaCha8([32]byte{byte(seed), 'b'})),
			WithLogger(slog.New(slog.DiscardHandler)), WithClock(func() time.Time { return time.Unix(1_800_000_000, 0) }))
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv.Handler())
		t.Cleanup(ts.Close)
		out[i] = &twin{srv: srv, ts: ts}
	}
	return out
}

// answer is a request's status and body, with every "hash" and "head"
// taken out of the body.
type answer struct {
	status int
	body   string
}

func (w *twin) call(t *testing.T, method, path, token string, body []byte) answer {
	t.Helper()
	req, err := http.NewRequest(method, w.ts.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := w.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: resp.StatusCode, body: string(unhashed(data))}
}

// unhashed is a JSON text without its "hash" and "head" members.
func unhashed(data []byte) []byte {
	if !bytes.Contains(data, []byte(`"hash"`)) && !bytes.Contains(data, []byte(`"head"`)) {
		return data
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return data
	}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			delete(x, "hash")
			delete(x, "head")
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	out, err := json.Marshal(v)
	if err != nil {
		return data
	}
	return out
}

// both sends a request to both servers and returns the answers.
func both(t *testing.T, w [2]*twin, method, path, token string, body []byte) [2]answer {
	t.Helper()
	return [2]answer{w[0].call(t, method, path, token, body), w[1].call(t, method, path, token, body)}
}

// commandBody is the API's JSON for c: {verb: its arguments}, or true for
// ready and end; the rule sets' arguments are written as they marshal,
// which the API may refuse (a random ill-formed request, then).
func commandBody(c game.Command) []byte {
	var args any = true
	if c.Args != nil {
		args = c.Args
	}
	if c.Verb == game.End && c.Step != "" {
		args = c.Step
	}
	b, err := json.Marshal(map[string]any{c.Verb: args})
	if err != nil {
		return []byte(`{}`)
	}
	return b
}

// garble spoils a request body: a byte changed, a piece cut, a field
// renamed.
func garble(b []byte, rng *rand.Rand) []byte {
	b = slices.Clone(b)
	switch rng.IntN(3) {
	case 0:
		if len(b) > 0 {
			b[rng.IntN(len(b))] = "{}[]\":,x0"[rng.IntN(9)]
		}
	case 1:
		b = b[:rng.IntN(len(b)+1)]
	default:
		b = bytes.Replace(b, []byte(`":`), []byte(`x":`), 1)
	}
	return b
}

// sse reads a stream's messages until it ends.
type sse struct {
	mu   sync.Mutex
	msgs []string
	cut  context.CancelFunc
}

func (w *twin) stream(t *testing.T, id, token string) *sse {
	t.Helper()
	ctx, cut := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", w.ts.URL+"/api/games/"+id+"/stream", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := w.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	s := &sse{cut: cut}
	t.Cleanup(func() { cut(); resp.Body.Close() })
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var msg strings.Builder
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				if msg.Len() > 0 {
					s.mu.Lock()
					s.msgs = append(s.msgs, string(unhashedSSE(msg.String())))
					s.mu.Unlock()
					msg.Reset()
				}
				continue
			}
			if strings.HasPrefix(line, ":") {
				continue // a heartbeat
			}
			msg.WriteString(line + "\n")
		}
	}()
	return s
}

// unhashedSSE is a stream message with its data's hashes taken out.
func unhashedSSE(m string) string {
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(m, "\n"), "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			line = "data: " + string(unhashed([]byte(data)))
		}
		out.WriteString(line + "\n")
	}
	return out.String()
}

// upTo is the messages s has had up to its nth event, and how many events
// it has had (at most n).
func (s *sse) upTo(n int) ([]string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	k := 0
	for _, m := range s.msgs {
		if k == n {
			break
		}
		out = append(out, m)
		if strings.Contains(m, "event: event\n") {
			k++
		}
	}
	return out, k
}

func blindHTTP(t *testing.T, w [2]*twin, demo, mode string, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 0x4779))
	ctx := context.Background()
	var made [2]*Created
	var ls [2]*live
	var hid []string
	for try := 0; ; try++ {
		if try == 8 {
			t.Fatalf("%s: no game in 8 was made with enemy pieces hidden where the test wants them", demo)
		}
		for i := range w {
			c, err := w[i].srv.Create(ctx, Setup{Scenario: demo, Fog: mode, Commanders: mode == game.FogStrict})
			if err != nil {
				t.Fatal(err)
			}
			made[i] = c
			l, e := w[i].srv.game(ctx, c.Game.ID)
			if e != nil {
				t.Fatal(e)
			}
			ls[i] = l
		}
		if mustJSON(t, made[0]) != mustJSON(t, made[1]) {
			t.Fatalf("the twin servers made different games:\n%s\n%s", mustJSON(t, made[0]), mustJSON(t, made[1]))
		}
		if hid = blindSetup(t, w, made[0], ls, rng); hid != nil {
			break
		}
	}
	id := made[0].Game.ID
	sc := ls[0].sc
	side := sc.Sides[0].ID
	tokens := map[string]string{}
	var mine []string // the side's seats: its own, then its commanders'
	for _, s := range made[0].Seats {
		switch {
		case s.Role == "umpire":
			tokens[game.Umpire] = s.Token
		case s.Role == "side":
			tokens[s.Side] = s.Token
			if s.Side == side {
				mine = append([]string{s.Token}, mine...)
			}
		case s.Side == side && len(mine) < 4:
			mine = append(mine, s.Token)
		}
	}
	streams := [2]*sse{w[0].stream(t, id, tokens[side]), w[1].stream(t, id, tokens[side])}
	base := "/api/games/" + id
	compare := func(what string, a [2]answer) {
		t.Helper()
		if a[0] != a[1] {
			t.Fatalf("%s: %s is answered\n%d %s\nby one server and\n%d %s\nby the other, whose game differs only in enemy pieces it does not spot", demo, what, a[0].status, clipS(a[0].body), a[1].status, clipS(a[1].body))
		}
	}
	knows := func() bool {
		var k [2][]byte
		for i, l := range ls {
			l.mu.Lock()
			k[i] = gametest.Knows(l.g, side)
			l.mu.Unlock()
		}
		return bytes.Equal(k[0], k[1])
	}
	since, looks := 0, 0
	look := func(when string) {
		t.Helper()
		for n, tok := range mine {
			if n == 0 || looks%4 == 0 {
				compare(fmt.Sprintf("%s: seat %d's board", when, n), both(t, w, "GET", base+"/board", tok, nil))
			}
		}
		looks++
		g := both(t, w, "GET", base, tokens[side], nil)
		compare(when+": the game", g)
		compare(when+": the events", both(t, w, "GET", fmt.Sprintf("%s/events?since=%d", base, since), tokens[side], nil))
		var info Info
		if err := json.Unmarshal([]byte(g[0].body), &info); err != nil {
			t.Fatal(err)
		}
		since = info.Version
	}
	look("at the start")
	compared, probed := 0, 0
	for k := 0; k < 40; k++ {
		ls[0].mu.Lock()
		c := ls[0].rules.(gametest.Random).Random(ls[0].g, rng)
		over := ls[0].g.State().Over
		ls[0].mu.Unlock()
		if over {
			break
		}
		if sc.Space().Kind() == geom.KindHex && rng.IntN(2) == 0 {
			// The attack of the odds as a radar: moves of the side's
			// units through where a hidden piece stands in one server.
			for _, body := range hexProbes(ls, side, hid, rng) {
				compare(fmt.Sprintf("the odds of %s", body), both(t, w, "POST", base+"/odds", tokens[side], body))
				a := both(t, w, "POST", base+"/commands", tokens[side], body)
				if !knows() {
					break
				}
				compare(fmt.Sprintf("%s's command %s", side, body), a)
				probed++
			}
		}
		tok := tokens[c.Side]
		body := commandBody(c)
		if c.Side == side {
			if rng.IntN(6) == 0 {
				body = garble(body, rng)
			}
			compare(fmt.Sprintf("the odds of %s", body), both(t, w, "POST", base+"/odds", tok, body))
		}
		a := both(t, w, "POST", base+"/commands", tok, body)
		if !knows() {
			break // the side has come to know something that differs
		}
		if c.Side == side {
			compare(fmt.Sprintf("%s's command %s", side, body), a)
			compared++
		}
		look(fmt.Sprintf("after %s's command %s", c.Side, body))
	}
	t.Logf("%s: %d commands of %s compared, %d probes, %d looks", demo, compared, side, probed, looks)
	if compared == 0 {
		t.Fatalf("%s: no command of %s was compared", demo, side)
	}
	// Both streams have brought the same messages, up to the side's last
	// event while it knew the same in both games.
	deadline := time.Now().Add(10 * time.Second)
	for {
		a, na := streams[0].upTo(since)
		b, nb := streams[1].upTo(since)
		if na >= since && nb >= since {
			if !slices.Equal(a, b) {
				t.Fatalf("%s: the side's streams differ:\n%s\n%s", demo, strings.Join(a, "\n"), strings.Join(b, "\n"))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the streams brought %d and %d of the side's %d events", demo, na, nb, since)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// blindSetup has the umpire place, in each server its own way, up to
// three enemy pieces the first side does not spot where it still does
// not, and one of the side's own pieces where one of them would spot it
// in one server only (when there is such a place); it returns the pieces
// placed, or nil if the side spots one of them after all.
func blindSetup(t *testing.T, w [2]*twin, made *Created, ls [2]*live, rng *rand.Rand) []string {
	t.Helper()
	var umpire string
	for _, s := range made.Seats {
		if s.Role == "umpire" {
			umpire = s.Token
		}
	}
	sc := ls[0].sc
	side := sc.Sides[0].ID
	ls[0].mu.Lock()
	var hidden []string
	st := ls[0].g.State()
	for _, p := range st.Pieces {
		if p.Side != side && p.OnTable && st.Hidden(side, p.ID) {
			hidden = append(hidden, p.ID)
		}
	}
	ls[0].mu.Unlock()
	if len(hidden) == 0 {
		t.Fatalf("no enemy piece is hidden from %s at the start", side)
	}
	rng.Shuffle(len(hidden), func(i, j int) { hidden[i], hidden[j] = hidden[j], hidden[i] })
	hidden = hidden[:min(3, len(hidden))]
	base := "/api/games/" + made.Game.ID + "/commands"
	for _, id := range hidden {
		for i := range w {
			ls[i].mu.Lock()
			at, ok := gametest.HideAt(ls[i].g, side, id, rng)
			ls[i].mu.Unlock()
			if !ok {
				t.Logf("try again: no hidden place for %s", id)
				return nil
			}
			body := placeBody(t, sc.Space(), id, at)
			if a := w[i].call(t, "POST", base, umpire, []byte(body)); a.status != 200 {
				t.Fatalf("the umpire's place %s: %d %s", body, a.status, a.body)
			}
		}
	}
	// One of the side's pieces where a hidden piece of the first server
	// spots it (in the other it stands elsewhere): the envelope of the
	// place must not tell.
	ls[0].mu.Lock()
	var own string
	var near geom.Point
	watched := false
	for _, p := range ls[0].g.State().Pieces {
		if p.Side != side || !p.OnTable {
			continue
		}
		for _, by := range hidden {
			if near, watched = gametest.Watched(ls[0].g, side, p.ID, by, rng); watched {
				own = p.ID
				break
			}
		}
		if watched {
			break
		}
	}
	ls[0].mu.Unlock()
	if watched {
		body := placeBody(t, sc.Space(), own, near)
		a := both(t, w, "POST", base, umpire, []byte(body))
		if a[0].status != 200 || a[1].status != 200 {
			t.Fatalf("the umpire's place %s: %+v", body, a)
		}
		watches.Add(1)
	} else {
		t.Logf("no place for a piece of %s where %v watch it", side, hidden)
	}
	for i, l := range ls {
		l.mu.Lock()
		for _, id := range hidden {
			if !l.g.State().Hidden(side, id) {
				l.mu.Unlock()
				t.Logf("try again: %s spots %s in server %d", side, id, i)
				return nil
			}
		}
		l.mu.Unlock()
	}
	return hidden
}

// hexProbes are moves of the side's units near a hidden piece (where it
// stands in either server) to the hex one or two beyond it, as the API
// takes them (NES and LOB alike).
func hexProbes(ls [2]*live, side string, hid []string, rng *rand.Rand) [][]byte {
	l := ls[rng.IntN(2)]
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.g.State()
	sp := l.sc.Space()
	pc := st.Piece(hid[rng.IntN(len(hid))])
	if pc == nil {
		return nil
	}
	aim, ok := gametest.AimAt(l.sc.Terrain, sp, pc.At, rng)
	if !ok {
		return nil
	}
	var out [][]byte
	for _, p := range st.Pieces {
		if p.Side != side || !p.OnTable || sp.Dist(p.At, pc.At) > 6 || len(out) > 6 || l.sc.Unit(p.ID) == nil {
			continue
		}
		for _, to := range []string{aim.Hex(), aim.Past(p.At)} {
			b, _ := json.Marshal(map[string]any{"move": map[string]any{"unit": p.ID, "to": to}})
			out = append(out, b)
		}
	}
	return out
}

// placeBody is the umpire's place of piece id at at, as the API takes it.
func placeBody(t *testing.T, sp geom.Space, id string, at geom.Point) string {
	t.Helper()
	var to any = at
	if _, ok := sp.(geom.Labeled); ok {
		to = sp.Format(at)
	}
	return mustJSON(t, map[string]any{"place": map[string]any{"piece": id, "to": to, "why": "a differential test"}})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func clipS(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "…"
	}
	return s
}
