package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"orderly/archive"
	"orderly/examples"
	"orderly/game"
	"orderly/rules"
	"orderly/rules/nb"
	"orderly/script"
	"orderly/server"
	"orderly/store/sqlite"
)

// schemas compiles the OpenAPI document's component schemas, so that
// answers can be checked against what the document promises.
func schemas(t *testing.T, f *fixture) func(name string, body []byte) {
	t.Helper()
	code, doc := f.call("GET", "/api/openapi.json", "", nil, nil)
	if code != 200 {
		t.Fatalf("openapi.json: %d", code)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("openapi.json", v); err != nil {
		t.Fatal(err)
	}
	return func(name string, body []byte) {
		t.Helper()
		s, err := c.Compile("openapi.json#/components/schemas/" + name)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := s.Validate(inst); err != nil {
			t.Errorf("answer does not match schema %s: %v\n%.400s", name, err, body)
		}
	}
}

func TestCreateGame(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	check := schemas(t, f)
	code, body := f.call("GET", "/api/scenarios", "", nil, nil)
	if code != 200 || !strings.HasPrefix(string(body), `[{"id":"demo"`) {
		t.Fatalf("scenarios: %d %s", code, body)
	}
	var made server.Created
	code, body = f.call("POST", "/api/games", f.host, map[string]any{"scenario": "demo", "commanders": true}, &made)
	if code != http.StatusCreated {
		t.Fatalf("create: %d %s", code, body)
	}
	check("Created", body)
	roles := map[string]int{}
	tokens := map[string]bool{}
	for _, s := range made.Seats {
		roles[s.Role]++
		if len(s.Token) != 43 || tokens[s.Token] {
			t.Errorf("token %q: want 43 base64url characters, each unique", s.Token)
		}
		tokens[s.Token] = true
		var in server.Info
		code, body := f.call("GET", "/api/seat", s.Token, nil, &in)
		if code != 200 || in.ID != made.Game.ID || in.Seat.Role != s.Role || in.Seat.Side != s.Side || in.Seat.Formation != s.Formation {
			t.Errorf("seat of %s: %d %s", s.Label, code, body)
		}
	}
	if roles["umpire"] != 1 || roles["side"] != 2 || roles["commander"] < 4 {
		t.Errorf("seats by role: %v", roles)
	}
	if len(made.Game.Seeds) != 1 || len(made.Game.Seeds[0].Commitment) != 64 || made.Game.Seeds[0].Key != nil {
		t.Errorf("seeds at creation: %+v", made.Game.Seeds)
	}
	// Tokens are stored only hashed: the database file never holds one.
	f.db.Close()
	for _, name := range []string{f.path, f.path + "-wal"} {
		data, _ := os.ReadFile(name)
		for tok := range tokens {
			if bytes.Contains(data, []byte(tok)) {
				t.Errorf("%s holds a token in clear", name)
			}
		}
	}
}

func TestCreateFromUpload(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	src, err := os.ReadFile("../examples/nb/nb-10-off-board-reserve.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var made server.Created
	if code, body := f.call("POST", "/api/games", f.host, server.Setup{Source: string(src), File: "nb10.yaml"}, &made); code != 201 {
		t.Fatalf("upload a script's scenario: %d %s", code, body)
	}
	bad := strings.Replace(string(src), "quality: average", "quality: avrage", 1)
	code, body := f.call("POST", "/api/games", f.host, server.Setup{Source: bad, File: "nb10.yaml"}, nil)
	e := apiError(t, body)
	if code != 400 || !strings.Contains(e.Msg, "nb10.yaml:") || !strings.Contains(e.Msg, "did you mean average") {
		t.Errorf("a bad upload: %d %s", code, body)
	}
}

// TestSeatsAreWalled checks that a token reaches only its own game and
// seat: a side cannot act for the other, read another game, end a step at
// once, or use the umpire's powers; a commander acts only under his
// formation.
func TestSeatsAreWalled(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(true)
	other, otherTok := f.demo(false)
	for _, c := range []struct {
		name, method, path, token string
		body                      any
		code                      int
		msg                       string
	}{
		{"no token", "GET", "/api/games/" + id, "", nil, 401, "no Authorization header"},
		{"unknown token", "GET", "/api/games/" + id, "x" + tok["french"][1:], nil, 401, "not a seat"},
		{"another game's board", "GET", "/api/games/" + other + "/board", tok["french"], nil, 403, `not of game "` + other + `"`},
		{"another game's events", "GET", "/api/games/" + id + "/events", otherTok["allies"], nil, 403, "seat of game " + other},
		{"another game's stream", "GET", "/api/games/" + id + "/stream", otherTok["umpire"], nil, 403, "seat of game " + other},
		{"act for the enemy", "POST", "/api/games/" + id + "/commands", tok["french"], `{"side":"allies","ready":true}`, 403, `cannot give commands for "allies"`},
		{"act as umpire", "POST", "/api/games/" + id + "/commands", tok["allies"], `{"side":"umpire","end":true}`, 403, `cannot give commands for "umpire"`},
		{"end a step", "POST", "/api/games/" + id + "/commands", tok["french"], `{"end":true}`, 403, "only the umpire ends"},
		{"the umpire ends a step as a side", "POST", "/api/games/" + id + "/commands", tok["umpire"], `{"side":"french","end":true}`, 422, "only the umpire ends a step, for every side at once; french finishes it with ready"},
		{"reveal", "POST", "/api/games/" + id + "/reveal", tok["french"], nil, 403, "only the umpire"},
		{"export", "GET", "/api/games/" + id + "/export", tok["allies"], nil, 403, "only the umpire"},
		{"seats", "GET", "/api/games/" + id + "/seats", tok["F-I"], nil, 403, "only the umpire"},
		{"odds for the enemy", "POST", "/api/games/" + id + "/odds", tok["french"], `{"side":"allies","write":{"for":["A-I"],"kind":"attack"}}`, 403, `cannot give commands for "allies"`},
		{"commander writes for another corps", "POST", "/api/games/" + id + "/commands", tok["F-I"], `{"write":{"for":["F-II"],"kind":"attack"}}`, 403, `"F-II" is not under F-I`},
		{"commander moves another corps", "POST", "/api/games/" + id + "/commands", tok["F-I"], `{"move":{"unit":"F-II-5-a","to":[8,30]}}`, 403, `"F-II-5" is not under F-I`},
		{"commander moves another general", "POST", "/api/games/" + id + "/commands", tok["F-II"], `{"move":{"general":"derlon","to":[34,30]}}`, 403, `"F-I" is not under F-II`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before server.Info
			f.call("GET", "/api/games/"+id, tok["umpire"], nil, &before)
			code, body := f.call(c.method, c.path, c.token, c.body, nil)
			e := apiError(t, body)
			if code != c.code || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("%d %s; want %d with %q", code, body, c.code, c.msg)
			}
			var after server.Info
			f.call("GET", "/api/games/"+id, tok["umpire"], nil, &after)
			if after.Version != before.Version {
				t.Errorf("a refused request changed the game: version %d -> %d", before.Version, after.Version)
			}
		})
	}
	// What a commander may do, he can.
	if code, body := f.call("POST", "/api/games/"+id+"/commands", tok["F-I"], `{"write":{"for":["F-I-1"],"kind":"attack","objective":[30,14]}}`, nil); code != 200 {
		t.Errorf("commander writes for his own division: %d %s", code, body)
	}
}

