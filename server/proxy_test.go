package server_test

import (
	"context"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"orderly/server"
)

// TestTrustedProxy: behind a proxy named with WithProxies, the limits per
// client count the client the proxy names (X-Forwarded-For, read from the
// right past trusted proxies), so one client's games do not use up
// another's; the header of a sender that is not trusted counts for
// nothing, so a client cannot dodge a limit by writing one.
func TestTrustedProxy(t *testing.T) {
	t.Parallel()
	create := func(f *fixture, fwd string) int {
		t.Helper()
		req, _ := http.NewRequest("POST", f.ts.URL+"/api/games", strings.NewReader(`{"scenario":"demo"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+f.host)
		if fwd != "" {
			req.Header.Set("X-Forwarded-For", fwd)
		}
		resp, err := f.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	lim := server.WithLimits(server.Limits{GamesPerHour: 1})
	behind := newFixture(t, lim, server.WithProxies(netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.0.0.0/8")))
	for _, c := range []struct {
		fwd  string
		want int
	}{
		{"203.0.113.5", 201},
		{"203.0.113.5", 429},            // the same client again
		{"198.51.100.7, 10.1.2.3", 201}, // another, through a second trusted proxy
		{"203.0.113.5, 198.51.100.9", 201},
		{"198.51.100.9", 429},    // the rightmost untrusted address was counted
		{"1.2.3.4, junk", 201},   // unreadable: counted as the proxy itself
		{"", 429},                // the proxy itself, once more
		{"2001:db8::1", 201},     // IPv6 by its /64
		{"2001:db8::2", 429},     // the same /64
		{"2001:db8:0:1::1", 201}, // another /64
	} {
		if got := create(behind, c.fwd); got != c.want {
			t.Errorf("X-Forwarded-For %q: %d, want %d", c.fwd, got, c.want)
		}
	}
	// Not trusted: the header is ignored.
	plain := newFixture(t, lim)
	if got := create(plain, "203.0.113.5"); got != 201 {
		t.Fatalf("first game: %d", got)
	}
	if got := create(plain, "203.0.113.6"); got != 429 {
		t.Errorf("a second game with a made-up X-Forwarded-For from an untrusted sender: %d, want 429", got)
	}
}

// TestSharedHostToken: a host token set by the host (the one every
// instance of a hosted site shares) makes games on each server given it;
// one too short or with characters a link would mangle is refused.
func TestSharedHostToken(t *testing.T) {
	t.Parallel()
	const token = "Ab3-_.~xYz0123456789abcdefghijklmnop"
	a, b := newFixture(t), newFixture(t)
	for _, f := range []*fixture{a, b} {
		if err := f.srv.SetHostToken(token); err != nil {
			t.Fatal(err)
		}
		if code, body := f.call("POST", "/api/games", token, `{"scenario":"demo"}`, nil); code != 201 {
			t.Fatalf("the shared token: %d %s", code, body)
		}
		code, body := f.call("POST", "/api/games", f.host, `{"scenario":"demo"}`, nil)
		expect(t, "the token made at the start, once replaced", code, body, 403, "not the host token")
	}
	for _, bad := range []string{"short", strings.Repeat("a", 31), strings.Repeat("a", 40) + " ", strings.Repeat("a", 40) + "#", strings.Repeat("é", 20)} {
		if err := a.srv.SetHostToken(bad); err == nil {
			t.Errorf("host token %q was taken", bad)
		}
	}
	if code, _ := a.call("POST", "/api/games", token, `{"scenario":"demo"}`, nil); code != 201 {
		t.Error("a refused token replaced the good one")
	}
}

// TestProxiedRequestsPerAddress: behind a trusted proxy, whose
// connections carry every client's, each client the proxy names may have
// at most PerAddress requests in progress, a stream counting for as long
// as it is open: one more is refused with 429 in one sentence, while
// another client, and the proxy's own requests, go on; once a stream
// ends, its client may ask again.
func TestProxiedRequestsPerAddress(t *testing.T) {
	t.Parallel()
	f := newFixture(t, server.WithLimits(server.Limits{PerAddress: 2}), server.WithProxies(netip.MustParsePrefix("127.0.0.0/8")))
	id, tok := f.demo(false)
	get := func(path, fwd string) (int, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", f.ts.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+tok["french"])
		if fwd != "" {
			req.Header.Set("X-Forwarded-For", fwd)
		}
		resp, err := f.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, body
	}
	// Two streams of one client, open until their contexts end.
	var stops []context.CancelFunc
	for range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stops = append(stops, cancel)
		req, _ := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/api/games/"+id+"/stream", nil)
		req.Header.Set("Authorization", "Bearer "+tok["french"])
		req.Header.Set("X-Forwarded-For", "203.0.113.5")
		resp, err := f.ts.Client().Do(req)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("a stream: %v %v", resp, err)
		}
		defer resp.Body.Close()
	}
	board := "/api/games/" + id + "/board"
	code, body := get(board, "203.0.113.5")
	expect(t, "a third request of a client with two streams", code, body, 429, "at most 2 requests at once from one address, streams included")
	if code, body := get(board, "198.51.100.7"); code != 200 {
		t.Errorf("another client: %d %s", code, body)
	}
	if code, body := get(board, ""); code != 200 {
		t.Errorf("the proxy's own request: %d %s", code, body)
	}
	stops[0]()
	// The server ends the stream when it sees the connection close.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		code, body := get(board, "203.0.113.5")
		if code == 200 {
			break
		}
		if code != 429 || time.Now().After(deadline) {
			t.Fatalf("once a stream ended: %d %s", code, body)
		}
	}
}
