package server

import (
	"bytes"
	"net/http"

	"orderly/report"
	"orderly/rules"
	"orderly/store"
	"orderly/strict"
	"orderly/table"
)

// reportRoutes are the routes of a game's after-action report (issue 36).
// Every report reads the built-in tables (for the titles of the rolls
// and the luck), read once here.
func (s *Server) reportRoutes() []route {
	tables := report.Tables(rules.Builtin())
	return []route{{"GET", "/api/games/{id}/report", func(w http.ResponseWriter, r *http.Request) { s.getReport(w, r, tables) }}}
}

// tableSets is Engine.Tables: the tables a game was played on.
type tableSets = func(own ...table.Source) (*table.Set, error)

// getReport answers GET /api/games/{id}/report: the game's after-action
// report as JSON, or with ?format=html the printable page orderly report
// writes. The umpire may have it at any time; a side only once the game
// is over, since before that the report would show it the other side's
// orders. It is built from the game's export, as the stored log replays.
func (s *Server) getReport(w http.ResponseWriter, r *http.Request, tables tableSets) {
	rep, html, err := s.report(r, tables)
	if err != nil {
		e := asError(err)
		if e.Code == Internal {
			s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		writeError(w, e)
		return
	}
	if !html {
		writeJSON(w, http.StatusOK, rep)
		return
	}
	var buf bytes.Buffer
	if err := report.HTML(&buf, rep); err != nil {
		writeError(w, errorf(Internal, "the server could not write the report's page"))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// The page runs nothing and loads nothing: its styles are inline.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// report builds the report r asks for, and whether as the page.
func (s *Server) report(r *http.Request, tables tableSets) (*report.Report, bool, error) {
	var html bool
	switch f := r.URL.Query().Get("format"); f {
	case "", "json":
	case "html":
		html = true
	default:
		return nil, false, errorf(Invalid, "format %s is not known; allowed: json, html", strict.Quote(f, 20))
	}
	seat, l, e := s.authenticate(r)
	if e != nil {
		return nil, false, e
	}
	rep, err := s.reportOf(r, seat, l, tables)
	if err != nil {
		return nil, false, s.orGone(r, seat, l, err)
	}
	return rep, html, nil
}

// reportOf builds the report of l's game for seat.
func (s *Server) reportOf(r *http.Request, seat store.Seat, l *live, tables tableSets) (*report.Report, error) {
	if seat.Role != store.Umpire {
		if err := l.lock(r.Context(), s.st); err != nil {
			return nil, err
		}
		err := l.fresh(r.Context(), s.st)
		over := err == nil && l.g.State().Over
		l.mu.Unlock()
		if err != nil {
			return nil, err
		}
		if !over {
			return nil, errorf(Forbidden, "a side may read the report once the game is over; until then the umpire alone may")
		}
	}
	doc, err := s.Export(r.Context(), l.id, false)
	if err != nil {
		return nil, err
	}
	eng := report.Engine{Rules: s.engine, Tables: tables}
	rep, err := report.Build(doc, eng)
	if err != nil {
		return nil, errorf(Internal, "the report of game %s could not be made: %v", l.id, err)
	}
	return rep, nil
}
