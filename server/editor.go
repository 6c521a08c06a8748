package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/game"
	"orderly/strict"
)

// editorRoutes are the routes of the scenario editor (issue 35). Each
// needs what making a game needs (the host token, or an open server) and
// none counts as a game made.
func (s *Server) editorRoutes() []route {
	return []route{
		{"GET", "/api/schema/scenario/{rules}", s.handle(s.hosted(s.scenarioSchema))},
		{"GET", "/api/editor/{rules}", s.handle(s.hosted(s.editorInfo))},
		{"POST", "/api/editor/check", s.handle(s.hosted(s.editorCheck))},
		{"GET", "/api/scenarios/{id}/source", s.handle(s.hosted(s.scenarioSource))},
		{"GET", "/api/games/{id}/image", s.getImage},
	}
}

// getImage answers GET /api/games/{id}/image: the backdrop image of the
// game's scenario, to any seat of the game (the map is public), with an
// ETag; a page keeps it for the game privately.
func (s *Server) getImage(w http.ResponseWriter, r *http.Request) {
	_, l, e := s.authenticate(r)
	if e != nil {
		writeError(w, e)
		return
	}
	im := l.sc.Image
	if im == nil {
		writeError(w, errorf(NotFound, "the scenario of game %s has no backdrop image", l.id))
		return
	}
	sum := sha256.Sum256(im.Data)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, max-age=86400")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", im.Type)
	h.Set("Content-Length", strconv.Itoa(len(im.Data)))
	_, _ = w.Write(im.Data)
}

// hosted is h for a request that may make games.
func (s *Server) hosted(h handler) handler {
	return func(r *http.Request) (int, any, error) {
		if e := s.hosting(r); e != nil {
			return 0, nil, e
		}
		return h(r)
	}
}

// editorRules is the rule set named in the path, as the server plays it.
func (s *Server) editorRules(r *http.Request) (game.Rules, error) {
	id := r.PathValue("rules")
	rules, err := s.rulesOf(id)
	if err != nil {
		return nil, errorf(NotFound, "no rule set %s; the rule sets are %s", strict.Quote(id, 40), strings.Join(s.ruleSets(), ", "))
	}
	return rules, nil
}

// scenarioSchema answers GET /api/schema/scenario/{rules}: the JSON
// Schema of a scenario file of the rule set, as orderly schema scenario
// prints it.
func (s *Server) scenarioSchema(r *http.Request) (int, any, error) {
	rules, err := s.editorRules(r)
	if err != nil {
		return 0, nil, err
	}
	doc, err := battle.Schema(battle.SpecOf(rules))
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, json.RawMessage(doc), nil
}

// EditorInfo is what the editor needs of a rule set (GET
// /api/editor/{rules}).
type EditorInfo struct {
	Rules  string   `json:"rules"`
	Title  string   `json:"title"`
	Spaces []string `json:"spaces"` // table, hex
	// Terrain is the rule set's terrain key of a hex map, or nil.
	Terrain  *TerrainKey     `json:"terrain"`
	Features []string        `json:"features"` // the kinds of terrain feature on a table
	Blank    battle.Document `json:"blank"`    // a new scenario's document
	// ExampleTables says the rule set comes with example tables that a new
	// game may be played on (Setup.ExampleTables): its tables are the
	// user's (LOB), and these are example values.
	ExampleTables bool `json:"example-tables"`
}

// TerrainKey is what a rule set's hex maps may hold: the terrains of
// hexes with the letters the grid writes them as (the first is every
// hex's that the grid leaves out), the hexside features and the roads.
type TerrainKey struct {
	Hexes    []TerrainLetter `json:"hexes"`
	Hexsides []string        `json:"hexsides"`
	Roads    []string        `json:"roads"`
}

// TerrainLetter is a terrain of a hex and its letter.
type TerrainLetter struct {
	Letter string `json:"letter"`
	Name   string `json:"name"`
}

