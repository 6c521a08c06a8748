package server

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"
)

// Limits bound what clients can make the server do. Each is a flag of
// orderly serve; zero means the default (DefaultLimits), and a limit can
// be lifted only by setting it very high.
type Limits struct {
	Games          int           // games kept by the server
	GamesPerHour   int           // games made or imported (or tried) per client address per hour
	Body           int64         // bytes in a command, odds or other small request
	Upload         int64         // bytes in a new game's request (an uploaded scenario)
	Import         int64         // bytes in an imported game
	Module         int64         // bytes in a roster or VASSAL module sent to the scenario editor (as JSON, the module in base64)
	IDs            int           // pieces and formations named in one command
	CommandEvents  int           // events one command may add
	GameEvents     int           // events in one game
	StreamsPerSeat int           // event streams open at once for one seat
	FailedTokens   int           // failed token attempts per client address per minute
	Idle           time.Duration // a game not used for this long leaves memory
	StreamWrite    time.Duration // a stream that takes longer to accept a write is dropped
	ReadTimeout    time.Duration // a whole request, body included, must arrive within this
	WriteTimeout   time.Duration // an answer (other than a stream) must be written within this
	IdleTimeout    time.Duration // a kept-alive connection with no request is closed after this
	Connections    int           // connections open at once
	PerAddress     int           // connections one client address has open at once; behind a trusted proxy, its requests in progress (streams included)
	HeaderTimeout  time.Duration // a request's headers must arrive within this
	Commands       int           // commands worked on at once, more wait (gate); 0: the store's choice (store.Paced), else 16
	CommandWait    time.Duration // the longest a command waits to be worked on before it is refused as busy
	// Editor bounds the editor's checks and imports (rosters, modules)
	// worked on at once, each of which may take a scenario's or a board
	// image's worth of memory (some 200 MB to scale a large board); more
	// wait up to CommandWait and are then refused as busy.
	Editor int
}

// DefaultLimits are sized for a club: dozens of games, a few hundred
// players, on a small machine.
var DefaultLimits = Limits{
	Games:          1000,
	GamesPerHour:   20,
	Body:           64 << 10,
	Upload:         8 << 20,
	Import:         16 << 20,
	Module:         24 << 20,
	IDs:            200,
	CommandEvents:  2000,
	GameEvents:     100_000,
	StreamsPerSeat: 4,
	FailedTokens:   30,
	Idle:           30 * time.Minute,
	StreamWrite:    10 * time.Second,
	ReadTimeout:    30 * time.Second,
	WriteTimeout:   30 * time.Second,
	IdleTimeout:    2 * time.Minute,
	Connections:    1024,
	PerAddress:     128,
	HeaderTimeout:  5 * time.Second,
	CommandWait:    time.Second,
	Editor:         2,
}

// orDefault fills each zero limit from DefaultLimits.
func (l Limits) orDefault() Limits {
	d := DefaultLimits
	pick := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	pick64 := func(v *int64, def int64) {
		if *v <= 0 {
			*v = def
		}
	}
	pickD := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	pick(&l.Games, d.Games)
	pick(&l.GamesPerHour, d.GamesPerHour)
	pick64(&l.Body, d.Body)
	pick64(&l.Upload, d.Upload)
	pick64(&l.Import, d.Import)
	pick64(&l.Module, d.Module)
	pick(&l.IDs, d.IDs)
	pick(&l.CommandEvents, d.CommandEvents)
	pick(&l.GameEvents, d.GameEvents)
	pick(&l.StreamsPerSeat, d.StreamsPerSeat)
	pick(&l.FailedTokens, d.FailedTokens)
	pickD(&l.Idle, d.Idle)
	pickD(&l.StreamWrite, d.StreamWrite)
	pickD(&l.ReadTimeout, d.ReadTimeout)
	pickD(&l.WriteTimeout, d.WriteTimeout)
	pickD(&l.IdleTimeout, d.IdleTimeout)
	pick(&l.Connections, d.Connections)
	pick(&l.PerAddress, d.PerAddress)
	pickD(&l.HeaderTimeout, d.HeaderTimeout)
	pickD(&l.CommandWait, d.CommandWait)
	pick(&l.Editor, d.Editor)
	return l
}

// limiter counts events per key (a client address) in fixed windows: at
// most max in any one window. It keeps at most keys keys; when full, it
// forgets windows that have ended, and if none have, it refuses new keys
// (an attacker with that many addresses is refused rather than let grow
// the map).
type limiter struct {
	mu     sync.Mutex
	now    func() time.Time
	window time.Duration
	max    int
	keys   int
	seen   map[string]*count
}

type count struct {
	start time.Time
	n     int
}

func newLimiter(now func() time.Time, window time.Duration, max int) *limiter {
	return &limiter{now: now, window: window, max: max, keys: 10_000, seen: map[string]*count{}}
}

// allow reports whether key may do one more thing now, and if so counts
// it. wait is how long until the key's window ends, for a Retry-After.
func (l *limiter) allow(key string) (ok bool, wait time.Duration) {
	return l.take(key, true)
}

// over reports whether key has used up its window, without counting.
func (l *limiter) over(key string) (bool, time.Duration) {
	ok, wait := l.take(key, false)
	return !ok, wait
}

