package server_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	_ "modernc.org/sqlite"

	"orderly/archive"
	"orderly/examples"
	"orderly/server"
	"orderly/store/sqlite"
)

// TestNoServerFiles sends scenarios that name files on the server, by
// absolute and relative paths and a device, through create and import:
// each is refused at once with a 400 that echoes no file's contents, and
// nothing is made. A script naming a bundled scenario by id works, and
// the game keeps that scenario's text, not the name.
func TestNoServerFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(secret, []byte("title: TOP-SECRET-CONTENTS\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	rel, _ := filepath.Rel(wd, secret)
	for _, name := range []string{"/etc/passwd", secret, rel, "../go.mod", "/dev/zero", "demo.yaml/../../../etc/passwd"} {
		t.Run(name, func(t *testing.T) {
			src := "script: x\nscenario: " + name + "\n"
			start := time.Now()
			code, body := f.call("POST", "/api/games", f.host, server.Setup{Source: src}, nil)
			e := apiError(t, body)
			if code != 400 || !strings.Contains(e.Msg, "a file cannot be named here") {
				t.Errorf("create naming %s: %d %s", name, code, body)
			}
			for _, leak := range []string{"TOP-SECRET", "root:", "module orderly", "no such file", "permission"} {
				if strings.Contains(string(body), leak) {
					t.Errorf("the answer gives away %q: %s", leak, body)
				}
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("refusing took %s", time.Since(start))
			}
			// The same through import: the document must hold its scenario.
			doc := archive.Game{Format: archive.Format, ID: "x", Title: "x", Rules: "nb", Hash: strings.Repeat("0", 64),
				Scenario: archive.Scenario{File: "x.yaml", Source: src},
				Seeds:    nil}
			code, body = f.call("POST", "/api/games/import", f.host, doc, nil)
			if code < 400 || code >= 500 || bytes.Contains(body, []byte("TOP-SECRET")) || bytes.Contains(body, []byte("root:")) {
				t.Errorf("import naming %s: %d %s", name, code, body)
			}
		})
	}
	if n, _ := f.srv.Stored(context.Background()); n != 0 {
		t.Errorf("%d games were made", n)
	}
	// A bundled scenario by id: the stored source is its text.
	var made server.Created
	if code, body := f.call("POST", "/api/games", f.host, server.Setup{Source: "script: mine\nscenario: demo\n"}, &made); code != 201 {
		t.Fatalf("a script naming the bundled demo: %d %s", code, body)
	}
	doc, err := f.srv.Export(context.Background(), made.Game.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fs.ReadFile(examples.FS(), "nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if doc.Scenario.Source != string(want) {
		t.Errorf("the stored scenario is not the bundled demo's text: %.200s", doc.Scenario.Source)
	}
}

// TestBrokenGame keeps serving every other game when one can no longer be
// loaded (here: a game stored by an older orderly, whose scenario names a
// file that has since vanished): its seats get a clear 503, its id and the
// reason are logged, and the server starts and serves the rest.
func TestBrokenGame(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "orderly.db")
	f := openFixture(t, path, 1)
	good, goodTok := f.demo(false)
	bad, badTok := f.demo(false)
	f.close()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE games SET scenario = ? WHERE id = ?`, "script: old\nscenario: /var/gone/old.yaml\n", bad); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	var logs bytes.Buffer
	var mu sync.Mutex
	log := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv, err := server.New(context.Background(), db, engine(t), server.WithLogger(log), bundle(t))
	if err != nil {
		t.Fatalf("the server does not start: %v", err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	f2 := &fixture{t: t, srv: srv, ts: ts, db: db, path: path}
	for range 2 {
		code, body := f2.call("GET", "/api/games/"+bad+"/board", badTok["french"], nil, nil)
		if e := apiError(t, body); code != 503 || e.Code != server.Unavailable || !strings.Contains(e.Msg, bad) || strings.Contains(e.Msg, "/var/gone") {
			t.Errorf("the broken game: %d %s", code, body)
		}
	}
	if code, body := f2.call("POST", "/api/games/"+good+"/commands", goodTok["french"], `{"ready":true}`, nil); code != 200 {
		t.Errorf("the good game: %d %s", code, body)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := strings.Count(logs.String(), "game unavailable"); n != 1 || !strings.Contains(logs.String(), bad) || !strings.Contains(logs.String(), "gone") {
		t.Errorf("the broken game should be logged once with its id and reason: %s", logs.String())
	}
}

// TestHiddenIDs checks that a side asking about a piece it cannot see (the
// enemy's off-board reserve, its general not yet placed) gets exactly the
// answer it gets for a piece that does not exist, and that near-match
// suggestions come only from what it can see.
func TestHiddenIDs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	_, view := f.call("GET", g+"/board", tok["french"], nil, nil)
	hint := regexp.MustCompile(`; did you mean ([^?]+)\?`)
	// The answers agree but for the id itself and a near match, which must
	// be something the French can see.
	norm := func(body []byte, id string) string {
		s := strings.ReplaceAll(string(body), `\"`+id+`\"`, "ID")
		for _, m := range hint.FindAllStringSubmatch(s, -1) {
			if !strings.Contains(string(view), `"`+m[1]+`"`) {
				t.Errorf("a near match the French cannot see: %s", m[1])
			}
		}
		return hint.ReplaceAllString(s, "")
	}
	for _, c := range []struct{ path, hidden, missing, hid, mid string }{
		{"/commands", `{"move":{"unit":"P-IV-13-a","to":[40,20]}}`, `{"move":{"unit":"P-IV-13-q","to":[40,20]}}`, "P-IV-13-a", "P-IV-13-q"},
		{"/commands", `{"write":{"for":["P-IV"],"kind":"attack"}}`, `{"write":{"for":["P-IX"],"kind":"attack"}}`, "P-IV", "P-IX"},
		{"/commands", `{"write":{"for":["F-I"],"kind":"attack","to":"prinzwilhelm"}}`, `{"write":{"for":["F-I"],"kind":"attack","to":"prinzwilhelq"}}`, "prinzwilhelm", "prinzwilhelq"},
		{"/commands", `{"attach":{"general":"ney","to":"P-IV-15-b"}}`, `{"attach":{"general":"ney","to":"P-IV-15-q"}}`, "P-IV-15-b", "P-IV-15-q"},
		{"/commands", `{"rout":["P-IV-C-a"]}`, `{"rout":["P-IV-C-q"]}`, "P-IV-C-a", "P-IV-C-q"},
		{"/odds", `{"write":{"for":["P-IV"],"kind":"attack"}}`, `{"write":{"for":["P-IX"],"kind":"attack"}}`, "P-IV", "P-IX"},
	} {
		hc, hb := f.call("POST", g+c.path, tok["french"], c.hidden, nil)
		mc, mb := f.call("POST", g+c.path, tok["french"], c.missing, nil)
		if hc != mc || norm(hb, c.hid) != norm(mb, c.mid) {
			t.Errorf("%s: hidden and missing ids answered differently:\n hidden  %d %s\n missing %d %s", c.hidden, hc, hb, mc, mb)
		}
		for _, leak := range []string{"allies", "belongs", "bulow", "hacke", "losthin"} {
			if strings.Contains(string(hb), leak) {
				t.Errorf("%s: the answer gives away %q: %s", c.hidden, leak, hb)
			}
		}
	}
	// A typo near a hidden general is not corrected to it.
	_, body := f.call("POST", g+"/commands", tok["french"], `{"write":{"for":["F-I"],"kind":"attack","to":"prinzwilhem"}}`, nil)
	if strings.Contains(string(body), "prinzwilhelm") {
		t.Errorf("a near match from the hidden reserve: %s", body)
	}
	// The umpire sees everything, and gets the rules' own answer.
	if code, body := f.call("POST", g+"/commands", tok["umpire"], `{"side":"allies","write":{"for":["P-IV"],"kind":"attack","objective":[60,30]}}`, nil); code == 422 && strings.Contains(string(body), "not in this game") {
		t.Errorf("the umpire cannot name the reserve: %s", body)
	}
}