func (s *Server) editorInfo(r *http.Request) (int, any, error) {
	rules, err := s.editorRules(r)
	if err != nil {
		return 0, nil, err
	}
	spec := battle.SpecOf(rules)
	out := EditorInfo{Rules: rules.ID(), Title: spec.Title, Spaces: spec.SpaceKinds(), Features: []string{}}
	if out.Title == "" {
		out.Title = rules.ID()
	}
	out.ExampleTables = s.HasExampleTables(rules.ID())
	if slices.Contains(out.Spaces, "table") {
		out.Features = battle.FeatureTypes
	}
	if k := spec.Terrain; k != nil && spec.Uses(battle.PartTerrain) {
		t := &TerrainKey{Hexsides: append([]string{}, k.Sides...), Roads: append([]string{}, k.Roads...)}
		for _, h := range k.Hexes {
			t.Hexes = append(t.Hexes, TerrainLetter{Letter: string(h.Letter), Name: h.Name})
		}
		out.Terrain = t
	}
	if out.Blank, err = battle.Blank(spec); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, out, nil
}

// CheckRequest is a scenario for the editor to check (POST
// /api/editor/check): its text, YAML or JSON, and its file's name.
type CheckRequest struct {
	Source string `json:"source"`
	File   string `json:"file,omitempty"`
}

// Checked is the editor's check of a scenario: whether it loads as a new
// game's would, every problem found, the document and its canonical
// YAML.
type Checked struct {
	OK       bool            `json:"ok"`
	Rules    string          `json:"rules"`
	Problems []Problem       `json:"problems"`
	Doc      battle.Document `json:"doc"`  // null when the text is not a scenario mapping
	YAML     string          `json:"yaml"` // empty then
}

// Problem is one problem of a scenario: where it is (the path in the
// document, as the loader's messages name it, and the line) and the
// loader's sentence.
type Problem struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

func (s *Server) editorCheck(r *http.Request) (int, any, error) {
	var in CheckRequest
	release, err := s.editorBody(r, s.lim.Upload, &in)
	if err != nil {
		return 0, nil, err
	}
	defer release()
	file := in.File
	if file == "" {
		file = "scenario.yaml"
	}
	if len(file) > 200 || strings.ContainsAny(file, "/\\") || strings.ContainsFunc(file, func(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }) {
		return 0, nil, errorf(Invalid, "file: %s is not a file's name; give a name such as battle.yaml, without a directory or control characters, up to 200 characters", quote(file))
	}
	return http.StatusOK, s.check(file, []byte(in.Source)), nil
}

// check reads a scenario's text as a new game's would (the same loader,
// the same Prepare) and says what is wrong with it.
func (s *Server) check(file string, data []byte) Checked {
	out := Checked{Problems: []Problem{}, Doc: battle.Document("null")}
	if e := textBound(file, data); e != nil {
		out.Problems = []Problem{{Message: e.Msg}}
		return out
	}
	rd := strict.Reader{File: file, Want: "a scenario: name, rules, field, sides"}
	root, err := rd.Parse(data)
	if err == nil {
		if berr := battle.Bounded(root); berr != nil {
			err = rd.Errf(root, "%v", berr)
		}
	}
	if err != nil {
		out.Problems = problems(err)
		return out
	}
	spec := battle.Spec{}
	var rules game.Rules
	if id := scalar(root, "rules"); id != "" {
		if rs, err := s.rulesOf(id); err == nil {
			rules, spec = rs, battle.SpecOf(rs)
			out.Rules = rs.ID()
		}
	}
	if root.Kind == yaml.MappingNode {
		if doc, err := battle.ToDocument(root, spec); err == nil {
			out.Doc = doc
		}
		if y, err := battle.Canonical(root, spec); err == nil {
			out.YAML = string(y)
		}
	}
	find := func(id string) (battle.RuleSet, error) { return s.rulesOf(id) }
	sc, err := battle.ReadNode(file, root, find)
	if err == nil && rules != nil {
		if _, perr := game.Prepare(sc, rules); perr != nil {
			err = perr
		}
	}
	if err != nil {
		out.Problems = problems(err)
		return out
	}
	out.OK = true
	return out
}

// scalar is the text of key in mapping n, or "".
func scalar(n *yaml.Node, key string) string {
	if n == nil || n.Kind != yaml.MappingNode {
		return ""
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.ScalarNode {
			return n.Content[i+1].Value
		}
	}
	return ""
}

