package server

import (
	"bytes"
	_ "embed"
	"io/fs"
	"net/http"
	"strings"
	"time"

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
		writeError(w, errorf(NotFound, "no API route %s %s; the routes are listed in /api/openapi.json", r.Method, r.URL.Path))
	})
	static := http.FileServerFS(web.FS())
	mux.HandleFunc("GET /play", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, web.FS(), "play.html")
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, errorf(NotAllowed, "%s %s: the page takes only GET", r.Method, r.URL.Path))
			return
		}
		static.ServeHTTP(w, r)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"ok": true, "games": s.Games()})
	})
	return s.guard(mux)
}

// guard adds the security headers, turns a panic into a 500 without
// details, answers a wrong method with a JSON error, and logs each request
// by its path (tokens travel only in headers, so they are never logged).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
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
		next.ServeHTTP(rec, r)
	})
}

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

// Unwrap lets http.ResponseController reach Flush.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

var _ fs.FS = web.FS()