// TestCommanders checks commander seats deny by default: each may act on
// what is under his formation and nothing else, and what the rule set does
// not name (ready, which the side's own seat says) is refused.
func TestCommanders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(true)
	g := "/api/games/" + id
	for _, c := range []struct {
		seat, body string
		code       int
	}{
		{"F-I", `{"ready":true}`, 403},
		{"F-I", `{"write":{"for":["F-I-1"],"kind":"attack","objective":[30,14]}}`, 200},
		{"F-I", `{"write":{"for":["F-I-1","F-II-5"],"kind":"attack","objective":[30,14]}}`, 403},
		{"F-I", `{"rout":["F-I-1-a"]}`, 200},
		{"F-I", `{"rally":["F-I-1-a","F-II-5-a"]}`, 403},
		{"F-I", `{"remove":{"general":"quiot","fate":"killed"}}`, 200},
		{"F-II", `{"remove":{"general":"ney","fate":"killed"}}`, 403},
		{"F-II", `{"rout":["F-II-5-a"]}`, 200},
		{"F-II", `{"rout":["X-1"]}`, 422}, // as for any seat: no such unit
	} {
		if code, body := f.call("POST", g+"/commands", tok[c.seat], c.body, nil); code != c.code {
			t.Errorf("%s %s: %d %s; want %d", c.seat, c.body, code, body, c.code)
		}
	}
}

