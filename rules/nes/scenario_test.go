package nes_test

import (
	"strings"
	"testing"

	"orderly/battle"
)

// smallMap is a valid NES scenario whose map part the cases below spoil.
const smallMap = `name: small
rules: nes
map:
  columns: 6
  rows: 3
  terrain: |
    ..w...
    .t....
    ...m..
  elevation: |
    000110
    000110
    000000
  hexsides:
    stream: 0101/0102
    steep: 0301/0401
  roads:
    minor-road: ["0102 0202 0302"]
sides:
  - id: french
    nation: french
    edge: west
    command-points: 2
    army: {id: c, at: "0101", range: 3}
    divisions:
      - id: d
        general: {id: d-g, at: "0102", range: 2, rating: 4}
        units:
          - {id: u, type: artillery, at: "0103", strength: 4, class: 1}
  - id: russian
    nation: russian
    edge: east
    command-points: 1
    army: {id: r, at: "0601", range: 3}
    divisions:
      - id: rd
        general: {id: rd-g, at: "0602", range: 2, rating: 4}
        units:
          - {id: ru, type: infantry, at: "0603", strength: 4}
`

// TestScenarioErrors: a spoiled map or order of battle is refused with
// one sentence naming the file, the line and what is wrong, with what is
// allowed.
func TestScenarioErrors(t *testing.T) {
	r := engine(t)
	if _, err := battle.Read("small.yaml", []byte(smallMap), func(string) (battle.RuleSet, error) { return r, nil }); err != nil {
		t.Fatalf("the valid scenario: %v", err)
	}
	cases := []struct {
		name, old, new, want string
	}{
		{"unknown letter", "    .t....\n", "    .t..x.\n", `small.yaml:8: map.terrain: hex 0502 (row 02, column 05): 'x' is not a terrain letter; allowed: . clear, l light-cover, f farmette, w woods, t town, m frozen-wetlands`},
		{"short row", "    ...m..\n", "    ...m.\n", `small.yaml:9: map.terrain: row 03 has 5 hexes, but the map has 6 columns`},
		{"too few rows", "    ...m..\n  elevation", "  elevation", `small.yaml:6: map.terrain: 2 lines, but the map has 3 rows; write a line of 6 for each row, the first row first`},
		{"bad elevation", "    000110\n    000000", "    000110\n    0000a0", `small.yaml:13: map.elevation: hex 0503 (row 03, column 05): 'a' is not an elevation; allowed: a digit 0..9`},
		{"hexside not touching", "stream: 0101/0102", "stream: 0101/0301", `small.yaml:15: map.hexsides.stream: hexside 0101/0301: hexes 0101 and 0301 do not touch, so they share no hexside`},
		{"hexside off the map", "stream: 0101/0102", "stream: 0101/0100", `small.yaml:15: map.hexsides.stream: hexside 0101/0100: hex "0100" is off the map: columns and rows are numbered from 1`},
		{"steep on level ground", "steep: 0301/0401", "steep: 0101/0201", `small.yaml:16: map.hexsides.steep: hexside 0101/0201: both hexes are at elevation 0, and a steep lies between two levels; raise one in elevation`},
		{"unknown hexside", "    stream: 0101/0102", "    river: 0101/0102", `small.yaml:15: map.hexsides: "river" is not one of brook, stream, major-stream, light-cover-side, steep`},
		{"road not a chain", `["0102 0202 0302"]`, `["0102 0302"]`, `small.yaml:18: map.roads.minor-road[0]: hex 2 of the road, 0302, does not touch 0102 before it; a road is a chain of neighbouring hexes`},
		{"unit off the map", `at: "0103", strength: 4`, `at: "0104", strength: 4`, `small.yaml:29: sides[0].divisions[0].units[0].at: hex "0104" is off the map; allowed: columns 01..06, rows 01..03`},
		{"artillery in woods", `at: "0103", strength: 4`, `at: "0301", strength: 4`, `small.yaml:29: sides[0].divisions[0].units[0].at: artillery may not stand in woods (hex 0301; NES-7)`},
		{"no command points", "    command-points: 1\n", "", `small.yaml:30: sides[1]: command-points is missing: the command points the side has each turn to send orders`},
		{"no rating", "{id: rd-g, at: \"0602\", range: 2, rating: 4}", "{id: rd-g, at: \"0602\", range: 2}", `small.yaml:37: sides[1].divisions[0].general: rating is missing: every command unit below the army commander has a command rating (NES-3)`},
		{"evening after the last turn", "rules: nes\n", "rules: nes\nturns: 4\nevening: [3, 5]\n", `small.yaml:4: evening[1]: turn 5 is given twice or comes after the last turn, 4; list each evening turn once, 1..4`},
		{"HQ with the enemy", "    command-points: 2\n", "    command-points: 2\n    hq: \"0603\"\n", `small.yaml:20: sides[0].hq: the headquarters stands in hex 0603 with the enemy's ru`},
		{"map too big", "  columns: 6\n  rows: 3\n", "  columns: 999\n  rows: 999\n  digits: 3\n", `small.yaml:4: map: a map of 999 columns by 999 rows has 998001 hexes; allowed: at most 131072`},
		{"cavalry kind against type", "{id: ru, type: infantry, at: \"0603\", strength: 4}", "{id: ru, type: light-cavalry, at: \"0603\", strength: 4, cavalry: cuirassiers}", `small.yaml:39: sides[1].divisions[0].units[0].cavalry: cuirassiers are heavy-cavalry, but the unit's type is light-cavalry`},
	}
	for _, c := range cases {
		if !strings.Contains(smallMap, c.old) {
			t.Fatalf("%s: the scenario has no %q", c.name, c.old)
		}
		src := strings.Replace(smallMap, c.old, c.new, 1)
		_, err := battle.Read("small.yaml", []byte(src), func(string) (battle.RuleSet, error) { return r, nil })
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
}