// TestPlayThroughTheAPI plays the start of the demo: an order written by
// the French is seen by them and not by the Allies; a refused command
// names its rule and changes nothing; the step ends when both sides are
// ready; the answers match the OpenAPI document.
func TestPlayThroughTheAPI(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	check := schemas(t, f)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	var res server.Result
	code, body := f.call("POST", g+"/commands", tok["french"], `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12],"note":"secret-plan-4711"}}`, &res)
	if code != 200 {
		t.Fatalf("write: %d %s", code, body)
	}
	check("Result", body)
	if !hasType(res.Events, nb.OrderWritten) || !hasType(res.Events, nb.MessengerSent) {
		t.Errorf("write gave %s", body)
	}
	// NB-2: the French may write only so many orders a turn.
	var info server.Info
	for range 5 {
		code, body = f.call("POST", g+"/commands", tok["french"], `{"write":{"for":["F-II"],"kind":"defend"}}`, nil)
		if code != 200 {
			break
		}
	}
	f.call("GET", g, tok["umpire"], nil, &info)
	e := apiError(t, body)
	if code != 422 || e.Code != server.Rejected || e.Rule != "NB-2" {
		t.Errorf("too many orders: %d %s", code, body)
	}
	var again server.Info
	f.call("GET", g, tok["umpire"], nil, &again)
	if again.Version != info.Version {
		t.Errorf("a refused command moved the game from %d to %d", info.Version, again.Version)
	}
	// The Allies see the messenger ride out but never the order.
	for _, path := range []string{g + "/events", g + "/board", g} {
		_, body := f.call("GET", path, tok["allies"], nil, nil)
		for _, secret := range []string{"secret-plan-4711", `"order-written","side":"french"`, `"kind":"attack","objective":[30,12]`} {
			if strings.Contains(string(body), secret) {
				t.Errorf("allies' %s shows %s", path, secret)
			}
		}
	}
	_, body = f.call("GET", g+"/board", tok["allies"], nil, nil)
	check("Board", body)
	if !strings.Contains(string(body), `"space":{"kind":"table","unit":"inches","min":[0,0],"max":[`) || !strings.Contains(string(body), `"units":"inches"`) {
		t.Errorf("the board does not send its table as the space")
	}
	if !strings.Contains(string(body), `"m-french-1"`) {
		t.Errorf("the allies' board does not show the French messenger model")
	}
	_, body = f.call("GET", g+"/board", tok["french"], nil, nil)
	if !strings.Contains(string(body), "secret-plan-4711") || !strings.Contains(string(body), `"etas":{"m-french-1":`) {
		t.Errorf("the French board lacks their order or its messenger's arrival turn")
	}
	// The step ends when both sides are ready.
	step := info.Step
	f.call("POST", g+"/commands", tok["french"], `{"ready":true}`, nil)
	f.call("GET", g, tok["allies"], nil, &info)
	if info.Step != step || !slices.Equal(info.Ready, []string{"french"}) {
		t.Fatalf("after one side is ready: %+v", info)
	}
	f.call("POST", g+"/commands", tok["allies"], `{"ready":true}`, nil)
	f.call("GET", g, tok["allies"], nil, &info)
	if info.Step == step || len(info.Ready) != 0 {
		t.Fatalf("after both sides are ready: step %s, ready %v", info.Step, info.Ready)
	}
	check("Info", mustJSON(t, info))
	// The odds of the delay roll, before writing.
	var odds server.Odds
	code, body = f.call("POST", g+"/odds", tok["french"], `{"write":{"for":["F-I"],"kind":"attack"}}`, &odds)
	if code != 200 || len(odds.Forecast) != 1 || odds.Forecast[0].General != "derlon" {
		t.Fatalf("odds: %d %s", code, body)
	}
	check("Odds", body)
	// One shape for odds: what orderly odds --json prints for the same
	// table and parameters.
	fc := odds.Forecast[0]
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	tb, err := set.Table(fc.Table)
	if err != nil || fc.Odds == nil || fc.Params["nation"] != "french" {
		t.Fatalf("forecast %+v: %v", fc, err)
	}
	a, _ := tb.Bind(fc.Params)
	o, _ := tb.Odds(a)
	if want := mustJSON(t, o.JSON(tb, a)); string(mustJSON(t, fc.Odds)) != string(want) {
		t.Errorf("the API's odds %s, the table's %s", mustJSON(t, fc.Odds), want)
	}
}

