package server

import (
	"bytes"
	"context"
	_ "embed"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"

	"orderly/strict"
	"orderly/web"
)

//go:embed openapi.json
var openapiDoc []byte

func (s *Server) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "openapi.json", time.Time{}, bytes.NewReader(openapiDoc))
}

// Handler is the whole site: the API under /api/, the page elsewhere.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range s.routes() {
		mux.HandleFunc(rt.method+" "+rt.path, rt.h)
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, errorf(NotFound, "no API route %s %s; the routes are listed in /api/openapi.json", r.Method, quote(r.URL.Path)))
	})
	static := http.FileServerFS(web.FS())
	mux.HandleFunc("GET /play", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, web.FS(), "play.html")
	})
	mux.HandleFunc("GET /edit", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, web.FS(), "edit.html")
	})
	mux.HandleFunc("GET /replay", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, web.FS(), "replay.html")
	})
	mux.HandleFunc("GET /report", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, web.FS(), "report.html")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, errorf(NotAllowed, "%s %s: the page takes only GET", r.Method, quote(r.URL.Path)))
			return
		}
		if name, ok := s.paged(r.URL.Path); ok {
			http.ServeFileFS(w, r, s.pages, name)
			return
		}
		static.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	return s.guard(mux, newHolds(s.lim.PerAddress))
}

// paged is the name in the pages given with WithPages of the file at the
// request path p, if they hold one (not a directory): that file is served
// in place of the page's own.
func (s *Server) paged(p string) (string, bool) {
	if s.pages == nil {
		return "", false
	}
	name := strings.TrimPrefix(path.Clean("/"+p), "/")
	if !fs.ValidPath(name) || name == "." {
		return "", false
	}
	st, err := fs.Stat(s.pages, name)
	if err != nil || st.IsDir() {
		return "", false
	}
	return name, true
}

// HTTPServer is an http.Server for the handler, with the header, read,
// write and idle timeouts of the server's limits (a stream extends its own
// write deadline at each write). Serve it on the listener of Listen.
func (s *Server) HTTPServer(base context.Context) *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: min(s.lim.HeaderTimeout, s.lim.ReadTimeout),
		ReadTimeout:       s.lim.ReadTimeout,
		WriteTimeout:      s.lim.WriteTimeout,
		IdleTimeout:       s.lim.IdleTimeout,
		MaxHeaderBytes:    16 << 10,
		BaseContext:       func(net.Listener) context.Context { return base },
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
}

// connKey finds a request's connection in its context (HTTPServer puts it
// there), so that a stream can bound the connection's send buffer.
type connKey struct{}

// streamBuffer is the kernel send buffer of a connection that carries a
// stream: a client that stops reading holds at most this much of the
// server's memory before the server's writes block and it is dropped.
const streamBuffer = 64 << 10

// boundBuffer caps the send buffer of the request's connection.
func boundBuffer(r *http.Request) {
	c, _ := r.Context().Value(connKey{}).(net.Conn)
	for c != nil {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetWriteBuffer(streamBuffer)
			return
		}
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			return
		}
		c = u.NetConn()
	}
}

// Listen listens on addr with at most Limits.Connections connections
// open, and Limits.PerAddress from any one client address other than a
// trusted proxy (whose clients the handler counts by their requests).
func (s *Server) Listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return LimitListener(perAddress(ln, s.lim.PerAddress, s.trusted), s.lim.Connections), nil
}

// guard checks every request before it reaches a route: the Host header
// must be a name the server answers to (against DNS rebinding), a request
// from another site's page is refused, and a request that changes
// anything must say it sends JSON (a form or a bare Blob from another
// page cannot). A client behind a trusted proxy may have at most
// Limits.PerAddress requests in progress at once, counted in busy (its
// connections are the proxy's, which Listen does not count). It adds the
// security headers, turns a panic into a 500 without details, and logs
// each request by its path (tokens travel only in headers, so they are
// never logged).
func (s *Server) guard(next http.Handler, busy *holds) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "+
			"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		start := s.now()
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("panic in handler", "method", r.Method, "path", r.URL.Path, "panic", p)
				if !rec.wrote {
					writeError(rec, errorf(Internal, "the server failed; nothing was changed"))
				}
			}
			if !strings.HasSuffix(r.URL.Path, "/stream") {
				s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "status", rec.status, "took", s.now().Sub(start))
			}
		}()
		if e := s.admit(r); e != nil {
			writeError(rec, e)
			return
		}
		if key, proxied := s.sender(r); proxied {
			if !busy.take(key) {
				e := errorf(TooMany, "this server takes at most %d requests at once from one address, streams included, and yours has them all in progress; try again when one ends", s.lim.PerAddress)
				e.retry = time.Second
				writeError(rec, e)
				return
			}
			defer busy.drop(key)
		}
		next.ServeHTTP(rec, r)
	})
}

// admit checks a request's Host, Origin and Content-Type.
func (s *Server) admit(r *http.Request) *Error {
	if (r.URL.Path == "/healthz" || r.URL.Path == "/readyz") && r.Method == http.MethodGet {
		// A proxy or orchestrator asks by the instance's own address; the
		// answer tells nothing of any game.
		return nil
	}
	if !s.answers(r.Host) {
		return errorf(WrongHost, "this server does not answer to the host name %s; it answers to localhost, IP addresses and the names given with --host", quote(r.Host))
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, r.Host) {
			return errorf(Forbidden, "a request from the page of another site (origin %s) is refused", quote(o))
		}
	}
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		return nil
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
		return errorf(Forbidden, "a request from the page of another site is refused")
	}
	if strings.HasPrefix(r.URL.Path, "/api/") {
		ct := r.Header.Get("Content-Type")
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			if ct == "" {
				return errorf(Unsupported, "the request has no Content-Type; send the body as JSON with Content-Type: application/json")
			}
			return errorf(Unsupported, "the body must be JSON (Content-Type: application/json), not %s", quote(ct))
		}
	}
	return nil
}

// answers reports whether the server answers to the Host header host:
// localhost and any IP address always (a DNS rebinding attack needs a
// name of its own), and the names given with WithHosts.
func (s *Server) answers(host string) bool {
	if host == "" {
		return false
	}
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	name = strings.TrimSuffix(strings.ToLower(strings.Trim(name, "[]")), ".")
	if name == "localhost" {
		return true
	}
	if _, err := netip.ParseAddr(name); err == nil {
		return true
	}
	return slices.Contains(s.names, name)
}

// quote quotes text from a request for a message.
func quote(s string) string { return strict.Quote(s, 80) }

// recorder notes the status a handler wrote, and passes flushes on.
type recorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach Flush and the deadlines.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
