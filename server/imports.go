package server

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"path"
	"strings"

	"orderly/battle"
	"orderly/roster"
	"orderly/strict"
	"orderly/vmod"
)

// importRoutes are the routes that read rosters and boards for the
// scenario editor (issue 35). Like the editor's, they need what making a
// game needs (the host token, or an open server) and make no game.
func (s *Server) importRoutes() []route {
	return []route{
		{"POST", "/api/editor/roster", s.handle(s.postRoster)},
		{"GET", "/api/editor/{rules}/roster.csv", s.rosterTemplate},
		{"POST", "/api/editor/vmod", s.handle(s.postVmod)},
	}
}

// RosterRequest is a roster to read (POST /api/editor/roster).
type RosterRequest struct {
	Rules string `json:"rules"` // the rule set's id
	Text  string `json:"text"`  // CSV, or tab-separated text
	File  string `json:"file"`  // its name, for messages only
}

// RosterAnswer is the sides a roster gives, or its problems.
type RosterAnswer struct {
	Sides    []*roster.Doc    `json:"sides"`
	Problems []roster.Problem `json:"problems"`
}

// VmodRequest is a VASSAL module to read a board of (POST
// /api/editor/vmod).
type VmodRequest struct {
	Data  string `json:"data"`  // the .vmod in base64, or as a data URL
	File  string `json:"file"`  // its name, for messages only
	Board string `json:"board"` // the board to read; empty: the first with a hex grid
}

// VmodAnswer is the board read: a hex map document with its image, and
// the module's boards that have a hex grid.
type VmodAnswer struct {
	Map    *vmod.Map `json:"map"`
	Board  string    `json:"board"`
	Boards []string  `json:"boards"`
}

// fileName is a client's name of a file, for messages only: its last
// element, clipped, or def.
func fileName(name, def string) string {
	name = strings.TrimSpace(strings.ReplaceAll(name, "\\", "/"))
	if name == "" {
		return def
	}
	return strict.Clip(strict.Line(path.Base(name), 80), 60)
}

// ruleSpec is the part of the scenario format of a rule set the server
// plays.
func (s *Server) ruleSpec(id string) (battle.Spec, *Error) {
	r, err := s.rulesOf(id)
	if err != nil {
		return battle.Spec{}, errorf(NotFound, "no rule set %s; the rule sets are %s", strict.Quote(id, 40), strings.Join(s.ruleSets(), ", "))
	}
	return battle.SpecOf(r), nil
}

// postRoster answers POST /api/editor/roster: the sides of a roster, or
// its problems, each at its row and column.
func (s *Server) postRoster(r *http.Request) (int, any, error) {
	if e := s.hosting(r); e != nil {
		return 0, nil, e
	}
	var in RosterRequest
	release, err := s.editorBody(r, s.lim.Upload, &in)
	if err != nil {
		return 0, nil, err
	}
	defer release()
	spec, e := s.ruleSpec(in.Rules)
	if e != nil {
		return 0, nil, e
	}
	ro, err := roster.Read(fileName(in.File, "roster.csv"), []byte(in.Text), spec)
	if err != nil {
		return 0, nil, err
	}
	out := RosterAnswer{Sides: ro.Sides, Problems: ro.Problems}
	if out.Sides == nil {
		out.Sides = []*roster.Doc{}
	}
	if out.Problems == nil {
		out.Problems = []roster.Problem{}
	}
	return http.StatusOK, out, nil
}

// rosterTemplate answers GET /api/editor/{rules}/roster.csv: the rule
// set's roster template, as a CSV attachment.
func (s *Server) rosterTemplate(w http.ResponseWriter, r *http.Request) {
	text, err := s.template(r)
	if err != nil {
		e := asError(err)
		if e.Code == Internal {
			s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		}
		writeError(w, e)
		return
	}
	id := r.PathValue("rules")
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s-roster.csv"`, id))
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(text)
}

// template is the rule set's roster template.
func (s *Server) template(r *http.Request) ([]byte, error) {
	if e := s.hosting(r); e != nil {
		return nil, e
	}
	id := r.PathValue("rules")
	spec, e := s.ruleSpec(id)
	if e != nil {
		return nil, e
	}
	sample, err := roster.Sample(s.examples, id)
	if err != nil {
		return nil, err
	}
	return roster.Template(spec, sample)
}

// postVmod answers POST /api/editor/vmod: a board of a VASSAL module as a
// hex map document with its image.
func (s *Server) postVmod(r *http.Request) (int, any, error) {
	if e := s.hosting(r); e != nil {
		return 0, nil, e
	}
	var in VmodRequest
	release, err := s.editorBody(r, s.lim.Module, &in)
	if err != nil {
		return 0, nil, err
	}
	defer release()
	// A board image may be scaled: some 250 MB for vmod.MaxPixels, from
	// a module of a few kilobytes. One board at a time.
	leave := s.take(r.Context(), s.boards)
	if leave == nil {
		return 0, nil, busy("the server is reading another module's board; nothing was done, send this again in a moment")
	}
	defer leave()
	file := fileName(in.File, "module.vmod")
	text := in.Data
	if i := strings.Index(text, ";base64,"); strings.HasPrefix(text, "data:") && i >= 0 {
		text = text[i+len(";base64,"):]
	}
	data, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return 0, nil, errorf(Invalid, "data: %s is not in base64; send the .vmod file's bytes in base64 (or as a data URL)", file)
	}
	m, err := vmod.Read(data, in.Board)
	if err != nil {
		return 0, nil, errorf(Invalid, "%s: %s", file, strict.Line(err.Error(), MaxMessage-len(file)-2))
	}
	return http.StatusOK, VmodAnswer{Map: m.Map, Board: m.Board, Boards: m.Boards}, nil
}