func (l *limiter) take(key string, count1 bool) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	c := l.seen[key]
	if c != nil && now.Sub(c.start) >= l.window {
		c.start, c.n = now, 0
	}
	if c == nil {
		if !count1 {
			return true, 0
		}
		if len(l.seen) >= l.keys {
			for k, v := range l.seen {
				if now.Sub(v.start) >= l.window {
					delete(l.seen, k)
				}
			}
			if len(l.seen) >= l.keys {
				return false, l.window
			}
		}
		c = &count{start: now}
		l.seen[key] = c
	}
	wait := c.start.Add(l.window).Sub(now)
	if c.n >= l.max {
		return false, wait
	}
	if count1 {
		c.n++
	}
	return true, wait
}

// client is the address limits are counted by: the remote IP, with an
// IPv6 address taken as its /64, which one home or machine usually has
// whole. A request from a trusted proxy (WithProxies) is counted by the
// address the proxy says it came from (X-Forwarded-For, read from the
// right past the trusted proxies); an untrusted sender's header is
// ignored, since anyone can write one.
func (s *Server) client(r *http.Request) string {
	key, _ := s.sender(r)
	return key
}

// sender is the request's client address as client gives it, and whether
// a trusted proxy named it: the request came from a trusted proxy, and
// the address it names is not one.
func (s *Server) sender(r *http.Request) (key string, proxied bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return host, false
	}
	a = a.Unmap()
	if s.trusted(a) {
		a = s.forwarded(r, a)
		proxied = !s.trusted(a)
	}
	return addrKey(a), proxied
}

// addrKey is the key an address is counted by: the address, or an IPv6
// address's /64.
func addrKey(a netip.Addr) string {
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// maxHops bounds the X-Forwarded-For addresses read.
const maxHops = 16

// forwarded is the first address from the right of the request's
// X-Forwarded-For headers that is not a trusted proxy, or the last
// trusted one (from) if there is none or the header does not read.
func (s *Server) forwarded(r *http.Request, from netip.Addr) netip.Addr {
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
		if len(hops) > 4*maxHops {
			break
		}
	}
	for i := len(hops) - 1; i >= 0 && i >= len(hops)-maxHops; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return from
		}
		if a = a.Unmap(); !s.trusted(a) {
			return a
		}
		from = a
	}
	return from
}

// trusted reports whether a is one of the proxies the server trusts.
func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// LimitListener accepts at most n connections at once: further ones wait
// in the kernel's queue until one closes.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, max(n, 1)), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// NetConn is the connection beneath.
func (c *limitConn) NetConn() net.Conn { return c.Conn }

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// holds counts what each client address holds at once (connections, or
// requests in progress), at most max each. It keeps only the addresses
// that hold something, so it is never larger than what is open.
type holds struct {
	mu  sync.Mutex
	max int
	n   map[string]int
}

func newHolds(max int) *holds { return &holds{max: max, n: map[string]int{}} }

// take counts one more for key, unless key holds max already.
func (h *holds) take(key string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n[key] >= h.max {
		return false
	}
	h.n[key]++
	return true
}

// drop counts one less for key.
func (h *holds) drop(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.n[key]--; h.n[key] <= 0 {
		delete(h.n, key)
	}
}

// perAddress lets each client address have at most each connections open
// at once: a connection past that is answered 429 and closed at once, so
// that it holds nothing (under LimitListener, none of the server's
// places). Connections from an exempt address (a trusted proxy, which
// carries many clients, counted instead by their requests) are not
// counted.
func perAddress(ln net.Listener, each int, exempt func(netip.Addr) bool) net.Listener {
	e := errorf(TooMany, "this server takes at most %d connections at once from one address, and yours has them all open; try again when one closes", each)
	e.retry = time.Second
	return &addrListener{Listener: ln, open: newHolds(max(each, 1)), exempt: exempt, refusal: refusal(e)}
}

type addrListener struct {
	net.Listener
	open    *holds
	exempt  func(netip.Addr) bool
	refusal []byte // the whole answer to a connection past the cap
}

func (l *addrListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
		if err != nil || l.exempt(ap.Addr().Unmap()) {
			return c, nil
		}
		key := addrKey(ap.Addr())
		if !l.open.take(key) {
			// A fresh connection's send buffer takes the short answer
			// without waiting; the deadline only bounds a broken one.
			_ = c.SetWriteDeadline(time.Now().Add(time.Second))
			_, _ = c.Write(l.refusal)
			_ = c.Close()
			continue
		}
		return &limitConn{Conn: c, release: func() { l.open.drop(key) }}, nil
	}
}

// refusal is the HTTP answer e, whole, for a connection closed without a
// request being read.
func refusal(e *Error) []byte {
	w := &bufferWriter{h: http.Header{}}
	writeError(w, e)
	resp := &http.Response{StatusCode: w.code, ProtoMajor: 1, ProtoMinor: 1, Header: w.h, Close: true,
		ContentLength: int64(w.b.Len()), Body: io.NopCloser(&w.b)}
	var out bytes.Buffer
	_ = resp.Write(&out)
	return out.Bytes()
}

// bufferWriter is an http.ResponseWriter into memory.
type bufferWriter struct {
	h    http.Header
	code int
	b    bytes.Buffer
}

func (w *bufferWriter) Header() http.Header         { return w.h }
func (w *bufferWriter) WriteHeader(code int)        { w.code = code }
func (w *bufferWriter) Write(p []byte) (int, error) { return w.b.Write(p) }
