// Package server is the umpire server: an HTTP JSON API over the engine,
// with seats and tokens, server-sent events, and the web page (package
// web) for players and umpires at the table and in double-blind games.
//
// Every game lives in memory, rebuilt from its stored log at start; every
// command is checked by the engine and its events are committed to the
// store before anyone hears of them. A seat sees only its side's view
// (game.View): the server never leaves filtering to the browser.
package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path"
	"sort"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/dice"
	"orderly/examples"
	"orderly/game"
	"orderly/script"
	"orderly/store"
	"orderly/strict"
)

// Engine returns the procedures of a rule set by its id.
type Engine func(id string) (game.Rules, error)

// Server serves games kept in a store.
type Server struct {
	st      store.Store
	engine  Engine
	rand    io.Reader
	now     func() time.Time
	log     *slog.Logger
	maxBody int64
	bundled []bundled

	mu     sync.RWMutex
	games  map[string]*live
	seats  map[[32]byte]store.Seat // by token hash; seats never change
	starts map[[32]byte]*cached    // parsed scenarios by the SHA-256 of their source
}

type cached struct {
	sc    *battle.Scenario
	rules game.Rules
}

// bundled is a scenario that comes with orderly.
type bundled struct {
	ID    string   `json:"id"`
	Title string   `json:"title"`
	Rules string   `json:"rules"`
	Sides []string `json:"sides"`
	file  string
	data  []byte
}

// Option sets up a Server.
type Option func(*Server)

// WithRand sets where tokens, game ids and dice seeds come from
// (crypto/rand by default).
func WithRand(r io.Reader) Option { return func(s *Server) { s.rand = r } }

// WithClock sets the clock used for game creation times.
func WithClock(now func() time.Time) Option { return func(s *Server) { s.now = now } }

// WithLogger sets the request and error log.
func WithLogger(l *slog.Logger) Option { return func(s *Server) { s.log = l } }

// WithMaxBody sets the largest request body accepted (1 MiB by default).
func WithMaxBody(n int64) Option { return func(s *Server) { s.maxBody = n } }