func hasType(evs []server.Entry, typ string) bool {
	return slices.ContainsFunc(evs, func(e server.Entry) bool { return e.Event.Type == typ })
}

// described is event e of a game of the demo as the server sends it to a
// seat: with the engine's description of it as its summary, naming pieces
// as the demo does.
func described(e game.Event) server.Entry {
	return server.Entry{Event: e, Summary: game.Describe(nbRules, &e, demoNames)}
}

// demoNames shows an id of the NB demo by its name in the scenario.
var demoNames = func() func(string) string {
	data, err := fs.ReadFile(examples.FS(), "nb/demo.yaml")
	if err != nil {
		panic(err)
	}
	sc, err := script.LoadScenario("demo.yaml", data, func(string) (game.Rules, error) { return nbRules, nil })
	if err != nil {
		panic(err)
	}
	return game.Names(sc)
}()

// nbRules is NB with the built-in tables, for describing events as the
// server does.
var nbRules = func() game.Rules {
	set, err := rules.Load()
	if err != nil {
		panic(err)
	}
	r, err := rules.Engine("nb", set)
	if err != nil {
		panic(err)
	}
	return r
}()

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBadRequests checks that bad input gets a 4xx with a reason, never a
// 500, and changes nothing.
func TestBadRequests(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	big := `{"write":{"for":["F-I"],"kind":"attack","note":"` + strings.Repeat("x", 2<<20) + `"}}`
	for _, c := range []struct {
		name, path, body string
		code             int
		msg              string
	}{
		{"not JSON", g + "/commands", `{"write":`, 400, "the JSON ends too soon"},
		{"duplicate key", g + "/commands", `{"ready":true,"ready":true}`, 400, `the key "ready" is given twice`},
		{"duplicate nested key", g + "/commands", `{"write":{"for":["F-I"],"kind":"attack","kind":"defend"}}`, 400, `the key "kind" is given twice`},
		{"a unit twice", g + "/commands", `{"rout":["F-I-1-a","F-I-1-a"]}`, 400, "F-I-1-a is named twice"},
		{"a move twice", g + "/commands", `{"move":[{"unit":"F-I-1-a","to":[1,1]},{"unit":"F-I-1-a","to":[2,2]}]}`, 400, "F-I-1-a is moved twice"},
		{"a list", g + "/commands", `[1,2]`, 400, "not a JSON object"},
		{"no verb", g + "/commands", `{}`, 400, "give exactly one of"},
		{"two verbs", g + "/commands", `{"ready":true,"end":true}`, 400, "give exactly one of"},
		{"unknown field", g + "/commands", `{"reddy":true}`, 400, `unknown field "reddy" (did you mean ready?)`},
		{"unknown field in write", g + "/commands", `{"write":{"for":["F-I"],"kind":"attack","objectiv":[1,2]}}`, 400, `unknown field "objectiv"`},
		{"bad point", g + "/commands", `{"move":{"unit":"F-I-1-a","to":[1]}}`, 400, "to"},
		{"bad side", g + "/commands", `{"side":7,"ready":true}`, 400, "command.side"},
		{"oversized", g + "/commands", big, 413, "over this server's limit"},
		{"create: both", "/api/games", `{"scenario":"demo","source":"x"}`, 400, "not both"},
		{"create: unknown scenario", "/api/games", `{"scenario":"dmeo"}`, 400, `"dmeo" is not bundled`},
		{"create: unknown field", "/api/games", `{"scenaro":"demo"}`, 400, `unknown field "scenaro"`},
		{"create: nothing", "/api/games", `{}`, 400, "give scenario"},
		{"create: trailing", "/api/games", `{"scenario":"demo"} {}`, 400, "more than one JSON value"},
		{"create: not a scenario", "/api/games", `{"source":"just: words"}`, 400, "upload.yaml"},
		{"odds: unknown formation", g + "/odds", `{"write":{"for":["F-IX"],"kind":"attack"}}`, 422, `formation "F-IX" is not in this game`},
		{"odds: duplicate key", g + "/odds", `{"write":{"for":["F-I"],"kind":"attack"},"write":{}}`, 400, "given twice"},
		{"create: duplicate key", "/api/games", `{"scenario":"demo","scenario":"demo"}`, 400, "given twice"},
		{"odds: bad field", g + "/odds", `{"write":{"for":"F-I"}}`, 400, "write: kind is missing"},
		{"import: not a game", "/api/games/import", `{"format":"x"}`, 400, "format"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before server.Info
			f.call("GET", g, tok["umpire"], nil, &before)
			token := tok["french"]
			if !strings.HasPrefix(c.path, g) {
				token = f.host // making and importing games
			}
			code, body := f.call("POST", c.path, token, c.body, nil)
			e := apiError(t, body)
			if code != c.code || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("%d %.300s; want %d with %q", code, body, c.code, c.msg)
			}
			if strings.Contains(e.Msg, "\n") || strings.Contains(e.Msg, "goroutine") {
				t.Errorf("message is not one sentence: %q", e.Msg)
			}
			var after server.Info
			f.call("GET", g, tok["umpire"], nil, &after)
			if after.Version != before.Version {
				t.Errorf("a bad request changed the game")
			}
		})
	}
	// Wrong content type, wrong method, unknown route.
	req, _ := http.NewRequest("POST", f.ts.URL+g+"/commands", strings.NewReader(`{"ready":true}`))
	req.Header.Set("Authorization", "Bearer "+tok["french"])
	req.Header.Set("Content-Type", "text/plain")
	if resp, err := f.ts.Client().Do(req); err != nil || resp.StatusCode != 415 {
		t.Errorf("text/plain body: %v %v", resp.StatusCode, err)
	}
	if code, body := f.call("DELETE", "/", "", nil, nil); code != 405 {
		t.Errorf("DELETE /: %d %s", code, body)
	}
	if code, body := f.call("GET", "/api/nope", "", nil, nil); code != 404 || apiError(t, body).Code != server.NotFound {
		t.Errorf("unknown route: %d %s", code, body)
	}
	if code, _ := f.call("GET", g+"/events?since=-1", tok["french"], nil, nil); code != 400 {
		t.Errorf("since=-1: %d", code)
	}
}

