package load

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"orderly/server"
	"orderly/store/sqlite"
)

// Slowness is what Slow measured.
type Slowness struct {
	Streams, Events         int           // streams opened, events each was to catch up on
	Base, Peak, After       float64       // resident MiB: before the streams, the most while open, after they were dropped
	HeapPeak                float64       // Go heap in use at the peak, MiB
	Dropped                 int           // streams the server had dropped by the end
	Buffer                  int           // each client's receive buffer, bytes (0: the system's default)
	DropTime, StreamTimeout time.Duration // how long until all were dropped; the server's stream timeout
}

func (s Slowness) String() string {
	buf := "default receive buffers"
	if s.Buffer > 0 {
		buf = fmt.Sprintf("%d-byte receive buffers", s.Buffer)
	}
	return fmt.Sprintf("%d non-reading streams (%s), %d-event catch-up each: resident %.0f MiB before, %.0f MiB at most (Go heap %.0f MiB), %.0f MiB after; %d dropped within %s (stream timeout %s)",
		s.Streams, buf, s.Events, s.Base, s.Peak, s.HeapPeak, s.After, s.Dropped, s.DropTime.Round(10*time.Millisecond), s.StreamTimeout)
}

// Slow plays a demo game until the umpire has at least events events,
// then opens streams connections that each ask for the umpire's stream
// from the start and never read a byte, and measures the server's
// resident memory while they hang and after the server drops them (each
// a client that does not keep up). A client's receive buffer is rcvbuf
// bytes (0: the system's default); what the kernels' buffers hold of the
// catch-up never reaches the server's writes, so only a client whose
// buffers fill is dropped. The server runs in this process, as orderly
// serve runs it, with a stream timeout of timeout. It waits for the drops
// until ctx's deadline, or without one for 10 s past the timeout: the
// catch-ups are made first, which a loaded machine (or the race
// detector) slows.
func Slow(ctx context.Context, dir string, streams, events, rcvbuf int, timeout time.Duration, eng server.Engine) (Slowness, error) {
	out := Slowness{Streams: streams, StreamTimeout: timeout, Buffer: rcvbuf}
	st, err := sqlite.Open(ctx, filepath.Join(dir, "slow.db"))
	if err != nil {
		return out, err
	}
	defer st.Close()
	srv, err := server.New(ctx, st, eng, server.WithOpen(true), server.WithLimits(server.Limits{StreamsPerSeat: streams, Connections: streams + 64, PerAddress: streams + 64,
		StreamWrite: timeout, GamesPerHour: 10, Games: 10}))
	if err != nil {
		return out, err
	}
	g, umpire, err := slowGame(ctx, srv, events, &out)
	if err != nil {
		return out, err
	}
	ln, err := srv.Listen("127.0.0.1:0")
	if err != nil {
		return out, err
	}
	hs := srv.HTTPServer(ctx)
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	addr := ln.Addr().String()
	runtime.GC()
	debug.FreeOSMemory()
	if out.Base, err = resident(); err != nil {
		return out, err
	}
	conns, err := hangStreams(addr, g, umpire, streams, rcvbuf)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	if err != nil {
		return out, err
	}
	if err := watchDrops(ctx, srv, timeout, &out); err != nil {
		return out, err
	}
	runtime.GC()
	debug.FreeOSMemory()
	out.After, err = resident()
	return out, err
}

// slowGame makes a demo game on srv and moves a French unit to and fro
// until the umpire has at least events events, counting them in out. It
// returns the game's path and the umpire's token.
func slowGame(ctx context.Context, srv *server.Server, events int, out *Slowness) (g, umpire string, err error) {
	made, err := srv.Create(ctx, server.Setup{Scenario: "demo"})
	if err != nil {
		return "", "", err
	}
	h := srv.Handler()
	g = "/api/games/" + made.Game.ID
	umpire, french := made.Seats[0].Token, made.Seats[1].Token
	if err := local(h, "POST", g+"/commands", umpire, `{"end":true}`); err != nil {
		return "", "", err
	}
	for i := 0; out.Events < events; i++ {
		body := fmt.Sprintf(`{"move":{"unit":"F-I-1-a","to":[%d.5,31]}}`, 24+i%4)
		if err := local(h, "POST", g+"/commands", french, body); err != nil {
			return "", "", err
		}
		out.Events += 1
	}
	return g, umpire, nil
}

// hangStreams opens streams connections to the server at addr, each asking
// for game g's stream from the start as the umpire and then reading
// nothing, with a receive buffer of rcvbuf bytes (0: the system's
// default). It returns the connections opened, on an error too, for the
// caller to close.
func hangStreams(addr, g, umpire string, streams, rcvbuf int) ([]net.Conn, error) {
	var conns []net.Conn
	for range streams {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return conns, err
		}
		conns = append(conns, c)
		if tc, ok := c.(*net.TCPConn); ok && rcvbuf > 0 {
			if err := tc.SetReadBuffer(rcvbuf); err != nil {
				return conns, err
			}
		}
		if _, err := fmt.Fprintf(c, "GET %s/stream?since=0 HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n\r\n", g, addr, umpire); err != nil {
			return conns, err
		}
	}
	return conns, nil
}

// watchDrops samples resident memory into out's peaks until srv has
// dropped every stream after the stream timeout, or until ctx's deadline
// (without one, 10 s past the timeout), and notes in out how many were
// dropped and when.
func watchDrops(ctx context.Context, srv *server.Server, timeout time.Duration, out *Slowness) error {
	streams := out.Streams
	start := time.Now()
	deadline := start.Add(timeout + 10*time.Second)
	if d, ok := ctx.Deadline(); ok {
		deadline = d
	}
	for time.Now().Before(deadline) {
		rss, err := resident()
		if err != nil {
			return err
		}
		if rss > out.Peak {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			out.Peak, out.HeapPeak = rss, float64(ms.HeapInuse)/(1<<20)
		}
		if open := srv.Streams(); open == 0 && time.Since(start) > timeout {
			out.Dropped, out.DropTime = streams, time.Since(start)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if out.DropTime == 0 {
		out.Dropped = streams - srv.Streams()
		out.DropTime = time.Since(start)
	}
	return nil
}
