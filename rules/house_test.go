package rules_test

import (
	"cmp"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"orderly/battle"
	"orderly/game"
	"orderly/rules"
	"orderly/rules/nb"
	scriptpkg "orderly/script"
	"orderly/sim"
	"orderly/table"
)

// houseFile writes a house-rules file and returns its path.
func houseFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "house.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// allNations are the nations of nb/order-delay, in its order.
const allNations = "french, british, russian-1792-1808, russian-1809-1814, prussian-1792-1806, prussian-1813-1815, austrian-1792-1806, austrian-1807-1815, other"

// TestHouseRulesNBCannotUse: each house rule breaks what the NB procedures
// pass to a table or read from it, and is refused when the rules load, in
// one line that names the file (HOUSE below), the table, the parameter or
// result, what is wrong and what is allowed.
func TestHouseRulesNBCannotUse(t *testing.T) {
	cases := []struct {
		name, house, want string
	}{
		{"required parameter added to nb/reserve-arrival", `
tables:
  - id: nb/reserve-arrival
    params:
      - {name: weather, kind: enum, required: true, values: {dry: 0, wet: -1}}
`, "HOUSE:5: table nb/reserve-arrival: parameter weather is required, but the NB procedures pass only quality (NB-10); make it optional with a default (e.g. required: false, default: dry)"},
		{"required parameter added to nb/order-delay", `
tables:
  - id: nb/order-delay
    params:
      - {name: weather, kind: enum, required: true, values: {dry: 0, wet: -1}}
`, "HOUSE:5: table nb/order-delay: parameter weather is required, but the NB procedures pass only nation, quality (NB-5); make it optional with a default (e.g. required: false, default: dry)"},
		{"required int parameter added to nb/reserve-entry", `
tables:
  - id: nb/reserve-entry
    params:
      - {name: distance, kind: int, min: 1, max: 10, per: -1, required: true}
`, "HOUSE:5: table nb/reserve-entry: parameter distance is required, but the NB procedures pass no parameters to it (NB-10); make it optional with a default (e.g. required: false, default: 1)"},
		{"quality added to nb/order-delay but not nb/reserve-arrival", `
tables:
  - id: nb/order-delay
    params:
      - {name: quality, values: {superior: 3}}
`, "house rules HOUSE: table nb/reserve-arrival: parameter quality does not take superior, which the NB procedures may pass (NB-10; it may be any of the qualities of nb/order-delay); allowed: excellent, good, average, poor; add superior"},
		{"nation added to nb/order-delay but not nb/orders-per-turn", `
tables:
  - id: nb/order-delay
    params:
      - {name: nation, values: {spanish: -1}}
`, "house rules HOUSE: lookup nb/orders-per-turn: parameter nation does not take spanish, which the NB procedures may pass (NB-2; it may be any of the nations of nb/order-delay); allowed: " + allNations + "; add spanish"},
		{"parameter nation removed from nb/orders-per-turn", `
lookups:
  - id: nb/orders-per-turn
    params:
      - {name: country, kind: enum, values: [french, other]}
    cells: {french: "3", other: "1"}
`, "HOUSE:3: lookup nb/orders-per-turn: there is no parameter nation, but the NB procedures pass it as an enum, one of " + allNations + " (NB-2); add it back"},
		{"value other removed from nb/orders-per-turn", `
lookups:
  - id: nb/orders-per-turn
    params:
      - {name: nation, kind: enum, values: [french, british, russian-1792-1808, russian-1809-1814, prussian-1792-1806, prussian-1813-1815, austrian-1792-1806, austrian-1807-1815]}
    cells: {french: "3", british: "2", russian-1792-1808: "1", russian-1809-1814: "1", prussian-1792-1806: "1", prussian-1813-1815: "1", austrian-1792-1806: "1", austrian-1807-1815: "1"}
`, "HOUSE:5: lookup nb/orders-per-turn: parameter nation does not take other, which the NB procedures may pass (NB-2; it may be any of the nations of nb/order-delay); allowed: french, british, russian-1792-1808, russian-1809-1814, prussian-1792-1806, prussian-1813-1815, austrian-1792-1806, austrian-1807-1815; add other"},
		{"kind of nation changed in nb/orders-per-turn", `
lookups:
  - id: nb/orders-per-turn
    params:
      - {name: nation, kind: int, min: 0, max: 9}
    cells: {"0..9": "1"}
`, "HOUSE:5: lookup nb/orders-per-turn: parameter nation is an int, but the NB procedures pass it as an enum, one of " + allNations + " (NB-2); make it an enum again"},
		{"parameter without a default added to nb/orders-per-turn", `
lookups:
  - id: nb/orders-per-turn
    params:
      - {name: nation, kind: enum, values: [french, british, russian-1792-1808, russian-1809-1814, prussian-1792-1806, prussian-1813-1815, austrian-1792-1806, austrian-1807-1815, other]}
      - {name: weather, kind: enum, values: [dry, wet]}
    cells:
      french: {dry: "3", wet: "2"}
      british: {dry: "2", wet: "1"}
      russian-1792-1808: {dry: "1", wet: "1"}
      russian-1809-1814: {dry: "1", wet: "1"}
      prussian-1792-1806: {dry: "1", wet: "1"}
      prussian-1813-1815: {dry: "1", wet: "1"}
      austrian-1792-1806: {dry: "1", wet: "1"}
      austrian-1807-1815: {dry: "1", wet: "1"}
      other: {dry: "1", wet: "1"}
`, "HOUSE:6: lookup nb/orders-per-turn: parameter weather has no default, but the NB procedures pass only nation (NB-2); give it one (e.g. default: dry)"},
		{"orders per turn not a number", `
lookups:
  - id: nb/orders-per-turn
    cells: {french: "lots", british: "2", russian-1792-1808: "1", russian-1809-1814: "1", prussian-1792-1806: "1", prussian-1813-1815: "1", austrian-1792-1806: "1", austrian-1807-1815: "1", other: "1"}
`, `HOUSE:3: lookup nb/orders-per-turn: nation=french gives "lots", but the NB procedures read it as the orders per turn, a whole number (NB-2); give a whole number`},
		{"value of a delay removed", `
tables:
  - id: nb/order-delay
    results:
      - {key: delay-4, doc: acts four turns after reading}
`, "HOUSE:3: table nb/order-delay: result delay-4 can come up with nation=british quality=average but has no value, and the NB procedures read it as the turns of delay (NB-5); give it a value"},
		{"a negative delay", `
tables:
  - id: nb/order-delay
    results:
      - {key: immediate, value: -1}
`, "HOUSE:3: table nb/order-delay: result immediate can come up with nation=french quality=excellent and has value -1, but the NB procedures read it as the turns of delay (NB-5); allowed: 0 or more"},
		{"an entry turn of 0", `
tables:
  - id: nb/reserve-entry
    results:
      - {key: turn-5, value: 0}
`, "HOUSE:3: table nb/reserve-entry: result turn-5 can come up and has value 0, but the NB procedures read it as the earliest entry turn (NB-10); allowed: 1 or more"},
		{"dice that reach a new result without a value", `
tables:
  - id: nb/reserve-entry
    dice: 1d20
    results:
      - {key: turn-15}
    bands:
      "<=5": turn-5
      "6": turn-6
      "7": turn-7
      "8": turn-8
      "9": turn-9
      "10..14": turn-10
      ">=15": turn-15
`, "HOUSE:3: table nb/reserve-entry: result turn-15 can come up but has no value, and the NB procedures read it as the earliest entry turn (NB-10); give it a value"},
		{"dice and bands that reach a result without a value", `
tables:
  - id: nb/reserve-arrival
    dice: 2d10
    results:
      - {key: lost}
    bands:
      "<=2": late-2
      "3..4": late-1
      "5..8": on-time
      "9..19": early-1
      ">=20": lost
`, "HOUSE:3: table nb/reserve-arrival: result lost can come up with quality=excellent but has no value, and the NB procedures read it as the turns late (negative: early) (NB-10); give it a value"},
		{"a derived modifier that refuses a quality", `
lookups:
  - id: house/roads
    title: Road bonus
    rule: NB-10
    params:
      - {name: quality, kind: enum, values: [excellent, good, average]}
    cells: {excellent: "1", good: "0", average: "0"}
tables:
  - id: nb/reserve-arrival
    derived:
      - {name: roads, lookup: house/roads, args: [quality]}
`, "HOUSE:10: table nb/reserve-arrival: the NB procedures may pass quality=poor (NB-10), and then roads: house/roads: quality=poor is not allowed (did you mean good?); allowed: excellent, good, average"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := houseFile(t, c.house)
			want := strings.ReplaceAll(c.want, "HOUSE", path)
			loaded, err := rules.Load(path)
			if err != nil {
				t.Fatalf("the tables alone should load (for odds and roll): %v", err)
			}
			err = rules.Playable(loaded)
			if err == nil {
				t.Fatalf("loaded; want %s", want)
			}
			if got := err.Error(); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("not one line: %q", err)
			}
			// The tables alone load (each is sound on its own); the NB
			// procedures refuse them, whoever builds the rule set.
			data, _ := os.ReadFile(path)
			set, err := table.Load(rules.Builtin(), table.Source{Name: path, Data: data})
			if err != nil {
				t.Fatalf("table.Load: %v", err)
			}
			if r, err := rules.Engine("nb", set); err == nil || r != nil || err.Error() != want {
				t.Errorf("rules.Engine: %v, %v; want nil, %s", r, err, want)
			}
			if r, err := nb.New(set); err == nil || r != nil {
				t.Errorf("nb.New: %v, %v; want an error", r, err)
			}
		})
	}
}