// TestEditPage checks that /edit is the scenario editor's page (issue 35),
// whatever its fragment says, and takes only GET.
func TestEditPage(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	resp, err := f.ts.Client().Get(f.ts.URL + "/edit")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(body), `src="/js/editor/main.js"`) {
		t.Fatalf("GET /edit: %d %s, want the editor's page", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, err = f.ts.Client().Post(f.ts.URL+"/edit", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /edit: %d, want 405", resp.StatusCode)
	}
}

// TestSecurityHeaders checks the headers every answer carries.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, path := range []string{"/", "/play", "/edit", "/api/scenarios", "/api/nope"} {
		resp, err := f.ts.Client().Get(f.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") != "no-referrer" || resp.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", path, resp.Header)
		}
	}
}

// TestRestart checks that games are rebuilt from their logs when the
// server starts again: same version, same state, same seats.
func TestRestart(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	f.call("POST", g+"/commands", tok["french"], `{"write":{"for":["F-I"],"kind":"attack","objective":[30,12]}}`, nil)
	f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil)
	before, err := f.srv.Export(context.Background(), id, true)
	if err != nil {
		t.Fatal(err)
	}
	f.close()
	f2 := openFixture(t, f.path, 2)
	after, err := f2.srv.Export(context.Background(), id, true)
	if err != nil {
		t.Fatal(err)
	}
	if after.Hash != before.Hash || len(after.Events) != len(before.Events) || !slices.EqualFunc(after.Seeds, before.Seeds, func(a, b game.Seed) bool {
		return a.Commitment == b.Commitment && bytes.Equal(a.Key, b.Key)
	}) {
		t.Errorf("after restart: hash %s, %d events; before %s, %d", after.Hash, len(after.Events), before.Hash, len(before.Events))
	}
	if code, body := f2.call("POST", g+"/commands", tok["french"], `{"ready":true}`, nil); code != 200 {
		t.Errorf("a token after restart: %d %s", code, body)
	}
}

