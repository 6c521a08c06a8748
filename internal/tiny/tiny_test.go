package tiny_test

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/game/gametest"
	"orderly/internal/tiny"
	"orderly/rules"
)

// The contract, with the interfaces every rule set gives the page.
var (
	_ game.Rules     = (*tiny.Rules)(nil)
	_ game.Annotator = (*tiny.Rules)(nil)
	_ game.Forecasts = (*tiny.Rules)(nil)
	_ game.Boarded   = (*tiny.Rules)(nil)
)

func newRules(t *testing.T) *tiny.Rules {
	t.Helper()
	r, err := tiny.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func demo(t *testing.T, r battle.RuleSet) *battle.Scenario {
	t.Helper()
	data, err := fs.ReadFile(tiny.Examples(), "tiny-demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return gametest.Read(t, r, "tiny-demo.yaml", data)
}

// TestConformance plays random games of the demo under the engine's
// promises.
func TestConformance(t *testing.T) {
	r := newRules(t)
	gametest.Conformance(t, r, demo(t, r), 3)
}

// TestMove: a unit moves at most tiny.yaml's 6" a turn, once, in its own
// side's step; a refused move changes nothing (TINY-1).
func TestMove(t *testing.T) {
	r := newRules(t)
	g, err := game.New(demo(t, r), r, game.Seeded(1))
	if err != nil {
		t.Fatal(err)
	}
	do := func(side, in string) error {
		t.Helper()
		c, err := game.DecodeCommand(r, []byte(in), "command")
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		c.Side = side
		_, err = g.Do(c)
		return err
	}
	if got := r.Offers(g.State(), g.Step(), "blue"); len(got["blue-1"]) != 1 || len(got) != 1 {
		t.Errorf("blue's offers: %v", got)
	}
	if got := r.Offers(g.State(), g.Step(), "red"); len(got) != 0 {
		t.Errorf("red's offers in blue's step: %v", got)
	}
	hash := g.Hash()
	var ge *game.Error
	if err := do("blue", `{side: blue, move: {unit: blue-1, to: [18, 13.9]}}`); !errors.As(err, &ge) || ge.Rule != "TINY-1" || !strings.Contains(ge.Msg, `6.1" from (18, 20)`) {
		t.Errorf("a move of 6.1\": %v, want a refusal under TINY-1", err)
	}
	if err := do("red", `{side: red, move: {unit: red-1, to: [18, 6]}}`); !errors.As(err, &ge) {
		t.Errorf("red's move in blue's step: %v, want a refusal", err)
	}
	if g.Hash() != hash {
		t.Fatal("a refused move changed the game")
	}
	if err := do("blue", `{side: blue, move: {unit: blue-1, to: [18, 14]}}`); err != nil {
		t.Fatalf("a move of 6\": %v", err)
	}
	if p := g.State().Piece("blue-1"); p.At.X != 18 || p.At.Y != 14 {
		t.Errorf("blue-1 is at %v, want (18, 14)", p.At)
	}
	log := g.Log()
	if d := g.Describe(&log[len(log)-1], nil); d != `Blue Foot moved 6" from (18, 20) to (18, 14). (TINY-1)` {
		t.Errorf("the move reads %q", d)
	}
	if err := do("blue", `{side: blue, move: {unit: blue-1, to: [18, 13]}}`); err == nil || !strings.Contains(err.Error(), "moved this turn") {
		t.Errorf("a second move: %v", err)
	}
	if b, ok := r.Annotate(g.State(), g.Step(), "blue").(tiny.Board); !ok || b.Reach != 6 {
		t.Errorf("the board's reach: %#v", r.Annotate(g.State(), g.Step(), "blue"))
	}
}

// TestBadMove: a move that is not one gets one sentence naming where.
func TestBadMove(t *testing.T) {
	r := newRules(t)
	for in, want := range map[string]string{
		`{side: blue, move: {unit: blue-1}}`:                "give unit and to",
		`{side: blue, move: {unit: blue-1, to: 3, far: 1}}`: "far",
		`{side: blue, move: {unit: blue-1, to: [1, 2, 3]}}`: "command.move.to",
	} {
		_, err := game.DecodeCommand(r, []byte(in), "command")
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", in, err, want)
		}
	}
}

// TestEntry: the rule set registers on one line, with its demo, and its
// page module is at js/rules/tiny.js.
func TestEntry(t *testing.T) {
	reg := rules.Default().With(tiny.Entry())
	if ids := reg.IDs(); ids[len(ids)-1] != "tiny" {
		t.Fatalf("the registry's ids: %v", ids)
	}
	mk, err := reg.Make()
	if err != nil {
		t.Fatal(err)
	}
	if r, err := mk("tiny"); err != nil || r.ID() != "tiny" {
		t.Fatalf("the tiny rule set from the registry: %v, %v", r, err)
	}
	if _, err := fs.Stat(reg.Examples(), "tiny/tiny-demo.yaml"); err != nil {
		t.Errorf("the registry's examples: %v", err)
	}
	if _, err := fs.Stat(tiny.Page(), "js/rules/tiny.js"); err != nil {
		t.Errorf("the page module: %v", err)
	}
}
