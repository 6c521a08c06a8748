// Package server is the umpire server: an HTTP JSON API over the engine,
// with seats and tokens, server-sent events, and the web page (package
// web) for players and umpires at the table and in double-blind games.
//
// A game is loaded from its stored log when a seat first asks for it;
// every command is checked by the engine and its events are committed to
// the store before anyone hears of them. A seat sees only its side's view
// (game.View), with its own numbering of the events it may see: the server
// never leaves filtering to the browser, and nothing it answers a seat,
// errors included, is built from more than that seat may know.
package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"net/http"
	"net/netip"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/dice"
	"orderly/examples"
	"orderly/game"
	"orderly/script"
	"orderly/store"
	"orderly/strict"
	"orderly/table"
)

// Engine returns the procedures of a rule set by its id, over the server's
// tables and, when given, a game's own tables file read last (a LOB game's
// numeric tables, or one game's house rules): rules.Make gives one.
type Engine = func(id string, own ...table.Source) (game.Rules, error)

// Server serves games kept in a store. A game is loaded into memory when a
// seat first asks for it and leaves memory when nobody has used it for a
// while (Limits.Idle); the store is the truth, memory a cache of it.
type Server struct {
	st      store.Store
	engine  Engine
	rand    io.Reader
	now     func() time.Time
	log     *slog.Logger
	lim     Limits
	open    bool           // anyone who reaches the server may make games
	names   []string       // host names answered besides localhost and IP addresses
	proxies []netip.Prefix // proxies trusted to say whom a request is from
	bundled []bundled
	bundle  *Bundle // bundled scenarios read already (WithBundle)
	// examples holds the bundled scenarios and scripts, each rule set's
	// under its id (WithBundled).
	examples fs.FS
	// pages holds page files served over the page's own (WithPages).
	pages fs.FS

	made   *limiter      // games made per client address
	failed *limiter      // failed token attempts per client address
	gate   *gate         // commands worked on at once
	work   chan struct{} // the editor's checks and imports worked on at once (Limits.Editor)
	boards chan struct{} // the modules' boards read at once: one
	// changing is held while the seats of a game are reissued or a game
	// deleted (seatsChange): one change at a time.
	changing chan struct{}

	mu      sync.Mutex
	host    [32]byte // SHA-256 of the host token; zero until one is made
	games   map[string]*live
	broken  map[string]string                  // games that cannot be loaded: id -> why (logged)
	starts  map[[32]byte]*cached               // parsed scenarios by the SHA-256 of their source
	streams map[[32]byte][]*context.CancelFunc // open event streams by seat, each with the means to end it
	known   map[[32]byte]knownSeat             // seats found lately, by token hash

	// shared is set while the server follows a store other instances
	// write to (Follow), listening while it hears their changes.
	shared, listening atomic.Bool
}

// knownSeat is a seat found in the store, and when.
type knownSeat struct {
	seat store.Seat
	at   time.Time
}

// seatTTL is how long a seat found in the store is taken as still there: a
// link reissued by another process on the same file (orderly seats) stops
// working within this; one reissued by this server, at once.
const seatTTL = 5 * time.Second

// maxKnown bounds the seats remembered.
const maxKnown = 10_000

type cached struct {
	sc    *battle.Scenario
	rules game.Rules
	names func(string) string // the scenario's names, which the log shows (game.Names)
	own   *table.Source       // the game's own tables file, if any
	keep  bool                // a bundled scenario's: never dropped
}

// bundled is a scenario that comes with orderly.
type bundled struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Rules string   `json:"rules"`
	Sides []string `json:"sides"`
	// Tables names the example tables file it comes with, for a rule set
	// whose numeric tables the user supplies (LOB).
	Tables string `json:"tables,omitempty"`
	file   string
	data   []byte
	own    *table.Source
}

// Option sets up a Server.
type Option func(*Server)

// WithRand sets where tokens, game ids and dice seeds come from
// (crypto/rand by default).
func WithRand(r io.Reader) Option { return func(s *Server) { s.rand = r } }

// WithClock sets the clock (game creation times, limits, idle games).
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// WithLogger sets the request and error log.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.log = l } }

// WithLimits sets the limits; zero fields keep their defaults.
func WithLimits(l Limits) Option { return func(s *Server) { s.lim = l } }

// WithOpen lets anyone who reaches the server make and import games;
// without it only a request with the host token may.
func WithOpen(open bool) Option { return func(s *Server) { s.open = open } }

// WithBundled sets the scenarios and scripts the server offers, each rule
// set's in a directory named by its id: a registry's (rules.Registry's
// Examples), so that a rule set registered in a test brings its own. The
// default is every bundled example (package examples). Of WithBundled and
// WithBundle, the last given counts.
func WithBundled(fsys fs.FS) Option {
	return func(s *Server) { s.examples, s.bundle = fsys, nil }
}

