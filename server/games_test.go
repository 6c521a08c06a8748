package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"orderly/server"
	"orderly/store"
	"orderly/store/pgtest"
	"orderly/store/sqlite"
	"orderly/store/storetest"
)

// ended waits until a stream's messages stop: the server ended it.
func ended(t *testing.T, what string, ch <-chan sse) {
	t.Helper()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatalf("%s: the stream did not end", what)
		}
	}
}

// hostGames is the host's list of games on f, by id, in its order.
func hostGames(t *testing.T, f *fixture) ([]server.HostGame, map[string]server.HostGame) {
	t.Helper()
	var list []server.HostGame
	if code, body := f.call("GET", "/api/host/games", f.host, nil, &list); code != 200 {
		t.Fatalf("the host's games: %d %s", code, body)
	}
	by := map[string]server.HostGame{}
	for _, g := range list {
		by[g.ID] = g
	}
	return list, by
}

// TestHostGames: the host's routes need the host token, on an open server
// too; the list holds every game, the last played first, with its turn
// and phase (from memory, or from the log on a server that has not loaded
// it) and which seats are connected; reissue makes new links for the
// seats named (the old stop working), export is the umpire's, and a
// confirmed delete takes the game, its seats and streams away, its tokens
// then answered as unknown ones.
func TestHostGames(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := newFixture(t, server.WithOpen(true))
	a, atok := f.demo(false)
	b, btok := f.demo(true)
	if code, body := f.call("POST", "/api/games/"+a+"/commands", atok["umpire"], `{"end":true}`, nil); code != 200 {
		t.Fatalf("end a step of %s: %d %s", a, code, body)
	}

	// Only the host token: not none, not a seat's, not on an open server.
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/host/games", nil},
		{"POST", "/api/host/games/" + a + "/reissue", `{"seats":[]}`},
		{"GET", "/api/host/games/" + a + "/export", nil},
		{"DELETE", "/api/host/games/" + a, `{"confirm":"` + a + `"}`},
	} {
		if code, body := f.call(c.method, c.path, "", c.body, nil); code != 401 {
			t.Errorf("%s %s without a token: %d %s, want 401", c.method, c.path, code, body)
		}
		if code, body := f.call(c.method, c.path, atok["umpire"], c.body, nil); code != 403 {
			t.Errorf("%s %s with the umpire's token: %d %s, want 403", c.method, c.path, code, body)
		}
	}

	// GET /api/host says host only with the host token, open server or not.
	for token, want := range map[string]bool{f.host: true, atok["umpire"]: false} {
		var h server.Host
		if f.call("GET", "/api/host", token, nil, &h); h.Host != want || !h.Open {
			t.Errorf("GET /api/host on an open server: %+v, want host %v", h, want)
		}
	}

	// The list: a was played last.
	french, err := f.subscribe(ctx, a, atok["french"], 0)
	if err != nil {
		t.Fatal(err)
	}
	list, by := hostGames(t, f)
	check := schemas(t, f)
	var raw []json.RawMessage
	f.call("GET", "/api/host/games", f.host, nil, &raw)
	for _, r := range raw {
		check("HostGame", r)
	}
	if len(list) != 2 || list[0].ID != a || list[1].ID != b {
		t.Fatalf("the host's games: %+v; want %s then %s", list, a, b)
	}
	var info server.Info
	if code, body := f.call("GET", "/api/games/"+a, atok["umpire"], nil, &info); code != 200 {
		t.Fatalf("game %s: %d %s", a, code, body)
	}
	ga := by[a]
	if ga.Turn != info.Turn || ga.Phase != info.Phase || ga.Version != info.Version || ga.Title != info.Title || ga.Rules != "nb" || ga.Phase == "" {
		t.Errorf("game %s in the list: %+v; its umpire sees turn %d, phase %s, version %d", a, ga, info.Turn, info.Phase, info.Version)
	}
	if !ga.Played.After(by[b].Played) || !ga.Played.After(ga.Created) {
		t.Errorf("game %s played %v (made %v), game %s played %v: want %s played last", a, ga.Played, ga.Created, b, by[b].Played, a)
	}
	var connected []string
	for _, s := range ga.Seats {
		if s.Connected {
			connected = append(connected, s.Name)
		}
	}
	if len(ga.Seats) != 3 || !slices.Equal(connected, []string{"french"}) {
		t.Errorf("game %s's seats: %+v; want 3, french alone connected", a, ga.Seats)
	}
	if len(by[b].Seats) <= 3 {
		t.Errorf("game %s, with commanders, lists %d seats", b, len(by[b].Seats))
	}
	// A server that has not loaded the games reads their turn from the log.
	g := openFixture(t, f.path, 2)
	if _, other := hostGames(t, g); other[a].Turn != ga.Turn || other[a].Phase != ga.Phase || other[a].Version != ga.Version {
		t.Errorf("game %s listed by a server that has not loaded it: %+v; want turn %d, phase %s, version %d", a, other[a], ga.Turn, ga.Phase, ga.Version)
	}

	// Reissue: a name that is no seat changes nothing.
	if code, body := f.call("POST", "/api/host/games/"+a+"/reissue", f.host, `{"seats":["french","nobody"]}`, nil); code != 400 || !strings.Contains(apiError(t, body).Msg, `no seat "nobody"`) {
		t.Errorf("reissue of no seat: %d %s", code, body)
	}
	if code, body := f.call("GET", "/api/seat", atok["french"], nil, nil); code != 200 {
		t.Fatalf("the french token after a refused reissue: %d %s", code, body)
	}
	label := ga.Seats[slices.IndexFunc(ga.Seats, func(s server.HostSeat) bool { return s.Name == "french" })].Label
	var made []server.NewSeat
	code, body := f.call("POST", "/api/host/games/"+a+"/reissue", f.host, map[string][]string{"seats": {label}}, &made)
	if code != 200 || len(made) != 1 || made[0].Name != "french" {
		t.Fatalf("reissue %s: %d %s", label, code, body)
	}
	check("NewSeat", body[1:len(body)-2])
	ended(t, "the french stream after its reissue", french)
	if code, body := f.call("GET", "/api/seat", atok["french"], nil, nil); code != 401 {
		t.Errorf("the old french token: %d %s, want 401", code, body)
	}
	if code, body := f.call("GET", "/api/seat", made[0].Token, nil, nil); code != 200 {
		t.Errorf("the new french token: %d %s", code, body)
	}
	if code, body := f.call("POST", "/api/host/games/"+b+"/reissue", f.host, `{"seats":["side"]}`, &made); code != 200 || len(made) != 2 || made[0].Role != store.Side || made[1].Role != store.Side {
		t.Errorf("reissue the side seats of %s: %d %s", b, code, body)
	}
	if code, body := f.call("POST", "/api/host/games/"+b+"/reissue", f.host, `{"seats":[]}`, &made); code != 200 || len(made) != len(by[b].Seats) {
		t.Errorf("reissue every seat of %s: %d %s", b, code, body)
	}
	for _, m := range made {
		if m.Role == store.Umpire {
			btok["umpire"] = m.Token
		}
	}

	// Export: the umpire's.
	_, host := f.call("GET", "/api/host/games/"+a+"/export", f.host, nil, nil)
	_, umpire := f.call("GET", "/api/games/"+a+"/export", atok["umpire"], nil, nil)
	if !bytes.Equal(host, umpire) || !bytes.Contains(host, []byte(`"id":"`+a+`"`)) {
		t.Errorf("the host's export of %s differs from the umpire's:\n%.300s\n%.300s", a, host, umpire)
	}

	// Delete: only when confirmed by the game's id.
	if code, body := f.call("DELETE", "/api/host/games/"+a, f.host, `{"confirm":"`+b+`"}`, nil); code != 400 {
		t.Errorf("a delete confirmed by another id: %d %s, want 400", code, body)
	}
	umpireStream, err := f.subscribe(ctx, a, atok["umpire"], 0)
	if err != nil {
		t.Fatal(err)
	}
	var del server.Deleted
	if code, body := f.call("DELETE", "/api/host/games/"+a, f.host, `{"confirm":"`+a+`"}`, &del); code != 200 || del.Deleted != a {
		t.Fatalf("delete %s: %d %s", a, code, body)
	} else {
		check("Deleted", body)
	}
	ended(t, "the umpire's stream of the deleted game", umpireStream)
	_, unknown := f.call("GET", "/api/seat", "no-such-token", nil, nil)
	for _, path := range []string{"/api/seat", "/api/games/" + a, "/api/games/" + a + "/board", "/api/games/" + a + "/stream"} {
		if code, body := f.call("GET", path, atok["umpire"], nil, nil); code != 401 || !bytes.Equal(body, unknown) {
			t.Errorf("GET %s with a token of the deleted game: %d %s; want what an unknown token gets, %s", path, code, body, unknown)
		}
	}
	if list, _ := hostGames(t, f); len(list) != 1 || list[0].ID != b {
		t.Errorf("the host's games after the delete: %+v", list)
	}
	for _, c := range []struct{ method, path, body string }{
		{"DELETE", "/api/host/games/" + a, `{"confirm":"` + a + `"}`},
		{"GET", "/api/host/games/" + a + "/export", ""},
		{"POST", "/api/host/games/" + a + "/reissue", `{"seats":[]}`},
	} {
		var body any
		if c.body != "" {
			body = c.body
		}
		if code, data := f.call(c.method, c.path, f.host, body, nil); code != 404 {
			t.Errorf("%s %s of the deleted game: %d %s, want 404", c.method, c.path, code, data)
		}
	}
	if code, body := f.call("GET", "/api/games/"+b, btok["umpire"], nil, nil); code != 200 {
		t.Errorf("the other game after the delete: %d %s", code, body)
	}
}

