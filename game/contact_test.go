package game_test

import (
	"slices"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/rules"
	"orderly/rules/nes"
	"orderly/table"
)

// contacts: two french divisions' lines three hexes west and east of a
// russian line in the woods of 0603 (seen from two hexes at most), which
// no french piece spots; more woods at 0605.
const contacts = `
name: contacts
rules: nes
turns: 1
map:
  columns: 12
  rows: 6
  layout: odd-q
  terrain: |
    ............
    ............
    .....w......
    ............
    .....w......
    ............
sides:
  - id: french
    nation: french
    edge: west
    command-points: 1
    army: {id: napoleon, at: "0101", range: 6, bonus: 2}
    divisions:
      - id: d1
        general: {id: d1-g, at: "0105", bonus: 0, rating: 9, range: 3}
        units:
          - {id: f1, type: infantry, formation: line, at: "0303", strength: 4}
      - id: d2
        general: {id: d2-g, at: "0906", bonus: 0, rating: 9, range: 3}
        units:
          - {id: f2, type: infantry, formation: line, at: "0903", strength: 4}
  - id: russian
    nation: russian
    edge: east
    command-points: 1
    army: {id: kutuzov, at: "1206", range: 6, bonus: 1}
    divisions:
      - id: r1
        general: {id: r1-g, at: "1205", bonus: 1, rating: 9, range: 3}
        units:
          - {id: r, type: infantry, formation: line, at: "0603", strength: 5}
`

// TestContacts: a contact event (game.Contacted) has each side spot the
// other's piece while both stand where they stood; a piece in contact
// with several of the enemy's is spotted while any of those contacts
// holds, and under strict fog a commander's view holds it while one of
// his own formation's does (contacts are read back from a log).
func TestContacts(t *testing.T) {
	set, err := table.Load(rules.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	r, err := nes.New(set)
	if err != nil {
		t.Fatal(err)
	}
	sc := gametest.Read(t, r, "contacts.yaml", []byte(contacts))
	start, err := game.New(sc, r, game.Seeded(1), game.WithFog(game.FogStrict))
	if err != nil {
		t.Fatal(err)
	}
	if !start.State().Hidden("french", "r") {
		t.Fatal("the french spot r in the woods at the start")
	}
	log := start.Log()
	last := log[len(log)-1]
	ev := func(typ string, data any, moves ...game.Move) game.Event {
		return game.Event{Seq: len(log) + 1, Turn: last.Turn, Phase: last.Phase, Step: last.Step, Type: typ, Side: "french", See: game.All, Data: data, Moves: moves}
	}
	add := func(e game.Event) *game.Game {
		t.Helper()
		log = append(log, e)
		g, err := game.Replay(sc, r, log, game.WithFog(game.FogStrict))
		if err != nil {
			t.Fatalf("replay with %s: %v", e.Type, err)
		}
		return g
	}
	sees := func(g *game.Game, top string) bool {
		return slices.ContainsFunc(g.SeesFrom("french", top).Pieces, func(p *game.Piece) bool { return p.ID == "r" })
	}
	check := func(g *game.Game, when string, side, d1, d2 bool) {
		t.Helper()
		if got := !g.State().Hidden("french", "r"); got != side {
			t.Errorf("%s: the french spot r: %v, want %v", when, got, side)
		}
		if got := sees(g, "d1"); got != d1 {
			t.Errorf("%s: d1's commander sees r: %v, want %v", when, got, d1)
		}
		if got := sees(g, "d2"); got != d2 {
			t.Errorf("%s: d2's commander sees r: %v, want %v", when, got, d2)
		}
	}
	g := add(ev(game.Contacted, &game.Contact{Piece: "f1", Met: "r", At: "0603"}))
	check(g, "after f1's contact", true, true, false)
	if g.State().Hidden("russian", "f1") {
		t.Error("after f1's contact the russians do not spot f1")
	}
	g = add(ev(game.Contacted, &game.Contact{Piece: "f2", Met: "r", At: "0603"}))
	check(g, "after f2's contact", true, true, true)
	// f1 moves off: its contact lapses, f2's holds.
	g = add(ev(game.Placed, &game.PlaceData{Piece: "f1", At: "0203", Why: "a test"}, game.Move{Unit: "f1", To: sc.Terrain.Point(mustAt(t, sc, "0203"))}))
	check(g, "after f1 moved off", true, false, true)
	// r moves into the woods of 0605: every contact with it lapses.
	moved := ev(game.Placed, &game.PlaceData{Piece: "r", At: "0605", Why: "a test"}, game.Move{Unit: "r", To: sc.Terrain.Point(mustAt(t, sc, "0605"))})
	moved.See = "russian" // as the fog narrowed it: the french no longer spot r
	g = add(moved)
	check(g, "after r moved", false, false, false)
}

// mustAt is the index of hex label on sc's map.
func mustAt(t *testing.T, sc *battle.Scenario, label string) int {
	t.Helper()
	p, err := sc.Map.Parse(label)
	if err != nil {
		t.Fatal(err)
	}
	i, ok := sc.Terrain.At(p)
	if !ok {
		t.Fatalf("hex %s is off the map", label)
	}
	return i
}