// TestRevealExportVerifyImport plays a few turns, reveals the seed,
// exports the game, checks every roll of the export, and imports it as a
// new game that stands in the same place.
func TestRevealExportVerifyImport(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	for turn := range 3 {
		f.call("POST", g+"/commands", tok["french"], fmt.Sprintf(`{"write":{"for":["F-I"],"kind":"attack","objective":[30,%d]}}`, 12+turn), nil)
		f.call("POST", g+"/commands", tok["allies"], `{"write":{"for":["A-I"],"kind":"defend"}}`, nil)
		for range 2 {
			if code, body := f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil); code != 200 {
				t.Fatalf("end: %d %s", code, body)
			}
		}
	}
	eng := engineOf(t)
	doc, err := f.srv.Export(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := doc.Verify(eng); err == nil || !strings.Contains(err.Error(), "still secret") {
		t.Errorf("verify before the reveal: %v", err)
	}
	// Mid-game, a reveal must be confirmed, and says what it would expose.
	code, body := f.call("POST", g+"/reveal", tok["umpire"], `{}`, nil)
	if e := apiError(t, body); code != 409 || e.Code != server.Confirm || !strings.Contains(e.Msg, "confirm") {
		t.Fatalf("an unconfirmed reveal mid-game: %d %s", code, body)
	}
	var rev server.Revealed
	if code, body := f.call("POST", g+"/reveal", tok["umpire"], `{"confirm":true}`, &rev); code != 200 || len(rev.Revealed) != 1 || rev.Revealed[0].Key == nil || rev.Next.Key != nil {
		t.Fatalf("reveal: %d %s", code, body)
	}
	if code, _ := f.call("POST", g+"/reveal", tok["umpire"], `{"confirm":true}`, nil); code != 409 {
		t.Errorf("a second reveal with no roll between: %d", code)
	}
	var exported archive.Game
	code, body = f.call("GET", g+"/export", tok["umpire"], nil, &exported)
	if code != 200 || exported.Format != archive.Format {
		t.Fatalf("export: %d %.200s", code, body)
	}
	schemas(t, f)("Archive", body)
	rep, err := exported.Verify(eng)
	if err != nil || rep.Rolls == 0 {
		t.Fatalf("verify: %+v, %v", rep, err)
	}
	var made server.Created
	if code, body := f.call("POST", "/api/games/import", f.host, &exported, &made); code != 201 {
		t.Fatalf("import: %d %s", code, body)
	}
	copied, err := f.srv.Export(context.Background(), made.Game.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	// The export's second seed had no roll under it yet: the import's
	// fresh seed takes its place, and the revealed first one stays.
	if copied.Hash != exported.Hash || len(copied.Events) != len(exported.Events) || len(copied.Seeds) != 2 ||
		!bytes.Equal(copied.Seeds[0].Key, exported.Seeds[0].Key) || copied.Seeds[1].Commitment == exported.Seeds[1].Commitment {
		t.Errorf("imported game: hash %s (%d events, %d seeds), exported %s (%d, %d)", copied.Hash, len(copied.Events), len(copied.Seeds), exported.Hash, len(exported.Events), len(exported.Seeds))
	}
	// A forged roll is caught on import.
	for i := range exported.Events {
		if r := exported.Events[i].FirstRoll(); r != nil {
			forged := *r
			forged.Faces = []int{r.Faces[0]%10 + 1}
			forged.Natural = forged.Faces[0]
			exported.Events[i].Rolls = []game.Roll{forged}
			break
		}
	}
	code, body = f.call("POST", "/api/games/import", f.host, &exported, nil)
	if e := apiError(t, body); code != 422 || e.Code != server.Verification {
		t.Errorf("a forged roll: %d %s", code, body)
	}
}

// TestOldEvents plays long enough that the server forgets the start of the
// log in memory: a seat still gets every event it may see, from the start,
// through /events and through a stream, the old ones read from the store.
func TestOldEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	for turn := range 11 {
		f.call("POST", g+"/commands", tok["french"], fmt.Sprintf(`{"write":{"for":["F-II"],"kind":"attack","objective":[10,%d]}}`, 10+turn), nil)
		for range 2 {
			f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, nil)
		}
	}
	doc, err := f.srv.Export(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Events) < 150 { // the server keeps at most 128 in memory
		t.Fatalf("only %d events; the test needs more than the server keeps in memory", len(doc.Events))
	}
	// The allies number the events they may see 1, 2, 3, ...
	var want []string
	for _, e := range doc.Events {
		if e.Visible("allies") {
			e = e.Shown("allies", false) // no command origin (issue 36)
			e.Seq = len(want) + 1
			want = append(want, string(mustJSON(t, described(e))))
		}
	}
	var page server.Events
	f.call("GET", g+"/events?since=0", tok["allies"], nil, &page)
	var got []string
	for _, e := range page.Events {
		got = append(got, string(mustJSON(t, e)))
	}
	if !slices.Equal(got, want) || page.Version != len(want) || page.More {
		t.Errorf("/events?since=0 gave %d events up to version %d; want %d up to %d", len(got), page.Version, len(want), len(want))
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := f.subscribe(ctx, id, tok["allies"], 0)
	if err != nil {
		t.Fatal(err)
	}
	last := fmt.Sprint(len(want))
	streamed := events(t, collect(t, ch, func(ms []sse) bool { return len(ms) > 0 && ms[len(ms)-1].id == last }))
	got = got[:0]
	for _, e := range streamed {
		got = append(got, string(mustJSON(t, e)))
	}
	if !slices.Equal(got, want) {
		t.Errorf("the stream from 0 gave %d events; want %d", len(got), len(want))
	}
}

