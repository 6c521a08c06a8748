package server

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// LimitListener holds a connection beyond its cap until one closes.
func TestLimitListener(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := LimitListener(inner, 2)
	defer ln.Close()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	first := <-accepted
	<-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted past the cap of 2")
	case <-time.After(200 * time.Millisecond):
	}
	first.Close()
	select {
	case c := <-accepted:
		c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("closing a connection did not let the next in")
	}
}

// The limiter counts per key in windows, and forgets ended windows when
// it is full rather than growing.
func TestLimiter(t *testing.T) {
	t.Parallel()
	now := time.Unix(0, 0)
	l := newLimiter(func() time.Time { return now }, time.Minute, 2)
	l.keys = 3
	for i := range 2 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("allow %d refused", i)
		}
	}
	if ok, wait := l.allow("a"); ok || wait != time.Minute {
		t.Errorf("a third in the window: %v, wait %s", ok, wait)
	}
	if over, _ := l.over("b"); over {
		t.Error("a key never seen is over")
	}
	l.allow("b")
	l.allow("c")
	if ok, _ := l.allow("d"); ok {
		t.Error("a fourth key was let in while three windows are open")
	}
	now = now.Add(time.Minute)
	if ok, _ := l.allow("d"); !ok || len(l.seen) > 3 {
		t.Errorf("after the windows ended: %v, %d keys", ok, len(l.seen))
	}
	if ok, _ := l.allow("a"); !ok {
		t.Error("a new window was refused")
	}
}

// perAddress answers a connection past an address's cap with 429 and
// closes it, counts each address apart, lets the next in once one
// closes, and counts nothing for an exempt address.
func TestPerAddress(t *testing.T) {
	t.Parallel()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	exempt := netip.MustParseAddr("127.0.0.3")
	ln := perAddress(inner, 2, func(a netip.Addr) bool { return a == exempt })
	defer ln.Close()
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func(from string) net.Conn {
		t.Helper()
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		c, err := d.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	// in dials from an address and waits for the listener to let the
	// connection in.
	in := func(from string) net.Conn {
		t.Helper()
		dial(from)
		select {
		case c := <-accepted:
			return c
		case <-time.After(5 * time.Second):
			t.Fatalf("a connection from %s was not let in", from)
			return nil
		}
	}
	first := in("127.0.0.1")
	in("127.0.0.1")
	// A third from that address is answered 429 and closed.
	c := dial("127.0.0.1")
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("a third connection from one address, past the cap of 2: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "1" || !strings.Contains(string(body), "at most 2 connections at once from one address") {
		t.Errorf("the refusal: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Errorf("the refused connection stayed open: %d %v", n, err)
	}
	// Others are counted apart, and an exempt address not at all.
	in("127.0.0.2")
	in("127.0.0.2")
	for range 3 {
		in("127.0.0.3")
	}
	first.Close()
	in("127.0.0.1")
	if len(accepted) != 0 {
		t.Errorf("%d connections let in past the cap", len(accepted))
	}
}
