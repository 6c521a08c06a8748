package battle_test

import (
	"fmt"
	"strings"
	"testing"

	"orderly/battle"
)

// TestProblemsListed: the loader lists every problem it can in one pass,
// each at its line, the first word for word what the error says; a
// problem of the file's values stops the build (no problem of the whole
// scenario after it), and the whole scenario's checks (pieces on the
// table) list each piece's.
func TestProblemsListed(t *testing.T) {
	for _, c := range []struct {
		name  string
		edits []string
		want  []string // "LINE-TEXT|message", in order
	}{
		{"values", []string{
			"{id: quiot, quality: average,", "{id: quiot, quality: avrage,",
			"{id: II-1-a, type: infantry, at: [35, 32]}", "{id: II-1-a, type: infantry, at: [35, 32], colour: red}",
			"{id: 3rd-a, type: infantry, formation: line, at: [34, 5]}", "{id: 3rd-a, type: infantry, formation: lines, at: [34, 5]}",
			// Off the table too, but the build never runs.
			"{id: 3rd-b, type: heavy-cavalry, at: [38, 5], speed: 9}", "{id: 3rd-b, type: heavy-cavalry, at: [98, 5], speed: 9}",
		}, []string{
			`{id: quiot|sides[0].corps[0].divisions[0].general.quality: "avrage" is not one of excellent, good, average, poor (did you mean average?)`,
			`{id: II-1-a|sides[0].corps[1].divisions[0].units[0]: unknown field "colour"`,
			`{id: 3rd-a|sides[1].divisions[0].units[0].formation: "lines" is not one of`,
		}},
		{"build", []string{
			"order: {kind: defend, objective: [20, 24], note: hold the ridge}", "order: {kind: defend, entry: A3, then: attack}",
			"        order: attack\n", "        order: {kind: attack, edge: north}\n",
			// Off the table too, but the whole scenario is not checked.
			"{id: 3rd-b, type: heavy-cavalry, at: [38, 5], speed: 9}", "{id: 3rd-b, type: heavy-cavalry, at: [98, 5], speed: 9}",
		}, []string{
			`order: {kind: defend, entry|sides[0].corps[0].order.entry: only a reserve enters from off the table; this order is defend`,
			`order: {kind: attack, edge|sides[0].corps[1].order.edge: only an off-board reserve, with entry, has edge`,
		}},
		{"pieces", []string{
			"{id: I-1-a, type: infantry, formation: column, at: [17, 31]}", "{id: I-1-a, type: infantry, formation: column, at: [17, 61]}",
			"{id: 3rd-b, type: heavy-cavalry, at: [38, 5], speed: 9}", "{id: 3rd-b, type: heavy-cavalry, at: [98, 5], speed: 9}",
			"army: {id: wellington, quality: excellent, range: 16, at: [36, 2]}", "army: {id: wellington, quality: excellent, range: 16, at: [36, -2]}",
		}, []string{
			`{id: I-1-a|sides[0].corps[0].divisions[0].units[0].at: (17, 61) is off`,
			`army: {id: wellington|sides[1].army.at: (36, -2) is off`,
			`{id: 3rd-b|sides[1].divisions[0].units[1].at: (98, 5) is off`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := ldEdit(t, ldBase, c.edits...)
			_, err := battle.Load(ldFile, []byte(src), ldSpec)
			list := battle.List(err)
			if len(list) != len(c.want) {
				t.Fatalf("got %d problems, want %d:\n%v", len(list), len(c.want), list)
			}
			for i, w := range c.want {
				at, msg, _ := strings.Cut(w, "|")
				prefix := fmt.Sprintf("%s:%d: %s", ldFile, ldLineOf(t, src, at), msg)
				if !strings.HasPrefix(list[i].Error(), prefix) {
					t.Errorf("problem %d:\n got %s\nwant %s...", i, list[i], prefix)
				}
			}
			if err.Error() != list[0].Error() {
				t.Errorf("the error says %q, not its first problem %q", err, list[0])
			}
		})
	}
}

// TestProblemsBounded: a scenario with more problems than MaxProblems
// lists MaxProblems.
func TestProblemsBounded(t *testing.T) {
	var units strings.Builder
	for i := range 80 {
		fmt.Fprintf(&units, "              - {id: u%d, type: infantry, formation: blob, at: [17, 31]}\n", i)
	}
	src := ldEdit(t, ldBase, "              - {id: I-1-a, type: infantry, formation: column, at: [17, 31]}\n", units.String())
	_, err := battle.Load(ldFile, []byte(src), ldSpec)
	if n := len(battle.List(err)); n != battle.MaxProblems {
		t.Errorf("got %d problems, want %d", n, battle.MaxProblems)
	}
}
