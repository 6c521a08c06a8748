package server_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"orderly/server"
)

// clock is a test's clock, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *clock { return &clock{now: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) add(d time.Duration) { c.mu.Lock(); c.now = c.now.Add(d); c.mu.Unlock() }

// expect checks an answer's status, error code and message.
func expect(t *testing.T, what string, code int, body []byte, want int, msg string) server.Error {
	t.Helper()
	if code != want {
		t.Fatalf("%s: %d %s; want %d", what, code, body, want)
	}
	e := apiError(t, body)
	if !strings.Contains(e.Msg, msg) {
		t.Errorf("%s: %q does not say %q", what, e.Msg, msg)
	}
	return e
}

func TestLimitGames(t *testing.T) {
	t.Parallel()
	clk := newClock()
	f := newFixture(t, server.WithClock(clk.Now), server.WithLimits(server.Limits{Games: 3, GamesPerHour: 2}))
	for i := range 2 {
		if code, body := f.call("POST", "/api/games", f.host, `{"scenario":"demo"}`, nil); code != 201 {
			t.Fatalf("game %d: %d %s", i+1, code, body)
		}
	}
	code, body := f.call("POST", "/api/games", f.host, `{"scenario":"demo"}`, nil)
	expect(t, "a third game in the hour", code, body, 429, "2 games in the last hour")
	// Retry-After says when.
	req, _ := http.NewRequest("POST", f.ts.URL+"/api/games", strings.NewReader(`{"scenario":"demo"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+f.host)
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if s, _ := strconv.Atoi(resp.Header.Get("Retry-After")); s < 3000 || s > 3600 {
		t.Errorf("Retry-After %q, want about an hour", resp.Header.Get("Retry-After"))
	}
	clk.add(time.Hour)
	if code, body := f.call("POST", "/api/games", f.host, `{"scenario":"demo"}`, nil); code != 201 {
		t.Fatalf("a game an hour later: %d %s", code, body)
	}
	// The server's own limit, whoever asks.
	clk.add(time.Hour)
	code, body = f.call("POST", "/api/games", f.host, `{"scenario":"demo"}`, nil)
	expect(t, "a game past the server's limit", code, body, 429, "at most 3 games")
	var imp strings.Builder
	imp.WriteString(`{"format":"orderly-game/3"}`)
	code, body = f.call("POST", "/api/games/import", f.host, imp.String(), nil)
	expect(t, "an import past the server's limit", code, body, 429, "at most 3 games")
	if n, _ := f.srv.Stored(context.Background()); n != 3 {
		t.Errorf("%d games stored, want 3", n)
	}
}

// TestFailedGamesCount: a game that fails to be made or imported counts
// against the address's games per hour as one made does, so a scenario
// that costs the server its work and then fails cannot be sent without
// end.
func TestFailedGamesCount(t *testing.T) {
	t.Parallel()
	f := newFixture(t, server.WithLimits(server.Limits{GamesPerHour: 2}))
	code, body := f.call("POST", "/api/games", f.host, server.Setup{Source: "just: words", File: "mine.yaml"}, nil)
	expect(t, "a scenario that does not load", code, body, 400, "mine.yaml")
	code, body = f.call("POST", "/api/games/import", f.host, `{"format":"orderly-game/0"}`, nil)
	expect(t, "an import that does not read", code, body, 400, "format")
	code, body = f.call("POST", "/api/games", f.host, `{"scenario":"demo"}`, nil)
	expect(t, "a good game after two failed", code, body, 429, "tried to make 2 games in the last hour")
	code, body = f.call("POST", "/api/games/import", f.host, `{"format":"orderly-game/0"}`, nil)
	expect(t, "an import after two failed", code, body, 429, "a failed try counts")
	if n, _ := f.srv.Stored(context.Background()); n != 0 {
		t.Errorf("%d games stored, want none", n)
	}
}

func TestHostToken(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	code, body := f.call("POST", "/api/games", "", `{"scenario":"demo"}`, nil)
	expect(t, "no host token", code, body, 401, "host link")
	code, body = f.call("POST", "/api/games", "x"+f.host[1:], `{"scenario":"demo"}`, nil)
	expect(t, "a wrong host token", code, body, 403, "not the host token")
	var h server.Host
	f.call("GET", "/api/host", f.host, nil, &h)
	if !h.Host || h.Open {
		t.Errorf("GET /api/host with the token: %+v", h)
	}
	// A new host link revokes the old.
	fresh, err := f.srv.NewHostToken()
	if err != nil {
		t.Fatal(err)
	}
	code, body = f.call("POST", "/api/games", f.host, `{"scenario":"demo"}`, nil)
	expect(t, "the old host token", code, body, 403, "not the host token")
	if code, body := f.call("POST", "/api/games", fresh, `{"scenario":"demo"}`, nil); code != 201 {
		t.Errorf("the new host token: %d %s", code, body)
	}
	open := newFixture(t, server.WithOpen(true))
	if code, body := open.call("POST", "/api/games", "", `{"scenario":"demo"}`, nil); code != 201 {
		t.Errorf("an open server: %d %s", code, body)
	}
}

func TestLimitSizesAndIDs(t *testing.T) {
	t.Parallel()
	f := newFixture(t, server.WithLimits(server.Limits{Upload: 2000, Import: 3000, Body: 1000, IDs: 3}))
	id, tok := f.demo(false)
	g := "/api/games/" + id
	big := fmt.Sprintf(`{"source":%q}`, strings.Repeat("# padding\n", 300))
	code, body := f.call("POST", "/api/games", f.host, big, nil)
	expect(t, "a large upload", code, body, 413, "limit of 2000 bytes")
	code, body = f.call("POST", "/api/games/import", f.host, `{"format":"`+strings.Repeat("x", 4000)+`"}`, nil)
	expect(t, "a large import", code, body, 413, "limit of 3000 bytes")
	code, body = f.call("POST", g+"/commands", tok["french"], `{"write":{"for":["F-I"],"kind":"attack","note":"`+strings.Repeat("x", 1200)+`"}}`, nil)
	expect(t, "a large command", code, body, 413, "limit of 1000 bytes")
	code, body = f.call("POST", g+"/commands", tok["umpire"], `{"side":"french","rout":["F-I-1-a","F-I-1-b","F-I-1-c","F-I-2-a"]}`, nil)
	expect(t, "four units", code, body, 400, "names 4 pieces and formations, over this server's limit of 3")
	code, body = f.call("POST", g+"/odds", tok["french"], `{"write":{"for":["F-I","F-II","F-VI","F-G"],"kind":"attack"}}`, nil)
	expect(t, "odds for four", code, body, 400, "limit of 3")
}

func TestLimitEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t, server.WithLimits(server.Limits{CommandEvents: 2}))
	id, tok := f.demo(false)
	g := "/api/games/" + id
	var before, after server.Board
	f.call("GET", g+"/board", tok["umpire"], nil, &before)
	code, body := f.call("POST", g+"/commands", tok["umpire"], `{"side":"french","rout":["F-I-1-a","F-I-1-b","F-I-1-c"]}`, nil)
	expect(t, "three routs", code, body, 413, "would add 3 events, over this server's limit of 2")
	f.call("GET", g+"/board", tok["umpire"], nil, &after)
	if string(mustJSON(t, before)) != string(mustJSON(t, after)) {
		t.Errorf("a command over the limit changed the game")
	}
	if code, body := f.call("POST", g+"/commands", tok["umpire"], `{"side":"french","rout":["F-I-1-a","F-I-1-b"]}`, nil); code != 200 {
		t.Errorf("two routs: %d %s", code, body)
	}
	// The steps a turn goes through are the rules', not the command's:
	// ready and end are never refused by the limit (a game would stick).
	one := newFixture(t, server.WithLimits(server.Limits{CommandEvents: 1}))
	oid, otok := one.demo(false)
	one.call("POST", "/api/games/"+oid+"/commands", otok["french"], `{"ready":true}`, nil)
	var res server.Result
	if code, body := one.call("POST", "/api/games/"+oid+"/commands", otok["allies"], `{"ready":true}`, &res); code != 200 || len(res.Events) <= 1 {
		t.Errorf("the ready that ends the step: %d %s; want it taken with more events than the limit", code, body)
	}

	// A game at its limit of events takes no more commands.
	var info server.Info
	f.call("GET", g, tok["umpire"], nil, &info)
	full := newFixture(t, server.WithLimits(server.Limits{GameEvents: info.Version + 2}))
	id, tok = full.demo(false)
	g = "/api/games/" + id
	for range 10 {
		code, body = full.call("POST", g+"/commands", tok["french"], `{"rout":["F-I-1-a"]}`, nil)
		if code != 200 {
			break
		}
		full.call("POST", g+"/commands", tok["french"], `{"rally":["F-I-1-a"]}`, nil)
	}
	expect(t, "a full game", code, body, 409, fmt.Sprintf("this server's limit of %d events for one game", info.Version+2))
}

func TestLimitStreamsAndTokens(t *testing.T) {
	t.Parallel()
	clk := newClock()
	f := newFixture(t, server.WithClock(clk.Now), server.WithLimits(server.Limits{StreamsPerSeat: 2, FailedTokens: 3}))
	id, tok := f.demo(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first, cancelFirst := context.WithCancel(ctx)
	for range 2 {
		if _, err := f.subscribe(first, id, tok["french"], 0); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.subscribe(ctx, id, tok["french"], 0); err == nil || !strings.Contains(err.Error(), "429") {
		t.Errorf("a third stream for one seat: %v", err)
	}
	if _, err := f.subscribe(ctx, id, tok["allies"], 0); err != nil {
		t.Errorf("another seat's stream: %v", err)
	}
	cancelFirst()
	waitFor(t, "a closed stream to free its place", func() bool {
		c, cancel := context.WithCancel(ctx)
		_, err := f.subscribe(c, id, tok["french"], 0)
		cancel()
		return err == nil
	})

	// Guessing tokens: after three wrong ones, even a right one waits.
	for i := range 3 {
		code, body := f.call("GET", "/api/seat", fmt.Sprintf("guess-%d", i), nil, nil)
		expect(t, "a guess", code, body, 401, "not a seat")
	}
	code, body := f.call("GET", "/api/seat", tok["french"], nil, nil)
	expect(t, "after three guesses", code, body, 429, "too many unknown tokens")
	code, body = f.call("POST", "/api/games", f.host, `{"scenario":"demo"}`, nil)
	expect(t, "the host token after three guesses", code, body, 429, "too many unknown tokens")
	clk.add(time.Minute)
	if code, body := f.call("GET", "/api/seat", tok["french"], nil, nil); code != 200 {
		t.Errorf("a minute later: %d %s", code, body)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestRequestChecks refuses what a page of another site, or a DNS
// rebinding attack, would send: a Host the server does not answer to, a
// foreign Origin, a body that does not say it is JSON (a form, a Blob).
func TestRequestChecks(t *testing.T) {
	t.Parallel()
	f := newFixture(t, server.WithHosts("club.example.org"))
	id, tok := f.demo(false)
	send := func(method, path, host, origin, ctype, token, body string) (int, []byte) {
		req, _ := http.NewRequest(method, f.ts.URL+path, strings.NewReader(body))
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := f.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, data
	}
	create := `{"scenario":"demo"}`
	for _, c := range []struct {
		name, method, path, host, origin, ctype, token, body string
		code                                                 int
		msg                                                  string
	}{
		{"rebinding", "GET", "/api/scenarios", "evil.example:8080", "", "", "", "", 421, `"evil.example:8080"`},
		{"rebinding the page", "GET", "/", "attacker.test", "", "", "", "", 421, "does not answer"},
		{"a named host", "GET", "/api/scenarios", "club.example.org:8080", "", "", "", "", 200, ""},
		{"an IP", "GET", "/api/scenarios", "192.0.2.7:8080", "", "", "", "", 200, ""},
		{"localhost", "GET", "/api/scenarios", "localhost:8080", "", "", "", "", 200, ""},
		{"a foreign origin", "POST", "/api/games", "", "http://evil.example", "application/json", f.host, create, 403, "another site"},
		{"a null origin", "POST", "/api/games", "", "null", "application/json", f.host, create, 403, "another site"},
		{"a foreign origin reading", "GET", "/api/games/" + id, "", "https://evil.example", "", tok["french"], "", 403, "another site"},
		{"a Blob body", "POST", "/api/games", "", "", "", f.host, create, 415, "no Content-Type"},
		{"a form", "POST", "/api/games", "", "", "application/x-www-form-urlencoded", f.host, create, 415, "must be JSON"},
		{"text", "POST", "/api/games/" + id + "/commands", "", "", "text/plain", tok["french"], `{"ready":true}`, 415, "must be JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, body := send(c.method, c.path, c.host, c.origin, c.ctype, c.token, c.body)
			if c.code == 200 {
				if code != 200 {
					t.Errorf("%d %s", code, body)
				}
				return
			}
			expect(t, c.name, code, body, c.code, c.msg)
		})
	}
	// The server's own origin is fine.
	u := strings.TrimPrefix(f.ts.URL, "http://")
	if code, body := send("POST", "/api/games", "", "http://"+u, "application/json", f.host, create); code != 201 {
		t.Errorf("same origin: %d %s", code, body)
	}
	if n, _ := f.srv.Stored(context.Background()); n != 2 {
		t.Errorf("%d games stored; the refused requests made some", n)
	}
}

// serveReal serves f's server as orderly serve does: its http.Server with
// the limits' timeouts, on a capped loopback listener whose connections
// have small send buffers (so that a client that does not read blocks the
// server's writes quickly).
func serveReal(t *testing.T, srv *server.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := srv.HTTPServer(context.Background())
	go func() { _ = hs.Serve(server.LimitListener(smallBuffers{ln}, 64)) }()
	t.Cleanup(func() { _ = hs.Close() })
	return ln.Addr().String()
}

type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4 << 10)
	}
	return c, err
}

// closedWithin reads from c until it closes, and reports whether it did
// within d.
func closedWithin(c net.Conn, d time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	// io.Copy returns nil at EOF. A server that closes while bytes the
	// client sent are still unread resets the connection instead, which
	// is closed too; only our own deadline means it stayed open.
	var ne net.Error
	return err == nil || !errors.As(err, &ne) || !ne.Timeout()
}

func TestTimeouts(t *testing.T) {
	f := newFixture(t, server.WithLimits(server.Limits{ReadTimeout: 300 * time.Millisecond, IdleTimeout: 300 * time.Millisecond, WriteTimeout: time.Second}))
	addr := serveReal(t, f.srv)
	// A body that never finishes arriving.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/games HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAuthorization: Bearer %s\r\nContent-Length: 5000\r\n\r\n{\"scen", addr, f.host)
	if !closedWithin(c, 5*time.Second) {
		t.Error("a slow body kept its connection open")
	}
	// Headers that never finish.
	c2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	fmt.Fprintf(c2, "GET /api/scenarios HTTP/1.1\r\nHost: %s\r\n", addr)
	if !closedWithin(c2, 5*time.Second) {
		t.Error("slow headers kept their connection open")
	}
	// A kept-alive connection that asks nothing more.
	c3, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	fmt.Fprintf(c3, "GET /api/scenarios HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	resp, err := http.ReadResponse(bufio.NewReader(c3), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("a request: %v %v", resp, err)
	}
	if !closedWithin(c3, 5*time.Second) {
		t.Error("an idle connection was kept open")
	}
}

// TestHeaderTimeout: headers sent a byte at a time are cut off at the
// header timeout, however long a whole request may take.
func TestHeaderTimeout(t *testing.T) {
	f := newFixture(t, server.WithLimits(server.Limits{HeaderTimeout: 200 * time.Millisecond, ReadTimeout: time.Minute}))
	addr := serveReal(t, f.srv)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	go func() {
		head := fmt.Sprintf("GET /api/scenarios HTTP/1.1\r\nHost: %s\r\nX-Pad: %0400d\r\n\r\n", addr, 0)
		for i := range len(head) {
			if _, err := c.Write([]byte{head[i]}); err != nil {
				return
			}
			time.Sleep(20 * time.Millisecond) // a slow client's pace
		}
	}()
	if !closedWithin(c, 3*time.Second) {
		t.Error("headers sent a byte at a time kept their connection open past the header timeout")
	}
}

// TestSlowStreamDropped opens a stream that never reads: the server's
// write blocks and is dropped after the stream timeout, freeing the seat's
// place, while a stream that reads gets every event.
func TestSlowStreamDropped(t *testing.T) {
	f := newFixture(t, server.WithLimits(server.Limits{StreamWrite: 200 * time.Millisecond, StreamsPerSeat: 1, WriteTimeout: time.Second}))
	id, tok := f.demo(false)
	g := "/api/games/" + id
	for turn := range 12 {
		// Long notes: the catch-up is far larger than the stream's 64 KiB
		// send buffer and the client's small receive buffer together.
		f.call("POST", g+"/commands", tok["french"], fmt.Sprintf(`{"write":{"for":["F-II"],"kind":"attack","objective":[10,%d],"note":%q}}`, 10+turn, strings.Repeat("n", 8000)), nil)
		for range 2 {
			f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil)
		}
	}
	addr := serveReal(t, f.srv)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(4 << 10)
	}
	fmt.Fprintf(c, "GET %s/stream HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", g, addr, tok["umpire"])
	// It never reads. The seat's one place comes free once it is dropped.
	base := "http://" + addr
	waitFor(t, "the slow stream to be dropped", func() bool {
		req, _ := http.NewRequest("GET", base+g+"/stream", nil)
		req.Header.Set("Authorization", "Bearer "+tok["umpire"])
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		resp, err := http.DefaultClient.Do(req.WithContext(ctx))
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			return false
		}
		// A reader gets the whole log.
		var info server.Info
		f.call("GET", g, tok["umpire"], nil, &info)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if sc.Text() == "id: "+strconv.Itoa(info.Version) {
				return true
			}
		}
		t.Errorf("a reading stream did not get to event %d: %v", info.Version, sc.Err())
		return true
	})
}

// A link reissued by another process on the same file (orderly seats)
// stops working here within the seat cache's five seconds.
func TestReissueElsewhere(t *testing.T) {
	t.Parallel()
	clk := newClock()
	f := newFixture(t, server.WithClock(clk.Now))
	id, tok := f.demo(false)
	g := "/api/games/" + id
	if code, _ := f.call("GET", g, tok["french"], nil, nil); code != 200 {
		t.Fatalf("the French token: %d", code)
	}
	old := sha256.Sum256([]byte(tok["french"]))
	fresh := sha256.Sum256([]byte("a new token"))
	if err := f.db.Reissue(context.Background(), id, old[:], fresh[:]); err != nil {
		t.Fatal(err)
	}
	clk.add(5 * time.Second)
	if code, body := f.call("GET", g, tok["french"], nil, nil); code != 401 {
		t.Errorf("the old token five seconds after a reissue elsewhere: %d %s", code, body)
	}
	if code, _ := f.call("GET", g, "a new token", nil, nil); code != 200 {
		t.Errorf("the new token: %d", code)
	}
}