// WithPages serves the files of fsys over the page's own (web.FS): a
// file fsys holds wins, every other is the page's. A test gives the page
// module of a rule set it registers, at js/rules/ID.js. It is given by the
// Go code that makes the server, never by a client.
func WithPages(fsys fs.FS) Option { return func(s *Server) { s.pages = fsys } }

// WithHosts adds host names the server answers to (the Host header of a
// request), besides localhost and IP addresses.
func WithHosts(names ...string) Option {
	return func(s *Server) { s.names = append(s.names, names...) }
}

// WithProxies trusts the proxies at these addresses to name the client
// a request comes from (X-Forwarded-For), by which the limits per client
// address count it. Without it every request is counted by the address it
// arrived from: behind a proxy, every client is the proxy.
func WithProxies(p ...netip.Prefix) Option {
	return func(s *Server) { s.proxies = append(s.proxies, p...) }
}

// New makes a server over st. Games are loaded when first asked for.
func New(ctx context.Context, st store.Store, engine Engine, opts ...Option) (*Server, error) {
	s := &Server{st: st, engine: engine, rand: rand.Reader, now: time.Now, log: slog.New(slog.DiscardHandler), examples: examples.FS(),
		games: map[string]*live{}, broken: map[string]string{}, starts: map[[32]byte]*cached{}, streams: map[[32]byte][]*context.CancelFunc{}, known: map[[32]byte]knownSeat{}}
	for _, o := range opts {
		o(s)
	}
	s.lim = s.lim.orDefault()
	s.made = newLimiter(s.now, time.Hour, s.lim.GamesPerHour)
	s.failed = newLimiter(s.now, time.Minute, s.lim.FailedTokens)
	if s.lim.Commands <= 0 {
		s.lim.Commands = defaultCommands
		if p, ok := st.(store.Paced); ok {
			s.lim.Commands = p.Slots()
		}
	}
	s.gate = newGate(s.lim.Commands, s.lim.CommandWait, s.now)
	s.work = make(chan struct{}, s.lim.Editor)
	s.changing = make(chan struct{}, 1)
	s.boards = make(chan struct{}, 1)
	for i, n := range s.names {
		s.names[i] = strings.TrimSuffix(strings.ToLower(n), ".")
	}
	if s.bundle != nil {
		s.bundled, s.examples = slices.Clone(s.bundle.list), s.bundle.examples
		maps.Copy(s.starts, s.bundle.starts)
	} else if err := s.loadBundled(); err != nil {
		return nil, err
	}
	return s, nil
}

// Bundle is the bundled scenarios, read and checked against an engine. A
// server reads them when it starts; servers over one engine may share them
// instead (WithBundle), as a test's many servers do: reading them is most
// of what starting a server costs.
type Bundle struct {
	list     []bundled
	starts   map[[32]byte]*cached // never changed after LoadBundle
	examples fs.FS                // what they were read from
}

// LoadBundle reads the scenarios of examples (each rule set's under its id,
// as WithBundled takes them) over engine, as New does.
func LoadBundle(engine Engine, examples fs.FS) (*Bundle, error) {
	s := &Server{engine: engine, examples: examples, starts: map[[32]byte]*cached{}}
	if err := s.loadBundled(); err != nil {
		return nil, err
	}
	return &Bundle{list: s.bundled, starts: s.starts, examples: examples}, nil
}

// WithBundle gives the server the bundled scenarios b, read by LoadBundle
// over the same engine the server is made with, instead of reading its
// examples (WithBundled) again. Of WithBundle and WithBundled, the last
// given counts. A parsed scenario is never changed, so servers may share them.
func WithBundle(b *Bundle) Option { return func(s *Server) { s.bundle = b } }

// Stored is the number of games in the store.
func (s *Server) Stored(ctx context.Context) (int, error) { return s.st.Count(ctx) }

// game returns a game, loading it from the store if it is not in memory.
// A game that cannot be loaded (its stored scenario or log no longer
// reads) is logged once with the reason and answered with 503 from then
// on; every other game goes on serving.
func (s *Server) game(ctx context.Context, id string) (*live, *Error) {
	s.mu.Lock()
	l, why := s.games[id], s.broken[id]
	s.mu.Unlock()
	switch {
	case l != nil:
		l.touch(s.now())
		return l, nil
	case why != "":
		return nil, unavailable(id)
	}
	rec, err := s.st.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errorf(NotFound, "no game %s on this server", id)
	}
	if err != nil {
		s.log.Error("read a game", "game", id, "err", err)
		return nil, outage("the game could not be read from the store just now; try again in a moment")
	}
	l, err = s.restore(ctx, rec)
	if err != nil {
		var se *storeError
		if errors.As(err, &se) {
			s.log.Error("read a game", "game", id, "err", err)
			return nil, outage("the game could not be read from the store just now; try again in a moment")
		}
		s.log.Error("game unavailable: it cannot be loaded", "game", id, "reason", err)
		s.mu.Lock()
		s.broken[id] = err.Error()
		s.mu.Unlock()
		return nil, unavailable(id)
	}
	s.mu.Lock()
	have := s.games[id]
	if have != nil {
		l = have // another request loaded it first
	} else {
		s.games[id] = l
	}
	s.mu.Unlock()
	if have == nil && s.shared.Load() {
		// A change committed while it was read, and announced before it
		// was in memory, would go unheard: look once more.
		l.reseed.Store(true)
		s.kick(context.WithoutCancel(ctx), l)
	}
	l.touch(s.now())
	return l, nil
}

