package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"orderly/rules/nb"
	"orderly/server"
)

// sse is one message of an event stream.
type sse struct {
	id, event, data string
}

// subscribe opens a seat's event stream and sends its messages on a
// channel until ctx ends.
func (f *fixture) subscribe(ctx context.Context, game, token string, lastID int) (<-chan sse, error) {
	return subscribeAt(ctx, f.ts.Client(), f.ts.URL, game, token, lastID)
}

// subscribeAt is subscribe to the server at base.
func subscribeAt(ctx context.Context, client *http.Client, base, game, token string, lastID int) (<-chan sse, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/games/"+game+"/stream", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if lastID > 0 {
		req.Header.Set("Last-Event-ID", strconv.Itoa(lastID))
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		resp.Body.Close()
		return nil, &streamError{resp.StatusCode}
	}
	out := make(chan sse, 1024)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var m sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if m.event != "" {
					select {
					case out <- m:
					case <-ctx.Done():
						return
					}
				}
				m = sse{}
			case strings.HasPrefix(line, "id: "):
				m.id = line[4:]
			case strings.HasPrefix(line, "event: "):
				m.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				m.data = line[6:]
			}
		}
	}()
	return out, nil
}

type streamError struct{ code int }

func (e *streamError) Error() string { return "stream: status " + strconv.Itoa(e.code) }

// collect reads messages until one satisfies done or the time runs out.
func collect(t *testing.T, ch <-chan sse, done func([]sse) bool) []sse {
	t.Helper()
	var got []sse
	timeout := time.After(5 * time.Second)
	for !done(got) {
		select {
		case m, ok := <-ch:
			if !ok {
				t.Fatalf("stream closed after %d messages", len(got))
			}
			got = append(got, m)
		case <-timeout:
			t.Fatalf("timed out with %d messages: %+v", len(got), got)
		}
	}
	return got
}

func events(t *testing.T, ms []sse) []server.Entry {
	var out []server.Entry
	for _, m := range ms {
		if m.event != "event" {
			continue
		}
		var e server.Entry
		if err := json.Unmarshal([]byte(m.data), &e); err != nil {
			t.Fatalf("bad event %q: %v", m.data, err)
		}
		if m.id != strconv.Itoa(e.Event.Seq) {
			t.Errorf("message id %s for event %d", m.id, e.Event.Seq)
		}
		out = append(out, e)
	}
	return out
}

// TestStream checks that each seat's stream brings it the events it may
// see as they are committed, numbered as the seat numbers them, and
// nothing else; that a stream resumed from a number starts after it; and
// that one asked from past the seat's last event is told where they end
// (reset) and goes on from there.
func TestStream(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	streams := map[string]<-chan sse{}
	start := map[string]int{}
	for _, seat := range []string{"french", "allies", "umpire"} {
		var info server.Info
		f.call("GET", "/api/games/"+id, tok[seat], nil, &info)
		start[seat] = info.Version
		ch, err := f.subscribe(ctx, id, tok[seat], info.Version)
		if err != nil {
			t.Fatal(err)
		}
		streams[seat] = ch
	}
	if start["allies"] >= start["umpire"] || start["french"] >= start["umpire"] {
		t.Fatalf("each side should see fewer events than the umpire: %v", start)
	}
	code, body := f.call("POST", "/api/games/"+id+"/commands", tok["french"], `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12],"note":"secret-plan-4711"}}`, nil)
	if code != 200 {
		t.Fatalf("write: %d %s", code, body)
	}
	upTo := func(n int) func([]sse) bool {
		return func(ms []sse) bool { return len(ms) > 0 && ms[len(ms)-1].id == strconv.Itoa(n) }
	}
	fr := events(t, collect(t, streams["french"], upTo(start["french"]+2)))
	um := events(t, collect(t, streams["umpire"], upTo(start["umpire"]+2)))
	al := collect(t, streams["allies"], upTo(start["allies"]+1))
	if len(fr) != 2 || !hasType(fr, nb.OrderWritten) || len(um) != 2 || fr[0].Event.Seq != start["french"]+1 {
		t.Errorf("french stream %+v; umpire %+v", fr, um)
	}
	ae := events(t, al)
	if len(ae) != 1 || ae[0].Event.Type != nb.MessengerSent || ae[0].Event.Seq != start["allies"]+1 {
		t.Errorf("allies' stream: %+v", al)
	}
	for _, m := range al {
		if strings.Contains(m.data, "secret-plan") || strings.Contains(m.data, "order-written") || m.event != "event" {
			t.Errorf("allies' stream shows %s %s", m.event, m.data)
		}
	}
	// A stream resumed from the first of the two events brings the second.
	ch, err := f.subscribe(ctx, id, tok["french"], start["french"]+1)
	if err != nil {
		t.Fatal(err)
	}
	again := events(t, collect(t, ch, upTo(start["french"]+2)))
	if len(again) != 1 || again[0].Event.Seq != start["french"]+2 {
		t.Errorf("resumed stream: %+v", again)
	}
	// A number the seat has not reached (a client ahead of the store) is
	// answered with where the seat's events end, in its own numbering
	// (nothing of the game's own count), and the stream goes on from there.
	past, err := f.subscribe(ctx, id, tok["allies"], start["allies"]+5)
	if err != nil {
		t.Fatal(err)
	}
	end := strconv.Itoa(start["allies"] + 1)
	if m := collect(t, past, func(ms []sse) bool { return len(ms) > 0 })[0]; m.event != "reset" || m.id != end || m.data != `{"version":`+end+`}` {
		t.Errorf("a stream from past the seat's last event began with %+v, want a reset to %s", m, end)
	}
	// Revealing the seed tells every stream.
	f.call("POST", "/api/games/"+id+"/reveal", tok["umpire"], `{"confirm":true}`, nil)
	seeds := collect(t, streams["allies"], func(ms []sse) bool { return len(ms) > 0 && ms[len(ms)-1].event == "seeds" })
	if !strings.Contains(seeds[len(seeds)-1].data, `"key"`) {
		t.Errorf("seeds message %q has no revealed key", seeds[len(seeds)-1].data)
	}
	// The stream that was reset goes on from the seat's last event.
	if code, body := f.call("POST", "/api/games/"+id+"/commands", tok["french"], `{"write":{"for":["F-II"],"kind":"attack","objective":[30,12]}}`, nil); code != 200 {
		t.Fatalf("write: %d %s", code, body)
	}
	next := events(t, collect(t, past, func(ms []sse) bool { return len(events(t, ms)) > 0 }))
	if next[0].Event.Seq != start["allies"]+2 {
		t.Errorf("after the reset the stream brought event %d, want %d", next[0].Event.Seq, start["allies"]+2)
	}
}
