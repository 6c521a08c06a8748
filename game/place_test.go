package game_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules"
	"orderly/script"
)

// placeGame starts a game of an example script's scenario under its rule
// set.
func placeGame(t *testing.T, id, path string) *game.Game {
	t.Helper()
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	r, err := rules.Engine(id, set)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadAny(path, src, func(string) (game.Rules, error) { return r, nil }, script.NoFiles)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(sc, r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestPlace: the umpire's place (issue 15, the umpire's hand) sets a piece
// where he says with his reason, in any step of any rule set, on a table
// ([x, y]) and on a hex map (a label); the event says so to everyone and
// replays; a side may not place, and a place without a reason, off the
// field, of a piece not on it or not in the game, or in the other space's
// notation is refused, changing nothing.
func TestPlace(t *testing.T) {
	for _, tc := range []struct {
		rules, path, piece, to, bad string
	}{
		{"nb", "../examples/nb/demo.yaml", "", "[20.5, 30]", `"0412"`},
		{"bp", "../examples/bp/bp-01-command-roll.yaml", "", "[10, 10]", `"0412"`},
		{"nes", "../examples/nes/nes-02-distance.yaml", "", `"0305"`, "[3, 5]"},
	} {
		t.Run(tc.rules, func(t *testing.T) {
			g := placeGame(t, tc.rules, tc.path)
			piece := tc.piece
			if piece == "" {
				for _, p := range g.State().Pieces {
					if p.OnTable && g.Scenario().Unit(p.ID) != nil {
						piece = p.ID
						break
					}
				}
			}
			do := func(body string) ([]game.Event, error) {
				c, err := game.DecodeCommand(g.Rules(), []byte(body), "test")
				if err != nil {
					return nil, err
				}
				return g.Do(c)
			}
			before, n := g.Hash(), g.Len()
			for _, bad := range []string{
				`{side: ` + g.Scenario().Sides[0].ID + `, place: {piece: ` + piece + `, to: ` + tc.to + `, why: "a slip"}}`,
				`{side: umpire, place: {piece: ` + piece + `, to: ` + tc.bad + `, why: "a slip"}}`,
				`{side: umpire, place: {piece: nobody, to: ` + tc.to + `, why: "a slip"}}`,
				`{side: umpire, place: {piece: ` + piece + `, to: [999, 999], why: "a slip"}}`,
				`{side: umpire, place: {piece: ` + piece + `, to: "9999", why: "a slip"}}`,
				`{side: umpire, place: {piece: ` + piece + `, to: ` + tc.to + `}}`,
				`{side: umpire, place: {piece: ` + piece + `, to: ` + tc.to + `, why: "  "}}`,
			} {
				_, err := do(bad)
				if err == nil {
					t.Fatalf("%s was accepted", bad)
				}
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("%s: the refusal is not one line: %q", bad, err)
				}
				if g.Hash() != before || g.Len() != n {
					t.Fatalf("%s was refused (%v) but changed the game", bad, err)
				}
			}
			evs, err := do(`{side: umpire, place: {piece: ` + piece + `, to: ` + tc.to + `, why: "knocked over by a sleeve"}}`)
			if err != nil {
				t.Fatal(err)
			}
			e := evs[0]
			if e.Type != game.Placed || e.See != game.All || len(e.Moves) != 1 || e.Moves[0].ID() != piece {
				t.Fatalf("the place made %+v", e)
			}
			want := strings.Trim(tc.to, `"`)
			if tc.rules != "nes" {
				want = "(20.5, 30)"
				if tc.rules == "bp" {
					want = "(10, 10)"
				}
			}
			if d := g.Describe(&e, nil); d != "the umpire placed "+piece+" at "+want+": knocked over by a sleeve" {
				t.Fatalf("described as %q", d)
			}
			at, _ := g.State().Pos(piece)
			if g.Scenario().Space().Format(at) != want {
				t.Fatalf("%s stands at %s; want %s", piece, g.Scenario().Space().Format(at), want)
			}
			data, err := json.Marshal(g.Log())
			if err != nil {
				t.Fatal(err)
			}
			var back []game.Event
			if err := json.Unmarshal(data, &back); err != nil {
				t.Fatal(err)
			}
			r, err := game.Replay(g.Scenario(), g.Rules(), back)
			if err != nil {
				t.Fatal(err)
			}
			if r.Hash() != g.Hash() {
				t.Fatal("the log with the place does not replay to the same state")
			}
		})
	}
}

// TestEndIsTheUmpires: a step is ended by the umpire for every side; a
// side's end (a script's, or the umpire's sent as a side's) is refused in
// one sentence and changes nothing.
func TestEndIsTheUmpires(t *testing.T) {
	g := placeGame(t, "nb", "../examples/nb/demo.yaml")
	side := g.Scenario().Sides[0].ID
	c, err := game.DecodeCommand(g.Rules(), []byte(`{side: `+side+`, end: true}`), "test")
	if err != nil {
		t.Fatal(err)
	}
	before, n, step := g.Hash(), g.Len(), g.Step()
	_, err = g.Do(c)
	if err == nil || !strings.Contains(err.Error(), "only the umpire ends a step") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("a side's end: %v", err)
	}
	if g.Hash() != before || g.Len() != n || g.Step().Name != step.Name {
		t.Fatal("a refused end changed the game")
	}
	c, _ = game.DecodeCommand(g.Rules(), []byte(`{side: umpire, end: true}`), "test")
	if _, err := g.Do(c); err != nil || g.Len() == n {
		t.Fatalf("the umpire's end: %v, %d events before and %d after", err, n, g.Len())
	}
}