func unavailable(id string) *Error {
	return errorf(Unavailable, "game %s cannot be loaded on this server; the reason is in the server's log", id)
}

// storeError marks a failure to read the store, which may pass, from a
// game that cannot be rebuilt from what is stored, which will not.
type storeError struct{ error }

func (e *storeError) Unwrap() error { return e.error }

// restore rebuilds one stored game from its scenario and log.
func (s *Server) restore(ctx context.Context, rec store.Game) (*live, error) {
	c, err := s.scenario(rec.File, rec.Scenario, ownOf(rec))
	if err != nil {
		return nil, fmt.Errorf("its scenario: %w", err)
	}
	l := &live{id: rec.ID, rec: rec, src: c, sc: c.sc, rules: c.rules, source: rec.Scenario, tables: rec.Tables, gone: make(chan struct{}), played: rec.Played}
	l.rec.Scenario, l.rec.Tables = nil, nil
	if err := l.reload(ctx, s.st); err != nil {
		return nil, err
	}
	return l, nil
}

// Sweep takes out of memory the games nobody has used for Limits.Idle and
// that have no open stream, and the parsed scenarios no game in memory
// uses. They are loaded again when next asked for.
func (s *Server) Sweep() int {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for id, l := range s.games {
		if now.Sub(l.used()) >= s.lim.Idle && l.subs.retire() {
			delete(s.games, id)
			n++
		}
	}
	inUse := map[*cached]bool{}
	for _, l := range s.games {
		inUse[l.src] = true
	}
	for k, c := range s.starts {
		if !c.keep && !inUse[c] {
			delete(s.starts, k)
		}
	}
	return n
}

// Janitor runs Sweep every interval until ctx ends.
func (s *Server) Janitor(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n := s.Sweep(); n > 0 {
				s.log.Debug("idle games left memory", "games", n)
			}
		}
	}
}

// ExampleTables is the name of the example tables file a bundled
// scenario comes with, in its directory: a rule set's numbers the user
// supplies (LOB), which the game may be given in their place.
const ExampleTables = "example-tables.yaml"

func (s *Server) loadBundled() error {
	fsys := s.examples
	names, err := fs.Glob(fsys, "*/*.yaml")
	if err != nil {
		return err
	}
	for _, name := range names {
		if path.Base(name) == ExampleTables {
			continue
		}
		var own *table.Source
		tabs := path.Join(path.Dir(name), ExampleTables)
		if data, err := fs.ReadFile(fsys, tabs); err == nil {
			own = &table.Source{Name: tabs, Data: data}
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		var head struct {
			Plan     any    `yaml:"plan"`
			Script   string `yaml:"script"`
			Name     string `yaml:"name"`
			Title    string `yaml:"title"`
			Scenario any    `yaml:"scenario"`
			Refused  any    `yaml:"refused"`
			Sides    any    `yaml:"sides"`
		}
		if err := yaml.Unmarshal(data, &head); err != nil || head.Plan != nil {
			continue
		}
		if head.Sides == nil && head.Scenario == nil && head.Script == "" {
			continue // no game: a file of house rules or tables
		}
		if head.Script != "" && head.Scenario == nil || head.Refused != nil {
			continue // a script naming its scenario's file, or expecting it refused: no game of its own
		}
		c, err := s.scenario(path.Base(name), data, own)
		if err != nil {
			return fmt.Errorf("bundled %s: %w", name, err)
		}
		c.keep = true
		b := bundled{ID: strings.TrimSuffix(path.Base(name), ".yaml"), Title: head.Title, Rules: c.sc.Rules, file: path.Base(name), data: data, own: own}
		if own != nil {
			b.Tables = own.Name
		}
		if b.Title == "" {
			b.Title = c.sc.Title
		}
		if b.Title == "" {
			b.Title = b.ID
		}
		for _, sd := range c.sc.Sides {
			b.Sides = append(b.Sides, sd.ID)
		}
		s.bundled = append(s.bundled, b)
	}
	// The demo first, then the rest by name.
	sort.SliceStable(s.bundled, func(i, j int) bool {
		if (s.bundled[i].ID == "demo") != (s.bundled[j].ID == "demo") {
			return s.bundled[i].ID == "demo"
		}
		return s.bundled[i].ID < s.bundled[j].ID
	})
	return nil
}

// scenario reads a scenario file, or the scenario of a script, and checks
// it against its rule set, over the game's own tables file when it has
// one. Nothing it reads may name a file: a stored or received source is
// self-contained. Games of the same source and tables share one parsed
// scenario, which the engine never changes.
func (s *Server) scenario(file string, data []byte, own *table.Source) (*cached, error) {
	h := sha256.New()
	for _, part := range [][]byte{[]byte(file), data} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write(part)
	}
	var owns []table.Source
	if own != nil {
		owns = []table.Source{*own}
		for _, part := range [][]byte{[]byte(own.Name), own.Data} {
			fmt.Fprintf(h, "%d:", len(part))
			h.Write(part)
		}
	}
	key := [32]byte(h.Sum(nil))
	s.mu.Lock()
	c := s.starts[key]
	s.mu.Unlock()
	if c != nil {
		return c, nil
	}
	eng := func(id string) (game.Rules, error) { return s.engine(id, owns...) }
	sc, err := script.LoadAny(file, data, eng, script.NoFiles)
	if err != nil {
		return nil, err
	}
	rules, err := eng(sc.Rules)
	if err != nil {
		return nil, err
	}
	if _, err := game.Prepare(sc, rules); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	c = &cached{sc: sc, rules: rules, names: game.Names(sc), own: own}
	s.mu.Lock()
	if have := s.starts[key]; have != nil {
		c = have
	} else {
		s.starts[key] = c
	}
	s.mu.Unlock()
	return c, nil
}

