package server_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orderly/server"
)

// sided collects, from a board's state, the ids of every object that
// names its side (units, generals, leaders, formations, messengers), by
// side.
func sided(t *testing.T, raw json.RawMessage) map[string]map[string]bool {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	var walk func(any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			id, ok1 := x["id"].(string)
			side, ok2 := x["side"].(string)
			if ok1 && ok2 {
				if out[side] == nil {
					out[side] = map[string]bool{}
				}
				out[side][id] = true
			}
			for k, y := range x {
				if k != "lost" {
					walk(y)
				}
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	return out
}

// TestFogBoards: a game of every rule set's demo made with fog of war on
// shows each side only enemy pieces the umpire's board also holds, and on
// some demo fewer than the umpire's (the fog hides something at the start);
// no event a side is sent says who else sees it; a commander's
// seat under strict fog sees no more of the enemy than his side's seat
// would under fog on; the game's info says the mode; and a fog that is no
// mode is refused in one sentence naming the modes.
func TestFogBoards(t *testing.T) {
	t.Parallel()
	f := openFixture(t, filepath.Join(t.TempDir(), "orderly.db"), 1)
	hid := 0
	for _, demo := range []string{"demo", "bp-demo", "cd-demo", "nes-demo", "lob-demo"} {
		t.Run(demo, func(t *testing.T) {
			boards := map[string]map[string]map[string]bool{}
			var sides []string
			for _, mode := range []string{"on", "strict"} {
				var made server.Created
				if code, body := f.call("POST", "/api/games", f.host, map[string]any{"scenario": demo, "fog": mode, "commanders": true}, &made); code != 201 {
					t.Fatalf("create %s with fog %s: %d %s", demo, mode, code, body)
				}
				if made.Game.Fog != mode {
					t.Fatalf("the game's info says fog %q; want %q", made.Game.Fog, mode)
				}
				for _, s := range made.Seats {
					var b struct {
						State json.RawMessage `json:"state"`
					}
					if code, body := f.call("GET", "/api/games/"+made.Game.ID+"/board", s.Token, nil, &b); code != 200 {
						t.Fatalf("board of %s: %d %s", s.Name, code, body)
					}
					boards[mode+"/"+s.Role+"/"+s.Side+"/"+s.Formation] = sided(t, b.State)
					if s.Role == "side" && mode == "on" {
						sides = append(sides, s.Side)
						var evs server.Events
						if code, body := f.call("GET", "/api/games/"+made.Game.ID+"/events", s.Token, nil, &evs); code != 200 {
							t.Fatalf("events of %s: %d %s", s.Side, code, body)
						}
						for _, e := range evs.Events {
							// Under fog a side is not told who else sees
							// an event (game.Event.Shown).
							if e.Event.See != "" {
								t.Fatalf("%s is sent event %d with its audience, %s", s.Side, e.Event.Seq, e.Event.See)
							}
						}
					}
				}
			}
			umpire := boards["on/umpire//"]
			for _, side := range sides {
				for enemy, ids := range umpire {
					if enemy == side {
						continue
					}
					seen := boards["on/side/"+side+"/"][enemy]
					for id := range seen {
						if !ids[id] {
							t.Fatalf("%s's board holds %s of %s, which the umpire's does not", side, id, enemy)
						}
					}
					hid += len(ids) - len(seen)
					for key, b := range boards {
						if !strings.HasPrefix(key, "strict/commander/"+side+"/") {
							continue
						}
						for id := range b[enemy] {
							if !seen[id] {
								t.Fatalf("the commander's seat %s sees %s of %s, which his whole side does not spot", key, id, enemy)
							}
						}
					}
				}
			}
		})
	}
	if hid == 0 {
		t.Fatal("no demo hid any enemy piece at the start; the fog is not on")
	}
	code, body := f.call("POST", "/api/games", f.host, map[string]any{"scenario": "demo", "fog": "maybe"}, nil)
	if code != 400 || !strings.Contains(string(body), `fog \"maybe\" is not a fog mode; allowed: off, on, strict`) {
		t.Fatalf("fog maybe: %d %s; want 400 naming the modes", code, body)
	}
}

// TestFogStreamView: when an enemy piece goes out of a side's sight by a
// move that side may not see, its stream says its view changed (a "view"
// message, with nothing in it), so its page fetches the board again; the
// move itself never reaches it.
func TestFogStreamView(t *testing.T) {
	t.Parallel()
	f := openFixture(t, filepath.Join(t.TempDir(), "orderly.db"), 1)
	var made server.Created
	if code, body := f.call("POST", "/api/games", f.host, map[string]any{"scenario": "demo", "fog": "on"}, &made); code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	tok := map[string]string{}
	for _, s := range made.Seats {
		tok[s.Name] = s.Token
	}
	id := made.Game.ID
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch, err := f.subscribe(ctx, id, tok["french"], 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, side := range []string{"french", "allies"} {
		if code, body := f.call("POST", "/api/games/"+id+"/commands", tok[side], map[string]any{"ready": true}, nil); code != 200 {
			t.Fatalf("ready %s: %d %s", side, code, body)
		}
	}
	// Wait until the French stream has caught up with the steps so far.
	var ev server.Events
	f.call("GET", "/api/games/"+id+"/events", tok["french"], nil, &ev)
	collect(t, ch, func(ms []sse) bool { return len(events(t, ms)) >= ev.Version })
	move := map[string]any{"move": map[string]any{"unit": "A-I-1-a", "to": []float64{95, 1}, "override": "out of sight, for the test"}}
	if code, body := f.call("POST", "/api/games/"+id+"/commands", tok["umpire"], move, nil); code != 200 {
		t.Fatalf("umpire's move: %d %s", code, body)
	}
	got := collect(t, ch, func(ms []sse) bool {
		return slices.ContainsFunc(ms, func(m sse) bool { return m.event == "view" })
	})
	for _, e := range events(t, got) {
		if strings.Contains(e.Summary, "A-I-1-a") || e.Event.Type == "moved" {
			t.Fatalf("the French stream carries %s: %s", e.Event.Type, e.Summary)
		}
	}
	var b struct {
		State struct {
			Lost []struct {
				ID string `json:"id"`
			} `json:"lost"`
		} `json:"state"`
	}
	f.call("GET", "/api/games/"+id+"/board", tok["french"], nil, &b)
	if !slices.ContainsFunc(b.State.Lost, func(g struct {
		ID string `json:"id"`
	}) bool {
		return g.ID == "A-I-1-a"
	}) {
		t.Fatalf("the French board does not list A-I-1-a as lost: %+v", b.State.Lost)
	}
	// A named general the French see, set out of their sight by the
	// umpire: his ghost keeps his name.
	var seen struct {
		Names map[string]string `json:"names"`
		State struct {
			Generals []struct {
				ID      string `json:"id"`
				Side    string `json:"side"`
				OnTable bool   `json:"on-table"`
			} `json:"generals"`
			Lost []struct {
				ID string `json:"id"`
			} `json:"lost"`
		} `json:"state"`
	}
	f.call("GET", "/api/games/"+id+"/board", tok["french"], nil, &seen)
	general, name := "", ""
	for _, p := range seen.State.Generals {
		if n := seen.Names[p.ID]; p.Side == "allies" && p.OnTable && n != "" {
			general, name = p.ID, n
			break
		}
	}
	if general == "" {
		t.Fatalf("the French see no named allied general: %+v", seen.State.Generals)
	}
	place := map[string]any{"place": map[string]any{"piece": general, "to": []float64{94, 2}, "why": "out of sight, for the test"}}
	if code, body := f.call("POST", "/api/games/"+id+"/commands", tok["umpire"], place, nil); code != 200 {
		t.Fatalf("umpire's place: %d %s", code, body)
	}
	seen.Names, seen.State.Lost = nil, nil
	f.call("GET", "/api/games/"+id+"/board", tok["french"], nil, &seen)
	if !slices.ContainsFunc(seen.State.Lost, func(g struct {
		ID string `json:"id"`
	}) bool {
		return g.ID == general
	}) || seen.Names[general] != name {
		t.Fatalf("the French board lists %+v as lost, names %s %q; want %s last seen, named %q", seen.State.Lost, general, seen.Names[general], general, name)
	}
}