// pathPrefix is the path a loader's message starts with:
// sides[0].corps[1].general.quality: ...
var pathPrefix = regexp.MustCompile(`^([A-Za-z][\w-]*(?:\[\d+\])*(?:\.[A-Za-z][\w-]*(?:\[\d+\])*)*): `)

// problems lists the problems of a loader's error, each at its line with
// the path its message names.
func problems(err error) []Problem {
	var list []Problem
	var errs interface{ Unwrap() []error }
	if errors.As(err, &errs) {
		for _, e := range errs.Unwrap() {
			list = append(list, problems(e)...)
		}
		return list
	}
	p := Problem{Message: err.Error()}
	var se *strict.Error
	if errors.As(err, &se) {
		p.Line, p.Message = se.Line, se.Msg
	}
	if m := pathPrefix.FindStringSubmatch(p.Message); m != nil && m[1] != "scenario" {
		p.Path = m[1]
	}
	return []Problem{p}
}

// scenarioSource answers GET /api/scenarios/{id}/source: a bundled
// scenario's text, to open in the editor; for a script that holds its
// scenario, the scenario in canonical form.
func (s *Server) scenarioSource(r *http.Request) (int, any, error) {
	id := r.PathValue("id")
	i := slices.IndexFunc(s.bundled, func(b bundled) bool { return b.ID == id })
	if i < 0 {
		return 0, nil, errorf(NotFound, "no bundled scenario %s; GET /api/scenarios lists them", quote(id))
	}
	b := s.bundled[i]
	src := string(b.data)
	var doc yaml.Node
	if yaml.Unmarshal(b.data, &doc) == nil && len(doc.Content) == 1 {
		if n := mapValue(doc.Content[0], "scenario"); n != nil && n.Kind == yaml.MappingNode {
			spec := battle.Spec{}
			if rs, err := s.rulesOf(b.Rules); err == nil {
				spec = battle.SpecOf(rs)
			}
			y, err := battle.Canonical(n, spec)
			if err != nil {
				return 0, nil, err
			}
			src = string(y)
		}
	}
	return http.StatusOK, map[string]string{"file": b.file, "source": src}, nil
}

// mapValue is the value of key in mapping n, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// editorBody takes one of the places for the editor's heavier work (a
// check, a roster, a module: Limits.Editor) and then reads a JSON body of
// at most limit bytes into v. The place is taken before the body is read,
// so that many large bodies sent at once cannot hold the server's memory
// either: a body that arrives slowly holds a place, at most
// Limits.ReadTimeout. The caller gives the place back with release once
// its work is done.
func (s *Server) editorBody(r *http.Request, limit int64, v any) (release func(), err error) {
	if release, err = s.working(r.Context()); err != nil {
		return nil, err
	}
	if err := s.body(r, limit, v); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// working takes a place for the editor's work, waiting at most
// Limits.CommandWait for one, or refuses the request as busy (503 with
// Retry-After): several large modules or scenarios at once must not take
// the server's memory.
func (s *Server) working(ctx context.Context) (func(), error) {
	if leave := s.take(ctx, s.work); leave != nil {
		return leave, nil
	}
	return nil, busy("the server is checking or importing %d scenarios, rosters or modules at once, as many as it may; nothing was done, send this again in a moment", cap(s.work))
}

// take takes one of the places of places, waiting at most
// Limits.CommandWait, and returns the function that gives it back, or nil
// if none came free in time.
func (s *Server) take(ctx context.Context, places chan struct{}) func() {
	leave := func() { <-places }
	select {
	case places <- struct{}{}:
		return leave
	default:
	}
	t := time.NewTimer(s.lim.CommandWait)
	defer t.Stop()
	select {
	case places <- struct{}{}:
		return leave
	case <-t.C:
	case <-ctx.Done():
	}
	return nil
}

// textBound refuses a scenario's text of more than battle.MaxText bytes
// beside its backdrop image, before it is parsed: the image is what
// Limits.Upload allows megabytes for, and reading that much YAML would
// take seconds and hundreds of megabytes.
func textBound(file string, data []byte) *Error {
	if n := battle.TextSize(data); n > battle.MaxText {
		return errorf(TooLarge, "%s: the scenario is %d bytes beside its backdrop image; allowed: at most %d bytes (%d KiB), besides the image's data URL", file, n, battle.MaxText, battle.MaxText>>10)
	}
	return nil
}
