package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"orderly/rules"
	"orderly/server"
	"orderly/store"
	"orderly/store/pgtest"
)

// paged is cli with migrate reading its logs three events at a time, so
// that every game of these tests takes several pages.
func paged(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errb bytes.Buffer
	a := &app{out: &out, err: &errb, seed: func() uint64 { return 42 }, page: 3}
	status = a.run(context.Background(), args)
	return out.String(), errb.String(), status
}

// played is a game made for these tests and the tokens of its seats.
type played struct {
	id     string
	tokens []string
}

// playGames makes three games in the store db through the server, as
// players would: the demo with a write, a few ends and a reveal (so it has
// a revealed seed and a secret one), the LOB demo on its own tables under
// fog of war, and the BP demo with commander seats, untouched.
func playGames(t *testing.T, db string) []played {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, db, true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, web, _ := testServer(t, st)
	var out []played
	for _, in := range []server.Setup{
		{Scenario: "demo", Title: "Demo, revealed"},
		{Scenario: "lob-demo", Fog: "on"},
		{Scenario: "bp-demo", Commanders: true},
	} {
		made, err := srv.Create(ctx, in)
		if err != nil {
			t.Fatalf("create %s: %v", in.Scenario, err)
		}
		g := played{id: made.Game.ID}
		for _, s := range made.Seats {
			g.tokens = append(g.tokens, s.Token)
		}
		out = append(out, g)
		if in.Scenario != "demo" {
			continue
		}
		tok := map[string]string{}
		for _, s := range made.Seats {
			tok[s.Name] = s.Token
		}
		post := func(token, what, body string) {
			t.Helper()
			if code := call(t, web.URL, "POST", g.id, what, token, body); code != 200 {
				t.Fatalf("%s %s: %d", what, body, code)
			}
		}
		post(tok["french"], "commands", `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12]}}`)
		for range 3 {
			post(tok["umpire"], "commands", `{"end":true}`)
		}
		post(tok["umpire"], "reveal", `{"confirm":true}`)
		post(tok["umpire"], "commands", `{"end":true}`)
	}
	seeds, err := st.Seeds(ctx, out[0].id)
	if err != nil || len(seeds) != 2 || seeds[0].Revealed == 0 || seeds[1].Revealed != 0 {
		t.Fatalf("the demo's seeds are not one revealed and one secret: %+v %v", seeds, err)
	}
	return out
}

