package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"orderly/examples"
	"orderly/game"
	"orderly/rules"
	"orderly/script"
	"orderly/server"
	"orderly/store"
	"orderly/store/sqlite"
)

// fixture is a server on a fresh database, serving over loopback.
type fixture struct {
	t    testing.TB
	srv  *server.Server
	ts   *httptest.Server
	db   store.Store
	path string
	host string // the host token, which makes games
}

// engine is the rule sets over the built-in tables. The tests share one
// Maker, so that each tables file (the bundled LOB games' example tables)
// is read once for all their servers.
func engine(t testing.TB) server.Engine {
	load(t)
	return shared.eng
}

// bundle is the bundled scenarios over engine(t), read once for the
// package's many servers (server.WithBundle).
func bundle(t testing.TB) server.Option {
	load(t)
	return server.WithBundle(shared.bundle)
}

// load makes the engine and reads the bundled scenarios once.
func load(t testing.TB) {
	t.Helper()
	shared.once.Do(func() {
		if shared.eng, shared.err = rules.Make(); shared.err == nil {
			shared.bundle, shared.err = server.LoadBundle(shared.eng, examples.FS())
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
}

var shared struct {
	once   sync.Once
	eng    rules.Maker
	bundle *server.Bundle
	err    error
}

func newFixture(t testing.TB, opts ...server.Option) *fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), "orderly.db")
	return openFixture(t, path, 1, opts...)
}

func openFixture(t testing.TB, path string, seed uint64, opts ...server.Option) *fixture {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	if _, fuzzing := t.(*testing.F); !fuzzing { // a fuzz target may not log through f
		log = slog.New(slog.NewTextHandler(tlog{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	opts = append([]server.Option{server.WithRand(rand.NewChaCha8([32]byte{byte(seed)})), server.WithLogger(log), bundle(t)}, opts...)
	srv, err := server.New(ctx, db, engine(t), opts...)
	if err != nil {
		t.Fatal(err)
	}
	host, err := srv.NewHostToken()
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	f := &fixture{t: t, srv: srv, ts: ts, db: db, path: path, host: host}
	t.Cleanup(f.close)
	return f
}

func (f *fixture) close() {
	f.ts.Close()
	f.db.Close()
}

// demo makes a demo game and returns its id and tokens by seat label:
// "umpire", "french", "allies".
func (f *fixture) demo(commanders bool) (string, map[string]string) {
	f.t.Helper()
	return f.made(server.Setup{Scenario: "demo", Commanders: commanders})
}

// made makes a game of setup and returns its id and tokens by seat
// label: "umpire", each side's id, each commander's formation.
func (f *fixture) made(setup server.Setup) (string, map[string]string) {
	f.t.Helper()
	made, err := f.srv.Create(context.Background(), setup)
	if err != nil {
		f.t.Fatal(err)
	}
	tok := map[string]string{}
	for _, s := range made.Seats {
		switch s.Role {
		case "umpire":
			tok["umpire"] = s.Token
		case "side":
			tok[s.Side] = s.Token
		default:
			tok[s.Formation] = s.Token
		}
	}
	return made.Game.ID, tok
}

// call makes a request and decodes the JSON answer into out (if not nil);
// it returns the status and the raw body.
func (f *fixture) call(method, path, token string, body any, out any) (int, []byte) {
	f.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			f.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, f.ts.URL+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	if rd != nil || method == "POST" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(data, out); err != nil {
			f.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return resp.StatusCode, data
}

// apiError decodes an error body.
func apiError(t testing.TB, data []byte) server.Error {
	t.Helper()
	var e struct{ Error server.Error }
	if err := json.Unmarshal(data, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("not an error body: %s", data)
	}
	return e.Error
}

// tlog sends the server's warnings and errors to the test's log.
type tlog struct{ t testing.TB }

func (l tlog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func engineOf(t testing.TB) script.Engine {
	eng := engine(t)
	return func(id string) (game.Rules, error) { return eng(id) }
}

// TestBundle checks that a server given the bundled scenarios read once
// (WithBundle, as this package's fixtures are) offers exactly what a server
// that reads them itself offers, and makes games of them.
func TestBundle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "own.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	own, err := server.New(ctx, db, engine(t))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	if got, want := f.srv.Bundled(), own.Bundled(); !slices.Equal(got, want) || len(want) < 5 {
		t.Fatalf("a shared bundle offers %v; a server's own reading offers %v", got, want)
	}
	for _, id := range own.Bundled() {
		if _, err := f.srv.Create(ctx, server.Setup{Scenario: id}); err != nil {
			t.Errorf("a game of %s on the shared bundle: %v", id, err)
		}
	}
}
