package server_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"orderly/server"
)

// TestBoardAs: under fog of war the umpire may see the board as each side
// sees it (issue 15: both sides' views side by side). It is the very state
// that side's own seat is shown, and it hides from the umpire's copy what
// the fog hides from the side; a side's seat may not ask for it, and a side
// that is not in the game is refused in one sentence naming the sides.
func TestBoardAs(t *testing.T) {
	f := openFixture(t, filepath.Join(t.TempDir(), "orderly.db"), 1)
	var made server.Created
	if code, body := f.call("POST", "/api/games", f.host, map[string]any{"scenario": "demo", "fog": "on"}, &made); code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	path := "/api/games/" + made.Game.ID + "/board"
	tok := map[string]string{}
	for _, s := range made.Seats {
		tok[s.Role+"/"+s.Side] = s.Token
	}
	umpire := tok["umpire/"]
	type board struct {
		State json.RawMessage `json:"state"`
		As    string          `json:"as"`
	}
	var whole board
	f.call("GET", path, umpire, nil, &whole)
	smaller := 0
	for _, side := range []string{"french", "allies"} {
		var own, as board
		if code, body := f.call("GET", path, tok["side/"+side], nil, &own); code != 200 {
			t.Fatalf("%s's board: %d %s", side, code, body)
		}
		if code, body := f.call("GET", path+"?as="+side, umpire, nil, &as); code != 200 {
			t.Fatalf("the umpire's board as %s: %d %s", side, code, body)
		}
		if as.As != side || !bytes.Equal(own.State, as.State) {
			t.Fatalf("the umpire's board as %s (as %q) is not the side's own:\n%s\n%s", side, as.As, as.State, own.State)
		}
		if len(as.State) < len(whole.State) {
			smaller++
		}
		other := "allies"
		if side == "allies" {
			other = "french"
		}
		code, body := f.call("GET", path+"?as="+other, tok["side/"+side], nil, nil)
		if e := apiError(t, body); code != 403 || e.Code != server.Forbidden {
			t.Fatalf("%s asks for the board as %s: %d %s", side, other, code, body)
		}
	}
	if smaller == 0 {
		t.Fatal("no side's view is smaller than the umpire's; the fog hid nothing to compare")
	}
	code, body := f.call("GET", path+"?as=prussians", umpire, nil, nil)
	if e := apiError(t, body); code != 400 || !strings.Contains(e.Msg, "french, allies") || strings.Contains(e.Msg, "\n") {
		t.Fatalf("as a side not in the game: %d %s", code, body)
	}
}