// Created is a new game and its join links' tokens, shown only once.
type Created struct {
	Game  Info      `json:"game"`
	Seats []NewSeat `json:"seats"`
}

// NewSeat is a seat with its token.
type NewSeat struct {
	SeatInfo
	Token string `json:"token"`
}

// SeatInfo is a seat as the API shows it (never with its token). Name is
// how the umpire names it to reissue its link: umpire, a side's id, or the
// id of the formation a commander's seat commands.
type SeatInfo struct {
	Name      string `json:"name"`
	Role      string `json:"role"`
	Side      string `json:"side,omitempty"`
	Formation string `json:"formation,omitempty"`
	Label     string `json:"label"`
}

func seatName(s store.Seat) string {
	switch s.Role {
	case store.Umpire:
		return "umpire"
	case store.Commander:
		return s.Formation
	}
	return s.Side
}

// Setup is what a new game is made from.
type Setup struct {
	Scenario   string `json:"scenario,omitempty"` // a bundled scenario's id
	Source     string `json:"source,omitempty"`   // or a scenario file's text
	File       string `json:"file,omitempty"`     // the uploaded file's name, for messages
	Commanders bool   `json:"commanders,omitempty"`
	Title      string `json:"title,omitempty"`
	// Tables is the text of the game's own tables file (table YAML), read
	// over the server's tables for this game alone: LOB's numeric tables,
	// or any game's house rules. A bundled scenario that comes with
	// example tables is played on them unless it is given its own.
	Tables     string `json:"tables,omitempty"`
	TablesFile string `json:"tables-file,omitempty"` // its file's name, for messages
	// ExampleTables plays a scenario of a rule set whose tables the user
	// supplies (LOB) on the example tables bundled with its demo, when no
	// tables file is given: example values, not a rule book's. A rule set
	// with tables of its own needs none and plays on those.
	ExampleTables bool `json:"example-tables,omitempty"`
	// Fog is the game's fog of war: off (or empty) for a shared table, on
	// for double-blind play (a side sees an enemy piece only while one of
	// its own spots it), strict for a commander's seat that sees only
	// what his own formation spots.
	Fog string `json:"fog,omitempty"`
	// Dice is where the game's dice are thrown: server (or empty) for
	// every roll drawn by the server; table for every roll of a command
	// thrown at the table and given with it; mixed for the rolls everyone
	// sees thrown at the table and the umpire's secret ones drawn by the
	// server. Table dice need fog off.
	Dice   string `json:"dice,omitempty"`
	origin string
}

