package rules_test

import (
	"os"
	"strings"
	"testing"

	"orderly/rules"
	"orderly/table"
)

// FuzzHouseRules loads arbitrary house rules over the built-in tables.
// Whatever they are, nothing panics and every error is one line; and house
// rules that load are ones the NB procedures can play: a few example
// scripts run with seeded dice (their fixed rolls may no longer fit the
// dice, which is reported in one line), the server's forecast odds resolve,
// and a small Monte Carlo of the demo runs to the end with no error.
func FuzzHouseRules(f *testing.F) {
	if data, err := os.ReadFile("../examples/rules/bp-command-variant.yaml"); err == nil {
		f.Add(data)
	} else {
		f.Fatal(err)
	}
	for _, s := range houseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, house []byte) {
		tryHouse(t, house)
		// The same bytes read as choices that build well-formed house
		// rules, which reach what raw bytes seldom do.
		if built := genHouse(house); built != "" {
			tryHouse(t, []byte(built))
		}
	})
}

func tryHouse(t *testing.T, house []byte) {
	t.Helper()
	set, err := table.Load(rules.Builtin(), table.Source{Name: "house.yaml", Data: house})
	if err != nil {
		oneLine(t, "load", err)
		return
	}
	// As rules.Playable does: a rule set with procedures refuses tables it
	// cannot use.
	if _, err := rules.Engine("nb", set); err != nil {
		oneLine(t, "nb", err)
		return
	}
	script, play := playNB(set, 3)
	if script != nil {
		oneLine(t, "script", script)
	}
	if play != nil {
		t.Fatalf("house rules that load fail in play: %v\n%s", play, house)
	}
}

func oneLine(t *testing.T, what string, err error) {
	t.Helper()
	if msg := err.Error(); msg == "" || strings.ContainsAny(msg, "\n\r") {
		t.Fatalf("%s: the error is not one line: %q", what, msg)
	}
}

var houseSeeds = []string{
	// The crash: a required parameter that the procedures do not pass.
	"tables:\n  - id: nb/reserve-arrival\n    params:\n      - {name: weather, kind: enum, required: true, values: {dry: 0, wet: -1}}\n",
	"tables:\n  - id: nb/order-delay\n    params:\n      - {name: weather, kind: enum, required: true, values: {dry: 0, wet: -1}}\n",
	// The same, optional: playable.
	"tables:\n  - id: nb/order-delay\n    params:\n      - {name: weather, kind: enum, default: wet, values: {dry: 0, wet: -1}}\n",
	// A quality added to one table, then to both.
	"tables:\n  - id: nb/order-delay\n    params:\n      - {name: quality, values: {superior: 3}}\n",
	"tables:\n  - id: nb/order-delay\n    params:\n      - {name: quality, values: {superior: 3}}\n  - id: nb/reserve-arrival\n    params:\n      - {name: quality, values: {superior: 2}}\n",
	// Results and their values.
	"tables:\n  - id: nb/order-delay\n    results:\n      - {key: delay-4}\n",
	"tables:\n  - id: nb/order-delay\n    results:\n      - {key: delay-4, value: 9}\n      - {key: immediate, value: 0}\n",
	"tables:\n  - id: nb/reserve-entry\n    results:\n      - {key: turn-5, value: 1}\n      - {key: turn-10, value: 30}\n",
	"tables:\n  - id: nb/reserve-arrival\n    results:\n      - {key: early-1, value: -9}\n      - {key: late-2, value: 40}\n",
	// Dice and bands.
	"tables:\n  - id: nb/reserve-entry\n    dice: 2d6\n",
	"tables:\n  - id: nb/order-delay\n    dice: 1d10z\n    naturals: {0: delay-4, 9: immediate}\n",
	"tables:\n  - id: nb/reserve-arrival\n    dice: 1d20\n    results:\n      - {key: lost}\n    bands:\n      \"<=2\": late-2\n      \"3..4\": late-1\n      \"5..8\": on-time\n      \"9..19\": early-1\n      \">=20\": lost\n",
	"tables:\n  - id: nb/order-delay\n    bands:\n      \"<=5\": delay-1\n      \">=6\": immediate\n",
	// The lookup.
	"lookups:\n  - id: nb/orders-per-turn\n    cells: {french: \"0\", british: \"9\", russian-1792-1808: \"1\", russian-1809-1814: \"1\", prussian-1792-1806: \"1\", prussian-1813-1815: \"1\", austrian-1792-1806: \"1\", austrian-1807-1815: \"1\", other: \"1\"}\n",
	"lookups:\n  - id: nb/orders-per-turn\n    params:\n      - {name: country, kind: enum, values: [french, other]}\n    cells: {french: \"3\", other: \"1\"}\n",
	// A derived modifier.
	"lookups:\n  - id: house/roads\n    title: Road bonus\n    rule: NB-10\n    params:\n      - {name: quality, kind: enum, values: [excellent, good, average, poor]}\n    cells: {excellent: \"1\", good: \"0\", average: \"0\", poor: \"-1\"}\ntables:\n  - id: nb/reserve-arrival\n    derived:\n      - {name: roads, lookup: house/roads, args: [quality]}\n",
	// A new table beside NB's.
	"tables:\n  - id: house/weather\n    rule: NB-5\n    title: Weather\n    dice: 1d6\n    results: [{key: dry}, {key: wet}]\n    bands: {\"<=4\": dry, \">=5\": wet}\n",
}