// call makes one request of the API with a seat's token, and returns its
// status.
func call(t *testing.T, base, method, game, what, token, body string) int {
	t.Helper()
	path := base + "/api/games/" + game
	if what != "" {
		path += "/" + what
	}
	req, _ := http.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// sameGames checks that the store to holds every game of the store from
// as it is there: its record, its whole log byte for byte, its seeds and
// its seats.
func sameGames(t *testing.T, from, to string) {
	t.Helper()
	ctx := context.Background()
	a, b := open(t, from), open(t, to)
	ga, err := a.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gb, err := b.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ga) != len(gb) {
		t.Fatalf("%d games in %s, %d in %s", len(ga), from, len(gb), to)
	}
	for i, g := range ga {
		h := gb[i]
		if !h.Created.Equal(g.Created) {
			t.Errorf("game %s: made %v, there %v", g.ID, g.Created, h.Created)
		}
		g.Created, h.Created = h.Created, g.Created
		for _, b := range []*[]byte{&g.Scenario, &g.Tables, &h.Scenario, &h.Tables} {
			if len(*b) == 0 {
				*b = nil
			}
		}
		if !reflect.DeepEqual(g, h) {
			t.Errorf("game %d: %+v\nthere: %+v", i+1, g, h)
		}
		ea, err := a.Events(ctx, g.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		eb, err := b.Events(ctx, g.ID, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(ea) != g.Version || len(ea) != len(eb) {
			t.Errorf("game %s: %d events, %d there", g.ID, len(ea), len(eb))
		}
		for j := range min(len(ea), len(eb)) {
			if !bytes.Equal(ea[j], eb[j]) {
				t.Errorf("game %s, event %d:\n%s\nthere:\n%s", g.ID, j+1, ea[j], eb[j])
			}
		}
		sa, _ := a.Seeds(ctx, g.ID)
		sb, err := b.Seeds(ctx, g.ID)
		if err != nil || len(sa) == 0 || len(sa) != len(sb) {
			t.Fatalf("game %s: %d seeds, %d there (%v)", g.ID, len(sa), len(sb), err)
		}
		for j := range sa {
			if !reflect.DeepEqual(sa[j], sb[j]) || len(sb[j].Key) != 32 {
				t.Errorf("game %s, seed %d: %+v, there %+v", g.ID, j+1, sa[j], sb[j])
			}
		}
		ta, _ := a.Seats(ctx, g.ID)
		tb, err := b.Seats(ctx, g.ID)
		if err != nil || len(ta) == 0 || len(ta) != len(tb) {
			t.Fatalf("game %s: %d seats, %d there (%v)", g.ID, len(ta), len(tb), err)
		}
		for j := range ta {
			if !reflect.DeepEqual(ta[j], tb[j]) {
				t.Errorf("game %s, seat %d: %+v, there %+v", g.ID, j+1, ta[j], tb[j])
			}
		}
	}
}

// open opens a store for a test to look at.
func open(t *testing.T, db string) store.Store {
	t.Helper()
	st, err := openStore(context.Background(), db, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// seatsWork checks that every join link of the games still works against
// the store db: each token's hash finds its seat there, and a server on db
// lets the seat in and serves the game as it stood, the same state.
func seatsWork(t *testing.T, games []played, from, to string) {
	t.Helper()
	ctx := context.Background()
	st := open(t, to)
	srv, web, eng := testServer(t, st)
	old, err := server.New(ctx, open(t, from), eng)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		for _, tok := range g.tokens {
			h := sha256.Sum256([]byte(tok))
			seat, err := st.Seat(ctx, h[:])
			if err != nil || seat.Game != g.id {
				t.Errorf("game %s: a token finds %+v, %v", g.id, seat, err)
			}
			if code := call(t, web.URL, "GET", g.id, "", tok, ""); code != 200 {
				t.Errorf("game %s: a seat's link: %d", g.id, code)
			}
		}
		a, err := old.Export(ctx, g.id, true)
		if err != nil {
			t.Fatal(err)
		}
		b, err := srv.Export(ctx, g.id, true)
		if err != nil {
			t.Fatal(err)
		}
		if a.Hash != b.Hash || len(a.Events) != len(b.Events) || b.Events[len(b.Events)-1].Hash != a.Events[len(a.Events)-1].Hash {
			t.Errorf("game %s: the server on %s has it elsewhere", g.id, to)
		}
	}
}

// copiedLines checks migrate's output: a line per game, saying how.
func copiedLines(t *testing.T, out string, games []played, how string, copied, there int) {
	t.Helper()
	for _, g := range games {
		if !regexp.MustCompile(`(?m)^` + how + ` ` + g.id + ` \(\d+ events?, \d+ seats?, \d+ seeds?\)$`).MatchString(out) {
			t.Errorf("no line %q for game %s:\n%s", how, g.id, out)
		}
	}
	if !regexp.MustCompile(`(?m)^migrated \d+ games? from \S+ to \S+: ` + strconv.Itoa(copied) + ` copied, ` + strconv.Itoa(there) + ` already there\n\z`).MatchString(out) {
		t.Errorf("the summary:\n%s", out)
	}
}

// TestMigrateSQLiteToPostgres: migrate copies every game of a file into
// PostgreSQL with its log byte for byte, its seeds (revealed or not) and
// its seats, so that every join link works against the database; a
// second run finds them all there and changes nothing. The database's
// password is never printed.
func TestMigrateSQLiteToPostgres(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "club.db")
	games := playGames(t, file)
	url := pgtest.DB(t)
	secret := strings.Replace(url, "@", ":hunter2@", 1) // trust auth: the password is not needed, only not shown
	if secret == url {
		t.Fatalf("no user in %s", url)
	}
	o, e, st := paged(t, "migrate", "--from", file, "--to", secret)
	if st != 0 || e != "" {
		t.Fatalf("migrate: %d %s %s", st, o, e)
	}
	copiedLines(t, o, games, "copied", 3, 0)
	if strings.Contains(o, "hunter2") || !strings.Contains(o, ":xxxxx@") {
		t.Errorf("the password is shown, or the database is not named:\n%s", o)
	}
	demo, err := open(t, file).Game(context.Background(), games[0].id)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(o, "copied "+games[0].id+" ("+strconv.Itoa(demo.Version)+" events, 3 seats, 2 seeds)") {
		t.Errorf("the demo's line:\n%s", o)
	}
	sameGames(t, file, url)
	seatsWork(t, games, file, url)

	o, e, st = paged(t, "migrate", "--from", file, "--to", secret)
	if st != 0 {
		t.Fatalf("migrate again: %d %s %s", st, o, e)
	}
	copiedLines(t, o, games, "already there", 0, 3)
	sameGames(t, file, url)
}

// TestMigratePostgresToSQLite: the other way, into a file migrate makes,
// and again idempotent. A game that is in the target and differs stops the
// run there, named with what differs, after the games before it and with
// none after; once it is settled, a rerun skips the games copied and goes
// on.
func TestMigratePostgresToSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.DB(t)
	games := playGames(t, url)
	dir := t.TempDir()
	file := filepath.Join(dir, "new.db")
	o, e, st := paged(t, "migrate", "--from", url, "--to", file)
	if st != 0 {
		t.Fatalf("migrate: %d %s %s", st, o, e)
	}
	copiedLines(t, o, games, "copied", 3, 0)
	sameGames(t, url, file)
	seatsWork(t, games, url, file)
	if o, e, st = paged(t, "migrate", "--from", url, "--to", file); st != 0 {
		t.Fatalf("migrate again: %d %s %s", st, o, e)
	}
	copiedLines(t, o, games, "already there", 0, 3)

	// A target that holds the second game under another title.
	other := filepath.Join(dir, "other.db")
	src := open(t, url)
	rec, _ := src.Game(ctx, games[1].id)
	seats, _ := src.Seats(ctx, games[1].id)
	seeds, _ := src.Seeds(ctx, games[1].id)
	events, _ := src.Events(ctx, games[1].id, 0, 0)
	rec.Title = "Not the same"
	dst, err := openStore(ctx, other, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := dst.Create(ctx, rec, seats, seeds, events); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	o, e, st = paged(t, "migrate", "--from", url, "--to", other)
	want := "orderly: migrate: game " + games[1].id + " is already in " + other + " and differs from the one in "
	if st != 1 || !strings.HasPrefix(e, want) || !strings.Contains(e, ": its title; 1 game was copied before it (and 0 already there), none after it\n") || strings.Count(e, "\n") != 1 {
		t.Errorf("a conflict: %d %q", st, e)
	}
	if !strings.Contains(o, "copied "+games[0].id) || strings.Contains(o, games[2].id) || strings.Contains(o, "migrated") {
		t.Errorf("a conflict's output:\n%s", o)
	}
	look := open(t, other)
	if g, _ := look.Game(ctx, games[1].id); g.Title != "Not the same" {
		t.Errorf("the conflicting game was changed: %+v", g)
	}
	if _, err := look.Game(ctx, games[2].id); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a game after the conflict was copied: %v", err)
	}
	look.Close()
	// Settled by hand (the Store has no delete), the run goes on.
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"events", "seats", "seeds", "games"} {
		col := "game"
		if table == "games" {
			col = "id"
		}
		if _, err := db.Exec("DELETE FROM "+table+" WHERE "+col+" = ?", games[1].id); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if o, e, st = paged(t, "migrate", "--from", url, "--to", other); st != 0 {
		t.Fatalf("migrate after the conflict: %d %s %s", st, o, e)
	}
	copiedLines(t, o, games[:1], "already there", 2, 1)
	copiedLines(t, o, games[1:], "copied", 2, 1)
	sameGames(t, url, other)
}

// TestMigrateTampered: a game whose stored log was changed (one event's
// turn, in the file) does not check out: migrate names it and its
// chain's first broken link, does not write it, and stops there.
func TestMigrateTampered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(dir, "club.db")
	games := playGames(t, file)
	db, err := sql.Open("sqlite", file)
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	if err := db.QueryRow("SELECT data FROM events WHERE game = ? AND seq = 2", games[1].id).Scan(&data); err != nil {
		t.Fatal(err)
	}
	changed := bytes.Replace(data, []byte(`"turn":1,`), []byte(`"turn":7,`), 1)
	if bytes.Equal(changed, data) {
		t.Fatalf("event 2 is not of turn 1: %s", data)
	}
	if _, err := db.Exec("UPDATE events SET data = ? WHERE game = ? AND seq = 2", changed, games[1].id); err != nil {
		t.Fatal(err)
	}
	db.Close()
	to := filepath.Join(dir, "copy.db")
	o, e, st := paged(t, "migrate", "--from", file, "--to", to)
	want := "orderly: migrate: game " + games[1].id + " in " + file + " does not check out, so it was not copied: its hash chain: event 2 ("
	if st != 1 || !strings.HasPrefix(e, want) || !strings.Contains(e, "its hash does not follow from the log before it") || strings.Count(e, "\n") != 1 {
		t.Errorf("a tampered game: %d %q", st, e)
	}
	if !strings.Contains(o, "copied "+games[0].id) || strings.Contains(o, games[1].id) {
		t.Errorf("a tampered game's output:\n%s", o)
	}
	look := open(t, to)
	for _, g := range games[1:] {
		if _, err := look.Game(ctx, g.id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("game %s is in the target: %v", g.id, err)
		}
	}
}

