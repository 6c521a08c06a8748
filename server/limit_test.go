package server

import (
	"net"
	"testing"
	"time"
)

// LimitListener holds a connection beyond its cap until one closes.
func TestLimitListener(t *testing.T) {
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