// TestErrorsAreOneLine sends requests full of long text and line breaks:
// every error is one line, at most server.MaxMessage characters, and
// quotes what the client sent.
func TestErrorsAreOneLine(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	long := strings.Repeat("line\n\"break\" ", 2000)
	for _, c := range []struct{ path, token, body string }{
		{"/api/games", f.host, fmt.Sprintf(`{"scenario":%q}`, long)},
		{"/api/games", f.host, fmt.Sprintf(`{"source":%q}`, "script: x\nscenario: "+strings.Repeat("a/", 3000))},
		{"/api/games/" + id + "/commands", tok["french"], fmt.Sprintf(`{"write":{"for":[%q],"kind":"attack"}}`, long[:3000])},
		{"/api/games/" + id + "/commands", tok["french"], fmt.Sprintf(`{"side":%q,"ready":true}`, long[:3000])},
		{"/api/games/" + id + "/commands", tok["french"], fmt.Sprintf(`{%q:true}`, long[:3000])},
	} {
		code, body := f.call("POST", c.path, c.token, c.body, nil)
		e := apiError(t, body)
		if code < 400 || code >= 500 || strings.ContainsAny(e.Msg, "\n\r") || utf8.RuneCountInString(e.Msg) > server.MaxMessage {
			t.Errorf("%.60s: %d, message of %d characters: %q", c.body, code, utf8.RuneCountInString(e.Msg), e.Msg)
		}
	}
}