var placeRE = regexp.MustCompile(`^nb\.yaml:\d+: `)

// TestNBRefusesTablesItCannotUse covers what a house rule cannot do to a
// built-in table (house rules merge parameters and values, never remove
// them) by changing NB's own tables file: a parameter the procedures pass
// is gone, a value they pass is gone, a kind has changed.
func TestNBRefusesTablesItCannotUse(t *testing.T) {
	base := string(nb.Tables().Data)
	arrivalQuality := "      - name: quality\n        kind: enum\n        doc: quality of the reserve's general\n        default: average\n        values: {excellent: 2, good: 1, average: 0, poor: -2}\n"
	if strings.Count(base, arrivalQuality) != 1 {
		t.Fatal("nb/reserve-arrival's quality is not where the test expects it in rules/nb/tables.yaml")
	}
	cases := []struct {
		name, old, new, want string
	}{
		{"quality removed from nb/reserve-arrival", arrivalQuality, "      - {name: morale, kind: enum, default: steady, values: [steady]}\n",
			"table nb/reserve-arrival: there is no parameter quality, but the NB procedures pass it as an enum, one of excellent, good, average, poor (NB-10); add it back"},
		{"poor removed from nb/reserve-arrival", arrivalQuality, strings.Replace(arrivalQuality, ", poor: -2", "", 1),
			"table nb/reserve-arrival: parameter quality does not take poor, which the NB procedures may pass (NB-10; it may be any of the qualities of nb/order-delay); allowed: excellent, good, average; add poor"},
		{"kind of quality changed in nb/reserve-arrival", arrivalQuality, "      - {name: quality, kind: int, default: \"0\", per: 1}\n",
			"table nb/reserve-arrival: parameter quality is an int, but the NB procedures pass it as an enum, one of excellent, good, average, poor (NB-10); make it an enum again"},
		{"nb/reserve-entry missing", "  - id: nb/reserve-entry\n", "  - id: nb/reserve-entry-x\n",
			"table nb/reserve-entry: the NB procedures use it (NB-10), but no rules file defines it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(base, c.old, c.new, 1)
			set, err := table.Load([]table.Source{{Name: "nb.yaml", Data: []byte(text)}})
			if err != nil {
				t.Fatalf("table.Load: %v", err)
			}
			_, err = rules.Engine("nb", set)
			if err == nil {
				t.Fatalf("accepted; want %s", c.want)
			}
			got := err.Error()
			if c.name == "nb/reserve-entry missing" {
				if got != c.want {
					t.Errorf("got  %s\nwant %s", got, c.want)
				}
				return
			}
			if !placeRE.MatchString(got) || placeRE.ReplaceAllString(got, "") != c.want {
				t.Errorf("got  %s\nwant nb.yaml:LINE: %s", got, c.want)
			}
		})
	}
}

