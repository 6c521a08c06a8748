package game_test

import (
	"testing"

	"orderly/battle"
	"orderly/game"
)

// TestWords checks the helpers that keep codes out of what players read:
// counts agree with their nouns, a kind word is not doubled by a name that
// holds it, formations read as prose, and ids show as the scenario's
// names.
func TestWords(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{game.Count(1, "casualty", "casualties"), "1 casualty"},
		{game.Count(0, "casualty", "casualties"), "0 casualties"},
		{game.Count(3, "unit", "units"), "3 units"},
		{game.Count(-1, "move", "moves"), "-1 move"},
		{game.Kinded("division", "Division Foy"), "Division Foy"},
		{game.Kinded("division", "the Guard division"), "the Guard division"},
		{game.Kinded("division", "foy"), "division foy"},
		{game.Kinded("brigade", "Brigadier Jamin"), "brigade Brigadier Jamin"},
		{game.Formed("unlimbered"), "unlimbered"},
		{game.Formed("limbered"), "limbered"},
		{game.Formed("march-column"), "in march column"},
		{game.Formed("line"), "in line"},
		{game.Formed("skirmish"), "in skirmish order"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	sc := &battle.Scenario{Sides: []*battle.Side{{
		ID: "french", Name: "Armée du Nord",
		Formations: []*battle.Formation{{ID: "foy", Name: "Division Foy"}, {ID: "bach"}},
		Generals:   []*battle.General{{ID: "foy-g", Name: "Foy"}},
		Units:      []*battle.Unit{{ID: "u1", Name: "4e Léger"}, {ID: "u2"}},
	}}}
	name := game.Names(sc)
	for id, want := range map[string]string{"foy": "Division Foy", "bach": "bach", "foy-g": "Foy", "u1": "4e Léger", "u2": "u2", "french": "french", "ghost": "ghost"} {
		if got := name(id); got != want {
			t.Errorf("Names(%s) = %q, want %q", id, got, want)
		}
	}
	if got := game.Names(nil)("foy"); got != "foy" {
		t.Errorf("Names(nil)(foy) = %q, want the id", got)
	}
}