// New makes a server over st and rebuilds every stored game from its log.
func New(ctx context.Context, st store.Store, engine Engine, opts ...Option) (*Server, error) {
	s := &Server{st: st, engine: engine, rand: rand.Reader, now: time.Now, log: slog.New(slog.DiscardHandler),
		maxBody: 1 << 20, games: map[string]*live{}, seats: map[[32]byte]store.Seat{}, starts: map[[32]byte]*cached{}}
	for _, o := range opts {
		o(s)
	}
	if err := s.loadBundled(); err != nil {
		return nil, err
	}
	recs, err := st.Games(ctx)
	if err != nil {
		return nil, fmt.Errorf("list stored games: %w", err)
	}
	for _, rec := range recs {
		if err := s.restore(ctx, rec); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// restore rebuilds one stored game and its seats.
func (s *Server) restore(ctx context.Context, rec store.Game) error {
	c, err := s.scenario(rec.File, rec.Scenario)
	if err != nil {
		return fmt.Errorf("game %s: %w", rec.ID, err)
	}
	l := &live{id: rec.ID, rec: rec, sc: c.sc, rules: c.rules}
	l.rec.Scenario = nil
	if err := l.reload(ctx, s.st); err != nil {
		return err
	}
	seats, err := s.st.Seats(ctx, rec.ID)
	if err != nil {
		return fmt.Errorf("game %s: %w", rec.ID, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.games[rec.ID] = l
	for _, st := range seats {
		s.seats[[32]byte(st.Hash)] = st
	}
	return nil
}

func (s *Server) loadBundled() error {
	fsys := examples.FS()
	names, err := fs.Glob(fsys, "*/*.yaml")
	if err != nil {
		return err
	}
	for _, name := range names {
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
		}
		if err := yaml.Unmarshal(data, &head); err != nil || head.Plan != nil {
			continue
		}
		if head.Script != "" && head.Scenario == nil {
			continue
		}
		c, err := s.scenario(path.Base(name), data)
		if err != nil {
			return fmt.Errorf("bundled %s: %w", name, err)
		}
		b := bundled{ID: strings.TrimSuffix(path.Base(name), ".yaml"), Title: head.Title, Rules: c.sc.Rules, file: path.Base(name), data: data}
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
// it against its rule set. Games of the same source share one parsed
// scenario, which the engine never changes.
func (s *Server) scenario(file string, data []byte) (*cached, error) {
	key := sha256.Sum256(append([]byte(file+"\x00"), data...))
	s.mu.RLock()
	c := s.starts[key]
	s.mu.RUnlock()
	if c != nil {
		return c, nil
	}
	sc, err := script.LoadAny(file, data, script.Engine(s.engine), script.NoFiles)
	if err != nil {
		return nil, err
	}
	rules, err := s.engine(sc.Rules)
	if err != nil {
		return nil, err
	}
	if _, err := game.Prepare(sc, rules); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	c = &cached{sc: sc, rules: rules}
	s.mu.Lock()
	s.starts[key] = c
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

// SeatInfo is a seat as the API shows it (never with its token).
type SeatInfo struct {
	Role      string `json:"role"`
	Side      string `json:"side,omitempty"`
	Formation string `json:"formation,omitempty"`
	Label     string `json:"label"`
}

// Setup is what a new game is made from.
type Setup struct {
	Scenario   string `json:"scenario,omitempty"` // a bundled scenario's id
	Source     string `json:"source,omitempty"`   // or a scenario file's text
	File       string `json:"file,omitempty"`     // the uploaded file's name
	Commanders bool   `json:"commanders,omitempty"`
	Title      string `json:"title,omitempty"`
}

// Create makes a new game: its scenario, a seat for the umpire and for
// each side (and, if asked, for each commander under the army), and a
// secret dice seed whose commitment is published at once.
func (s *Server) Create(ctx context.Context, in Setup) (*Created, error) {
	file, data, err := s.source(in)
	if err != nil {
		return nil, err
	}
	if file, data, err = s.resolve(file, data); err != nil {
		return nil, err
	}
	c, err := s.scenario(file, data)
	if err != nil {
		return nil, &Error{Code: Invalid, Msg: err.Error()}
	}
	return s.start(ctx, in, file, data, c, nil)
}

func (s *Server) source(in Setup) (string, []byte, error) {
	switch {
	case in.Scenario != "" && in.Source != "":
		return "", nil, errorf(Invalid, "give scenario (a bundled one) or source (a scenario file), not both")
	case in.Scenario != "":
		for _, b := range s.bundled {
			if b.ID == in.Scenario {
				return b.file, b.data, nil
			}
		}
		var ids []string
		for _, b := range s.bundled {
			ids = append(ids, b.ID)
		}
		return "", nil, errorf(Invalid, "scenario %q is not bundled; allowed: %s", in.Scenario, strings.Join(ids, ", "))
	case in.Source != "":
		file := in.File
		if file == "" {
			file = "upload.yaml"
		}
		file = path.Base(file)
		return file, []byte(in.Source), nil
	}
	return "", nil, errorf(Invalid, "give scenario (the id of a bundled one) or source (a scenario file's text)")
}

// resolve makes a scenario source self-contained: a script whose scenario
// names a bundled one by id gets that scenario's text in its place, so that
// the store keeps only sources that name nothing. Any other name is
// refused without being opened: nothing a client sends names a file on the
// server.
func (s *Server) resolve(file string, data []byte) (string, []byte, error) {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return file, data, nil // the loader will say what is wrong
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
		return file, data, nil
	}
	id := strings.TrimSuffix(named.Value, ".yaml")
	for _, b := range s.bundled {
		if b.ID == id {
			return b.file, b.data, nil
		}
	}
	return "", nil, errorf(Invalid, "%s:%d: scenario: %s is not a bundled scenario, and a file cannot be named here; give the scenario inline, or one of: %s",
		strict.Clip(file, 80), named.Line, strict.Quote(named.Value, 80), strings.Join(s.Bundled(), ", "))
}

// Imported is a game's log and seeds brought from an export.
type Imported struct {
	Events []game.Event
	Seeds  []game.Seed // a nil Key is a seed whose key the export did not hold
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
	var g *game.Game
	var seeds []store.Seed
	if imp == nil {
		// The setup's rolls (secret reserve entries) come from the seed too.
		seed := game.Seed{From: 1, Commitment: dice.Commitment(key), Key: key}
		g, err = game.New(c.sc, c.rules, game.Committed([]game.Seed{seed}))
	} else {
		g, err = game.Replay(c.sc, c.rules, imp.Events)
		for _, sd := range imp.Seeds {
			if err == nil && sd.From > g.Len() {
				break // no roll was made under it; the fresh seed takes its place
			}
			st := store.Seed{Game: id, From: sd.From, Secret: sd.Key, Commitment: sd.Commitment}
			if sd.Key != nil {
				st.Revealed = g.Len()
			}
			seeds = append(seeds, st)
		}
	}
	if err != nil {
		return nil, &Error{Code: Invalid, Msg: err.Error()}
	}
	seeds = append(seeds, store.Seed{Game: id, From: g.Len() + 1, Secret: key, Commitment: dice.Commitment(key)})
	if imp == nil {
		seeds[0].From = 1
	}
	raw, err := encodeEvents(g.Log())
	if err != nil {
		return nil, err
	}
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
	rec := store.Game{ID: id, Title: title, Rules: c.sc.Rules, File: file, Scenario: data, Created: s.now()}
	var made []NewSeat
	var seats []store.Seat
	add := func(role, side, formation, label string) error {
		token, hash, err := newToken(s.rand)
		if err != nil {
			return err
		}
		info := SeatInfo{Role: role, Side: side, Formation: formation, Label: label}
		made = append(made, NewSeat{SeatInfo: info, Token: token})
		seats = append(seats, store.Seat{Hash: hash, Game: id, Role: role, Side: side, Formation: formation, Label: label})
		return nil
	}
	if err := add(store.Umpire, "", "", "Umpire"); err != nil {
		return nil, err
	}
	for _, sd := range c.sc.Sides {
		label := sd.Name
		if label == "" {
			label = sd.ID
		}
		if err := add(store.Side, sd.ID, "", label); err != nil {
			return nil, err
		}
	}
	if in.Commanders {
		for _, sd := range c.sc.Sides {
			for _, f := range sd.Formations {
				if f.Kind == battle.Division || f.Kind == battle.Army {
					continue
				}
				label := f.ID
				if gen := generalOf(sd, f.General); gen != nil && gen.Name != "" {
					label = gen.Name + " (" + f.ID + ")"
				}
				if err := add(store.Commander, sd.ID, f.ID, label); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := s.st.Create(ctx, rec, seats, seeds, raw); err != nil {
		return nil, fmt.Errorf("store game %s: %w", id, err)
	}
	rec.Version = len(raw)
	if err := s.restore(ctx, rec); err != nil {
		return nil, err
	}
	s.log.Info("game created", "game", id, "scenario", file, "seats", len(made))
	l := s.live(id)
	l.mu.Lock()
	info := s.info(l, store.Seat{Role: store.Umpire})
	l.mu.Unlock()
	return &Created{Game: info, Seats: made}, nil
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

func (s *Server) live(id string) *live {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.games[id]
}

// seat finds the seat of a token, and its game.
func (s *Server) seat(token string) (store.Seat, *live, *Error) {
	h := [32]byte(hashToken(token))
	s.mu.RLock()
	st, ok := s.seats[h]
	s.mu.RUnlock()
	if !ok {
		// A game made by another process on the same file (orderly
		// import) is taken up when one of its seats first calls.
		found, err := s.st.Seat(context.Background(), h[:])
		if err != nil {
			return store.Seat{}, nil, errorf(Unauthorized, "the token is not a seat of any game on this server")
		}
		if s.live(found.Game) == nil {
			rec, err := s.st.Game(context.Background(), found.Game)
			if err == nil {
				err = s.restore(context.Background(), rec)
			}
			if err != nil {
				s.log.Error("load a game made elsewhere", "game", found.Game, "err", err)
				return store.Seat{}, nil, errorf(Unavailable, "game %s could not be loaded", found.Game)
			}
		}
		st = found
	}
	return st, s.live(st.Game), nil
}

// Bundled lists the bundled scenarios.
func (s *Server) Bundled() []string {
	var out []string
	for _, b := range s.bundled {
		out = append(out, b.ID)
	}
	return out
}

// Events is the number of events in every game in memory.
func (s *Server) Events() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, l := range s.games {
		l.mu.Lock()
		n += l.g.Len()
		l.mu.Unlock()
	}
	return n
}

// Games is the number of games in memory.
func (s *Server) Games() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
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