// TestHostDeleteFault: a delete the store fails changes nothing: the
// game is listed, played and followed as before; once the store is back
// it can be deleted.
func TestHostDeleteFault(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "orderly.db"))
	if err != nil {
		t.Fatal(err)
	}
	st, faults := storetest.Inject(db)
	f := serveOn(t, st, db, nil, 1)
	id, tok := f.demo(false)
	stream, err := f.subscribe(ctx, id, tok["umpire"], 0)
	if err != nil {
		t.Fatal(err)
	}
	faults.FailWrites(true)
	code, body := f.call("DELETE", "/api/host/games/"+id, f.host, `{"confirm":"`+id+`"}`, nil)
	faults.FailWrites(false)
	if code != 503 {
		t.Fatalf("a delete the store failed: %d %s, want 503", code, body)
	}
	if list, _ := hostGames(t, f); len(list) != 1 || list[0].ID != id {
		t.Errorf("the host's games after a failed delete: %+v", list)
	}
	if code, body := f.call("POST", "/api/games/"+id+"/commands", tok["umpire"], `{"end":true}`, nil); code != 200 {
		t.Fatalf("a command after a failed delete: %d %s", code, body)
	}
	collect(t, stream, func(ms []sse) bool { return len(events(t, ms)) > 0 })
	if code, body := f.call("DELETE", "/api/host/games/"+id, f.host, `{"confirm":"`+id+`"}`, nil); code != 200 {
		t.Fatalf("the delete once the store is back: %d %s", code, body)
	}
	ended(t, "the stream of the deleted game", stream)
}

