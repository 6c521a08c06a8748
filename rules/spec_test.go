package rules_test

// Known-answer tests derived from SPEC.md alone (sections NB, NES, BP, CD and
// the Appendix), never from the tables files: every band edge of every dice
// table, every modifier value landing on a band edge, the worked examples
// and exact odds computed by hand, and the cells of the lookup tables.

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"orderly/dice"
	"orderly/rules"
	"orderly/table"
)

// specRoll is one scripted roll of a dice table and the result SPEC gives.
type specRoll struct {
	name   string
	table  string
	params map[string]string
	faces  []int
	want   string
	total  *int // expected total (natural + modifiers); nil: not checked
}

// specOdds is an exact distribution (or part of one) computed by hand.
type specOdds struct {
	name   string
	table  string
	params map[string]string
	want   map[string]*big.Rat
}

// specCell is one cell of a lookup table: a number, or else a text.
type specCell struct {
	name   string
	lookup string
	params map[string]string
	num    *big.Rat // compare numerically when set
	text   string   // otherwise compare the text (case and spacing aside)
	note   string   // when set, the cell's note must contain it
}

func specInt(n int) *int { return &n }

func specRat(a, b int64) *big.Rat { return big.NewRat(a, b) }

// specP is a shorthand for parameter maps: specP("a", "1", "b", "x").
func specP(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// specTwoD6 gives two d6 faces whose sum is n (2..12).
func specTwoD6(n int) []int {
	a := min(6, n-1)
	return []int{a, n - a}
}

func specLoad(t *testing.T) *table.Set {
	t.Helper()
	set, err := rules.Load()
	if err != nil {
		t.Fatalf("rules.Load: %v", err)
	}
	return set
}

func specParams(m map[string]string) string {
	if len(m) == 0 {
		return "(defaults)"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// small maps: a simple insertion sort keeps the names stable
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return strings.Join(parts, ",")
}

// ---------------------------------------------------------------------------
// Dice tables: band edges.

// specEdge builds the two cases on either side of one band edge: the last
// total of the lower band and the first of the higher, each reached by the
// given faces under the same parameters.
func specEdge(table, edge string, params map[string]string,
	loFaces []int, loTotal int, loWant string,
	hiFaces []int, hiTotal int, hiWant string) []specRoll {
	return []specRoll{
		{name: fmt.Sprintf("%s edge %s low: total %d is %s", table, edge, loTotal, loWant),
			table: table, params: params, faces: loFaces, want: loWant, total: specInt(loTotal)},
		{name: fmt.Sprintf("%s edge %s high: total %d is %s", table, edge, hiTotal, hiWant),
			table: table, params: params, faces: hiFaces, want: hiWant, total: specInt(hiTotal)},
	}
}

func specOne(table, what string, params map[string]string, faces []int, total *int, want string) specRoll {
	return specRoll{name: fmt.Sprintf("%s %s: %s", table, what, want), table: table, params: params, faces: faces, want: want, total: total}
}

func specOrderDelayCases() []specRoll {
	const tb = "nb/order-delay"
	var cs []specRoll
	// NB-5 bands: <=1 delay-4; 2..5 delay-3; 6..7 delay-2; 8..9 delay-1; >=10 immediate.
	// Edges reached with plain naturals (other, average: no modifier).
	plain := specP("nation", "other", "quality", "average")
	cs = append(cs, specEdge(tb, "1|2 plain", plain, []int{1}, 1, "delay-4", []int{2}, 2, "delay-3")...)
	cs = append(cs, specEdge(tb, "5|6 plain", plain, []int{5}, 5, "delay-3", []int{6}, 6, "delay-2")...)
	cs = append(cs, specEdge(tb, "7|8 plain", plain, []int{7}, 7, "delay-2", []int{8}, 8, "delay-1")...)
	cs = append(cs, specEdge(tb, "9|10 plain", plain, []int{9}, 9, "delay-1", []int{10}, 10, "immediate")...)
	// The same edges reached through modifiers.
	cs = append(cs, specEdge(tb, "1|2 russian-1792-1808 average", specP("nation", "russian-1792-1808", "quality", "average"),
		[]int{4}, 1, "delay-4", []int{5}, 2, "delay-3")...)
	cs = append(cs, specEdge(tb, "5|6 austrian-1807-1815 good", specP("nation", "austrian-1807-1815", "quality", "good"),
		[]int{5}, 5, "delay-3", []int{6}, 6, "delay-2")...)
	cs = append(cs, specEdge(tb, "7|8 british good", specP("nation", "british", "quality", "good"),
		[]int{6}, 7, "delay-2", []int{7}, 8, "delay-1")...)
	cs = append(cs, specEdge(tb, "9|10 french average", specP("nation", "french", "quality", "average"),
		[]int{6}, 9, "delay-1", []int{7}, 10, "immediate")...)
	cs = append(cs, specEdge(tb, "9|10 french excellent", specP("nation", "french", "quality", "excellent"),
		[]int{4}, 9, "delay-1", []int{5}, 10, "immediate")...)
	cs = append(cs, specEdge(tb, "1|2 russian-1792-1808 poor", specP("nation", "russian-1792-1808", "quality", "poor"),
		[]int{6}, 1, "delay-4", []int{7}, 2, "delay-3")...)
	// Open ends.
	cs = append(cs,
		specOne(tb, "open low russian-1792-1808 poor natural 1 total -4", specP("nation", "russian-1792-1808", "quality", "poor"), []int{1}, specInt(-4), "delay-4"),
		specOne(tb, "open high french excellent natural 10 total 15", specP("nation", "french", "quality", "excellent"), []int{10}, specInt(15), "immediate"),
		specOne(tb, "defaults (other, average) natural 6", nil, []int{6}, specInt(6), "delay-2"),
	)
	// NB-5 worked example: french average rolls 3, total 6, delay-2.
	cs = append(cs, specOne(tb, "NB-5 worked example french average natural 3 total 6", specP("nation", "french", "quality", "average"), []int{3}, specInt(6), "delay-2"))

	// Every nation modifier (quality average) on the 5|6 edge, and every
	// quality modifier (nation other) on the 7|8 edge: a modifier off by
	// one either way moves one of the two totals across the edge.
	nations := []struct {
		name string
		mod  int
	}{
		{"french", 3}, {"russian-1792-1808", -3}, {"russian-1809-1814", -2},
		{"prussian-1792-1806", -3}, {"prussian-1813-1815", 1}, {"austrian-1792-1806", -2},
		{"austrian-1807-1815", -1}, {"british", 0}, {"other", 0},
	}
	for _, n := range nations {
		p := specP("nation", n.name, "quality", "average")
		cs = append(cs, specEdge(tb, fmt.Sprintf("5|6 nation %s (%+d)", n.name, n.mod), p,
			[]int{5 - n.mod}, 5, "delay-3", []int{6 - n.mod}, 6, "delay-2")...)
	}
	qualities := []struct {
		name string
		mod  int
	}{{"excellent", 2}, {"good", 1}, {"average", 0}, {"poor", -2}}
	for _, q := range qualities {
		p := specP("nation", "other", "quality", q.name)
		cs = append(cs, specEdge(tb, fmt.Sprintf("7|8 quality %s (%+d)", q.name, q.mod), p,
			[]int{7 - q.mod}, 7, "delay-2", []int{8 - q.mod}, 8, "delay-1")...)
	}
	return cs
}

func specReserveCases() []specRoll {
	var cs []specRoll
	// NB-10 entry turn 1d6+4: faces 1..6 give turn-5..turn-10.
	for f := 1; f < 6; f++ {
		cs = append(cs, specEdge("nb/reserve-entry", fmt.Sprintf("turn-%d|turn-%d", f+4, f+5), nil,
			[]int{f}, f+4, fmt.Sprintf("turn-%d", f+4), []int{f + 1}, f+5, fmt.Sprintf("turn-%d", f+5))...)
	}
	// NB-10 arrival 1d10 + quality: <=2 late-2; 3..4 late-1; 5..8 on-time; >=9 early-1.
	const tb = "nb/reserve-arrival"
	avg := specP("quality", "average")
	cs = append(cs, specEdge(tb, "2|3 average", avg, []int{2}, 2, "late-2", []int{3}, 3, "late-1")...)
	cs = append(cs, specEdge(tb, "4|5 average", avg, []int{4}, 4, "late-1", []int{5}, 5, "on-time")...)
	cs = append(cs, specEdge(tb, "8|9 average", avg, []int{8}, 8, "on-time", []int{9}, 9, "early-1")...)
	cs = append(cs, specEdge(tb, "2|3 poor (-2)", specP("quality", "poor"), []int{4}, 2, "late-2", []int{5}, 3, "late-1")...)
	cs = append(cs, specOne(tb, "poor (-2) natural 10 total 8", specP("quality", "poor"), []int{10}, specInt(8), "on-time"))
	cs = append(cs, specEdge(tb, "4|5 good (+1)", specP("quality", "good"), []int{3}, 4, "late-1", []int{4}, 5, "on-time")...)
	cs = append(cs, specEdge(tb, "8|9 good (+1)", specP("quality", "good"), []int{7}, 8, "on-time", []int{8}, 9, "early-1")...)
	cs = append(cs, specOne(tb, "excellent (+2) natural 1 total 3", specP("quality", "excellent"), []int{1}, specInt(3), "late-1"))
	cs = append(cs, specEdge(tb, "4|5 excellent (+2)", specP("quality", "excellent"), []int{2}, 4, "late-1", []int{3}, 5, "on-time")...)
	cs = append(cs, specEdge(tb, "8|9 excellent (+2)", specP("quality", "excellent"), []int{6}, 8, "on-time", []int{7}, 9, "early-1")...)
	cs = append(cs,
		specOne(tb, "default quality (average) natural 5", nil, []int{5}, specInt(5), "on-time"),
		specOne(tb, "open low poor natural 1 total -1", specP("quality", "poor"), []int{1}, specInt(-1), "late-2"),
		specOne(tb, "open high excellent natural 10 total 12", specP("quality", "excellent"), []int{10}, specInt(12), "early-1"),
	)
	return cs
}

func specOrderDeliveryCases() []specRoll {
	const tb = "nes/order-delivery"
	var cs []specRoll
	// NES-1 bands: <=2 received; 3..6 delay-1; >=7 ignored.
	cs = append(cs, specEdge(tb, "2|3 plain", nil, []int{2}, 2, "received", []int{3}, 3, "delay-1")...)
	cs = append(cs, specEdge(tb, "6|7 plain", nil, []int{6}, 6, "delay-1", []int{7}, 7, "ignored")...)
	cs = append(cs,
		specOne(tb, "open low natural 0", nil, []int{0}, specInt(0), "received"),
		specOne(tb, "open high natural 9", nil, []int{9}, specInt(9), "ignored"),
	)
	// Each modifier on an edge.
	cs = append(cs, specEdge(tb, "2|3 bonus=1 (-1)", specP("bonus", "1"), []int{3}, 2, "received", []int{4}, 3, "delay-1")...)
	cs = append(cs, specEdge(tb, "6|7 bonus=2 (-2)", specP("bonus", "2"), []int{8}, 6, "delay-1", []int{9}, 7, "ignored")...)
	cs = append(cs, specEdge(tb, "2|3 french-brigade (-1)", specP("french-brigade", "true"), []int{3}, 2, "received", []int{4}, 3, "delay-1")...)
	cs = append(cs, specEdge(tb, "2|3 sender-marker (-1)", specP("sender-marker", "true"), []int{3}, 2, "received", []int{4}, 3, "delay-1")...)
	cs = append(cs, specEdge(tb, "2|3 adjacent (-2)", specP("adjacent", "true"), []int{4}, 2, "received", []int{5}, 3, "delay-1")...)
	cs = append(cs, specEdge(tb, "2|3 urgent (-2)", specP("urgent", "true"), []int{4}, 2, "received", []int{5}, 3, "delay-1")...)
	cs = append(cs, specEdge(tb, "6|7 from-hq (-2)", specP("from-hq", "true"), []int{8}, 6, "delay-1", []int{9}, 7, "ignored")...)
	cs = append(cs, specEdge(tb, "2|3 turns-at-delay-1=1 (-1)", specP("turns-at-delay-1", "1"), []int{3}, 2, "received", []int{4}, 3, "delay-1")...)
	cs = append(cs, specEdge(tb, "2|3 turns-at-delay-1=3 (-3)", specP("turns-at-delay-1", "3"), []int{5}, 2, "received", []int{6}, 3, "delay-1")...)
	all := specP("bonus", "1", "french-brigade", "true", "sender-marker", "true", "adjacent", "true",
		"urgent", "true", "from-hq", "true", "turns-at-delay-1", "1")
	cs = append(cs, specOne(tb, "every modifier (-10) natural 9 total -1", all, []int{9}, specInt(-1), "received"))
	// For brigade activations ignored reads as delay-1.
	br := specP("brigade", "true")
	cs = append(cs,
		specOne(tb, "brigade natural 2 total 2", br, []int{2}, specInt(2), "received"),
		specOne(tb, "brigade natural 3 total 3", br, []int{3}, specInt(3), "delay-1"),
		specOne(tb, "brigade natural 6 total 6", br, []int{6}, specInt(6), "delay-1"),
		specOne(tb, "brigade ignored reads delay-1 natural 7 total 7", br, []int{7}, specInt(7), "delay-1"),
		specOne(tb, "brigade ignored reads delay-1 natural 9 total 9", br, []int{9}, specInt(9), "delay-1"),
		specOne(tb, "brigade=false natural 7 total 7", specP("brigade", "false"), []int{7}, specInt(7), "ignored"),
	)
	return cs
}

func specContinuationCases() []specRoll {
	const tb = "nes/command-continuation"
	var cs []specRoll
	with := func(rating string, kv ...string) map[string]string {
		return specP(append([]string{"rating", rating}, kv...)...)
	}
	// NES-3: total > rating is standing, else mobilized.
	cs = append(cs, specEdge(tb, "rating 5 plain", with("5"), []int{5}, 5, "mobilized", []int{6}, 6, "standing")...)
	cs = append(cs, specEdge(tb, "rating 0 plain", with("0"), []int{0}, 0, "mobilized", []int{1}, 1, "standing")...)
	cs = append(cs, specEdge(tb, "rating 8 plain", with("8"), []int{8}, 8, "mobilized", []int{9}, 9, "standing")...)
	cs = append(cs, specOne(tb, "rating 9 natural 9", with("9"), []int{9}, specInt(9), "mobilized"))
	// Each modifier on the edge rating | rating+1 (mobilized | standing).
	mods := []struct {
		what string
		kv   []string
		mod  int
	}{
		{"bonus=2 (-2)", []string{"bonus", "2"}, -2},
		{"bonus=1 (-1)", []string{"bonus", "1"}, -1},
		{"divisions-out=1 (+1)", []string{"divisions-out", "1"}, 1},
		{"divisions-out=2 (+2)", []string{"divisions-out", "2"}, 2},
		{"brigades-out=1 (+1)", []string{"brigades-out", "1"}, 1},
		{"brigades-out=3 (+3)", []string{"brigades-out", "3"}, 3},
		{"brigades-out=1 brigades-far=1 (+3)", []string{"brigades-out", "1", "brigades-far", "1"}, 3},
		{"brigades-out=2 brigades-far=1 (+4)", []string{"brigades-out", "2", "brigades-far", "1"}, 4},
		{"brigades-out=2 brigades-far=2 (+6)", []string{"brigades-out", "2", "brigades-far", "2"}, 6},
		{"evening (+2)", []string{"evening", "true"}, 2},
		{"corps-cp-or-mobilized (-2)", []string{"corps-cp-or-mobilized", "true"}, -2},
		{"in-corps-radius (-1)", []string{"in-corps-radius", "true"}, -1},
		{"corps-cp-or-mobilized and in-corps-radius (-2 only)", []string{"corps-cp-or-mobilized", "true", "in-corps-radius", "true"}, -2},
		{"french-light-cavalry (-2)", []string{"french-light-cavalry", "true"}, -2},
		{"attack-order (-2)", []string{"attack-order", "true"}, -2},
	}
	for _, m := range mods {
		r := max(5, m.mod) // keeps the naturals r-mod and r+1-mod within 0..9
		p := with(fmt.Sprint(r), m.kv...)
		cs = append(cs, specEdge(tb, fmt.Sprintf("rating %d %s", r, m.what), p,
			[]int{r - m.mod}, r, "mobilized", []int{r + 1 - m.mod}, r+1, "standing")...)
	}
	// Evening lets a rating-9 unit drop to standing.
	cs = append(cs, specEdge(tb, "rating 9 evening (+2)", with("9", "evening", "true"), []int{7}, 9, "mobilized", []int{8}, 10, "standing")...)
	// Every reduction together: -1 bonus -2 corps -2 french light cavalry -2 attack = -7.
	all := with("2", "bonus", "1", "corps-cp-or-mobilized", "true", "in-corps-radius", "true",
		"french-light-cavalry", "true", "attack-order", "true")
	cs = append(cs, specOne(tb, "rating 2 every reduction (-7) natural 9 total 2", all, []int{9}, specInt(2), "mobilized"))
	cs = append(cs, specEdge(tb, "rating 1 every reduction (-7)", with("1", "bonus", "1", "corps-cp-or-mobilized", "true", "in-corps-radius", "true",
		"french-light-cavalry", "true", "attack-order", "true"), []int{8}, 1, "mobilized", []int{9}, 2, "standing")...)
	return cs
}

func specUnitLossCases() []specRoll {
	const tb = "nes/command-unit-loss"
	var cs []specRoll
	sit := func(s string) map[string]string { return specP("situation", s) }
	// NES-4: maximum 9; medium or minimum 8..9; shock 7..9.
	cs = append(cs, specEdge(tb, "8|9 fire-maximum", sit("fire-maximum"), []int{8}, 8, "no-effect", []int{9}, 9, "loss")...)
	cs = append(cs, specEdge(tb, "7|8 fire-medium", sit("fire-medium"), []int{7}, 7, "no-effect", []int{8}, 8, "loss")...)
	cs = append(cs, specEdge(tb, "7|8 fire-minimum", sit("fire-minimum"), []int{7}, 7, "no-effect", []int{8}, 8, "loss")...)
	cs = append(cs, specEdge(tb, "6|7 shock", sit("shock"), []int{6}, 6, "no-effect", []int{7}, 7, "loss")...)
	for _, s := range []string{"fire-maximum", "fire-medium", "fire-minimum", "shock"} {
		cs = append(cs, specOne(tb, s+" natural 0", sit(s), []int{0}, specInt(0), "no-effect"))
	}
	for _, s := range []string{"fire-medium", "fire-minimum", "shock"} {
		cs = append(cs, specOne(tb, s+" natural 9", sit(s), []int{9}, specInt(9), "loss"))
	}
	return cs
}

func specDeviationCases() []specRoll {
	const tb = "nes/artillery-deviation"
	var cs []specRoll
	// NES-5, every face of both rows.
	rows := map[string][]string{
		"russian": {"short-1", "short-1", "on-target", "on-target", "on-target", "on-target", "over-1", "over-1", "over-2", "over-3"},
		"french":  {"short-1", "on-target", "on-target", "on-target", "on-target", "on-target", "on-target", "over-1", "over-1", "over-2"},
	}
	for _, nation := range []string{"russian", "french"} {
		r := rows[nation]
		for f := 0; f <= 9; f++ {
			edge := ""
			if f < 9 && r[f] != r[f+1] {
				edge = fmt.Sprintf(" (edge %d|%d low)", f, f+1)
			} else if f > 0 && r[f] != r[f-1] {
				edge = fmt.Sprintf(" (edge %d|%d high)", f-1, f)
			}
			cs = append(cs, specOne(tb, fmt.Sprintf("%s natural %d%s", nation, f, edge), specP("nation", nation), []int{f}, specInt(f), r[f]))
		}
	}
	return cs
}

func specCommandCases() []specRoll {
	const tb = "bp/command"
	var cs []specRoll
	// BP-1, total against target = rating + modifier: natural 12 blunder;
	// > target fail; target or target-1 moves-1; target-2 moves-2; <= target-3 moves-3.
	type tgt struct {
		what   string
		params map[string]string
		target int
	}
	for _, g := range []tgt{
		{"rating 8 (default)", nil, 8},
		{"rating 8", specP("rating", "8"), 8},
		{"rating 6", specP("rating", "6"), 6},
		{"rating 9", specP("rating", "9"), 9},
		{"rating 8 modifier +2", specP("rating", "8", "modifier", "2"), 10},
		{"rating 8 modifier -1", specP("rating", "8", "modifier", "-1"), 7},
		{"rating 7 modifier -2", specP("rating", "7", "modifier", "-2"), 5},
	} {
		c := func(n int, want, edge string) specRoll {
			return specRoll{name: fmt.Sprintf("%s %s %s natural %d: %s", tb, g.what, edge, n, want),
				table: tb, params: g.params, faces: specTwoD6(n), want: want}
		}
		T := g.target
		for _, x := range []struct {
			n          int
			want, edge string
		}{
			{T - 3, "moves-3", "edge moves-3|moves-2 low"},
			{T - 2, "moves-2", "edge moves-3|moves-2 high"},
			{T - 1, "moves-1", "edge moves-2|moves-1 high"},
			{T, "moves-1", "edge moves-1|fail low"},
			{T + 1, "fail", "edge moves-1|fail high"},
		} {
			if x.n >= 2 && x.n <= 11 {
				cs = append(cs, c(x.n, x.want, x.edge))
			}
		}
		if T+1 <= 11 {
			cs = append(cs, c(11, "fail", "edge fail|blunder low"))
		}
		cs = append(cs, c(12, "blunder", "edge fail|blunder high"))
		if T-3 >= 2 {
			cs = append(cs, c(2, "moves-3", "open low"))
		}
	}
	// A natural 12 is a blunder even when the modifier makes it a move.
	for _, p := range []map[string]string{
		specP("rating", "8", "modifier", "10"),
		specP("rating", "12"),
		specP("rating", "8", "modifier", "4"),
		specP("rating", "20"),
	} {
		cs = append(cs, specRoll{name: fmt.Sprintf("%s natural 12 blunder despite %s", tb, specParams(p)),
			table: tb, params: p, faces: []int{6, 6}, want: "blunder"})
	}
	return cs
}

func specActivationCases() []specRoll {
	const tb = "cd/activation"
	var cs []specRoll
	// CD-1 rows as bands on the total:
	// superior  <=2 none, 3 x0.75, 4..9 x1, >=10 x1.5
	// excellent <=3 none, 4 x0.75, 5..10 x1, >=11 x1.5
	// good      <=4 none, 5..6 x0.75, 7..11 x1, >=12 x1.5
	// average   <=5 none, 6 x0.5, 7 x0.75, >=8 x1
	// poor      <=6 none, 7 x0.5, 8..9 x0.75, >=10 x1
	row := map[string]func(int) string{
		"superior": func(t int) string {
			switch {
			case t <= 2:
				return "none"
			case t == 3:
				return "x0.75"
			case t <= 9:
				return "x1"
			}
			return "x1.5"
		},
		"excellent": func(t int) string {
			switch {
			case t <= 3:
				return "none"
			case t == 4:
				return "x0.75"
			case t <= 10:
				return "x1"
			}
			return "x1.5"
		},
		"good": func(t int) string {
			switch {
			case t <= 4:
				return "none"
			case t <= 6:
				return "x0.75"
			case t <= 11:
				return "x1"
			}
			return "x1.5"
		},
		"average": func(t int) string {
			switch {
			case t <= 5:
				return "none"
			case t == 6:
				return "x0.5"
			case t == 7:
				return "x0.75"
			}
			return "x1"
		},
		"poor": func(t int) string {
			switch {
			case t <= 6:
				return "none"
			case t == 7:
				return "x0.5"
			case t <= 9:
				return "x0.75"
			}
			return "x1"
		},
	}
	// Every change of result in every row, with plain naturals 3..12
	// (a natural 2 is always none, so the <=2|3 edge of superior is reached
	// with a natural 3 and in-smoke -1), and the open top with a 13.
	for _, r := range []string{"superior", "excellent", "good", "average", "poor"} {
		f := row[r]
		for lo := 2; lo <= 12; lo++ {
			if f(lo) == f(lo+1) {
				continue
			}
			edge := fmt.Sprintf("%s %d|%d", r, lo, lo+1)
			loP, loFaces := specP("rating", r), specTwoD6(lo)
			if lo == 2 {
				loP, loFaces = specP("rating", r, "in-smoke", "true"), specTwoD6(3)
			}
			hiP, hiFaces := specP("rating", r), specTwoD6(lo+1)
			if lo+1 == 13 {
				hiP, hiFaces = specP("rating", r, "moved-last-turn", "true"), specTwoD6(12)
			}
			cs = append(cs,
				specRoll{name: fmt.Sprintf("%s edge %s low: total %d is %s", tb, edge, lo, f(lo)),
					table: tb, params: loP, faces: loFaces, want: f(lo), total: specInt(lo)},
				specRoll{name: fmt.Sprintf("%s edge %s high: total %d is %s", tb, edge, lo+1, f(lo+1)),
					table: tb, params: hiP, faces: hiFaces, want: f(lo + 1), total: specInt(lo + 1)},
			)
		}
		cs = append(cs,
			specOne(tb, r+" natural 12 total 12", specP("rating", r), specTwoD6(12), specInt(12), f(12)),
			specOne(tb, r+" open top natural 12 moved-last-turn cw=16 total 14", specP("rating", r, "moved-last-turn", "true", "cw", "16"), specTwoD6(12), specInt(14), f(14)),
			// natural 2 is none even with +2 (which would make it 4).
			specOne(tb, r+" natural 2 none despite cw=17 and moved-last-turn (+2)", specP("rating", r, "cw", "17", "moved-last-turn", "true"), []int{1, 1}, specInt(4), "none"),
		)
	}
	// Every CD-1 modifier, on the average 7|8 edge (x0.75 | x1): natural
	// 7-mod gives total 7 and natural 8-mod total 8.
	mods := []struct {
		what string
		kv   []string
		mod  int
	}{
		{"cw=15 (+1)", []string{"cw", "15"}, 1},
		{"cw=17 (+1)", []string{"cw", "17"}, 1},
		{"cw=19 (+1)", []string{"cw", "19"}, 1},
		{"cw=20 (0)", []string{"cw", "20"}, 0},
		{"cw=14 (0)", []string{"cw", "14"}, 0},
		{"cw=8 (0)", []string{"cw", "8"}, 0},
		{"cw=7 (-1)", []string{"cw", "7"}, -1},
		{"cw=3 (-1)", []string{"cw", "3"}, -1},
		{"cw=0 (-1)", []string{"cw", "0"}, -1},
		{"shaken (-1)", []string{"shaken", "true"}, -1},
		{"disordered (-2)", []string{"disordered", "true"}, -2},
		{"vacating-cover (-2)", []string{"vacating-cover", "true"}, -2},
		{"in-smoke (-1)", []string{"in-smoke", "true"}, -1},
		{"moved-last-turn (+1)", []string{"moved-last-turn", "true"}, 1},
		{"style=ad-hoc roll=1 (0)", []string{"style", "ad-hoc", "roll", "1"}, 0},
		{"style=ad-hoc roll=2 (-1)", []string{"style", "ad-hoc", "roll", "2"}, -1},
		{"style=ad-hoc roll=3 (-2)", []string{"style", "ad-hoc", "roll", "3"}, -2},
		{"style=established roll=2 (0)", []string{"style", "established", "roll", "2"}, 0},
		{"style=established roll=3 (-1)", []string{"style", "established", "roll", "3"}, -1},
		{"style=established roll=4 (-2)", []string{"style", "established", "roll", "4"}, -2},
		{"style=french-model roll=2 (0)", []string{"style", "french-model", "roll", "2"}, 0},
		{"style=french-model roll=4 (-1)", []string{"style", "french-model", "roll", "4"}, -1},
		{"style=french-model roll=5 (-2)", []string{"style", "french-model", "roll", "5"}, -2},
		{"style=glory-years roll=2 (0)", []string{"style", "glory-years", "roll", "2"}, 0},
		{"style=glory-years roll=3 (-1)", []string{"style", "glory-years", "roll", "3"}, -1},
		{"style=glory-years roll=5 (-1)", []string{"style", "glory-years", "roll", "5"}, -1},
		{"style=glory-years roll=6 (-2)", []string{"style", "glory-years", "roll", "6"}, -2},
		{"style=ad-hoc roll default 1 (0)", []string{"style", "ad-hoc"}, 0},
		{"roll=5 without style (0)", []string{"roll", "5"}, 0},
		{"shaken disordered in-smoke (-4)", []string{"shaken", "true", "disordered", "true", "in-smoke", "true"}, -4},
		{"cw=15 moved-last-turn style=established roll=4 (0)", []string{"cw", "15", "moved-last-turn", "true", "style", "established", "roll", "4"}, 0},
	}
	for _, m := range mods {
		p := specP(append([]string{"rating", "average"}, m.kv...)...)
		cs = append(cs, specEdge(tb, "average 7|8 "+m.what, p,
			specTwoD6(7-m.mod), 7, "x0.75", specTwoD6(8-m.mod), 8, "x1")...)
	}
	// Poor, every modifier stacked down: -1 cw -1 shaken -2 disordered
	// -2 vacating -1 smoke -3 ad-hoc roll 4 = -10.
	all := specP("rating", "superior", "cw", "5", "shaken", "true", "disordered", "true",
		"vacating-cover", "true", "in-smoke", "true", "style", "ad-hoc", "roll", "4")
	cs = append(cs,
		specOne(tb, "superior every reduction (-10) natural 12 total 2", all, specTwoD6(12), specInt(2), "none"),
	)
	return cs
}

func specDisruptiveCases() []specRoll {
	const tb = "cd/disruptive-terrain"
	var cs []specRoll
	// CD-6 as bands on the total:
	// d1 <=2 disordered, 3 shaken, >=4 ok
	// d2 <=2 disordered+1, 3 disordered, 4 shaken, >=5 ok
	// d3 <=2 disordered+2, 3 disordered+1, 4 disordered, 5 shaken, >=6 ok
	rows := map[string][]string{ // index = total 2..6
		"d1": {"disordered", "shaken", "ok", "ok", "ok"},
		"d2": {"disordered+1", "disordered", "shaken", "ok", "ok"},
		"d3": {"disordered+2", "disordered+1", "disordered", "shaken", "ok"},
	}
	for _, r := range []string{"d1", "d2", "d3"} {
		res := rows[r]
		for lo := 2; lo < 6; lo++ {
			a, b := res[lo-2], res[lo-1]
			if a == b {
				continue
			}
			edge := fmt.Sprintf("%s %d|%d", r, lo, lo+1)
			cs = append(cs, specEdge(tb, edge, specP("rating", r), specTwoD6(lo), lo, a, specTwoD6(lo+1), lo+1, b)...)
			// The same edge reached through the modifier.
			cs = append(cs, specEdge(tb, edge+" modifier -3", specP("rating", r, "modifier", "-3"),
				specTwoD6(lo+3), lo, a, specTwoD6(lo+4), lo+1, b)...)
		}
		cs = append(cs,
			specOne(tb, r+" open low natural 2 modifier -2 total 0", specP("rating", r, "modifier", "-2"), specTwoD6(2), specInt(0), res[0]),
			specOne(tb, r+" open high natural 12 modifier +2 total 14", specP("rating", r, "modifier", "2"), specTwoD6(12), specInt(14), "ok"),
			specOne(tb, r+" natural 12 total 12", specP("rating", r), specTwoD6(12), specInt(12), "ok"),
		)
	}
	cs = append(cs, specEdge(tb, "d3 5|6 modifier +2", specP("rating", "d3", "modifier", "2"),
		specTwoD6(3), 5, "shaken", specTwoD6(4), 6, "ok")...)
	return cs
}

func TestSpecBandEdges(t *testing.T) {
	set := specLoad(t)
	var cases []specRoll
	cases = append(cases, specOrderDelayCases()...)
	cases = append(cases, specReserveCases()...)
	cases = append(cases, specOrderDeliveryCases()...)
	cases = append(cases, specContinuationCases()...)
	cases = append(cases, specUnitLossCases()...)
	cases = append(cases, specDeviationCases()...)
	cases = append(cases, specCommandCases()...)
	cases = append(cases, specActivationCases()...)
	cases = append(cases, specDisruptiveCases()...)
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Errorf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			tb, err := set.Table(c.table)
			if err != nil {
				t.Fatal(err)
			}
			args, err := tb.Bind(c.params)
			if err != nil {
				t.Fatalf("bind %s: %v", specParams(c.params), err)
			}
			roll, err := tb.Resolve(args, dice.NewScripted(c.faces...))
			if err != nil {
				t.Fatalf("resolve %s faces %v: %v", specParams(c.params), c.faces, err)
			}
			if c.total != nil && roll.Total != *c.total {
				t.Errorf("%s %s faces %v: total %d (natural %d, modifier %d), SPEC gives %d",
					c.table, specParams(c.params), c.faces, roll.Total, roll.Natural, roll.Modifier, *c.total)
			}
			if roll.Result != c.want {
				t.Errorf("%s %s faces %v: result %q (natural %d, total %d; %s), SPEC gives %q",
					c.table, specParams(c.params), c.faces, roll.Result, roll.Natural, roll.Total, roll.Reason, c.want)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Exact odds.

func TestSpecOdds(t *testing.T) {
	set := specLoad(t)
	shoot := "bp/shooting"
	cases := []specOdds{
		// BP-1 check: rating 8 gives naturals 2..5 moves-3 (10/36), 6 moves-2
		// (5/36), 7..8 moves-1 (11/36), 9..11 fail (9/36), 12 blunder (1/36).
		{"bp/command rating 8", "bp/command", specP("rating", "8"), map[string]*big.Rat{
			"moves-1": specRat(11, 36), "moves-2": specRat(5, 36), "moves-3": specRat(10, 36),
			"fail": specRat(9, 36), "blunder": specRat(1, 36)}},
		{"bp/command defaults (rating 8)", "bp/command", nil, map[string]*big.Rat{
			"moves-1": specRat(11, 36), "moves-2": specRat(5, 36), "moves-3": specRat(10, 36),
			"fail": specRat(9, 36), "blunder": specRat(1, 36)}},
		// Target 10: <=7 moves-3 (21/36), 8 moves-2 (5/36), 9..10 moves-1
		// (7/36), 11 fail (2/36), 12 blunder.
		{"bp/command rating 8 modifier +2", "bp/command", specP("rating", "8", "modifier", "2"), map[string]*big.Rat{
			"moves-1": specRat(7, 36), "moves-2": specRat(5, 36), "moves-3": specRat(21, 36),
			"fail": specRat(2, 36), "blunder": specRat(1, 36)}},

		// BP-5 shooting by hand.
		{"bp/shooting dice=1 save=4", shoot, specP("dice", "1", "save", "4"), map[string]*big.Rat{
			"casualties-0": specRat(3, 4), "casualties-1": specRat(1, 4)}},
		{"bp/shooting dice=1 default save (4)", shoot, specP("dice", "1"), map[string]*big.Rat{
			"casualties-0": specRat(3, 4), "casualties-1": specRat(1, 4)}},
		{"bp/shooting dice=1 save=7", shoot, specP("dice", "1", "save", "7"), map[string]*big.Rat{
			"casualties-0": specRat(1, 2), "casualties-1": specRat(1, 2)}},
		{"bp/shooting dice=1 save=2", shoot, specP("dice", "1", "save", "2"), map[string]*big.Rat{
			"casualties-0": specRat(11, 12), "casualties-1": specRat(1, 12)}},
		{"bp/shooting dice=1 modifier=+5 save=7 natural 1 still misses", shoot, specP("dice", "1", "modifier", "5", "save", "7"), map[string]*big.Rat{
			"casualties-0": specRat(1, 6), "casualties-1": specRat(5, 6)}},
		{"bp/shooting dice=1 modifier=+1 save=7", shoot, specP("dice", "1", "modifier", "1", "save", "7"), map[string]*big.Rat{
			"casualties-0": specRat(1, 3), "casualties-1": specRat(2, 3)}},
		{"bp/shooting dice=1 modifier=-5 save=7 natural 6 still hits", shoot, specP("dice", "1", "modifier", "-5", "save", "7"), map[string]*big.Rat{
			"casualties-0": specRat(5, 6), "casualties-1": specRat(1, 6)}},
		{"bp/shooting dice=1 modifier=-1 save=7", shoot, specP("dice", "1", "modifier", "-1", "save", "7"), map[string]*big.Rat{
			"casualties-0": specRat(2, 3), "casualties-1": specRat(1, 3)}},
		{"bp/shooting enfilade dice=1 save=7", shoot, specP("dice", "1", "save", "7", "enfilade", "true"), map[string]*big.Rat{
			"casualties-0": specRat(1, 4), "casualties-1": specRat(3, 4)}},
		{"bp/shooting enfilade dice=1 save=4", shoot, specP("dice", "1", "save", "4", "enfilade", "true"), map[string]*big.Rat{
			"casualties-0": specRat(5, 8), "casualties-1": specRat(3, 8)}},
		{"bp/shooting dice=2 save=7", shoot, specP("dice", "2", "save", "7"), map[string]*big.Rat{
			"casualties-0": specRat(1, 4), "casualties-1": specRat(1, 2), "casualties-2": specRat(1, 4)}},
		{"bp/shooting dice=2 save=4", shoot, specP("dice", "2", "save", "4"), map[string]*big.Rat{
			"casualties-0": specRat(9, 16), "casualties-1": specRat(6, 16), "casualties-2": specRat(1, 16)}},
		{"bp/shooting dice=0", shoot, specP("dice", "0"), map[string]*big.Rat{
			"casualties-0": specRat(1, 1)}},

		// NB-10 entry: 1d6+4, each turn 1/6.
		{"nb/reserve-entry", "nb/reserve-entry", nil, map[string]*big.Rat{
			"turn-5": specRat(1, 6), "turn-6": specRat(1, 6), "turn-7": specRat(1, 6),
			"turn-8": specRat(1, 6), "turn-9": specRat(1, 6), "turn-10": specRat(1, 6)}},
		// NB-5 french average: totals 4..13.
		{"nb/order-delay french average", "nb/order-delay", specP("nation", "french", "quality", "average"), map[string]*big.Rat{
			"delay-4": specRat(0, 1), "delay-3": specRat(2, 10), "delay-2": specRat(2, 10),
			"delay-1": specRat(2, 10), "immediate": specRat(4, 10)}},
		// NES-4.
		{"nes/command-unit-loss fire-maximum", "nes/command-unit-loss", specP("situation", "fire-maximum"), map[string]*big.Rat{
			"loss": specRat(1, 10), "no-effect": specRat(9, 10)}},
		{"nes/command-unit-loss fire-medium", "nes/command-unit-loss", specP("situation", "fire-medium"), map[string]*big.Rat{
			"loss": specRat(2, 10), "no-effect": specRat(8, 10)}},
		{"nes/command-unit-loss fire-minimum", "nes/command-unit-loss", specP("situation", "fire-minimum"), map[string]*big.Rat{
			"loss": specRat(2, 10), "no-effect": specRat(8, 10)}},
		{"nes/command-unit-loss shock", "nes/command-unit-loss", specP("situation", "shock"), map[string]*big.Rat{
			"loss": specRat(3, 10), "no-effect": specRat(7, 10)}},
		{"nes/command-unit-loss fire-extended never loss", "nes/command-unit-loss", specP("situation", "fire-extended"), map[string]*big.Rat{
			"loss": specRat(0, 1)}},
		// NES-1 brigade: ignored (7..9) reads delay-1, so never ignored.
		{"nes/order-delivery brigade", "nes/order-delivery", specP("brigade", "true"), map[string]*big.Rat{
			"received": specRat(3, 10), "delay-1": specRat(7, 10), "ignored": specRat(0, 1)}},
		{"nes/order-delivery plain", "nes/order-delivery", nil, map[string]*big.Rat{
			"received": specRat(3, 10), "delay-1": specRat(4, 10), "ignored": specRat(3, 10)}},
		// CD-1 average: 8..12 x1 = 15/36; 7 x0.75 = 6/36; 6 x0.5 = 5/36; <=5 none = 10/36.
		{"cd/activation average", "cd/activation", specP("rating", "average"), map[string]*big.Rat{
			"x1.5": specRat(0, 1), "x1": specRat(15, 36), "x0.75": specRat(6, 36), "x0.5": specRat(5, 36), "none": specRat(10, 36)}},
		// superior with +2: natural 2 none (1/36); totals 4 (nat 2) none; nat 3..7 -> 5..9 x1 (2+3+4+5+6=20/36); nat 8..12 -> >=10 x1.5 (15/36).
		{"cd/activation superior cw=15 moved-last-turn", "cd/activation", specP("rating", "superior", "cw", "15", "moved-last-turn", "true"), map[string]*big.Rat{
			"none": specRat(1, 36), "x0.75": specRat(0, 1), "x1": specRat(20, 36), "x1.5": specRat(15, 36)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tb, err := set.Table(c.table)
			if err != nil {
				t.Fatal(err)
			}
			args, err := tb.Bind(c.params)
			if err != nil {
				t.Fatalf("bind %s: %v", specParams(c.params), err)
			}
			odds, err := tb.Odds(args)
			if err != nil {
				t.Fatalf("odds %s: %v", specParams(c.params), err)
			}
			sum := new(big.Rat)
			for res, want := range c.want {
				sum.Add(sum, want)
				if got := odds.P(res); got.Cmp(want) != 0 {
					t.Errorf("%s %s: P(%s) = %s, SPEC gives %s", c.table, specParams(c.params), res, got.RatString(), want.RatString())
				}
			}
			// A full distribution: no result beyond those SPEC names.
			if sum.Cmp(big.NewRat(1, 1)) == 0 {
				for _, o := range odds.Outcomes {
					if _, ok := c.want[o.Result]; !ok {
						t.Errorf("%s %s: unexpected result %q with P = %s", c.table, specParams(c.params), o.Result, odds.Rat(o).RatString())
					}
				}
			}
		})
	}
}

// BP-5 by scripted dice: the 4+ hit edge, natural 1 and 6, the save edge and
// the enfilade re-roll. Faces: first each die's hit roll (and its re-roll
// when enfiladed and missed), then the save roll of each hit; with save=7
// a hit is given a spare save face of 6, which must not save it (the
// implementation may or may not roll it).
func TestSpecShootingRolls(t *testing.T) {
	set := specLoad(t)
	tb, err := set.Table("bp/shooting")
	if err != nil {
		t.Fatal(err)
	}
	cases := []specRoll{
		{name: "bp/shooting hit edge 3|4 low: natural 3 misses", params: specP("dice", "1", "save", "7"), faces: []int{3}, want: "casualties-0"},
		{name: "bp/shooting hit edge 3|4 high: natural 4 hits", params: specP("dice", "1", "save", "7"), faces: []int{4, 6}, want: "casualties-1"},
		{name: "bp/shooting hit edge modifier +1: natural 3 hits", params: specP("dice", "1", "save", "7", "modifier", "1"), faces: []int{3, 6}, want: "casualties-1"},
		{name: "bp/shooting hit edge modifier +1: natural 2 misses", params: specP("dice", "1", "save", "7", "modifier", "1"), faces: []int{2}, want: "casualties-0"},
		{name: "bp/shooting hit edge modifier -1: natural 4 misses", params: specP("dice", "1", "save", "7", "modifier", "-1"), faces: []int{4}, want: "casualties-0"},
		{name: "bp/shooting hit edge modifier -1: natural 5 hits", params: specP("dice", "1", "save", "7", "modifier", "-1"), faces: []int{5, 6}, want: "casualties-1"},
		{name: "bp/shooting natural 1 misses at modifier +5", params: specP("dice", "1", "save", "7", "modifier", "5"), faces: []int{1}, want: "casualties-0"},
		{name: "bp/shooting natural 6 hits at modifier -5", params: specP("dice", "1", "save", "7", "modifier", "-5"), faces: []int{6, 6}, want: "casualties-1"},
		{name: "bp/shooting natural 5 misses at modifier -5", params: specP("dice", "1", "save", "7", "modifier", "-5"), faces: []int{5}, want: "casualties-0"},
		{name: "bp/shooting save edge save=4: 3 fails", params: specP("dice", "1", "save", "4"), faces: []int{5, 3}, want: "casualties-1"},
		{name: "bp/shooting save edge save=4: 4 saves", params: specP("dice", "1", "save", "4"), faces: []int{5, 4}, want: "casualties-0"},
		{name: "bp/shooting save edge save=6: 5 fails", params: specP("dice", "1", "save", "6"), faces: []int{5, 5}, want: "casualties-1"},
		{name: "bp/shooting save edge save=6: 6 saves", params: specP("dice", "1", "save", "6"), faces: []int{5, 6}, want: "casualties-0"},
		{name: "bp/shooting enfilade re-rolled miss hits", params: specP("dice", "1", "save", "7", "enfilade", "true"), faces: []int{2, 4, 6}, want: "casualties-1"},
		{name: "bp/shooting enfilade re-rolled miss misses again", params: specP("dice", "1", "save", "7", "enfilade", "true"), faces: []int{3, 3}, want: "casualties-0"},
		{name: "bp/shooting two dice both hit, one saved", params: specP("dice", "2", "save", "4"), faces: []int{6, 4, 4, 3}, want: "casualties-1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args, err := tb.Bind(c.params)
			if err != nil {
				t.Fatalf("bind %s: %v", specParams(c.params), err)
			}
			roll, err := tb.Resolve(args, dice.NewScripted(c.faces...))
			if err != nil {
				t.Fatalf("resolve %s faces %v: %v", specParams(c.params), c.faces, err)
			}
			if roll.Result != c.want {
				t.Errorf("bp/shooting %s faces %v: %q (%s), SPEC gives %q", specParams(c.params), c.faces, roll.Result, roll.Reason, c.want)
			}
		})
	}
}

// NES-4: at extended range there is no check, so whatever the die would
// show the result is never a loss.
func TestSpecUnitLossExtended(t *testing.T) {
	set := specLoad(t)
	tb, err := set.Table("nes/command-unit-loss")
	if err != nil {
		t.Fatal(err)
	}
	args, err := tb.Bind(specP("situation", "fire-extended"))
	if err != nil {
		t.Fatal(err)
	}
	for f := 0; f <= 9; f++ {
		t.Run(fmt.Sprintf("nes/command-unit-loss fire-extended face %d never loss", f), func(t *testing.T) {
			roll, err := tb.Resolve(args, dice.NewScripted(f))
			if err != nil {
				t.Fatal(err)
			}
			if roll.Result == "loss" {
				t.Errorf("fire-extended with face %d gave loss; SPEC NES-4: no check at extended range", f)
			}
		})
	}
}

// ---------------------------------------------------------------------------
// Lookup tables.

func specNum(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad number " + s)
	}
	return r
}

func specLookupCases() []specCell {
	var cs []specCell
	num := func(lookup, what string, params map[string]string, n string) specCell {
		return specCell{name: fmt.Sprintf("%s %s = %s", lookup, what, n), lookup: lookup, params: params, num: specNum(n)}
	}
	text := func(lookup, what string, params map[string]string, s string) specCell {
		return specCell{name: fmt.Sprintf("%s %s = %s", lookup, what, s), lookup: lookup, params: params, text: s}
	}

	// NB-2: french 3, british 2, all others 1.
	for _, n := range []struct{ nation, v string }{
		{"french", "3"}, {"british", "2"}, {"russian-1792-1808", "1"}, {"russian-1809-1814", "1"},
		{"prussian-1792-1806", "1"}, {"prussian-1813-1815", "1"}, {"austrian-1792-1806", "1"},
		{"austrian-1807-1815", "1"}, {"other", "1"},
	} {
		cs = append(cs, num("nb/orders-per-turn", n.nation, specP("nation", n.nation), n.v))
	}

	// NES-6: heavy 1-4 +1/0, 5-8 +2/+1, 9+ +3/+2; light 1-4 0/0, 5-8 +1/0, 9+ +2/+1.
	morale := map[string]map[string][3]string{ // class -> zone -> [1-4, 5-8, 9+]
		"heavy": {"primary": {"1", "2", "3"}, "secondary": {"0", "1", "2"}},
		"light": {"primary": {"0", "1", "2"}, "secondary": {"0", "0", "1"}},
	}
	for _, class := range []string{"heavy", "light"} {
		for _, zone := range []string{"primary", "secondary"} {
			v := morale[class][zone]
			for _, s := range []struct {
				strength int
				band     int
				edge     string
			}{
				{1, 0, "low end"}, {4, 0, "edge 4|5 low"}, {5, 1, "edge 4|5 high"},
				{8, 1, "edge 8|9 low"}, {9, 2, "edge 8|9 high"}, {15, 2, "open high"},
			} {
				cs = append(cs, num("nes/cavalry-charge-morale",
					fmt.Sprintf("%s %s strength %d (%s)", class, zone, s.strength, s.edge),
					specP("class", class, "strength", fmt.Sprint(s.strength), "zone", zone), v[s.band]))
			}
		}
	}

	// CD-2 movement rates, infantry / light cavalry / heavy cavalry.
	formations := []string{"road", "column", "line", "general-order", "square", "charge"}
	rates := map[string][]string{
		"infantry":      {"18", "8", "4", "6", "1", "-"},
		"light-cavalry": {"30", "15", "11", "13", "-", "+8"},
		"heavy-cavalry": {"24", "12", "9", "10", "-", "+8"},
	}
	for _, ty := range []string{"infantry", "light-cavalry", "heavy-cavalry"} {
		for i, f := range formations {
			v := rates[ty][i]
			p := specP("type", ty, "formation", f)
			if v == "-" {
				cs = append(cs, text("cd/movement", ty+" "+f, p, "-"))
			} else {
				cs = append(cs, num("cd/movement", ty+" "+f, p, strings.TrimPrefix(v, "+")))
			}
		}
	}

	// CD-2 artillery: road, field, limber+move, move+unlimber+fire,
	// limber+move+unlimber+fire, prolonge.
	modes := []string{"road", "field", "limber-move", "move-unlimber-fire", "limber-move-unlimber-fire", "prolonge"}
	guns := []struct {
		gun   string
		cells []string
	}{
		{"12-heavy", []string{"12", "3", "1", "NA", "NA", "1/2"}},
		{"12", []string{"16", "5", "3", "NA", "NA", "1"}},
		{"8-9", []string{"16", "7", "5", "NA", "NA", "1"}},
		{"6", []string{"18", "8", "6", "2 (2 AP)", "NA", "3/2"}},
		{"3-4", []string{"20", "9", "7", "2 (2 AP)", "NA", "2"}},
		{"8-9-horse", []string{"29", "13", "11", "8 (2 AP)", "6 (1 AP)", "1"}},
		{"3-6-horse", []string{"30", "14", "12", "9 (2 AP)", "7 (1 AP)", "as foot"}},
	}
	for _, g := range guns {
		for i, m := range modes {
			v := g.cells[i]
			p := specP("gun", g.gun, "mode", m)
			what := g.gun + " " + m
			switch {
			case v == "NA" || v == "as foot":
				cs = append(cs, text("cd/artillery-movement", what, p, v))
			case strings.Contains(v, "("):
				n, note, _ := strings.Cut(v, " (")
				c := num("cd/artillery-movement", what, p, n)
				c.note = strings.TrimSuffix(note, ")")
				c.name = fmt.Sprintf("cd/artillery-movement %s = %s", what, v)
				cs = append(cs, c)
			default:
				cs = append(cs, num("cd/artillery-movement", what, p, v))
			}
		}
	}

	// CD-3 terrain factors, infantry-cavalry / artillery.
	terrain := []struct {
		terrain  string
		inf, art string
	}{
		{"light-woods", "3/4", "1/2"},
		{"heavy-woods", "1/4", "none"},
		{"linear-obstacle", "-1", "-3"},
		{"ford", "1/2", "1/4"},
		{"gradual-slope", "no effect", "no effect"},
		{"slope", "3/4", "1/2"},
		{"steep-slope", "1/2", "1/4"},
	}
	for _, tr := range terrain {
		for _, arm := range []struct{ arm, v string }{{"infantry-cavalry", tr.inf}, {"artillery", tr.art}} {
			p := specP("terrain", tr.terrain, "arm", arm.arm)
			what := tr.terrain + " " + arm.arm
			if arm.v == "none" || arm.v == "no effect" {
				cs = append(cs, text("cd/terrain", what, p, arm.v))
			} else {
				cs = append(cs, num("cd/terrain", what, p, arm.v))
			}
		}
	}

	// CD-5 penalty of roll k = 1..8, written out.
	styles := []struct {
		style string
		seq   [8]int
	}{
		{"ad-hoc", [8]int{0, -1, -2, -3, -4, -5, -6, -7}},      // 1 free, step 1
		{"established", [8]int{0, 0, -1, -2, -3, -4, -5, -6}},  // 2 free, step 1
		{"french-model", [8]int{0, 0, -1, -1, -2, -2, -3, -3}}, // 2 free, step 2
		{"glory-years", [8]int{0, 0, -1, -1, -1, -2, -2, -2}},  // 2 free, step 3
	}
	for _, s := range styles {
		for k := 1; k <= 8; k++ {
			cs = append(cs, num("cd/command-style", fmt.Sprintf("%s roll %d", s.style, k),
				specP("style", s.style, "roll", fmt.Sprint(k)), fmt.Sprint(s.seq[k-1])))
		}
	}
	return cs
}

func TestSpecLookups(t *testing.T) {
	set := specLoad(t)
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	for _, c := range specLookupCases() {
		t.Run(c.name, func(t *testing.T) {
			l, err := set.FindLookup(c.lookup)
			if err != nil {
				t.Fatal(err)
			}
			cell, err := l.Get(c.params)
			if err != nil {
				t.Fatalf("get %s: %v", specParams(c.params), err)
			}
			if c.num != nil {
				if cell.Num == nil {
					t.Fatalf("%s %s: cell %q is not a number, SPEC gives %s", c.lookup, specParams(c.params), cell.Text, c.num.RatString())
				}
				if cell.Num.Cmp(c.num) != 0 {
					t.Errorf("%s %s: cell %q = %s, SPEC gives %s", c.lookup, specParams(c.params), cell.Text, cell.Num.RatString(), c.num.RatString())
				}
				if c.note != "" && !strings.Contains(norm(cell.Note+" "+cell.Text), norm(c.note)) {
					t.Errorf("%s %s: cell %q has no note %q", c.lookup, specParams(c.params), cell.Text, c.note)
				}
				return
			}
			if norm(cell.Text) != norm(c.text) {
				t.Errorf("%s %s: cell %q, SPEC gives %q", c.lookup, specParams(c.params), cell.Text, c.text)
			}
		})
	}
}