// Create makes a new game: its scenario, a seat for the umpire and for
// each side (and, if asked, for each commander under the army), and a
// secret dice seed whose commitment is published at once.
func (s *Server) Create(ctx context.Context, in Setup) (*Created, error) {
	if err := checkModes(in); err != nil {
		return nil, err
	}
	file, data, own, err := s.source(in)
	if err != nil {
		return nil, err
	}
	if e := textBound(file, data); e != nil {
		return nil, e
	}
	var from *table.Source
	if file, data, from, err = s.resolve(file, data); err != nil {
		return nil, err
	}
	if own == nil {
		own = from
	}
	if in.ExampleTables {
		if in.Tables != "" {
			return nil, errorf(Invalid, "give tables (a tables file) or example-tables, not both")
		}
		if own == nil {
			if own, err = s.exampleTables(data); err != nil {
				return nil, err
			}
		}
	}
	c, err := s.scenario(file, data, own)
	if err != nil {
		return nil, &Error{Code: Invalid, Msg: err.Error()}
	}
	return s.start(ctx, in, file, data, c, nil)
}

// checkModes checks a new game's fog and dice modes, alone and together.
func checkModes(in Setup) *Error {
	if err := game.CheckFog(in.Fog); err != nil {
		return errorf(Invalid, "%v", err)
	}
	if err := game.CheckDice(in.Dice); err != nil {
		return errorf(Invalid, "%v", err)
	}
	if game.TableDice(in.Dice) && in.Fog != "" && in.Fog != game.FogOff {
		return errorf(Invalid, "dice %s and fog %s do not go together: dice thrown at the table are seen by everyone at it, so table dice need fog off", in.Dice, in.Fog)
	}
	return nil
}

// exampleTables is the example tables file bundled with the demo of the
// rule set the scenario text names (Setup.ExampleTables), read from the
// bundled examples only; nil for a rule set that comes with none (its
// tables are built in).
func (s *Server) exampleTables(data []byte) (*table.Source, error) {
	var head struct {
		Rules string `yaml:"rules"`
	}
	if yaml.Unmarshal(data, &head) != nil || head.Rules == "" {
		return nil, nil // the loader will say what is wrong
	}
	name := path.Join(head.Rules, ExampleTables)
	if !fs.ValidPath(name) || strings.Count(name, "/") != 1 {
		return nil, nil
	}
	tabs, err := fs.ReadFile(s.examples, name)
	if err != nil {
		return nil, nil
	}
	return &table.Source{Name: name, Data: tabs}, nil
}

// HasExampleTables reports whether rule set id comes with example tables
// (Setup.ExampleTables).
func (s *Server) HasExampleTables(id string) bool {
	name := path.Join(id, ExampleTables)
	if !fs.ValidPath(name) || strings.Count(name, "/") != 1 {
		return false
	}
	_, err := fs.Stat(s.examples, name)
	return err == nil
}

// tablesOf is the tables file a new game is given, if any. The name is
// only for messages: nothing is ever opened by it.
func tablesOf(in Setup) *table.Source {
	if in.Tables == "" {
		return nil
	}
	return &table.Source{Name: upload(in.TablesFile, "tables.yaml"), Data: []byte(in.Tables)}
}

// upload is an uploaded file's name as messages give it: its base name,
// or def.
func upload(name, def string) string {
	file := path.Base(strings.ReplaceAll(name, "\\", "/"))
	if file == "" || file == "." || file == "/" {
		file = def
	}
	return strict.Line(file, 80)
}

// ownOf is a stored game's own tables file, if it has one.
func ownOf(rec store.Game) *table.Source {
	if len(rec.Tables) == 0 {
		return nil
	}
	return &table.Source{Name: rec.TablesFile, Data: rec.Tables}
}

// source is the scenario a new game is made from, and the tables file it
// is played on: the one given, else a bundled scenario's example tables.
func (s *Server) source(in Setup) (string, []byte, *table.Source, error) {
	own := tablesOf(in)
	switch {
	case in.Tables == "" && in.TablesFile != "":
		return "", nil, nil, errorf(Invalid, "tables-file names %s but tables is empty; give the tables file's text in tables", strict.Quote(in.TablesFile, 60))
	case in.Scenario != "" && in.Source != "":
		return "", nil, nil, errorf(Invalid, "give scenario (a bundled one) or source (a scenario file), not both")
	case in.Scenario != "":
		for _, b := range s.bundled {
			if b.ID == in.Scenario {
				if own == nil {
					own = b.own
				}
				return b.file, b.data, own, nil
			}
		}
		return "", nil, nil, errorf(Invalid, "scenario %s is not bundled; allowed: %s", strict.Quote(in.Scenario, 60), strings.Join(s.Bundled(), ", "))
	case in.Source != "":
		return upload(in.File, "upload.yaml"), []byte(in.Source), own, nil
	}
	return "", nil, nil, errorf(Invalid, "give scenario (the id of a bundled one) or source (a scenario file's text)")
}

