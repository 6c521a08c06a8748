package server_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"orderly/server"
)

// TestSlowClients: any one client stays within bounds. While 1,100 slow
// connections from one address (127.0.0.2), more than the server's 1,024,
// trickle their headers a byte a second, a player at another address
// (127.0.0.1) reading his board, each time on a new connection, is
// answered about as quickly as without them: his p99 latency under the
// attack is within twice his quiet p99. The two are measured in turns
// (quiet, attacked, three times over), so that a change in what else the
// machine does weighs on both. The server runs with the default limits on
// the listener orderly serve uses. Without the cap per address, the
// attacker holds every connection, and the player's reads wait for the
// header timeout.
func TestSlowClients(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 1,100 connections")
	}
	const attackers, rounds, reads = 1100, 6, 60
	lim := server.DefaultLimits
	if attackers <= lim.Connections {
		t.Fatalf("%d slow connections do not hold the server's %d", attackers, lim.Connections)
	}
	f := newFixture(t)
	id, tok := f.demo(false)
	ln, err := f.srv.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := f.srv.HTTPServer(context.Background())
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	addr := ln.Addr().String()
	from := func(ip string) *net.Dialer {
		return &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	}
	player := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true, DialContext: from("127.0.0.1").DialContext}}
	board := "http://" + addr + "/api/games/" + id + "/board"
	// read times one read of the board; a failure counts as the client's
	// whole timeout.
	read := func() time.Duration {
		start := time.Now()
		req, _ := http.NewRequest("GET", board, nil)
		req.Header.Set("Authorization", "Bearer "+tok["french"])
		resp, err := player.Do(req)
		if err != nil {
			t.Logf("a read of the board: %v", err)
			return player.Timeout
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("a read of the board: %d", resp.StatusCode)
		}
		return time.Since(start)
	}

	// attack opens the slow connections, each sending a byte of its
	// headers a second. It returns once the server has refused all but
	// PerAddress of them (it answers a refusal at once), or after 3 s,
	// with how many it did not refuse; stop closes them all. A connection
	// the server closes is made again: at once after the header timeout,
	// one to two seconds later after a refusal (some at each moment, not
	// all at once).
	head := []byte(fmt.Sprintf("GET /api/scenarios HTTP/1.1\r\nHost: %s\r\nUser-Agent: slow\r\n\r\n", addr))
	attack := func() (held int, stop func()) {
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		refusedFirst := make(chan struct{}, attackers)
		for i := range attackers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d := from("127.0.0.2")
				for n := 0; ; n++ {
					c, err := d.DialContext(ctx, "tcp", addr)
					if err != nil {
						return
					}
					ended := make(chan int64, 1) // what the server sent before it closed
					go func() {
						got, _ := io.Copy(io.Discard, c)
						ended <- got
					}()
					closing := context.AfterFunc(ctx, func() { c.Close() })
					tick := time.NewTicker(time.Second)
					got := int64(-1)
					for b := 0; got < 0; b = (b + 1) % len(head) {
						if _, err := c.Write(head[b : b+1]); err != nil {
							c.Close()
							got = <-ended
							break
						}
						select {
						case got = <-ended:
						case <-tick.C:
						}
					}
					tick.Stop()
					closing()
					c.Close()
					if n == 0 && got > 0 {
						refusedFirst <- struct{}{}
					}
					if got > 0 && !pace(ctx, time.Second+time.Duration(i%100)*10*time.Millisecond) || ctx.Err() != nil {
						return
					}
				}
			}()
		}
		refused, late := 0, time.After(3*time.Second)
	settle:
		for refused < attackers-lim.PerAddress {
			select {
			case <-refusedFirst:
				refused++
			case <-late:
				break settle
			}
		}
		return attackers - refused, func() { cancel(); wg.Wait() }
	}

	for range 20 { // warm up
		read()
	}
	var quiet, attacked []time.Duration
	for round := range rounds {
		for range reads {
			quiet = append(quiet, read())
		}
		held, stop := attack()
		// The attacker's goroutines and buffers live in this process,
		// as they would not beside a real server: what the change left
		// is collected before reads are timed, here and after stop.
		runtime.GC()
		if held > lim.PerAddress {
			t.Errorf("round %d: the server let in %d slow connections from one address; its cap is %d", round+1, held, lim.PerAddress)
		}
		for range reads {
			d := read()
			attacked = append(attacked, d)
			if d >= player.Timeout {
				break // the attack holds the server: no need to wait out every read
			}
		}
		stop()
		runtime.GC()
		t.Logf("round %d: %d of %d slow connections let in", round+1, held, attackers)
	}
	calm, under := latencyP99(quiet), latencyP99(attacked)
	t.Logf("the player's p99: quiet %s, attacked %s (%.2fx)", calm, under, float64(under)/float64(calm))
	if under > 2*calm || len(attacked) < rounds*reads {
		t.Errorf("the player's p99 went from %s to %s under the attack (%d reads); want at most twice", calm, under, len(attacked))
	}
}

// latencyP99 is the 99th percentile of d, which it sorts.
func latencyP99(d []time.Duration) time.Duration {
	slices.Sort(d)
	return d[(len(d)*99+99)/100-1]
}

// pace waits d, or less if ctx ends first, and reports whether ctx is
// still live.
func pace(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