// TestHostDeleteShared: on a store shared by two instances, a game
// deleted on one leaves the other's memory at once: its streams there
// end and its tokens are unknown there too.
func TestHostDeleteShared(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url := pgtest.DB(t)
	a, b := pgFixture(t, url, 1), pgFixture(t, url, 2)
	for _, f := range []*fixture{a, b} {
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if code, _ := f.call("GET", "/readyz", "", nil, nil); code == 200 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("an instance never listened")
			}
		}
	}
	id, tok := a.demo(false)
	stream, err := b.subscribe(ctx, id, tok["allies"], 0)
	if err != nil {
		t.Fatal(err)
	}
	if code, body := b.call("GET", "/api/seat", tok["umpire"], nil, nil); code != 200 {
		t.Fatalf("the umpire on the other instance: %d %s", code, body)
	}
	if code, body := a.call("DELETE", "/api/host/games/"+id, a.host, `{"confirm":"`+id+`"}`, nil); code != 200 {
		t.Fatalf("delete: %d %s", code, body)
	}
	ended(t, "the other instance's stream of the deleted game", stream)
	if code, body := b.call("GET", "/api/seat", tok["umpire"], nil, nil); code != 401 {
		t.Errorf("the umpire's token on the other instance after the delete: %d %s, want 401", code, body)
	}
}