// resolve makes a scenario source self-contained: a script whose scenario
// names a bundled one by id gets that scenario's text in its place, so that
// the store keeps only sources that name nothing. Any other name is
// refused without being opened: nothing a client sends names a file on the
// server.
func (s *Server) resolve(file string, data []byte) (string, []byte, *table.Source, error) {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return file, data, nil, nil // the loader will say what is wrong
	}
	m := doc.Content[0]
	var isScript bool
	var named *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "script":
			isScript = true
		case "scenario":
			if m.Content[i+1].Kind == yaml.ScalarNode {
				named = m.Content[i+1]
			}
		}
	}
	if !isScript || named == nil {
		return file, data, nil, nil
	}
	id := strings.TrimSuffix(named.Value, ".yaml")
	for _, b := range s.bundled {
		if b.ID == id {
			return b.file, b.data, b.own, nil
		}
	}
	return "", nil, nil, errorf(Invalid, "%s:%d: scenario: %s is not a bundled scenario, and a file cannot be named here; give the scenario inline, or one of: %s",
		file, named.Line, strict.Quote(named.Value, 80), strings.Join(s.Bundled(), ", "))
}

// Imported is a game's log and seeds brought from an export.
type Imported struct {
	Events []game.Event
	Seeds  []game.Seed // a nil Key is a seed whose key the export did not hold
	// Genesis is how the chain of the events starts (game.GenesisV1 for
	// an older orderly's export), which the game keeps.
	Genesis int
}

// start stores a new game: a fresh one, or one imported, whose log goes on
// under a fresh seed.
func (s *Server) start(ctx context.Context, in Setup, file string, data []byte, c *cached, imp *Imported) (*Created, error) {
	id, err := s.gameID()
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := io.ReadFull(s.rand, key); err != nil {
		return nil, fmt.Errorf("make a dice seed: %w", err)
	}
	g, seeds, err := s.newGame(in, data, c, imp, id, key)
	if err != nil {
		return nil, err
	}
	raw, err := encodeEvents(g.Log())
	if err != nil {
		return nil, err
	}
	rec := s.gameRecord(id, in, file, data, c, imp)
	made, seats, err := s.newSeats(id, c.sc, in.Commanders)
	if err != nil {
		return nil, err
	}
	if err := s.st.Create(ctx, rec, seats, seeds, raw); err != nil {
		if errors.Is(err, store.ErrUnavailable) {
			s.log.Error("store a new game", "game", id, "err", err)
			return nil, outage("the game could not be stored: the server's store is unavailable just now (out of room, or not answering); nothing was made, try again later")
		}
		return nil, fmt.Errorf("store game %s: %w", id, err)
	}
	s.log.Info("game created", "game", id, "scenario", file, "seats", len(made))
	l, e := s.game(ctx, id)
	if e != nil {
		return nil, e
	}
	if err := l.lock(ctx, s.st); err != nil {
		return nil, err
	}
	info := l.info(seats[0])
	l.mu.Unlock()
	return &Created{Game: info, Seats: made}, nil
}

// newGame makes a new game's state and the seeds to store with it: a fresh
// game under key, or an imported one replayed from its log, whose seeds
// carry over and whose log goes on under key. A game the rules refuse is
// Invalid; one longer than this server's limit is TooLarge.
func (s *Server) newGame(in Setup, data []byte, c *cached, imp *Imported, id string, key []byte) (*game.Game, []store.Seed, error) {
	var g *game.Game
	var seeds []store.Seed
	var err error
	if imp == nil {
		g, err = freshGame(in, data, c, key)
	} else {
		g, seeds, err = importedGame(in, c, imp, id)
	}
	if err != nil {
		return nil, nil, &Error{Code: Invalid, Msg: err.Error()}
	}
	if l := s.lim.GameEvents; g.Len() > l {
		return nil, nil, errorf(TooLarge, "the game has %d events, over this server's limit of %d a game", g.Len(), l)
	}
	seeds = append(seeds, store.Seed{Game: id, Seed: dice.Seed{From: g.Len() + 1, Key: key, Commitment: dice.Commitment(key)}})
	if imp == nil {
		seeds[0].From = 1
	}
	return g, seeds, nil
}

// freshGame sets up a new game under the seed key. The setup's rolls
// (secret reserve entries) come from the seed too, and its events are the
// first links of the hash chain.
func freshGame(in Setup, data []byte, c *cached, key []byte) (*game.Game, error) {
	seed := []game.Seed{{From: 1, Commitment: dice.Commitment(key), Key: key}}
	g, err := game.New(c.sc, c.rules, game.Committed(seed), game.WithFog(in.Fog), game.WithDice(in.Dice))
	if err != nil {
		return g, err
	}
	b := game.Basis{Genesis: game.GenesisV2, Scenario: data, Dice: in.Dice, Fog: in.Fog}
	if c.own != nil {
		b.Tables = c.own.Data
	}
	ch, err := game.NewChain(b, seed)
	if err != nil {
		return g, err
	}
	return g, g.SetChain(ch)
}

