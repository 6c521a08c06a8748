package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"orderly/server"
)

// TestDeleteRace: two deletes of one game at once while every seat of
// the game sends commands and reads its board: one delete is answered
// 200 and the other as a game that is not there; no request meanwhile
// fails with a 5xx; a request caught by the delete is answered as an
// unknown token is; and afterwards each of the game's tokens gets, on
// every route of a game, exactly the answer a token never issued gets.
// Run it with the race detector: go test -race -run TestDeleteRace ./server
func TestDeleteRace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, server.WithLimits(server.Limits{FailedTokens: 1 << 20}))
	id, tok := f.demo(true)
	base := "/api/games/" + id
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]int{}
	note := func(code int, body []byte) {
		var e struct {
			Error struct{ Code, Message string }
		}
		_ = json.Unmarshal(body, &e)
		mu.Lock()
		seen[fmt.Sprintf("%d %s", code, e.Error.Message)]++
		mu.Unlock()
	}
	for name, token := range tok {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := `{"ready":true}`
			if name == "umpire" {
				cmd = `{"side":"umpire","end":true}`
			}
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if i%2 == 0 {
					note(f.call("POST", base+"/commands", token, cmd, nil))
				} else {
					note(f.call("GET", base+"/board", token, nil, nil))
				}
			}
		}()
	}
	codes := make([]int, 2)
	var del sync.WaitGroup
	for i := range codes {
		del.Add(1)
		go func() {
			defer del.Done()
			codes[i], _ = f.call("DELETE", "/api/host/games/"+id, f.host, server.DeleteRequest{Confirm: id}, nil)
		}()
	}
	del.Wait()
	close(stop)
	wg.Wait()
	sort.Ints(codes)
	if codes[0] != http.StatusOK || codes[1] != http.StatusNotFound {
		t.Errorf("two deletes at once: %v, want one 200 and one 404", codes)
	}
	for k, n := range seen {
		code, msg, _ := strings.Cut(k, " ")
		if code[0] == '5' || code == "404" || code == "401" && msg != "the token is not a seat of any game on this server" {
			t.Errorf("a request as the game was deleted: %s (%d times)", k, n)
		}
	}

	// Afterwards a token of the game is answered on every route as one
	// never issued, byte for byte.
	never := "never-issued-token-0123456789abcdefghijk"
	for _, rt := range []struct{ method, path, body string }{
		{"GET", "/api/seat", ""}, {"GET", base, ""}, {"GET", base + "/board", ""}, {"GET", base + "/events", ""},
		{"GET", base + "/image", ""}, {"GET", base + "/stream", ""}, {"GET", base + "/seats", ""}, {"GET", base + "/export", ""},
		{"POST", base + "/commands", `{"ready":true}`}, {"POST", base + "/odds", `{"ready":true}`},
		{"POST", base + "/reveal", `{}`}, {"POST", base + "/seats/reissue", `{"seat":"umpire"}`},
	} {
		var body any
		if rt.body != "" {
			body = rt.body
		}
		wantCode, want := f.call(rt.method, rt.path, never, body, nil)
		for name, token := range tok {
			if code, got := f.call(rt.method, rt.path, token, body, nil); code != wantCode || string(got) != string(want) {
				t.Errorf("%s %s as %s's deleted token: %d %s; an unknown token: %d %s", rt.method, rt.path, name, code, got, wantCode, want)
			}
		}
	}
}

// TestReissueRace: three host's reissues of every seat of a game at once
// are each answered with a link for every seat, and each seat is left
// with exactly one working link, that of the reissue done last (done one
// at a time, none makes part of the links and loses the rest); a reissue
// at once with the game's delete is answered 200 or as a game not there,
// never with a 5xx. Run it with the race detector too.
func TestReissueRace(t *testing.T) {
	t.Parallel()
	f := newFixture(t, server.WithLimits(server.Limits{FailedTokens: 1 << 20}))
	id, tok := f.demo(true)
	type made struct{ Name, Token string }
	answers := make([][]made, 3)
	codes := make([]int, 3)
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var body []byte
			codes[i], body = f.call("POST", "/api/host/games/"+id+"/reissue", f.host, server.HostReissue{}, &answers[i])
			if codes[i] != http.StatusOK {
				t.Errorf("reissue %d: %d %s", i, codes[i], body)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for name := range tok {
		working := 0
		for _, a := range answers {
			if len(a) != len(tok) {
				t.Fatalf("a reissue made %d links of %d", len(a), len(tok))
			}
			for _, m := range a {
				if m.Name == name {
					if code, _ := f.call("GET", "/api/seat", m.Token, nil, nil); code == http.StatusOK {
						working++
					}
				}
			}
		}
		if working != 1 {
			t.Errorf("seat %s has %d working links of the 3 reissues, want 1", name, working)
		}
	}

	for range 3 {
		id, _ := f.demo(true)
		codes := make([]int, 2)
		bodies := make([][]byte, 2)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if i == 0 {
					codes[i], bodies[i] = f.call("DELETE", "/api/host/games/"+id, f.host, server.DeleteRequest{Confirm: id}, nil)
				} else {
					codes[i], bodies[i] = f.call("POST", "/api/host/games/"+id+"/reissue", f.host, server.HostReissue{Seats: []string{"umpire"}}, nil)
				}
			}()
		}
		wg.Wait()
		if codes[0] != http.StatusOK {
			t.Errorf("the delete: %d %s", codes[0], bodies[0])
		}
		if codes[1] != http.StatusOK && (codes[1] != http.StatusNotFound || !strings.Contains(string(bodies[1]), "no game")) {
			t.Errorf("a reissue as the game was deleted: %d %s", codes[1], bodies[1])
		}
	}
}
