package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"orderly/game"
	"orderly/store"
)

// heartbeat is how often an idle stream sends a comment, so that proxies
// and browsers keep it open.
const heartbeat = 20 * time.Second

// streamPage is how many stored events a stream's catch-up reads at a
// time: what a stream whose client has stopped reading holds until it is
// dropped.
const streamPage = 32

// stream sends the seat its events as server-sent events: first those
// after the number it asks from (Last-Event-ID, or ?since=), then each new
// one as soon as it is committed. Each message is one event, its id the
// event's number in the seat's own numbering, so a client that reconnects
// misses nothing and learns nothing of events it may not see; a "seeds"
// message says a dice seed was revealed, and a "reset" message that the
// seat's events end before the number asked from (see flush). Old events
// are read from the store a page at a time without holding the game; a
// client that does not take a write within Limits.StreamWrite is dropped
// (it reconnects and resumes), and a seat has at most
// Limits.StreamsPerSeat streams.
func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	seat, l, e := s.authenticate(r)
	if e != nil {
		writeError(w, e)
		return
	}
	n, e := streamFrom(r)
	if e != nil {
		writeError(w, e)
		return
	}
	if e := s.catchUp(r.Context(), l, seat, n); e != nil {
		writeError(w, asError(s.orGone(r, seat, l, e)))
		return
	}
	key := [32]byte(seat.Hash)
	ctx, cut := context.WithCancel(r.Context())
	defer cut()
	if !s.openStream(key, &cut) {
		writeError(w, errorf(TooMany, "this seat has %d event streams open already, this server's limit; close one (another tab?) first", s.lim.StreamsPerSeat))
		return
	}
	defer s.closeStream(key, &cut)
	found, wake, e := s.follow(r.Context(), l, seat)
	if e != nil {
		writeError(w, asError(s.orGone(r, seat, l, e)))
		return
	}
	l = found
	defer l.subs.remove(wake)
	out, err := s.openEvents(w, r)
	if err != nil {
		return
	}
	s.pump(ctx, out, l, seat, n, wake)
}

// streamFrom is the event number a stream starts after: Last-Event-ID
// (a reconnecting client's) over ?since=.
func streamFrom(r *http.Request) (int, *Error) {
	n, err := since(r)
	if err != nil {
		return 0, asError(err)
	}
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		if n, err = strconv.Atoi(id); err != nil || n < 0 {
			return 0, errorf(Invalid, "Last-Event-ID %s is not an event number", quote(id))
		}
	}
	return n, nil
}

// catchUp reads other servers' writes to the game when n is past the
// seat's last event this server knows of.
func (s *Server) catchUp(ctx context.Context, l *live, seat store.Seat, n int) *Error {
	if err := l.lock(ctx, s.st); err != nil {
		return asError(err)
	}
	if _, ok := l.at(viewer(seat), n); !ok {
		// Past the seat's last event: perhaps only past what this
		// server has read of another's writes. Read them; if it is past
		// the store's too, flush tells the client where the seat's
		// events end (reset).
		_ = l.gather(ctx, s.st)
	}
	l.mu.Unlock()
	return nil
}

// follow subscribes to the game's new events, finding the game again (a
// few times at most) if it left memory meanwhile. It returns the game
// followed and the channel that wakes on each new event.
func (s *Server) follow(ctx context.Context, l *live, seat store.Seat) (*live, chan struct{}, *Error) {
	for try := 0; ; try++ {
		if wake, ok := l.subs.add(); ok {
			return l, wake, nil
		}
		// The game left memory just now: find it again.
		var e *Error
		if l, e = s.game(ctx, seat.Game); e != nil || try == 3 {
			if e == nil {
				e = outage("the game could not be followed just now; try again in a moment")
			}
			return nil, nil, e
		}
	}
}

// openEvents answers a stream's request with the headers of an event
// stream, lifting the read timeout and bounding the write buffer.
func (s *Server) openEvents(w http.ResponseWriter, r *http.Request) (*sseWriter, error) {
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Time{}) // a stream outlives the request read timeout
	boundBuffer(r)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	out := &sseWriter{w: bufio.NewWriterSize(w, 8<<10), rc: rc, wait: s.lim.StreamWrite}
	if err := out.deadline(); err != nil {
		return nil, err
	}
	w.WriteHeader(http.StatusOK)
	return out, nil
}

// pump sends the seat's events after n, and what it has sighted, each
// time the game wakes it, with a heartbeat comment when idle, until the
// client goes, a write fails or the seat's token is revoked.
func (s *Server) pump(ctx context.Context, out *sseWriter, l *live, seat store.Seat, n int, wake chan struct{}) {
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	shown, sighted := -1, -1
	for {
		var err error
		if n, err = s.flush(ctx, out, l, seat, n, &shown); err != nil {
			return
		}
		if err := s.sight(out, l, seat, &sighted); err != nil {
			return
		}
		if err := out.flush(); err != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-l.gone: // the game was deleted
			return
		case <-wake:
		case <-tick.C:
			// A token reissued elsewhere (orderly seats on the same file)
			// ends its streams here within a heartbeat.
			if _, err := s.st.Seat(ctx, seat.Hash); errors.Is(err, store.ErrNotFound) {
				return
			}
			if err := out.comment("still here"); err != nil {
				return
			}
		}
	}
}

