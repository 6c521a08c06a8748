package server_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orderly/game"
	"orderly/server"
)

// taken is a take-back's answer as a seat is shown it.
type taken struct {
	Version int `json:"version"`
	Events  []struct {
		Seq  int        `json:"seq"`
		Type string     `json:"type"`
		Data game.Taken `json:"data"`
	} `json:"events"`
}

// at is where the board a seat is shown puts a piece.
func at(t *testing.T, f *fixture, g, token, id string) [2]float64 {
	t.Helper()
	var b struct {
		State struct {
			Units []struct {
				ID string     `json:"id"`
				At [2]float64 `json:"at"`
			} `json:"units"`
		} `json:"state"`
	}
	if code, body := f.call("GET", g+"/board", token, nil, &b); code != 200 {
		t.Fatalf("board: %d %s", code, body)
	}
	for _, u := range b.State.Units {
		if u.ID == id {
			return u.At
		}
	}
	t.Fatalf("the board shows no %s", id)
	return [2]float64{}
}

// TestTakeBackAPI: a side takes back its last move through the API
// (issue 36): the game's undo names it, the answer numbers what it
// withdraws in the side's own numbering, the other side is told, and the
// piece stands where it stood; a take-back after a restart, with more
// events than the server keeps in memory, works from the stored log; Ready
// is withdrawn; a side may not take back another's command, nor a
// commander's seat any; the umpire's end is told to every seat.
func TestTakeBackAPI(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "orderly.db")
	f := openFixture(t, path, 1)
	check := schemas(t, f)
	id, tok := f.demo(true)
	g := "/api/games/" + id
	if code, body := f.call("POST", g+"/commands", tok["french"], `{"ready":true}`, nil); code != 200 {
		t.Fatalf("ready: %d %s", code, body)
	}
	var end server.Result
	if code, body := f.call("POST", g+"/commands", tok["umpire"], `{"end":true}`, &end); code != 200 || end.Events[0].Event.Type != game.StepEnded {
		t.Fatalf("end: %d %.300s", code, body)
	}
	var evs server.Events
	if code, body := f.call("GET", g+"/events", tok["allies"], nil, &evs); code != 200 ||
		!slices.ContainsFunc(evs.Events, func(e server.Entry) bool {
			return e.Event.Type == game.StepEnded && strings.Contains(e.Summary, "allies was not ready")
		}) {
		t.Fatalf("the allies are not told that the umpire ended the step: %d %.300s", code, body)
	}
	start := at(t, f, g, tok["french"], "F-I-1-a")
	if code, body := f.call("POST", g+"/commands", tok["french"], `{"move":{"unit":"F-I-1-a","to":[26,30]}}`, nil); code != 200 {
		t.Fatalf("move: %d %s", code, body)
	}
	var info server.Info
	code, body := f.call("GET", g, tok["french"], nil, fresh(&info))
	if code != 200 || !strings.Contains(info.Undo, "F-I-1-a") || !slices.Contains(info.Verbs, game.TakeBack) {
		t.Fatalf("after a move the french are offered no take-back: %d %s", code, body)
	}
	check("Info", body)
	if c, b := f.call("GET", g, tok["allies"], nil, fresh(&info)); c != 200 || info.Undo != "" || !slices.Equal(info.Waiting, []string{"french", "allies"}) || info.Since == "" {
		t.Fatalf("the allies' game: %d %s", c, b)
	}
	// Someone else's command, or a commander's take-back: refused.
	if c, b := f.call("POST", g+"/commands", tok["allies"], `{"side":"french","take-back":true}`, nil); c != 403 {
		t.Fatalf("the allies take back a french command: %d %s", c, b)
	}
	if c, b := f.call("POST", g+"/commands", tok["F-I"], `{"take-back":true}`, nil); c != 403 || !strings.Contains(string(b), "commander") {
		t.Fatalf("a commander takes back: %d %s", c, b)
	}
	var back taken
	code, body = f.call("POST", g+"/commands", tok["french"], `{"take-back":true}`, &back)
	if code != 200 || len(back.Events) != 1 || back.Events[0].Type != game.TakenBack || back.Events[0].Data.Verb != "move" ||
		!slices.Equal(back.Events[0].Data.Of, []int{back.Events[0].Seq - 1}) {
		t.Fatalf("take-back: %d %s", code, body)
	}
	if p := at(t, f, g, tok["french"], "F-I-1-a"); p != start {
		t.Fatalf("after the take-back F-I-1-a stands at %v, want %v", p, start)
	}
	if c, b := f.call("GET", g+"/events", tok["allies"], nil, &evs); c != 200 || evs.Events[len(evs.Events)-1].Event.Type != game.TakenBack {
		t.Fatalf("the allies are not told of the take-back: %d %.300s", c, b)
	}
	if c, b := f.call("POST", g+"/commands", tok["french"], `{"take-back":true}`, nil); c != 422 && c != 409 && c != 400 {
		t.Fatalf("a second take-back with nothing to take back: %d %s", c, b)
	}

	// Many moves, more events than a server keeps in memory, then a
	// restart: the last move is still taken back, from the stored log.
	for i := range 150 {
		to := `[26,31]`
		if i%2 == 1 {
			to = `[26,30]`
		}
		if c, b := f.call("POST", g+"/commands", tok["french"], `{"move":{"unit":"F-I-1-a","to":`+to+`}}`, nil); c != 200 {
			t.Fatalf("move %d: %d %s", i, c, b)
		}
	}
	f.close()
	f = openFixture(t, path, 1)
	if c, b := f.call("GET", g, tok["french"], nil, fresh(&info)); c != 200 || !strings.Contains(info.Undo, "F-I-1-a") {
		t.Fatalf("after a restart the french are offered no take-back: %d %s", c, b)
	}
	if c, b := f.call("POST", g+"/commands", tok["french"], `{"take-back":true}`, nil); c != 200 {
		t.Fatalf("take-back after a restart: %d %s", c, b)
	}
	if p := at(t, f, g, tok["umpire"], "F-I-1-a"); p != [2]float64{26, 31} {
		t.Fatalf("after the take-back F-I-1-a stands at %v, want [26 31]", p)
	}
	// The store agrees: a server started afresh folds the same.
	f.close()
	f = openFixture(t, path, 1)
	if p := at(t, f, g, tok["umpire"], "F-I-1-a"); p != [2]float64{26, 31} {
		t.Fatalf("after another restart F-I-1-a stands at %v, want [26 31]", p)
	}

	// Ready withdrawn.
	if c, b := f.call("POST", g+"/commands", tok["french"], `{"ready":true}`, nil); c != 200 {
		t.Fatalf("ready: %d %s", c, b)
	}
	if c, b := f.call("GET", g, tok["french"], nil, fresh(&info)); c != 200 || !slices.Contains(info.Verbs, game.Unready) || info.Undo != "" {
		t.Fatalf("a ready side is not offered unready, or is offered a take-back: %d %s", c, b)
	}
	var un server.Result
	if c, b := f.call("POST", g+"/commands", tok["french"], `{"unready":true}`, &un); c != 200 || un.Events[0].Event.Type != game.SideUnready {
		t.Fatalf("unready: %d %s", c, b)
	}
	if c, b := f.call("GET", g, tok["allies"], nil, fresh(&info)); c != 200 || len(info.Ready) != 0 {
		t.Fatalf("after unready: %d %s", c, b)
	}
}

// fresh empties in for an answer to be read into.
func fresh(in *server.Info) *server.Info {
	*in = server.Info{}
	return in
}

// TestWhy: a side that does not act in the step is told why, and whom the
// game waits for; the side that acts is not.
func TestWhy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	id, tok := f.made(server.Setup{Scenario: "bp-demo"})
	g := "/api/games/" + id
	var in server.Info
	var waiting []string
	for seat, token := range tok {
		if seat == "umpire" {
			continue
		}
		if c, b := f.call("GET", g, token, nil, fresh(&in)); c != 200 {
			t.Fatalf("%s: %d %s", seat, c, b)
		}
		waiting = in.Waiting
		acts := slices.Contains(in.Verbs, game.Ready)
		if acts == (in.Why != "") {
			t.Errorf("%s acts: %v, yet is told why not: %q", seat, acts, in.Why)
		}
		if !acts && !strings.Contains(in.Why, "waits for") {
			t.Errorf("%s is told %q", seat, in.Why)
		}
	}
	if len(waiting) != 1 {
		t.Errorf("the game waits for %v, want the phasing side", waiting)
	}
}
