package battle_test

import (
	"math"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/geom"
)

// features is the base scenario with terrain on its 72 x 48 table.
const features = `  grid: {columns: 8, rows: 6}
  features:
    - {id: wood, name: Bossu wood, type: light-woods, area: [[10, 10], [20, 10], [20, 20], [10, 20]], disruptive: d1}
    - {id: wall, type: linear-obstacle, line: [[30, 0], [30, 24]]}
    - {id: brook, type: river, line: [[0, 40], [72, 40]], width: 1}
    - {id: hill, type: steep-slope, area: [[40, 10], [50, 10], [45, 18]], disruptive: d2}
    - id: village
      type: town
      area: [[50, 30], [60, 30], [60, 38], [50, 38]]
      blocks:
        - [[51, 31], [54, 31], [54, 34], [51, 34]]
        - [[55, 31], [59, 31], [59, 34], [55, 34]]
`

// TestFeatures: a table's terrain loads with its types, defaults (woods
// and towns give cover and block sight), ratings and blocks, and a move
// is measured against it: how far it runs in an area, which lines it
// crosses, where it ends.
func TestFeatures(t *testing.T) {
	src := strings.Replace(ldBase, "  grid: {columns: 8, rows: 6}\n", features, 1)
	sc, err := battle.Load(ldFile, []byte(src), ldSpec)
	if err != nil {
		t.Fatal(err)
	}
	fs := sc.Field.Features
	if len(fs) != 5 {
		t.Fatalf("%d features, want 5", len(fs))
	}
	wood, wall, town := fs[0], fs[1], fs[4]
	if wood.Name != "Bossu wood" || !wood.Cover || !wood.BlocksSight || wood.Disruptive != "d1" || wood.Course != nil {
		t.Errorf("the wood: %+v", wood)
	}
	if wall.Cover || wall.BlocksSight || wall.Area != nil || len(wall.Course) != 2 {
		t.Errorf("the wall: %+v", wall)
	}
	if !town.Cover || len(town.Blocks) != 2 {
		t.Errorf("the town: %+v", town)
	}
	// From (5, 15) east to (35, 15): 10" in the wood, across the wall.
	got := sc.Field.Crossing(geom.Pt(5, 15), geom.Pt(35, 15))
	if len(got) != 2 || got[0].Feature.ID != "wood" || math.Abs(got[0].Inside-10) > 1e-9 || got[0].Ends ||
		got[1].Feature.ID != "wall" || got[1].Crosses != 1 {
		t.Errorf("crossing: %+v", got)
	}
	// Ending in the village.
	got = sc.Field.Crossing(geom.Pt(55, 25), geom.Pt(55, 33))
	if len(got) != 1 || got[0].Feature.ID != "village" || !got[0].Ends || math.Abs(got[0].Inside-3) > 1e-9 {
		t.Errorf("into the village: %+v", got)
	}
}

// TestFeatureErrors: bad terrain is refused with the file, line and path,
// what is wrong and what is allowed.
func TestFeatureErrors(t *testing.T) {
	cases := []struct {
		name, feature, want string
	}{
		{"line for an area", `{type: light-woods, line: [[1, 1], [5, 5]]}`, "field.features[0]: a light-woods is an area: give its corners under area, not line"},
		{"area for a line", `{type: road, area: [[1, 1], [5, 5], [1, 5]]}`, "field.features[0]: a road is a line: give its points under line, not area"},
		{"no points", `{type: ford}`, "field.features[0]: area is missing: the corners of the ford, in order round it"},
		{"off the table", `{type: ford, area: [[1, 1], [80, 1], [1, 5]]}`, "field.features[0].area[1]: (80, 1) is off the table (0..72 by 0..48 inches)"},
		{"crossing edges", `{type: slope, area: [[0, 0], [10, 10], [10, 0], [0, 10]]}`, "field.features[0].area: its edge from corner 1 to 2 crosses the edge from corner 3 to 4; an area's edges may not cross"},
		{"two corners", `{type: slope, area: [[0, 0], [10, 10]]}`, "field.features[0].area: an area has 3..1000 corners, got 2"},
		{"unknown type", `{type: swamp, area: [[1, 1], [5, 1], [1, 5]]}`, `field.features[0].type: "swamp" is not one of`},
		{"bad rating", `{type: ford, area: [[1, 1], [5, 1], [1, 5]], disruptive: d4}`, `field.features[0].disruptive: "d4" is not one of d1, d2, d3`},
		{"block outside", `{type: town, area: [[1, 1], [9, 1], [9, 9], [1, 9]], blocks: [[[1, 1], [12, 1], [1, 5]]]}`, "field.features[0].blocks[0]: corner 2 at (12, 1) lies outside the town"},
		{"blocks of woods", `{type: heavy-woods, area: [[1, 1], [9, 1], [9, 9]], blocks: [[[2, 2], [3, 2], [2, 3]]]}`, "field.features[0]: only a town has blocks; this is a heavy-woods"},
		{"same id", "{id: a, type: road, line: [[1, 1], [5, 5]]}\n    - {id: a, type: road, line: [[2, 1], [5, 5]]}", "field.features[1]: id a is given twice"},
	}
	for _, c := range cases {
		src := strings.Replace(ldBase, "  grid: {columns: 8, rows: 6}\n", "  grid: {columns: 8, rows: 6}\n  features:\n    - "+c.feature+"\n", 1)
		_, err := battle.Load(ldFile, []byte(src), ldSpec)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), ldFile+":") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v\nwant %q", c.name, err, c.want)
		}
	}
}