// TestTokensNeverLogged logs every request at the most verbose level and
// checks that no token reaches the log, whatever the request.
func TestTokensNeverLogged(t *testing.T) {
	t.Parallel()
	var logs strings.Builder
	var mu sync.Mutex
	w := writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	})
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv, err := server.New(context.Background(), db, engine(t), server.WithLogger(slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	f := &fixture{t: t, srv: srv, ts: ts, db: db, path: path}
	id, tok := f.demo(true)
	g := "/api/games/" + id
	for _, tk := range tok {
		f.call("GET", g+"/board", tk, nil, nil)
		f.call("POST", g+"/commands", tk, `{"ready":true}`, nil)
		f.call("POST", g+"/commands", tk, `{"nonsense":1}`, nil)
		f.call("GET", "/api/games/nope/board", tk, nil, nil)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "path=/api/games/"+id+"/board") {
		t.Fatalf("the requests were not logged: %s", logs.String())
	}
	for name, tk := range tok {
		if strings.Contains(logs.String(), tk) || strings.Contains(logs.String(), tk[:12]) {
			t.Errorf("the %s token is in the log", name)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestArrivalAndReserveOdds checks the board's arrival turn of a messenger
// against the turn its order is delivered, and that the odds of an order
// for an on-board reserve say it acts on delivery without a roll (NB-9).
func TestArrivalAndReserveOdds(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.demo(false)
	g := "/api/games/" + id
	var res server.Result
	f.call("POST", g+"/commands", tok["french"], `{"write":{"for":["F-II"],"kind":"attack","objective":[10,12]}}`, &res)
	var b server.Board
	f.call("GET", g+"/board", tok["french"], nil, &b)
	var m string
	for _, e := range res.Events {
		if e.Event.Type == nb.MessengerSent {
			var d nb.Data
			if err := json.Unmarshal(e.Event.Data.(json.RawMessage), &d); err != nil {
				t.Fatal(err)
			}
			m = d.Messenger
		}
	}
	eta, ok := b.Etas[m]
	if !ok {
		t.Fatalf("no arrival turn for %s: %v", m, b.Etas)
	}
	delivered := 0
	for range 20 {
		var r server.Result
		f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, &r)
		for _, e := range r.Events {
			if e.Event.Type == nb.OrderDelivered && delivered == 0 {
				delivered = e.Event.Turn
			}
		}
		if delivered > 0 {
			break
		}
	}
	if delivered != eta || eta < 2 {
		t.Errorf("the board said %s arrives on turn %d; it delivered on turn %d", m, eta, delivered)
	}
	var odds server.Odds
	code, body := f.call("POST", g+"/odds", tok["french"], `{"write":{"for":["F-G"],"kind":"attack"}}`, &odds)
	if code != 200 || len(odds.Forecast) != 1 || odds.Forecast[0].Table != "" || !strings.Contains(odds.Forecast[0].Note, "NB-9") {
		t.Errorf("odds for the on-board reserve: %d %s", code, body)
	}
}