// importedGame replays an export's log, and keeps those of its seeds that
// rolls were made under (revealed at the end of the log where the export
// held their keys).
func importedGame(in Setup, c *cached, imp *Imported, id string) (*game.Game, []store.Seed, error) {
	var seeds []store.Seed
	g, err := game.Replay(c.sc, c.rules, imp.Events, game.WithFog(in.Fog), game.WithDice(in.Dice))
	for _, sd := range imp.Seeds {
		if err == nil && sd.From > g.Len() {
			break // no roll was made under it; the fresh seed takes its place
		}
		st := store.Seed{Game: id, Seed: sd}
		if sd.Key != nil {
			st.Revealed = g.Len()
		}
		seeds = append(seeds, st)
	}
	return g, seeds, err
}

// gameRecord is the stored record of a new game: its title (the setup's,
// else the scenario's or the script's title, else the scenario's name),
// its scenario and tables, and the fog and dice it is played with.
func (s *Server) gameRecord(id string, in Setup, file string, data []byte, c *cached, imp *Imported) store.Game {
	title := in.Title
	if title == "" {
		title = c.sc.Title
	}
	if title == "" {
		title = scriptTitle(data)
	}
	if title == "" {
		title = c.sc.Name
	}
	rec := store.Game{ID: id, Title: strict.Line(title, 200), Rules: c.sc.Rules, File: file, Scenario: data, Created: s.now(), Origin: in.origin}
	if c.own != nil {
		rec.Tables, rec.TablesFile = c.own.Data, c.own.Name
	}
	if in.Fog != game.FogOff {
		rec.Fog = in.Fog
	}
	if in.Dice != game.DiceServer {
		rec.Dice = in.Dice
	}
	// The chain of a new game starts from the genesis that binds its
	// dice and fog; an imported one keeps the start it was hashed from.
	rec.Genesis = game.GenesisV2
	if imp != nil {
		rec.Genesis = imp.Genesis
	}
	return rec
}

// newSeats makes a new game's seats, each with a fresh token: the umpire's
// first, then one a side, then (with commanders) one a formation below a
// division. It returns them as handed out and as stored.
func (s *Server) newSeats(id string, sc *battle.Scenario, commanders bool) ([]NewSeat, []store.Seat, error) {
	var made []NewSeat
	var seats []store.Seat
	add := func(role, side, formation, label string) error {
		token, hash, err := newToken(s.rand)
		if err != nil {
			return err
		}
		st := store.Seat{Hash: hash, Game: id, Role: role, Side: side, Formation: formation, Label: label}
		made = append(made, NewSeat{SeatInfo: seatInfo(st), Token: token})
		seats = append(seats, st)
		return nil
	}
	if err := add(store.Umpire, "", "", "Umpire"); err != nil {
		return nil, nil, err
	}
	for _, sd := range sc.Sides {
		label := sd.Name
		if label == "" {
			label = sd.ID
		}
		if err := add(store.Side, sd.ID, "", label); err != nil {
			return nil, nil, err
		}
	}
	if !commanders {
		return made, seats, nil
	}
	for _, sd := range sc.Sides {
		for _, f := range sd.Formations {
			if f.Kind == battle.Division || f.Kind == battle.Army {
				continue
			}
			label := f.ID
			if gen := generalOf(sd, f.General); gen != nil && gen.Name != "" {
				label = gen.Name + " (" + f.ID + ")"
			}
			if err := add(store.Commander, sd.ID, f.ID, label); err != nil {
				return nil, nil, err
			}
		}
	}
	return made, seats, nil
}

func encodeEvents(evs []game.Event) ([]json.RawMessage, error) {
	raw := make([]json.RawMessage, len(evs))
	for i := range evs {
		b, err := json.Marshal(&evs[i])
		if err != nil {
			return nil, fmt.Errorf("encode event %d: %w", evs[i].Seq, err)
		}
		raw[i] = b
	}
	return raw, nil
}