// openStream counts a stream of a seat, keeping the means to end it (a
// reissue ends the streams of the token it revokes), unless the seat has
// as many as it may.
func (s *Server) openStream(seat [32]byte, cut *context.CancelFunc) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.streams[seat]) >= s.lim.StreamsPerSeat {
		return false
	}
	s.streams[seat] = append(s.streams[seat], cut)
	return true
}

func (s *Server) closeStream(seat [32]byte, cut *context.CancelFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.streams[seat] = slices.DeleteFunc(s.streams[seat], func(c *context.CancelFunc) bool { return c == cut })
	if len(s.streams[seat]) == 0 {
		delete(s.streams, seat)
	}
}

// cutStreams ends every stream of a seat's token.
func (s *Server) cutStreams(seat [32]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cut := range s.streams[seat] {
		(*cut)()
	}
}

// flush writes the seat's events after its number n, and the seeds if
// more have been revealed since the last look; it returns the new n. An n
// past the seat's last event (a client that asks from further on than the
// store holds, or was sent events the store no longer holds) is answered
// with a reset message naming the seat's last event, from which the
// stream goes on. A game that cannot be read from the store just now
// (stale) ends the stream: its client comes back and is told 503 until
// it can be.
func (s *Server) flush(ctx context.Context, out *sseWriter, l *live, seat store.Seat, n int, shown *int) (int, error) {
	who := viewer(seat)
	if err := l.lock(ctx, s.st); err != nil {
		return n, err
	}
	reset := -1
	from, ok := l.at(who, n)
	if !ok {
		reset = l.version(who)
		n = reset
		from, _ = l.at(who, n)
	}
	var mem []game.Event
	stored := from < l.g.Base()
	if !stored {
		// At most 2*keep events are in memory: copy them out and let go.
		l.g.Scan(from, func(e *game.Event) {
			if e.Visible(who) {
				mem = append(mem, *e)
			}
		})
	}
	seeds := l.public(who)
	revealed := l.shown
	l.mu.Unlock()
	if reset >= 0 {
		if err := out.reset(reset); err != nil {
			return n, err
		}
	}
	var werr error
	send := func(e game.Event) bool {
		n++
		if werr = out.event(l.present(e, who, n)); werr != nil {
			return false
		}
		if n%64 == 0 {
			werr = out.flush()
		}
		return werr == nil
	}
	if stored {
		if err := scanStored(ctx, s.st, l.rules, l.id, from, streamPage, func(e game.Event) bool {
			if !e.Visible(who) {
				return true
			}
			return send(e)
		}); err != nil {
			return n, err
		}
	} else {
		for _, e := range mem {
			if !send(e) {
				break
			}
		}
	}
	if werr != nil {
		return n, werr
	}
	if revealed != *shown {
		if *shown >= 0 {
			if err := out.message("seeds", seeds); err != nil {
				return n, err
			}
		}
		*shown = revealed
	}
	return n, nil
}

// sight tells a seat of a game played with fog of war that its view has
// changed without an event it may see (an enemy piece has gone out of
// sight): the page fetches its board again. It says nothing else.
func (s *Server) sight(out *sseWriter, l *live, seat store.Seat, last *int) error {
	l.mu.Lock()
	if l.stale {
		l.mu.Unlock()
		return nil // nothing is told from a game not as stored; flush ends the stream
	}
	n := l.g.Sighted(viewer(seat))
	l.mu.Unlock()
	if *last >= 0 && n != *last {
		if err := out.message("view", struct{}{}); err != nil {
			return err
		}
	}
	*last = n
	return nil
}

// sseWriter writes server-sent events, each write under a deadline, so a
// client that stops reading is dropped instead of holding its buffers.
type sseWriter struct {
	w    *bufio.Writer
	rc   *http.ResponseController
	wait time.Duration
}

func (o *sseWriter) deadline() error {
	return o.rc.SetWriteDeadline(time.Now().Add(o.wait))
}

func (o *sseWriter) event(e Entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := o.deadline(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.w, "id: %d\nevent: event\ndata: %s\n\n", e.Event.Seq, b)
	return err
}

// reset tells the client that the seat's events end at its number n,
// as a message whose id is n: events it holds past n are not in the game
// (or it asked from past them); it drops them, reads its board again, and
// the stream goes on from n.
func (o *sseWriter) reset(n int) error {
	if err := o.deadline(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(o.w, "id: %d\nevent: reset\ndata: {\"version\":%d}\n\n", n, n)
	return err
}

func (o *sseWriter) message(event string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := o.deadline(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(o.w, "event: %s\ndata: %s\n\n", event, b)
	return err
}

func (o *sseWriter) comment(text string) error {
	if err := o.deadline(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(o.w, ": %s\n\n", text); err != nil {
		return err
	}
	return o.flush()
}

func (o *sseWriter) flush() error {
	if err := o.deadline(); err != nil {
		return err
	}
	if err := o.w.Flush(); err != nil {
		return err
	}
	return o.rc.Flush()
}

// Streams is the number of event streams open.
func (s *Server) Streams() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.streams {
		n += len(c)
	}
	return n
}