// TestReissue gives a seat a new link: the old token stops working at
// once, the new one is the same seat; only the umpire may.
func TestReissue(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	if code, _ := f.call("POST", g+"/seats/reissue", tok["french"], `{"seat":"allies"}`, nil); code != 403 {
		t.Errorf("a side reissued a seat: %d", code)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	old, err := f.subscribe(ctx, id, tok["french"], 0)
	if err != nil {
		t.Fatal(err)
	}
	var made server.NewSeat
	if code, body := f.call("POST", g+"/seats/reissue", tok["umpire"], `{"seat":"french"}`, &made); code != 200 || made.Side != "french" || made.Name != "french" {
		t.Fatalf("reissue: %d %s", code, body)
	}
	// The old token's open stream ends with it.
	for closed := time.After(5 * time.Second); ; {
		select {
		case _, open := <-old:
			if open {
				continue
			}
		case <-closed:
			t.Fatal("the old token's stream is still open after the reissue")
		}
		break
	}
	if code, _ := f.call("GET", g, tok["french"], nil, nil); code != 401 {
		t.Errorf("the old token still works: %d", code)
	}
	var in server.Info
	if code, body := f.call("GET", g, made.Token, nil, &in); code != 200 || in.Seat.Side != "french" {
		t.Errorf("the new token: %d %s", code, body)
	}
	code, body := f.call("POST", g+"/seats/reissue", tok["umpire"], `{"seat":"prussians"}`, nil)
	if e := apiError(t, body); code != 400 || !strings.Contains(e.Msg, `no seat "prussians"`) {
		t.Errorf("an unknown seat: %d %s", code, body)
	}
	// The umpire can reissue his own; the page then uses the new one.
	var ump server.NewSeat
	f.call("POST", g+"/seats/reissue", tok["umpire"], `{"seat":"umpire"}`, &ump)
	if code, _ := f.call("GET", g+"/seats", ump.Token, nil, nil); code != 200 {
		t.Errorf("the umpire's new token: %d", code)
	}
}

// TestIdleGamesLeaveMemory runs the sweep with a clock moved on: a game
// nobody used leaves memory and comes back, whole, when next asked for;
// a game with an open stream stays.
func TestIdleGamesLeaveMemory(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	f := newFixture(t, server.WithClock(clock), server.WithLimits(server.Limits{Idle: time.Hour}))
	a, atok := f.demo(false)
	b, btok := f.demo(false)
	f.call("POST", "/api/games/"+a+"/commands", atok["french"], `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12]}}`, nil)
	var before server.Info
	f.call("GET", "/api/games/"+a, atok["umpire"], nil, &before)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := f.subscribe(ctx, b, btok["allies"], 0); err != nil {
		t.Fatal(err)
	}
	if n := f.srv.Sweep(); n != 0 {
		t.Errorf("a fresh sweep dropped %d games", n)
	}
	mu.Lock()
	now = now.Add(2 * time.Hour)
	mu.Unlock()
	if n := f.srv.Sweep(); n != 1 || f.srv.Games() != 1 {
		t.Errorf("the sweep dropped %d games, %d left; want 1 dropped (b has a stream)", n, f.srv.Games())
	}
	var after server.Info
	if code, body := f.call("GET", "/api/games/"+a, atok["umpire"], nil, &after); code != 200 || after.Version != before.Version || after.Step != before.Step {
		t.Errorf("the game after leaving memory: %d %s; before %+v", code, body, before)
	}
	if code, body := f.call("POST", "/api/games/"+a+"/commands", atok["allies"], `{"ready":true}`, nil); code != 200 {
		t.Errorf("a command after the game came back: %d %s", code, body)
	}
}

// TestRevealAtTheEnd plays the nb-10 example (a secret off-board reserve
// entry turn): mid-game a reveal names that roll as still to come; at the
// end the server reveals the seed by itself, and the export verifies.
func TestRevealAtTheEnd(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	code, body := f.call("POST", g+"/reveal", tok["umpire"], `{}`, nil)
	e := apiError(t, body)
	if code != 409 || e.Code != server.Confirm || len(e.Details) == 0 || !strings.Contains(strings.Join(e.Details, "; "), "P-IV") {
		t.Fatalf("an unconfirmed reveal before the reserve enters: %d %s", code, body)
	}
	var info server.Info
	for range 200 {
		f.call("GET", g, tok["umpire"], nil, &info)
		if info.Over {
			break
		}
		f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil)
	}
	if !info.Over {
		t.Fatal("the game did not end")
	}
	if len(info.Seeds) < 2 || info.Seeds[0].Key == nil {
		t.Fatalf("the seed was not revealed at the end: %+v", info.Seeds)
	}
	doc, err := f.srv.Export(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := doc.Verify(engineOf(t)); err != nil {
		t.Errorf("the finished game does not verify: %v", err)
	}
}

// TestBoardOffersAndReach checks what the board tells the page so that it
// computes no rule: the formations an order may be written for (write
// offers: a side's own below the army, a commander's under his
// formation, none to the umpire) and the units whose engagement reach is
// drawn (on the table and not routed, NB-6).
func TestBoardOffersAndReach(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(true)
	g := "/api/games/" + id
	board := func(seat string) server.Board {
		var b server.Board
		if code, body := f.call("GET", g+"/board", tok[seat], nil, &b); code != 200 {
			t.Fatalf("%s board: %d %s", seat, code, body)
		}
		return b
	}
	writes := func(b server.Board, id string) bool { return slices.Contains(b.Offers[id], "write") }
	if b := board("french"); b.Info.Step != "write" {
		t.Fatalf("the demo starts at step %s, not write", b.Info.Step)
	}
	for _, c := range []struct {
		seat, formation string
		want            bool
	}{
		{"french", "F-I", true}, {"french", "F-I-1", true}, {"french", "F-II-5", true},
		{"french", "french", false}, // the army takes no order
		{"french", "A-R-5", false},  // the enemy's
		{"F-I", "F-I", true}, {"F-I", "F-I-1", true},
		{"F-I", "F-II-5", false}, // not under F-I
		{"umpire", "F-I", false},
	} {
		if got := writes(board(c.seat), c.formation); got != c.want {
			t.Errorf("%s offered write for %s: %v, want %v", c.seat, c.formation, got, c.want)
		}
	}
	b := board("umpire")
	if !slices.Contains(b.Reaching, "F-I-1-a") || b.Reach != 17 {
		t.Fatalf("F-I-1-a on the table does not reach 17\": reach %v, reaching %v", b.Reach, b.Reaching)
	}
	if code, body := f.call("POST", g+"/commands", tok["umpire"], `{"rout":["F-I-1-a"]}`, nil); code != 200 {
		t.Fatalf("rout: %d %s", code, body)
	}
	if b := board("umpire"); slices.Contains(b.Reaching, "F-I-1-a") {
		t.Error("a routed unit is still drawn with its reach")
	}
}

// TestOverrideOffered: a move the umpire may make all the same with a
// reason (NB-16) is refused naming the piece to override, and made when
// given again with the reason; a side's refusal for another rule names
// none.
func TestOverrideOffered(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	for _, side := range []string{"french", "allies"} {
		if code, body := f.call("POST", g+"/commands", tok[side], `{"ready":true}`, nil); code != 200 {
			t.Fatalf("%s ready: %d %s", side, code, body)
		}
	}
	errOf := func(body []byte) map[string]any {
		var e struct{ Error map[string]any }
		if err := json.Unmarshal(body, &e); err != nil {
			t.Fatal(err)
		}
		return e.Error
	}
	code, body := f.call("POST", g+"/commands", tok["umpire"], `{"move":{"unit":"F-I-1-b","to":[28,16]}}`, nil)
	if e := errOf(body); code != 422 || e["override"] != "F-I-1-b" || e["rule"] != "NB-16" {
		t.Fatalf("umpire's move without a reason: %d %s; want 422 naming F-I-1-b to override", code, body)
	}
	code, body = f.call("POST", g+"/commands", tok["french"], `{"move":{"unit":"F-I-1-b","to":[28,60]}}`, nil)
	if e := errOf(body); code != 422 || e["override"] != nil {
		t.Fatalf("a move off the table: %d %s; want 422 with nothing to override", code, body)
	}
	if code, body := f.call("POST", g+"/commands", tok["umpire"], `{"move":{"unit":"F-I-1-b","to":[28,16],"override":"forced march"}}`, nil); code != 200 {
		t.Fatalf("the move with a reason: %d %s", code, body)
	}
}
