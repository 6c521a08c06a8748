package cd_test

import (
	"fmt"
	"strings"
	"testing"

	"orderly/battle"
)

// load reads the base scenario with the given features and French units,
// and returns the loader's error.
func load(r battle.RuleSet, features string, units ...string) error {
	if features == "" {
		features = "    - {id: far, type: gradual-slope, area: [[70, 46], [71, 46], [71, 47]]}"
	}
	var us []string
	for _, u := range units {
		us = append(us, "              - "+u)
	}
	src := strings.NewReplacer("STYLE", "established", "FEATURES", features, "UNITS", strings.Join(us, "\n")).Replace(base)
	_, err := battle.Read("t.yaml", []byte(src), func(string) (battle.RuleSet, error) { return r, nil })
	return err
}

// TestStartDisordered: "units that are disordered or worse are forced into
// General Order" (CD-8), so a scenario unit that starts disordered stands
// in general order; in any other formation the scenario is refused in one
// sentence naming the unit. Shaken is not disordered, and artillery has no
// general order: a disordered battery keeps its formation, as in play.
func TestStartDisordered(t *testing.T) {
	r := engine(t)
	for _, c := range []struct {
		unit string
		want string // "" loads
	}{
		{"{id: u1, type: infantry, formation: general-order, at: [30, 30], facing: 0, status: disordered}", ""},
		{"{id: u1, type: light-cavalry, formation: general-order, at: [30, 30], facing: 0, status: disordered}", ""},
		{"{id: u1, type: infantry, formation: column, at: [30, 30], facing: 0, status: shaken}", ""},
		{"{id: u1, type: infantry, formation: column, at: [30, 30], facing: 0}", ""},
		{"{id: u1, type: artillery, gun: '6', formation: limbered, at: [30, 30], facing: 0, status: disordered}", ""},
		{"{id: u1, type: infantry, formation: column, at: [30, 30], facing: 0, status: disordered}",
			"units[0].formation: u1 is disordered, so it must stand in general order, not column (CD-8)"},
		{"{id: u1, type: infantry, formation: line, at: [30, 30], facing: 0, status: disordered}",
			"units[0].formation: u1 is disordered, so it must stand in general order, not line (CD-8)"},
		{"{id: u1, type: heavy-cavalry, formation: road, at: [30, 30], facing: 0, status: disordered}",
			"units[0].formation: u1 is disordered, so it must stand in general order, not road (CD-8)"},
		{"{id: u1, type: infantry, formation: square, at: [30, 30], facing: 0, status: disordered}",
			"units[0].formation: u1 is disordered, so it must stand in general order, not square (CD-8)"},
	} {
		err := load(r, "", c.unit)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v; want it to load", c.unit, err)
		case c.want != "" && (err == nil || !strings.HasSuffix(err.Error(), c.want)):
			t.Errorf("%s: %v; want an error ending %q", c.unit, err, c.want)
		}
	}
}

// TestStartTownBlock: a town block holds at most four friendly stands
// (CD-9, cd/values block-stands), so a scenario that starts five or more
// of one side's stands in a block is refused, naming the block and the
// units with their stands; four load. A unit stands in the block that
// holds the middle of its footprint (a column is 2" deep: at y = 24.1
// facing north its middle is at y = 25.1, a tenth inside the block that
// starts at 25; at y = 23.9 it is at 24.9, in the street), and the enemy's
// stands are not friendly ones. A road column moves through a town freely
// but its stands count (a road column 6" deep at y = 24 has its middle at
// 27).
func TestStartTownBlock(t *testing.T) {
	r := engine(t)
	town := `    - id: burg
      type: town
      area: [[20, 20], [40, 20], [40, 30], [20, 30]]
      blocks:
        - [[20.5, 20.5], [29.5, 20.5], [29.5, 24], [20.5, 24]]
        - [[20.5, 25], [29.5, 25], [29.5, 29.5], [20.5, 29.5]]
        - [[30.5, 25], [39.5, 25], [39.5, 29.5], [30.5, 29.5]]`
	col := func(id string, x, y float64, stands int) string {
		return fmt.Sprintf("{id: %s, type: infantry, formation: column, at: [%g, %g], facing: 0, stands: %d}", id, x, y, stands)
	}
	for _, c := range []struct {
		name  string
		units []string
		want  string // "" loads
	}{
		{"four stands", []string{col("a", 22, 28, 3), col("b", 26, 28, 1)}, ""},
		{"four in each of two blocks", []string{col("a", 22, 28, 4), col("b", 34, 28, 4), col("c", 26, 22.5, 4)}, ""},
		{"five stands", []string{col("a", 22, 28, 3), col("b", 26, 28, 2)},
			"field.features[0].blocks[1]: block 2 of burg starts with 5 stands of french (a 3, b 2), and a block holds at most 4 friendly stands (CD-9)"},
		{"the default four stands and one more", []string{"{id: a, type: infantry, formation: line, at: [25, 28], facing: 0}", col("b", 33, 28, 1), col("c", 22, 27, 1)},
			"field.features[0].blocks[1]: block 2 of burg starts with 5 stands of french (a 4, c 1), and a block holds at most 4 friendly stands (CD-9)"},
		{"a road column counts", []string{col("a", 22, 28, 4), "{id: r, type: infantry, formation: road, at: [26, 24], facing: 0, stands: 1}"},
			"block 2 of burg starts with 5 stands of french (a 4, r 1)"},
		{"middle just in the block", []string{col("a", 22, 28, 3), col("b", 26, 24.1, 2)},
			"block 2 of burg starts with 5 stands of french (a 3, b 2)"},
		{"middle in the street", []string{col("a", 22, 28, 3), col("b", 26, 23.9, 2)}, ""},
	} {
		err := load(r, town, c.units...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v; want it to load", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v; want an error saying %q", c.name, err, c.want)
		}
	}
	// The Austrians' own unit in the block is not a friend of the French.
	enemy := strings.Replace(base, "at: [66, 4], facing: 180}", "at: [26, 28], facing: 180, stands: 4}", 1)
	src := strings.NewReplacer("STYLE", "established", "FEATURES", town, "UNITS", "              - "+col("a", 22, 28, 4)).Replace(enemy)
	if _, err := battle.Read("t.yaml", []byte(src), func(string) (battle.RuleSet, error) { return r, nil }); err != nil {
		t.Errorf("four French and four Austrian stands in a block: %v; want it to load", err)
	}
}