// TestMigrateBadFlags: a missing, unknown or doubled store is one line
// naming the flag, exit status 2, and nothing made or written.
func TestMigrateBadFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "club.db")
	made, err := openStore(context.Background(), file, true)
	if err != nil {
		t.Fatal(err)
	}
	made.Close()
	before, _ := os.ReadFile(file)
	fresh := filepath.Join(dir, "fresh.db")
	missing := filepath.Join(dir, "missing.db")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--to", fresh}, "migrate: --from is required: an SQLite FILE, or a PostgreSQL URL postgres://"},
		{[]string{"--from", file}, "migrate: --to is required: an SQLite FILE, or a PostgreSQL URL postgres://"},
		{[]string{"--from", missing, "--to", fresh}, "--from " + missing + ": no such file or directory"},
		{[]string{"--from", "mysql://root:hunter2@db/club", "--to", fresh}, `migrate: --from is a URL of scheme "mysql"; allowed: an SQLite FILE, or a PostgreSQL URL`},
		{[]string{"--from", file, "--to", "sqlite://" + fresh}, `migrate: --to is a URL of scheme "sqlite"; allowed:`},
		{[]string{"--from", file, "--to", dir + "/./../" + filepath.Base(dir) + "/club.db"}, "migrate: --from and --to are the same store, "},
		{[]string{"--from", "postgres://u:hunter2@/one?host=/nowhere", "--to", "postgres://u:other@/one?host=/nowhere"}, "migrate: --from and --to are the same store, postgres://u:xxxxx@/one?host=/nowhere"},
		{[]string{"--from", "postgres://u:hunter2@/nosuchdb?host=" + filepath.Join(dir, "nosocket"), "--to", fresh}, "--from: open postgres://u:xxxxx@/nosuchdb"},
		{[]string{"--from", file, "--to", filepath.Join(dir, "no", "such", "dir.db")}, "--to " + filepath.Join(dir, "no", "such", "dir.db") + ": "},
		{[]string{"--from", file, "--to", fresh, "extra"}, `unknown command "extra" for "orderly migrate"`},
	}
	for _, c := range cases {
		o, e, st := cli(t, append([]string{"migrate"}, c.args...)...)
		if st != 2 || o != "" || !strings.Contains(e, c.want) || strings.Count(e, "\n") != 1 || !strings.HasPrefix(e, "orderly: ") || strings.Contains(e, "hunter2") {
			t.Errorf("%v: %d %q %q, want %q", c.args, st, o, e, c.want)
		}
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a bad run made %s: %v", fresh, err)
	}
	if after, _ := os.ReadFile(file); !bytes.Equal(before, after) {
		t.Errorf("a bad run changed %s", file)
	}
	o, _, st := cli(t, "migrate", "--help")
	if st != 0 || !strings.Contains(o, "Examples:") || !strings.Contains(o, "orderly migrate --from club.db --to postgres://") || !strings.Contains(o, "--from FILE") {
		t.Errorf("migrate --help:\n%s", o)
	}
}

// testServer is a server over st, on the built-in rule sets, with a test
// HTTP server for it that closes when t ends; it returns the engine too.
func testServer(t *testing.T, st store.Store) (*server.Server, *httptest.Server, rules.Maker) {
	t.Helper()
	eng, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(context.Background(), st, eng)
	if err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(srv.Handler())
	t.Cleanup(web.Close)
	return srv, web, eng
}
