package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzCommand sends arbitrary bodies as commands and odds requests: the
// answer is always JSON, a 200 or a 4xx with a one-line reason, never a
// 500, and a refused body never changes the game.
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
	} {
		f.Add(s)
	}
	fx := newFixture(f)
	id, tok := fx.demo(true)
	h := fx.srv.Handler()
	version := func() int {
		req := httptest.NewRequest("GET", "/api/games/"+id, nil)
		req.Header.Set("Authorization", "Bearer "+tok["umpire"])
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		var in struct{ Version int }
		_ = json.Unmarshal(w.Body.Bytes(), &in)
		return in.Version
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range []string{"/commands", "/odds"} {
			for _, seat := range []string{"french", "F-I"} {
				before := version()
				req := httptest.NewRequest("POST", "/api/games/"+id+path, strings.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+tok[seat])
				req.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code >= 500 {
					t.Fatalf("%s %q as %s: %d %s", path, body, seat, w.Code, w.Body)
				}
				if !json.Valid(w.Body.Bytes()) {
					t.Fatalf("%s %q: not JSON: %s", path, body, w.Body)
				}
				if w.Code != http.StatusOK {
					var e struct{ Error struct{ Message string } }
					_ = json.Unmarshal(w.Body.Bytes(), &e)
					if e.Error.Message == "" || strings.Contains(e.Error.Message, "\n") {
						t.Fatalf("%s %q: %d with message %q", path, body, w.Code, e.Error.Message)
					}
					if after := version(); after != before {
						t.Fatalf("%s %q was refused (%d) but moved the game from %d to %d", path, body, w.Code, before, after)
					}
				}
			}
		}
	})
}
