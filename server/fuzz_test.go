package server_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"orderly/server"
)

// FuzzCommand sends arbitrary bodies to every endpoint that takes one:
// commands and odds (as a side and as a commander), making and importing
// games (with the host token), revealing the seed and reissuing a seat (as
// the umpire). The answer is always JSON, a 2xx or a 4xx with a one-line
// reason, never a 500; a refused body never changes the game, and no
// refused body makes a game.
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		`{"write":{"for":["F-I"],"kind":"attack","objective":[30,12],"note":"x"}}`,
		`{"move":{"unit":"F-I-1-a","to":[31,21]}}`,
		`{"move":[{"unit":"F-I-1-a","to":[31,21],"formation":"line","facing":90},{"general":"quiot","to":[1e308,-1e308]}]}`,
		`{"ready":true}`, `{"end":"write"}`, `{"side":"umpire","end":true}`,
		`{"redirect":{"messenger":"m-french-1","to":"reille"}}`, `{"attach":{"general":"ney","to":"F-I-1-a"}}`,
		`{"replace":{"general":"ney","by":{"id":"x","quality":"good","range":4,"at":[1,1]}}}`,
		`{"remove":{"general":"ney","fate":"killed"}}`, `{"rout":["F-I-1-a"]}`, `{"complete":"F-I"}`,
		`{"write":{"for":"F-I"}}`, `[]`, `null`, `"x"`, `{"side":null}`, `{"move":{"unit":"a","to":[NaN,1]}}`,
		"{\"write\":{\"for\":[\"\u0000\"],\"kind\":\"attack\"}}",
		`{"ready":true,"ready":true}`, `{"rout":["F-I-1-a","F-I-1-a"]}`,
		`{"scenario":"demo"}`, `{"source":"script: x\nscenario: /etc/passwd\n"}`, `{"source":"rules: nb\n"}`,
		`{"confirm":true}`, `{"confirm":"yes"}`, `{"seat":"french"}`, `{"seat":"umpire","seat":"allies"}`,
		`{"format":"orderly-game/3","scenario":{"source":"x"},"seeds":[{"from":1,"commitment":"00"}],"events":[]}`,
	} {
		f.Add(s)
	}
	fx := newFixture(f)
	id, tok := fx.demo(true)
	h := fx.srv.Handler()
	version := func() int {
		req := httptest.NewRequest("GET", "/api/games/"+id, nil)
		req.Host = "localhost"
		req.Header.Set("Authorization", "Bearer "+tok["umpire"])
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		var in struct{ Version int }
		_ = json.Unmarshal(w.Body.Bytes(), &in)
		return in.Version
	}
	tok["host"] = fx.host
	targets := []struct{ path, seat string }{
		{"/api/games/" + id + "/commands", "french"}, {"/api/games/" + id + "/commands", "F-I"},
		{"/api/games/" + id + "/odds", "french"}, {"/api/games/" + id + "/odds", "F-I"},
		{"/api/games", "host"}, {"/api/games/import", "host"},
		{"/api/games/" + id + "/reveal", "umpire"}, {"/api/games/" + id + "/seats/reissue", "umpire"},
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, tg := range targets {
			before := version()
			games, _ := fx.srv.Stored(context.Background())
			req := httptest.NewRequest("POST", tg.path, strings.NewReader(body))
			req.Host = "localhost"
			req.Header.Set("Authorization", "Bearer "+tok[tg.seat])
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code >= 500 {
				t.Fatalf("%s %q: %d %s", tg.path, body, w.Code, w.Body)
			}
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("%s %q: not JSON: %s", tg.path, body, w.Body)
			}
			if w.Code/100 == 2 {
				if strings.HasSuffix(tg.path, "/reissue") {
					// The fuzzer gave a seat a new token: use it from now on.
					var ns struct{ Name, Token string }
					_ = json.Unmarshal(w.Body.Bytes(), &ns)
					tok[ns.Name] = ns.Token
				}
				continue
			}
			var e struct{ Error struct{ Message string } }
			_ = json.Unmarshal(w.Body.Bytes(), &e)
			if e.Error.Message == "" || strings.ContainsAny(e.Error.Message, "\n\r") || len([]rune(e.Error.Message)) > server.MaxMessage {
				t.Fatalf("%s %q: %d with message %q", tg.path, body, w.Code, e.Error.Message)
			}
			if after := version(); after != before {
				t.Fatalf("%s %q was refused (%d) but moved the game from %d to %d", tg.path, body, w.Code, before, after)
			}
			if n, _ := fx.srv.Stored(context.Background()); n != games {
				t.Fatalf("%s %q was refused (%d) but made a game", tg.path, body, w.Code)
			}
		}
	})
}