func (s *Server) gameID() (string, error) {
	b := make([]byte, 6)
	if _, err := io.ReadFull(s.rand, b); err != nil {
		return "", fmt.Errorf("make a game id: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// seat finds the seat of a token. A client address that has sent too many
// unknown tokens lately is refused for a while, whatever it sends.
func (s *Server) seat(r *http.Request, token string) (store.Seat, *Error) {
	addr := s.client(r)
	if over, wait := s.failed.over(addr); over {
		return store.Seat{}, tooMany(wait, "too many unknown tokens from your address; try again in %s", wait.Round(time.Second))
	}
	h := [32]byte(hashToken(token))
	now := s.now()
	s.mu.Lock()
	k, ok := s.known[h]
	s.mu.Unlock()
	if ok && now.Sub(k.at) < seatTTL {
		return k.seat, nil
	}
	st, err := s.st.Seat(r.Context(), h[:])
	if errors.Is(err, store.ErrNotFound) {
		s.failed.allow(addr)
		s.forget(h)
		return store.Seat{}, errorf(Unauthorized, unknownToken)
	}
	if err != nil {
		s.log.Error("read a seat", "err", err)
		return store.Seat{}, outage("the seat could not be read from the store just now; try again in a moment")
	}
	s.mu.Lock()
	if len(s.known) >= maxKnown {
		clear(s.known)
	}
	s.known[h] = knownSeat{st, now}
	s.mu.Unlock()
	return st, nil
}

// unknownToken is the answer to a token no seat has: one never made, one
// reissued, or one of a deleted game.
const unknownToken = "the token is not a seat of any game on this server"

// forget drops a seat from those found lately.
func (s *Server) forget(h [32]byte) {
	s.mu.Lock()
	delete(s.known, h)
	s.mu.Unlock()
}

// NewHostToken makes a new host token, which makes and imports games
// through the API (unless the server is open), and returns it. The one
// made before stops working: only its SHA-256 is kept, in memory.
func (s *Server) NewHostToken() (string, error) {
	token, hash, err := newToken(s.rand)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.host = [32]byte(hash)
	s.mu.Unlock()
	return token, nil
}

// MinHostToken is the shortest host token SetHostToken takes.
const MinHostToken = 32

// SetHostToken sets the host token instead of making one: several
// instances of the server on one store share it (the host link works on
// any of them). It must be at least MinHostToken letters, digits and
// - _ . ~ (the characters a link carries as they are); only its SHA-256
// is kept.
func (s *Server) SetHostToken(token string) error {
	if err := CheckHostToken(token); err != nil {
		return err
	}
	s.mu.Lock()
	s.host = [32]byte(hashToken(token))
	s.mu.Unlock()
	return nil
}

// CheckHostToken checks a host token for SetHostToken.
func CheckHostToken(token string) error {
	if len(token) < MinHostToken {
		return fmt.Errorf("the host token has %d characters; it needs at least %d", len(token), MinHostToken)
	}
	for i := 0; i < len(token); i++ {
		if c := token[i]; !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~", rune(c)) {
			return fmt.Errorf("the host token has %q at position %d; it may hold only letters, digits and - _ . ~", c, i+1)
		}
	}
	return nil
}

// Open reports whether anyone may make games.
func (s *Server) Open() bool { return s.open }

// host checks that a request may make or import a game: the server is
// open, or the request carries the host token.
func (s *Server) hosting(r *http.Request) *Error {
	if s.open {
		return nil
	}
	return s.hostOnly(r, "making a game")
}

// hostOnly checks that the request carries the host token, open server or
// not; what is what the request does, for messages ("making a game").
func (s *Server) hostOnly(r *http.Request, what string) *Error {
	addr := s.client(r)
	if over, wait := s.failed.over(addr); over {
		return tooMany(wait, "too many unknown tokens from your address; try again in %s", wait.Round(time.Second))
	}
	token, e := bearer(r)
	if e != nil {
		if what == "making a game" {
			return errorf(Unauthorized, "making a game needs the host link that orderly serve prints (or a server started with --open)")
		}
		return errorf(Unauthorized, "%s needs the host link that orderly serve prints", what)
	}
	h := [32]byte(hashToken(token))
	s.mu.Lock()
	ok := s.host != [32]byte{} && subtle.ConstantTimeCompare(h[:], s.host[:]) == 1
	s.mu.Unlock()
	if !ok {
		s.failed.allow(addr)
		return errorf(Forbidden, "this token is not the host token; %s needs the host link that orderly serve printed last", what)
	}
	return nil
}

// Bundled lists the ids of the bundled scenarios.
func (s *Server) Bundled() []string {
	var out []string
	for _, b := range s.bundled {
		out = append(out, b.ID)
	}
	return out
}

// Events is the number of events in every game in memory.
func (s *Server) Events() int {
	s.mu.Lock()
	ls := make([]*live, 0, len(s.games))
	for _, l := range s.games {
		ls = append(ls, l)
	}
	s.mu.Unlock()
	n := 0
	for _, l := range ls {
		l.mu.Lock()
		n += l.g.Len()
		l.mu.Unlock()
	}
	return n
}

// Games is the number of games in memory.
func (s *Server) Games() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.games)
}

func generalOf(sd *battle.Side, id string) *battle.General {
	for _, g := range sd.Generals {
		if g.ID == id {
			return g
		}
	}
	return nil
}

// scriptTitle is the title of a script, whose scenario has none of its own.
func scriptTitle(data []byte) string {
	var head struct {
		Title string `yaml:"title"`
	}
	_ = yaml.Unmarshal(data, &head)
	return head.Title
}
