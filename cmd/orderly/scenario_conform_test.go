package main

import (
	"testing"

	"orderly/battle"
	"orderly/game/gametest"
	"orderly/rules"
	"orderly/server"
)

// conform plays a scenario made by orderly scenario import (the roster
// and blank document the editor uses too) under the engine's conformance
// checks (gametest.Conformance): random commands of its rule set, the
// engine's promises checked after each.
func conform(t *testing.T, id string, sc *battle.Scenario) {
	t.Helper()
	mk, err := rules.Make()
	if err != nil {
		t.Fatal(err)
	}
	r, err := server.RulesOf(mk, rules.Default().Examples(), id)
	if err != nil {
		t.Fatal(err)
	}
	rr, ok := r.(gametest.Random)
	if !ok {
		t.Fatalf("rule set %s makes no random commands", id)
	}
	gametest.Conformance(t, rr, sc, 2)
}