// TestHouseRulesNBCanUse: the built-in rules, the example house rules and
// house rules that change NB's tables in ways its procedures can use all
// load, play the worked example and run a small Monte Carlo.
func TestHouseRulesNBCanUse(t *testing.T) {
	files := map[string]string{
		"none":       "",
		"bp variant": "../examples/rules/bp-command-variant.yaml",
		"nb compatible": houseFile(t, `
tables:
  - id: nb/order-delay
    params:
      - {name: quality, values: {superior: 3}}
      - {name: weather, kind: enum, default: dry, values: {dry: 0, wet: -1}}
    results:
      - {key: delay-4, value: 5}
  - id: nb/reserve-arrival
    dice: 1d12
    params:
      - {name: quality, values: {superior: 2}}
  - id: nb/reserve-entry
    dice: 1d6+3
    results:
      - {key: turn-4, value: 4}
    bands:
      "<=4": turn-4
      "5": turn-5
      "6": turn-6
      "7": turn-7
      "8": turn-8
      ">=9": turn-9
`),
	}
	for name, path := range files {
		t.Run(name, func(t *testing.T) {
			var paths []string
			if path != "" {
				paths = append(paths, path)
			}
			set, err := rules.Load(paths...)
			if err == nil {
				err = rules.Playable(set)
			}
			if err != nil {
				t.Fatal(err)
			}
			// The examples' fixed rolls and expectations are the built-in
			// tables'; the compatible house rules change those tables.
			script, play := playNB(set, 20)
			if play != nil || script != nil && name != "nb compatible" {
				t.Fatal(script, play)
			}
		})
	}
}

