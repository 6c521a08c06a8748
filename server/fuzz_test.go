package server_test

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
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

// FuzzEditor sends arbitrary bodies to the routes of the scenario editor,
// its imports and the host's games (issue 35), with the host token,
// through the real handler: the answer is always JSON, never a 500; a
// refusal is one line that names no file of the server, no Go type and no
// stack; the check's problems, one line each, name none either; a refused
// body deletes no game and changes no seat's link.
func FuzzEditor(f *testing.F) {
	huge := pngHeader(100000, 100000)
	for _, s := range []string{
		`{"source":"name: x\nrules: nb\n"}`, `{"source":"","file":"../../etc/passwd"}`, `{"source":"a: *b\n"}`,
		`{"source":"{\"name\":1}"}`, `{"source":"[1,2]"}`, `{"source":"name: x\nrules: nb\nfield: {image: {data: \"` + huge + `\", scale: 1}}\n"}`,
		`{"source":"name: x\nrules: nes\nmap: {columns: 2, rows: 2, image: {data: \"data:image/gif;base64,R0lGODlh\", x0: 1, y0: 1, dx: 1, dy: 1}}\n"}`,
		`{"source":"name: x\nrules: nb\ntables: /etc/passwd\n"}`, `{"source":"x","file":"C:\\x\\y.yaml"}`,
		`{"rules":"nb","text":"side,role,id\nfr,general,nap\n","file":"/etc/r.csv"}`, `{"rules":"zz","text":""}`,
		"{\"rules\":\"nb\",\"text\":\"\\\"\\n\\u0000\"}", `{"rules":"nb","text":"a;b;c\n1;2;3\n"}`,
		`{"data":"UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==","file":"x.vmod"}`, `{"data":"data:application/zip;base64,AAAA"}`,
		`{"data":"","board":"Main"}`, `{"seats":["umpire"]}`, `{"seats":[""]}`, `{"confirm":"x"}`, `{"confirm":null}`,
		`[]`, `null`, `{}`, `{"source":1}`, `{"source":"x","source":"y"}`,
	} {
		f.Add(s)
	}
	fx := newFixture(f)
	id, tok := fx.demo(true)
	h := fx.srv.Handler()
	wd, _ := os.Getwd()
	leak := regexp.MustCompile(`\.go:\d|goroutine |panic|\*?(server|battle|roster|vmod|strict|store|yaml|json)\.[A-Z]\w*\b|runtime\.|` + regexp.QuoteMeta(filepath.Dir(wd)) + `|/usr/local/go/`)
	seatsOf := func() string {
		req := httptest.NewRequest("GET", "/api/games/"+id+"/seats", nil)
		req.Host = "localhost"
		req.Header.Set("Authorization", "Bearer "+tok["umpire"])
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Body.String()
	}
	seats := seatsOf()
	targets := []struct{ method, path string }{
		{"POST", "/api/editor/check"}, {"POST", "/api/editor/roster"}, {"POST", "/api/editor/vmod"},
		{"POST", "/api/host/games/" + id + "/reissue"}, {"DELETE", "/api/host/games/" + id}, {"DELETE", "/api/host/games/x"},
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, tg := range targets {
			req := httptest.NewRequest(tg.method, tg.path, strings.NewReader(body))
			req.Host = "localhost"
			req.Header.Set("Authorization", "Bearer "+fx.host)
			req.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code >= 500 {
				t.Fatalf("%s %s %q: %d %s", tg.method, tg.path, body, w.Code, w.Body)
			}
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("%s %q: not JSON: %s", tg.path, body, w.Body)
			}
			var out struct {
				Error    struct{ Message string }
				Problems []struct{ Message string }
			}
			_ = json.Unmarshal(w.Body.Bytes(), &out)
			msgs := []string{out.Error.Message}
			for _, p := range out.Problems {
				msgs = append(msgs, p.Message)
			}
			for _, m := range msgs {
				if strings.ContainsAny(m, "\n\r") || len([]rune(m)) > server.MaxMessage || leak.MatchString(m) {
					t.Fatalf("%s %q: %d with message %q", tg.path, body, w.Code, m)
				}
			}
			if w.Code/100 == 2 {
				if tg.method != "POST" {
					t.Fatalf("%s %s %q: %d %s", tg.method, tg.path, body, w.Code, w.Body)
				}
				if strings.HasSuffix(tg.path, "/reissue") {
					// The fuzzer gave seats new links: use them from now on.
					var made []struct{ Name, Token string }
					_ = json.Unmarshal(w.Body.Bytes(), &made)
					for _, m := range made {
						tok[m.Name] = m.Token
					}
				}
				continue
			}
			if out.Error.Message == "" {
				t.Fatalf("%s %q: %d with no message: %s", tg.path, body, w.Code, w.Body)
			}
			if now := seatsOf(); now != seats {
				t.Fatalf("%s %s %q was refused (%d) but the seats changed: %s", tg.method, tg.path, body, w.Code, now)
			}
		}
	})
}

// pngHeader is a data URL of a PNG that declares w by h pixels in a few
// bytes: its signature and a whole IHDR chunk, and nothing else.
func pngHeader(w, h uint32) string {
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 2, 0, 0, 0)
	b := []byte("\x89PNG\r\n\x1a\n")
	b = binary.BigEndian.AppendUint32(b, 13)
	b = append(b, ihdr...)
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(ihdr))
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b)
}
