package sim

import (
	"os"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/rules"
	"orderly/script"
)

// DemoForTest loads the demo scenario and its rule set, for the tests of
// this package inside and outside it.
func DemoForTest(t testing.TB) (*battle.Scenario, game.Rules) {
	t.Helper()
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	eng := func(id string) (game.Rules, error) { return rules.Engine(id, set) }
	data, err := os.ReadFile("../examples/nb/demo.yaml")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.LoadScenario("demo.yaml", data, eng)
	if err != nil {
		t.Fatal(err)
	}
	r, err := eng(sc.Rules)
	if err != nil {
		t.Fatal(err)
	}
	return sc, r
}