// nbScripts are the scripts playNB plays: the worked example of NB-5 and
// those of the off-board reserve (NB-10) and attached generals (NB-13).
var nbScripts = []string{"seed-example.yaml", "nb-10-off-board-reserve.yaml", "nb-13-attached-generals.yaml"}

// examples holds the files playNB reads, read once.
var examples = sync.OnceValues(func() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range append([]string{"demo.yaml", "demo-plan.yaml"}, nbScripts...) {
		data, err := os.ReadFile("../examples/nb/" + name)
		if err != nil {
			return nil, err
		}
		out[name] = data
	}
	return out, nil
})

// playNB plays NB under the loaded rules: a few scripts, the odds the
// server forecasts for an order to each of their formations, and a Monte
// Carlo of the demo under its plan. A script's fixed rolls and its
// expectations are written for the built-in tables, so loading it, or
// playing it with those rolls, may fail under house rules (script: the
// first such error); but once the rules have loaded, playing each script
// with seeded dice instead, and the Monte Carlo, must not (play).
func playNB(set *table.Set, runs int) (script, play error) {
	files, err := examples()
	if err != nil {
		return nil, err
	}
	eng := func(id string) (game.Rules, error) { return rules.Engine(id, set) }
	for _, name := range nbScripts {
		s, err := scriptpkg.Load("../examples/nb/"+name, files[name], eng, scriptpkg.Disk)
		if err != nil {
			script = cmp.Or(script, err)
			continue
		}
		rs, err := eng(s.Scenario.Rules)
		if err != nil {
			return script, err
		}
		if _, _, err := s.Run(rs); err != nil {
			script = cmp.Or(script, err)
		}
		s.Rolls = nil
		g, _, err := s.Run(rs)
		if err != nil {
			return script, err
		}
		if err := forecast(s.Scenario, g, rs); err != nil {
			return script, err
		}
	}
	sc, err := scriptpkg.LoadScenario("../examples/nb/demo.yaml", files["demo.yaml"], eng)
	if err != nil {
		return script, err
	}
	r, err := eng(sc.Rules)
	if err != nil {
		return script, err
	}
	plan, err := scriptpkg.LoadPlan("../examples/nb/demo-plan.yaml", files["demo-plan.yaml"], sc, r)
	if err != nil {
		return script, err
	}
	_, err = sim.Run(sc, r, plan, sim.Options{Runs: runs, Seed: 7, Workers: 1})
	return script, err
}

// forecast resolves the odds the server shows for an order to each
// formation of the game.
func forecast(sc *battle.Scenario, g *game.Game, rs game.Rules) error {
	for _, sd := range sc.Sides {
		for _, fm := range sd.Formations[1:] {
			fc, err := rs.Forecast(sc, g.State(), sd.ID, nb.Write{For: []string{fm.ID}, Kind: "attack"})
			if err != nil {
				continue // a refusal of the order, not of the rules
			}
			for _, one := range fc {
				if one.Table == "" {
					continue
				}
				tb, err := rs.Table(one.Table)
				if err != nil {
					return err
				}
				a, err := tb.Bind(one.Params)
				if err != nil {
					return err
				}
				if _, err := tb.Odds(a); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
