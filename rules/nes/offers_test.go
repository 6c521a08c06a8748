package nes_test

import (
	"strings"
	"testing"

	"orderly/game"
	"orderly/rules/nes"
)

// TestForecasts: what a page asks before a command is the server's answer
// with the rule's numbers: an order's delivery roll, a move's path and
// cost, a line of sight, extended-range fire, a charge's morale checks.
func TestForecasts(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(2))
	if err != nil {
		t.Fatal(err)
	}
	s := g.State()
	fc, err := r.Forecast(sc, s, "french", &nes.Args{From: "davout", To: "fr-1-1", Kind: "attack"})
	if err != nil || len(fc) != 1 || fc[0].Table != "nes/order-delivery" {
		t.Fatalf("send forecast %+v, %v", fc, err)
	}
	// Davout (0610) is 2 hexes from Morand (0708) and his nearest unit:
	// not adjacent; he has an attack order (received): -1; Morand's
	// bonus 1.
	p := fc[0].Params
	if p["adjacent"] != "false" || p["sender-marker"] != "true" || p["bonus"] != "1" || p["brigade"] != "false" {
		t.Errorf("send params %v", p)
	}
	if _, err := r.Forecast(sc, s, "french", &nes.Args{From: "davout", To: "ney", Kind: "attack"}); err == nil || !strings.Contains(err.Error(), "not under") {
		t.Errorf("an order to a command unit not under the sender: %v", err)
	}
	sight, err := r.Forecast(sc, s, "french", &nes.Args{Sight: true, From: "0103", To: "0903"})
	if err != nil || len(sight) != 1 || !strings.Contains(sight[0].Note, "blocked by woods") {
		t.Errorf("sight through the woods at 0403..0603: %+v, %v", sight, err)
	}
	b := r.Annotate(s, g.Step(), "french").(nes.Board)
	if len(b.Odds) == 0 {
		t.Errorf("no odds of coming rolls for the french")
	}
	for _, o := range b.Odds {
		if o.Table == "nes/command-continuation" && o.Chance["mobilized"] == "" {
			t.Errorf("continuation odds %+v", o)
		}
	}
	if b.Points != 4 || b.Leaders["napoleon"].Radius != 6 || len(b.Leaders["davout"].Subordinates) == 0 {
		t.Errorf("board: points %d, napoleon %+v, davout %+v", b.Points, b.Leaders["napoleon"], b.Leaders["davout"])
	}
	rb := r.Annotate(s, g.Step(), "russian").(nes.Board)
	if rb.Leaders["davout"].Order != "" || len(rb.Leaders["davout"].Subordinates) > 0 {
		t.Errorf("the russian board shows davout's order: %+v", rb.Leaders["davout"])
	}
	// Into the movement step: a unit's reach and a move's path.
	for g.Step().Name != nes.StepMove {
		if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	s = g.State()
	b = r.Annotate(s, g.Step(), "french").(nes.Board)
	if len(b.Units["fr-7hus"].Reach) == 0 {
		t.Errorf("no reach for the hussars in the movement step: %+v", b.Units["fr-7hus"])
	}
	mv, err := r.Forecast(sc, s, "french", &nes.Args{Unit: "fr-7hus", To: "0904"})
	if err != nil || len(mv) != 1 || len(mv[0].Path) < 2 || !strings.Contains(mv[0].Note, "MP") {
		t.Errorf("move forecast %+v, %v", mv, err)
	}
}

// TestRetiredBrigadeCountsOutside: a brigade leader sent to the rear
// counts as outside his division leader's radius in the division leader's
// next continuation check (NES-3: +1), and back in command he does not.
func TestRetiredBrigadeCountsOutside(t *testing.T) {
	r := engine(t)
	sc := demo(t, r)
	g, err := game.New(sc, r, game.Seeded(2))
	if err != nil {
		t.Fatal(err)
	}
	for g.Step().Name != nes.StepMove {
		if _, err := g.Do(game.Command{Side: g.Acting()[0], Verb: game.Ready}); err != nil {
			t.Fatal(err)
		}
	}
	out := func() string {
		b := r.Annotate(g.State(), g.Step(), "french").(nes.Board)
		for _, o := range b.Odds {
			if o.Leader == "fr-1-1-g" && o.Table == "nes/command-continuation" {
				return o.Params["brigades-out"]
			}
		}
		return "no check"
	}
	if got := out(); got != "0" {
		t.Fatalf("Morand's brigades outside his radius before: %s, want 0", got)
	}
	if _, err := g.Do(game.Command{Side: "french", Verb: "retire", Args: &nes.Args{General: "fr-1-1-a-g"}}); err != nil {
		t.Fatal(err)
	}
	if got := out(); got != "1" {
		t.Errorf("with Gerard retired: %s, want 1", got)
	}
	if _, err := g.Do(game.Command{Side: "french", Verb: "retire", Args: &nes.Args{General: "fr-1-1-a-g"}}); err != nil {
		t.Fatal(err)
	}
	if got := out(); got != "0" {
		t.Errorf("with Gerard back: %s, want 0", got)
	}
	if _, err := g.Do(game.Command{Side: "french", Verb: "retire", Args: &nes.Args{General: "davout"}}); err == nil || !strings.Contains(err.Error(), "only a brigade leader") {
		t.Errorf("retiring a corps commander: %v", err)
	}
}
