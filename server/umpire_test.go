package server_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
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
	t.Parallel()
	f := openFixture(t, filepath.Join(t.TempDir(), "orderly.db"), 1)
	id, tok := f.made(server.Setup{Scenario: "demo", Fog: "on"})
	path := "/api/games/" + id + "/board"
	umpire := tok["umpire"]
	type board struct {
		State json.RawMessage `json:"state"`
		As    string          `json:"as"`
	}
	var whole board
	f.call("GET", path, umpire, nil, &whole)
	smaller := 0
	for _, side := range []string{"french", "allies"} {
		var own, as board
		if code, body := f.call("GET", path, tok[side], nil, &own); code != 200 {
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
		code, body := f.call("GET", path+"?as="+other, tok[side], nil, nil)
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

// TestBoardActing: while the umpire acts for a side (issue 15: every
// command from the page, acting for a side), his board offers him what
// that side's seat is offered: NB's orders to write, which his own board
// never offers. An order he writes so is the side's. Only the umpire may
// ask, for a side of the game, and not together with as.
func TestBoardActing(t *testing.T) {
	t.Parallel()
	f := openFixture(t, filepath.Join(t.TempDir(), "orderly.db"), 1)
	id, tok := f.made(server.Setup{Scenario: "demo"})
	path := "/api/games/" + id + "/board"
	umpire := tok["umpire"]
	type board struct {
		State  json.RawMessage     `json:"state"`
		Offers map[string][]string `json:"offers"`
		Acting string              `json:"acting"`
	}
	writes := func(b board) []string {
		var ids []string
		for id, vs := range b.Offers {
			if slices.Contains(vs, "write") {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		return ids
	}
	var own board
	f.call("GET", path, umpire, nil, &own)
	if w := writes(own); len(w) != 0 {
		t.Fatalf("the umpire's own board offers orders for %v; he writes none of his own", w)
	}
	for _, side := range []string{"french", "allies"} {
		var theirs, acting board
		if code, body := f.call("GET", path, tok[side], nil, &theirs); code != 200 {
			t.Fatalf("%s's board: %d %s", side, code, body)
		}
		if code, body := f.call("GET", path+"?act="+side, umpire, nil, &acting); code != 200 {
			t.Fatalf("the umpire acting for %s: %d %s", side, code, body)
		}
		if acting.Acting != side || !bytes.Equal(acting.State, own.State) {
			t.Fatalf("acting for %s: acting %q, or the state is not the umpire's own", side, acting.Acting)
		}
		if w, want := writes(acting), writes(theirs); len(want) == 0 || !slices.Equal(w, want) {
			t.Fatalf("acting for %s the umpire may write for %v; the side's seat for %v", side, w, want)
		}
	}
	var acting board
	f.call("GET", path+"?act=french", umpire, nil, &acting)
	fm := writes(acting)[0]
	cmd := map[string]any{"side": "french", "write": map[string]any{"for": fm, "kind": "attack", "objective": []float64{40, 20}}}
	if code, body := f.call("POST", "/api/games/"+id+"/commands", umpire, cmd, nil); code != 200 {
		t.Fatalf("the umpire writes for the French: %d %s", code, body)
	}
	var evs struct {
		Events []struct {
			Type string `json:"type"`
			Side string `json:"side"`
		} `json:"events"`
	}
	f.call("GET", "/api/games/"+id+"/events?since=0", umpire, nil, &evs)
	last := evs.Events[len(evs.Events)-1]
	if last.Side != "french" {
		t.Fatalf("the order the umpire wrote for the French is logged as %+v", last)
	}

	for _, c := range []struct {
		name, query, token string
		code               int
		want               string
	}{
		{"a side", "?act=french", tok["french"], 403, "only the umpire may act"},
		{"no such side", "?act=prussians", umpire, 400, "french, allies"},
		{"both", "?act=french&as=allies", umpire, 400, "not both"},
	} {
		code, body := f.call("GET", path+c.query, c.token, nil, nil)
		if e := apiError(t, body); code != c.code || !strings.Contains(e.Msg, c.want) || strings.Contains(e.Msg, "\n") {
			t.Errorf("%s: %d %s", c.name, code, body)
		}
	}
}

// TestActingOffersEveryRuleSet: in every rule set's demo, in the first
// step the sides play, the umpire acting for a side is offered exactly
// what that side's own seat is offered.
func TestActingOffersEveryRuleSet(t *testing.T) {
	t.Parallel()
	f := openFixture(t, filepath.Join(t.TempDir(), "orderly.db"), 1)
	for _, demo := range []string{"demo", "bp-demo", "cd-demo", "nes-demo", "lob-demo"} {
		id, sides := f.made(server.Setup{Scenario: demo})
		path := "/api/games/" + id + "/board"
		umpire := sides["umpire"]
		delete(sides, "umpire")
		type board struct {
			Offers map[string][]string `json:"offers"`
		}
		offered := 0
		for side, tok := range sides {
			var own, acting board
			f.call("GET", path, tok, nil, &own)
			if code, body := f.call("GET", path+"?act="+side, umpire, nil, &acting); code != 200 {
				t.Fatalf("%s: acting for %s: %d %s", demo, side, code, body)
			}
			for id, vs := range own.Offers {
				if !slices.Equal(vs, acting.Offers[id]) {
					t.Errorf("%s: %s's seat is offered %v for %s, the umpire acting for it %v", demo, side, vs, id, acting.Offers[id])
				}
			}
			if len(own.Offers) != len(acting.Offers) {
				t.Errorf("%s: %s's seat is offered commands for %d pieces, the umpire acting for it for %d", demo, side, len(own.Offers), len(acting.Offers))
			}
			offered += len(own.Offers)
		}
		if offered == 0 {
			t.Errorf("%s: no side is offered anything in the first step; nothing compared", demo)
		}
	}
}

// TestPlaceUmpireOnly: place is the umpire's hand alone. In every rule
// set's demo, a side's seat and a commander's seat sending it, on one of
// their own pieces, are refused with 403 in one sentence, and the game is
// as it was.
func TestPlaceUmpireOnly(t *testing.T) {
	t.Parallel()
	f := openFixture(t, filepath.Join(t.TempDir(), "orderly.db"), 1)
	for _, demo := range []string{"demo", "bp-demo", "cd-demo", "nes-demo", "lob-demo"} {
		id, seats := f.made(server.Setup{Scenario: demo, Commanders: true})
		g := "/api/games/" + id
		// A piece of the sides' own, offered a command in the first step.
		var own struct {
			Offers map[string][]string `json:"offers"`
		}
		for label, tok := range seats {
			if label != "umpire" && len(own.Offers) == 0 {
				f.call("GET", g+"/board", tok, nil, &own)
			}
		}
		piece := ""
		for p := range own.Offers {
			piece = max(piece, p)
		}
		if piece == "" {
			t.Fatalf("%s: no seat is offered a command for any piece", demo)
		}
		var before, after server.Info
		f.call("GET", g, seats["umpire"], nil, &before)
		place := map[string]any{"place": map[string]any{"piece": piece, "to": []float64{10, 10}, "why": "a player's try"}}
		tried := 0
		for label, tok := range seats {
			if label == "umpire" {
				continue
			}
			code, body := f.call("POST", g+"/commands", tok, place, nil)
			if e := apiError(t, body); code != 403 || e.Code != server.Forbidden || !strings.Contains(e.Msg, "only the umpire") || strings.Contains(e.Msg, "\n") {
				t.Errorf("%s: place from the seat %s: %d %s", demo, label, code, body)
			}
			tried++
		}
		f.call("GET", g, seats["umpire"], nil, &after)
		if after.Version != before.Version {
			t.Errorf("%s: refused places moved the game from version %d to %d", demo, before.Version, after.Version)
		}
		if tried < 3 {
			t.Errorf("%s: place was tried from %d seats; want both sides and a commander at least", demo, tried)
		}
	}
}
