package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"orderly/store"
)

// heartbeat is how often an idle stream sends a comment, so that proxies
// and browsers keep it open.
const heartbeat = 20 * time.Second

// stream sends the seat its events as server-sent events: first those
// after the version it asks from (Last-Event-ID, or ?since=), then each
// new one as soon as it is committed. Each message is one event, its id
// the event's number, so a client that reconnects misses nothing; a
// "seeds" message says a dice seed was revealed.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	seat, l, e := s.authenticate(r)
	if e != nil {
		writeError(w, e)
		return
	}
	n, err := since(r)
	if err != nil {
		writeError(w, asError(err))
		return
	}
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		if n, err = strconv.Atoi(id); err != nil || n < 0 {
			writeError(w, errorf(Invalid, "Last-Event-ID %q is not an event number", id))
			return
		}
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	wake := l.subs.add()
	defer l.subs.remove(wake)
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	shown := -1
	for {
		if n, err = s.flush(r.Context(), w, l, seat, n, &shown); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-wake:
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil {
				return
			}
		}
	}
}

// flush writes the seat's events after n, and the seeds if more have been
// revealed since the last look; it returns the new n.
func (s *Server) flush(ctx context.Context, w http.ResponseWriter, l *live, seat store.Seat, n int, shown *int) (int, error) {
	l.mu.Lock()
	evs, err := l.events(ctx, s.st, seat, n)
	if err != nil {
		l.mu.Unlock()
		return n, err
	}
	seeds := l.public()
	revealed := l.shown
	l.mu.Unlock()
	for _, e := range evs.Events {
		b, err := json.Marshal(e)
		if err != nil {
			return n, err
		}
		if _, err := fmt.Fprintf(w, "id: %d\nevent: event\ndata: %s\n\n", e.Seq, b); err != nil {
			return n, err
		}
	}
	if evs.Version > n {
		// A seat is told how far the game has gone even when it may see
		// none of the new events, so its next reconnection starts there.
		if len(evs.Events) == 0 || evs.Events[len(evs.Events)-1].Seq != evs.Version {
			if _, err := fmt.Fprintf(w, "id: %d\nevent: version\ndata: %d\n\n", evs.Version, evs.Version); err != nil {
				return n, err
			}
		}
		n = evs.Version
	}
	if revealed != *shown {
		if *shown >= 0 {
			b, _ := json.Marshal(seeds)
			if _, err := fmt.Fprintf(w, "event: seeds\ndata: %s\n\n", b); err != nil {
				return n, err
			}
		}
		*shown = revealed
	}
	return n, nil
}
