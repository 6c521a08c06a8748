package sight_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/geom"
	"orderly/geom/hex"
	"orderly/sight"
	"orderly/terrain"
)

// Known answers, worked out by hand from the rules (package sight's doc
// comments, SPEC NES-7 and the LOB clarifications' section 4.0) and the
// rule sets' sight.yaml files, not from the code.

// tableRules is what NB, BP and CD ship (rules/{nb,bp,cd}/sight.yaml):
// inches on a table.
func tableRules() *sight.Rules {
	return &sight.Rules{
		Example: true,
		Range:   map[string]float64{"light-cavalry": 30, "heavy-cavalry": 24, "general": 24, "messenger": 0},
		Default: 24,
		Cover:   map[string]float64{"light-woods": 8, "heavy-woods": 4, "town": 8},
		Into:    2,
		Crests:  []string{"slope", "steep-slope"},
	}
}

// nesRules is rules/nes/sight.yaml: NES-7's woods, farmette and town
// block; no seeing over them.
func nesRules() *sight.Rules {
	return &sight.Rules{
		Example: true,
		Range:   map[string]float64{"light-cavalry": 10, "general": 8, "hq": 8},
		Default: 8,
		Cover:   map[string]float64{"woods": 2, "town": 2, "farmette": 3, "light-cover": 4},
		Blocks:  []string{"farmette", "woods", "town"},
	}
}

// lobRules is rules/lob/sight.yaml: obstacles block within four hexes
// whatever the elevation (LOB 4.0); farther, higher ground sees over them.
func lobRules() *sight.Rules {
	return &sight.Rules{
		Example: true,
		Range:   map[string]float64{"cavalry": 12, "general": 10, "hq": 10},
		Default: 10,
		Cover:   map[string]float64{"woods": 3, "town": 3},
		Blocks:  []string{"woods", "town"},
		Over:    true,
		Near:    4,
	}
}

// ---------------------------------------------------------------- Parse

// TestParseShipped: the five rule sets' sight.yaml files parse to the
// values written in them.
func TestParseShipped(t *testing.T) {
	want := map[string]*sight.Rules{
		"nb": tableRules(), "bp": tableRules(), "cd": tableRules(),
		"nes": nesRules(), "lob": lobRules(),
	}
	for id, w := range want {
		t.Run(id, func(t *testing.T) {
			file := filepath.Join("..", "rules", id, "sight.yaml")
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r, err := sight.Parse(file, data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(r, w) {
				t.Errorf("Parse(%s)\n got %+v\nwant %+v", file, r, w)
			}
		})
	}
}

// TestParseSees: a kind named under range sees its own distance, any other
// kind the default (range: default 24, light-cavalry 30, messenger 0).
func TestParseSees(t *testing.T) {
	r, err := sight.Parse("x.yaml", []byte("range: {default: 24, light-cavalry: 30, messenger: 0}\n"))
	if err != nil {
		t.Fatal(err)
	}
	for kind, want := range map[string]float64{"light-cavalry": 30, "messenger": 0, "infantry": 24, "artillery": 24, "default": 24} {
		if got := r.Sees(kind); got != want {
			t.Errorf("Sees(%s) = %v, want %v", kind, got, want)
		}
	}
	if _, ok := r.Range["default"]; ok {
		t.Errorf("default is kept as a kind in Range: %v", r.Range)
	}
}

// TestParse: good files are read, including the bounds of a distance (0
// and 1000); bad ones are refused with one line naming the file, the line
// and the field.
func TestParse(t *testing.T) {
	good := []struct {
		name, src string
		want      *sight.Rules
	}{
		{"range only", "range: {default: 0}\n",
			&sight.Rules{Range: map[string]float64{}, Cover: map[string]float64{}}},
		{"the largest distance", "range: {default: 1000, scout: 1000}\ninto: 1000\nnear: 0\n",
			&sight.Rules{Range: map[string]float64{"scout": 1000}, Default: 1000, Cover: map[string]float64{}, Into: 1000}},
		{"fractions", "range: {default: 2.5}\ncover: {town: 0.5}\ninto: 1.25\nover: true\nnear: 4\nexample: false\n",
			&sight.Rules{Range: map[string]float64{}, Default: 2.5, Cover: map[string]float64{"town": 0.5}, Into: 1.25, Over: true, Near: 4}},
		{"words", "range: {default: 8}\nblocks: [woods, town]\ncrests: [slope]\n",
			&sight.Rules{Range: map[string]float64{}, Default: 8, Cover: map[string]float64{}, Blocks: []string{"woods", "town"}, Crests: []string{"slope"}}},
	}
	for _, c := range good {
		t.Run(c.name, func(t *testing.T) {
			r, err := sight.Parse("x.yaml", []byte(c.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(r, c.want) {
				t.Errorf("got %+v\nwant %+v", r, c.want)
			}
		})
	}

	const dist = "want a distance from 0 to 1000, got "
	bad := []struct {
		name, src, want string
	}{
		{"missing range", "example: true\ncover: {woods: 2}\n", "x.yaml:1: sight: range is missing"},
		{"missing default", "range:\n  infantry: 10\n", "x.yaml:2: sight.range: default is missing"},
		{"negative default", "range: {default: -1}\n", `x.yaml:1: sight.range.default: ` + dist + `"-1"`},
		{"negative range", "range:\n  default: 4\n  scout: -0.5\n", `x.yaml:3: sight.range.scout: ` + dist + `"-0.5"`},
		{"word for a range", "range: {default: far}\n", `sight.range.default: ` + dist + `"far"`},
		{"nan", "range: {default: NaN}\n", `sight.range.default: ` + dist + `"NaN"`},
		{"yaml nan", "range: {default: .nan}\n", `sight.range.default: ` + dist + `".nan"`},
		{"infinite", "range: {default: .inf}\n", `sight.range.default: ` + dist},
		{"beyond any table", "range: {default: 1000.5}\n", `sight.range.default: ` + dist + `"1000.5"`},
		{"overflow", "range: {default: 1e400}\n", `sight.range.default: ` + dist + `"1e400"`},
		{"list for a range", "range: {default: [24]}\n", "sight.range.default: want a text value"},
		{"null range", "range: {default: 24, scout: }\n", "sight.range.scout: want a text value"},
		{"negative cover", "range: {default: 5}\ncover: {woods: -2}\n", `x.yaml:2: sight.cover.woods: ` + dist + `"-2"`},
		{"negative into", "range: {default: 5}\ninto: -0.5\n", `x.yaml:2: sight.into: ` + dist + `"-0.5"`},
		{"word for near", "range: {default: 5}\nnear: four\n", `x.yaml:2: sight.near: ` + dist + `"four"`},
		{"unknown field", "range: {default: 5}\nrnage: 3\n", `x.yaml:2: sight: unknown field "rnage" (did you mean range?)`},
		{"field twice", "range: {default: 5}\nrange: {default: 6}\n", `sight: field "range" is given twice`},
		{"default twice", "range: {default: 5, default: 6}\n", `sight.range: key "default" is given twice`},
		{"bad word in blocks", "range: {default: 5}\nblocks: [woods, Town]\n", `x.yaml:2: sight.blocks[1]: "Town" has the character 'T'`},
		{"bad word in crests", "range: {default: 5}\ncrests: [high ground]\n", `sight.crests[0]: "high ground" has the character ' '`},
		{"bad kind", "range: {default: 5, Light Cavalry: 9}\n", `sight.range: "Light Cavalry" has the character 'L'`},
		{"bad terrain", "range: {default: 5}\ncover: {Woods: 2}\n", `sight.cover: "Woods" has the character 'W'`},
		{"blocks not a list", "range: {default: 5}\nblocks: woods\n", "sight.blocks: want a list"},
		{"range not a mapping", "range: 24\n", "sight.range: want a mapping"},
		{"cover a list", "range: {default: 5}\ncover: [woods]\n", "sight.cover: want a mapping"},
		{"over not a flag", "range: {default: 5}\nover: yes\n", `x.yaml:2: sight.over: want true or false, got "yes"`},
		{"example not a flag", "example: 1\nrange: {default: 5}\n", `x.yaml:1: sight.example: want true or false, got "1"`},
		{"not a mapping", "- 24\n", "sight: want a mapping"},
		{"empty", "", "x.yaml: the file is empty"},
		{"not YAML", "range: [1, 2\n", "not valid YAML"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			r, err := sight.Parse("x.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("Parse(%q) = %+v; want an error containing %q", c.src, r, c.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) {
				t.Errorf("Parse(%q):\n got %q\nwant it to contain %q", c.src, msg, c.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("Parse(%q): the error is not one line: %q", c.src, msg)
			}
			if !strings.HasPrefix(msg, "x.yaml") {
				t.Errorf("Parse(%q): the error does not name the file: %q", c.src, msg)
			}
		})
	}
}

// FuzzParse: Parse never panics, refuses with one line, and what it
// accepts has distances from 0 to 1000, none NaN.
func FuzzParse(f *testing.F) {
	for _, id := range []string{"nb", "bp", "cd", "nes", "lob"} {
		if data, err := os.ReadFile(filepath.Join("..", "rules", id, "sight.yaml")); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"", "range: {default: 0}", "range: {default: -1}", "range: {default: NaN}", "range: {default: .inf}",
		"range: {default: 1e400}", "range: {default: 5}\ncover: {woods: -0}\ninto: 2\nnear: 4\nover: true",
		"range: &a {default: 5}\ncover: *a", "range: {default: 5, x: [1]}", "blocks: [a, B]", "- 1",
		"range: {default: 0x10}", "range: {default: 1_0}", "range: {default: \"24\"}", "range: {default: 5}\ncrests: [{a: 1}]",
	} {
		f.Add([]byte(s))
	}
	ok := func(d float64) bool { return !math.IsNaN(d) && d >= 0 && d <= 1000 }
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := sight.Parse("f.yaml", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error of more than one line: %q", err)
			}
			return
		}
		if r == nil {
			t.Fatal("no rules and no error")
		}
		if !ok(r.Default) || !ok(r.Into) || !ok(r.Near) {
			t.Errorf("accepted default %v, into %v, near %v", r.Default, r.Into, r.Near)
		}
		for k, d := range r.Range {
			if !ok(d) {
				t.Errorf("accepted range %s: %v", k, d)
			}
		}
		for k, d := range r.Cover {
			if !ok(d) {
				t.Errorf("accepted cover %s: %v", k, d)
			}
		}
	})
}

// ---------------------------------------------------------------- Table

// tableYAML is a 72 x 48 table:
//
//	Bois:  heavy woods, x 20..30, y 10..20 (blocks sight; cover 4")
//	Hill:  slope, x 40..50, y 30..40 (a crest)
//	Rise:  gradual slope, x 40..50, y 20..26 (not a crest)
//	Glade: light woods with blocks-sight: false, x 55..65, y 5..15 (cover 8")
const tableYAML = `name: sight-test
rules: test
turns: 1
field:
  width: 72
  depth: 48
  features:
    - {id: bois, name: Bois, type: heavy-woods, area: [[20, 10], [30, 10], [30, 20], [20, 20]]}
    - {id: hill, name: Hill, type: slope, area: [[40, 30], [50, 30], [50, 40], [40, 40]]}
    - {id: rise, name: Rise, type: gradual-slope, area: [[40, 20], [50, 20], [50, 26], [40, 26]]}
    - {id: glade, name: Glade, type: light-woods, blocks-sight: false, area: [[55, 5], [65, 5], [65, 15], [55, 15]]}
sides:
  - id: french
    nation: french
    edge: south
    army: {id: nap, at: [36, 47]}
    divisions:
      - id: d1
        general: {id: g1, at: [34, 47]}
        units:
          - {id: u1, type: infantry, at: [33, 46]}
  - id: british
    nation: british
    edge: north
    army: {id: wel, at: [36, 1]}
    divisions:
      - id: d2
        general: {id: g2, at: [34, 1]}
        units:
          - {id: u2, type: infantry, at: [33, 2]}
`

func table(t *testing.T) *sight.Field {
	t.Helper()
	sc, err := battle.Load("sight-test.yaml", []byte(tableYAML), battle.Spec{ID: "test", Parts: []string{battle.PartCorps}})
	if err != nil {
		t.Fatal(err)
	}
	if fs := sc.Field.Features; len(fs) != 4 || !fs[0].BlocksSight || fs[1].BlocksSight || fs[3].BlocksSight {
		t.Fatalf("the table's features are not as drawn: %+v", fs)
	}
	return sight.On(tableRules(), sc)
}

func mark(id, kind string, x, y float64) sight.Mark {
	return sight.Mark{ID: id, Side: "s-" + id, Kind: kind, At: geom.Pt(x, y)}
}

type spot struct {
	name string
	a, b sight.Mark
	ok   bool
	why  []string // what the reason must name when not ok
}

func checkSpots(t *testing.T, f *sight.Field, cases []spot) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ok, why := f.Spots(c.a, c.b)
			if ok != c.ok {
				t.Fatalf("Spots(%s at %v, %s at %v) = %v (%q), want %v", c.a.ID, c.a.At, c.b.ID, c.b.At, ok, why, c.ok)
			}
			if ok && why != "" {
				t.Errorf("spotted, but why = %q", why)
			}
			for _, w := range c.why {
				if !strings.Contains(why, w) {
					t.Errorf("why = %q, want it to name %q", why, w)
				}
			}
		})
	}
}

// TestTableRange: a piece sees as far as its kind's range, the exact
// distance included; along y = 45 nothing stands between.
func TestTableRange(t *testing.T) {
	f := table(t)
	if f.Rules().Into != 2 {
		t.Fatalf("Rules() = %+v", f.Rules())
	}
	inf := mark("inf", "infantry", 5, 45)
	lc := mark("lc", "light-cavalry", 5, 45)
	gen := mark("gen", "general", 5, 45)
	msgr := mark("msgr", "messenger", 5, 45)
	checkSpots(t, f, []spot{
		// infantry: the default, 24". 29 - 5 = 24: in range; 29.1 - 5 = 24.1: out.
		{"infantry at 24 inches", inf, mark("x", "infantry", 29, 45), true, nil},
		{"infantry at 24.1 inches", inf, mark("x", "infantry", 29.1, 45), false, []string{"x", "24.1 inches", "infantry", "24 inches"}},
		// diagonal: (5,45) to (5+14.4, 45-19.2) is 24 (3-4-5 x 4.8).
		{"infantry at 24 inches, diagonally", inf, mark("x", "infantry", 19.4, 25.8), true, nil},
		// light cavalry 30": 35 - 5 = 30 in, 35.1 - 5 = 30.1 out.
		{"light cavalry at 30 inches", lc, mark("x", "infantry", 35, 45), true, nil},
		{"light cavalry at 30.1 inches", lc, mark("x", "infantry", 35.1, 45), false, []string{"light-cavalry", "30 inches"}},
		// general 24".
		{"general at 24 inches", gen, mark("x", "infantry", 29, 45), true, nil},
		{"general at 25 inches", gen, mark("x", "infantry", 30, 45), false, []string{"general"}},
		// messenger 0": sees nothing, not even 1" off.
		{"messenger at 1 inch", msgr, mark("x", "infantry", 6, 45), false, []string{"messenger"}},
		// Being seen does not depend on the seen piece's range.
		{"messenger seen at 24 inches", inf, mark("m", "messenger", 29, 45), true, nil},
	})
}

// TestTableRangeZero: "A range of 0 sees nothing" (Rules.Range; NB's
// galloper "looks at nothing but the road"): not even a piece standing on
// the messenger's own spot.
func TestTableRangeZero(t *testing.T) {
	f := table(t)
	checkSpots(t, f, []spot{
		{"messenger on the same spot", mark("msgr", "messenger", 5, 45), mark("x", "infantry", 5, 45), false, nil},
	})
}

// TestTableCover: a target 1" inside the heavy woods Bois (west edge x = 20,
// target at x = 21) is spotted from at most 4" (its cover). Along y = 15 the
// line from an observer west of the wood runs 1" inside it, within the 2"
// the target's end allows (Into), so only cover decides.
func TestTableCover(t *testing.T) {
	f := table(t)
	tgt := mark("tgt", "infantry", 21, 15)
	checkSpots(t, f, []spot{
		{"from 3 inches", mark("obs", "infantry", 18, 15), tgt, true, nil},
		{"from 4 inches, the cover's limit", mark("obs", "infantry", 17, 15), tgt, true, nil},
		{"from 5 inches", mark("obs", "infantry", 16, 15), tgt, false, []string{"tgt", "heavy-woods", "4 inches"}},
		// Cover counts even for a kind that sees farther: light cavalry 30".
		{"light cavalry from 5 inches", mark("obs", "light-cavalry", 16, 15), tgt, false, []string{"heavy-woods"}},
		// The Glade blocks no sight but is still light woods: cover 8".
		// Target at (60, 10): from (52, 10) 8" seen, from (51, 10) 9" not.
		{"light woods from 8 inches", mark("obs", "infantry", 52, 10), mark("tgt", "infantry", 60, 10), true, nil},
		{"light woods from 9 inches", mark("obs", "infantry", 51, 10), mark("tgt", "infantry", 60, 10), false, []string{"light-woods", "8 inches"}},
		// Standing in no cover, seen out to its range: (5, 5) to (29, 5),
		// 24", passing north of everything.
		{"no cover", mark("obs", "infantry", 5, 5), mark("tgt", "infantry", 29, 5), true, nil},
	})
}

// TestTableWoods: a line through a sight-blocking wood is blocked, except
// for the first 2" (Into) from an end that stands in it.
func TestTableWoods(t *testing.T) {
	f := table(t)
	checkSpots(t, f, []spot{
		// (15,15) to (35,15): 20" (in range), 10" of it inside the Bois
		// (x 20..30), neither end in it: blocked.
		{"through the middle", mark("a", "infantry", 15, 15), mark("b", "infantry", 35, 15), false, []string{"heavy-woods", "Bois"}},
		{"through the middle, back", mark("b", "infantry", 35, 15), mark("a", "infantry", 15, 15), false, []string{"Bois"}},
		// (15,9) to (35,9): passes 1" north of the wood (y 10..20): clear.
		{"beside the wood", mark("a", "infantry", 15, 9), mark("b", "infantry", 35, 9), true, nil},
		// At the edge: a at (21.5,15), 1.5" in; b at (18,15), 3.5" off.
		// 1.5" inside <= 2": clear; b is in no cover; a's cover 4" >= 3.5".
		{"at the edge, sees out", mark("a", "infantry", 21.5, 15), mark("b", "infantry", 18, 15), true, nil},
		{"at the edge, is seen", mark("b", "infantry", 18, 15), mark("a", "infantry", 21.5, 15), true, nil},
		// Exactly 2" in: a at (22,15), b at (18.5,15): 2" inside <= 2": clear.
		{"2 inches in, sees out", mark("a", "infantry", 22, 15), mark("b", "infantry", 18.5, 15), true, nil},
		{"2 inches in, is seen", mark("b", "infantry", 18.5, 15), mark("a", "infantry", 22, 15), true, nil},
		// Deeper: a at (22.5,15), 2.5" in; b at (19,15), 3.5" off (within
		// cover): 2.5" > 2": blocked both ways, by the wood.
		{"deeper, sees nothing", mark("a", "infantry", 22.5, 15), mark("b", "infantry", 19, 15), false, []string{"heavy-woods Bois"}},
		{"deeper, unseen", mark("b", "infantry", 19, 15), mark("a", "infantry", 22.5, 15), false, []string{"heavy-woods Bois"}},
	})
	// Both ends in the wood: each end allows 2", so 4" in all.
	// (21,15) to (24.5,15): 3.5" <= 4": clear; to (25.5,15): 4.5" > 4": blocked.
	if ok, why := f.Clear(geom.Pt(21, 15), geom.Pt(24.5, 15)); !ok {
		t.Errorf("both in the wood, 3.5 inches apart: blocked (%q)", why)
	}
	if ok, why := f.Clear(geom.Pt(21, 15), geom.Pt(25.5, 15)); ok || !strings.Contains(why, "Bois") {
		t.Errorf("both in the wood, 4.5 inches apart: %v (%q), want blocked by the Bois", ok, why)
	}
}

// TestTableCrests: high ground (slope, steep slope) between two pieces on
// low ground blocks; not when one of them stands on it.
func TestTableCrests(t *testing.T) {
	f := table(t)
	checkSpots(t, f, []spot{
		// (35,35) to (55,35): 20", 10" of it across the Hill (x 40..50).
		{"across the hill", mark("a", "infantry", 35, 35), mark("b", "infantry", 55, 35), false, []string{"high ground", "slope Hill"}},
		{"from the hill", mark("a", "infantry", 41, 35), mark("b", "infantry", 55, 35), true, nil},
		{"onto the hill", mark("a", "infantry", 35, 35), mark("b", "infantry", 49, 35), true, nil},
		{"both on the hill", mark("a", "infantry", 41, 35), mark("b", "infantry", 49, 35), true, nil},
		// y = 29 passes 1" north of the Hill (y 30..40).
		{"beside the hill", mark("a", "infantry", 35, 29), mark("b", "infantry", 55, 29), true, nil},
		// A gradual slope is no crest: (35,23) to (55,23) crosses the Rise.
		{"across a gradual slope", mark("a", "infantry", 35, 23), mark("b", "infantry", 55, 23), true, nil},
	})
}

// TestTableNoSight: a wood whose scenario sets blocks-sight: false does
// not block: (50,10) to (70,10) runs 10" through the Glade.
func TestTableNoSight(t *testing.T) {
	f := table(t)
	checkSpots(t, f, []spot{
		{"through the glade", mark("a", "infantry", 50, 10), mark("b", "infantry", 70, 10), true, nil},
	})
	if ok, why := f.Clear(geom.Pt(50, 10), geom.Pt(70, 10)); !ok {
		t.Errorf("Clear through the glade: blocked (%q)", why)
	}
}

// ---------------------------------------------------------------- Hex map

// hexKinds are the terrains of the test maps.
var hexKinds = terrain.Kinds{Hexes: []terrain.Kind{
	{Name: "clear", Letter: '.'}, {Name: "light-cover", Letter: 'l'}, {Name: "farmette", Letter: 'f'},
	{Name: "woods", Letter: 'w'}, {Name: "town", Letter: 't'},
}}

// The test maps are 3 columns by 11 rows, odd-q (odd columns, 02, lie half
// a hex lower), labelled 0101..0311. Down column 02 hex 02rr is axial
// (1, rr-1), so a line from 02aa to 02bb is the hexes of column 02 between,
// |aa - bb| hexes long. Hexes given by a test stand where its rows say;
// rows it leaves out are clear, level 0.
const mapCols, mapRows = 3, 11

func hexMap(t *testing.T, terr, elev []string) *terrain.Map {
	t.Helper()
	grid := hex.Map{Columns: mapCols, Rows: mapRows, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 2}}
	pad := func(rows []string, fill string) string {
		rows = append([]string(nil), rows...)
		for len(rows) < mapRows {
			rows = append(rows, fill)
		}
		return strings.Join(rows, "\n")
	}
	m, err := terrain.Parse(grid, hexKinds, terrain.Text{Terrain: pad(terr, "..."), Elevation: pad(elev, "000")})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// pt is the position of a hex label ccrr.
func pt(label string) geom.Point {
	var c, r int
	fmt.Sscanf(label[:2], "%d", &c)
	fmt.Sscanf(label[2:], "%d", &r)
	return geom.Pt(float64(c), float64(r))
}

func idx(t *testing.T, m *terrain.Map, label string) int {
	t.Helper()
	i, ok := m.At(pt(label))
	if !ok || m.Label(i) != label {
		t.Fatalf("hex %s is not on the map", label)
	}
	return i
}

type los struct {
	name       string
	terr, elev []string
	a, b       string
	dist       int  // hexes from a to b, by hand
	nes, lob   bool // clear under NES's data, LOB's
	why        string
}

func checkLOS(t *testing.T, cases []los) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := hexMap(t, c.terr, c.elev)
			i, j := idx(t, m, c.a), idx(t, m, c.b)
			if d := m.Distance(i, j); d != c.dist {
				t.Fatalf("%s to %s is %d hexes; the case was worked out for %d", c.a, c.b, d, c.dist)
			}
			for _, rs := range []struct {
				name  string
				r     *sight.Rules
				clear bool
			}{{"nes", nesRules(), c.nes}, {"lob", lobRules(), c.lob}} {
				f := sight.OnMap(rs.r, m)
				for _, dir := range [][2]int{{i, j}, {j, i}} {
					ok, why := f.ClearHex(dir[0], dir[1])
					if ok != rs.clear {
						t.Errorf("%s: ClearHex(%s, %s) = %v (%q), want %v", rs.name, m.Label(dir[0]), m.Label(dir[1]), ok, why, rs.clear)
						continue
					}
					if ok && why != "" {
						t.Errorf("%s: clear, but why = %q", rs.name, why)
					}
					if !ok && c.why != "" && !strings.Contains(why, c.why) {
						t.Errorf("%s: ClearHex(%s, %s): why = %q, want it to name %q", rs.name, m.Label(dir[0]), m.Label(dir[1]), why, c.why)
					}
					// Clear on positions agrees with ClearHex.
					if ok2, _ := f.Clear(m.Point(dir[0]), m.Point(dir[1])); ok2 != ok {
						t.Errorf("%s: Clear(%s, %s) = %v, ClearHex %v", rs.name, m.Label(dir[0]), m.Label(dir[1]), ok2, ok)
					}
				}
			}
		})
	}
}

// TestHexObstacles: blocking terrain between. NES (NES-7): woods, farmette
// and town always block. LOB (4.0): an obstacle blocks at four hexes or
// less whatever the elevation; farther, only if its hex, one level up for
// the obstacle, stands above both ends.
func TestHexObstacles(t *testing.T) {
	checkLOS(t, []los{
		// 0202 to 0205, 3 hexes, woods at 0203: NES blocks; LOB 3 <= 4 blocks.
		{name: "woods at 3 hexes", a: "0202", b: "0205", dist: 3,
			terr: []string{"...", "...", ".w.", "...", "..."},
			nes:  false, lob: false, why: "woods at 0203"},
		// The same with the observer on level 3: LOB still blocks
		// ("regardless of elevation"); top = 3, woods 0 + 1 = 1 is not above it.
		{name: "woods at 3 hexes, observer 3 levels up", a: "0202", b: "0205", dist: 3,
			terr: []string{"...", "...", ".w.", "...", "..."},
			elev: []string{"000", "030", "000", "000", "000"},
			nes:  false, lob: false, why: "woods at 0203"},
		// 0202 (level 1) to 0208 (level 0), 6 hexes, woods at 0205 on level 0.
		// NES: blocked. LOB: 6 > 4; top = max(1, 0) = 1; woods 0 + 1 = 1,
		// not above 1: seen over.
		{name: "woods at 6 hexes, observer 1 level up", a: "0202", b: "0208", dist: 6,
			terr: []string{"...", "...", "...", "...", ".w.", "...", "...", "..."},
			elev: []string{"000", "010"},
			nes:  false, lob: true, why: "woods at 0205"},
		// All on level 0: LOB: woods 0 + 1 = 1 > top 0: blocked.
		{name: "woods at 6 hexes, all level", a: "0202", b: "0208", dist: 6,
			terr: []string{"...", "...", "...", "...", ".w.", "...", "...", "..."},
			nes:  false, lob: false, why: "woods at 0205"},
		// Woods on level 1, observer level 1: woods 1 + 1 = 2 > top 1: blocked.
		{name: "woods on a hill at 6 hexes", a: "0202", b: "0208", dist: 6,
			terr: []string{"...", "...", "...", "...", ".w.", "...", "...", "..."},
			elev: []string{"000", "010", "000", "000", "010"},
			nes:  false, lob: false, why: "woods at 0205"},
		// Town on level 0 seen over from level 1 at 6 hexes under LOB too.
		{name: "town at 6 hexes, observer 1 level up", a: "0208", b: "0202", dist: 6,
			terr: []string{"...", "...", "...", "...", ".t.", "...", "...", "..."},
			elev: []string{"000", "000", "000", "000", "000", "000", "000", "010"},
			nes:  false, lob: true, why: "town at 0205"},
		// LOB's boundary: observer 1 level up (top 1), woods on level 0 at
		// 0204. To 0206, 4 hexes: 4 <= 4, blocks anyway. To 0207, 5 hexes:
		// 5 > 4 and 0 + 1 = 1 is not above 1: seen over.
		{name: "LOB: woods at 4 hexes, observer 1 level up", a: "0202", b: "0206", dist: 4,
			terr: []string{"...", "...", "...", ".w.", "...", "..."},
			elev: []string{"000", "010"},
			nes:  false, lob: false, why: "woods at 0204"},
		{name: "LOB: woods at 5 hexes, observer 1 level up", a: "0202", b: "0207", dist: 5,
			terr: []string{"...", "...", "...", ".w.", "...", "...", "..."},
			elev: []string{"000", "010"},
			nes:  false, lob: true, why: "woods at 0204"},
		// NES-7: farmette and town block, light cover does not (it is not
		// one of NES's blockers, nor LOB's: LOB does not list farmette).
		{name: "farmette at 3 hexes", a: "0202", b: "0205", dist: 3,
			terr: []string{"...", "...", "...", ".f."},
			nes:  false, lob: true, why: "farmette at 0204"},
		{name: "town at 3 hexes", a: "0202", b: "0205", dist: 3,
			terr: []string{"...", "...", ".t."},
			nes:  false, lob: false, why: "town at 0203"},
		{name: "light cover at 3 hexes", a: "0202", b: "0205", dist: 3,
			terr: []string{"...", "...", ".l.", ".l."},
			nes:  true, lob: true},
		// Obstacles at the ends do not block: woods at both ends, 3 apart.
		{name: "woods at the ends", a: "0202", b: "0205", dist: 3,
			terr: []string{"...", ".w.", "...", "...", ".w."},
			nes:  true, lob: true},
		// Woods beside the line (column 01 and 03) do not block it.
		{name: "woods beside the line", a: "0202", b: "0206", dist: 4,
			terr: []string{"...", "...", "w.w", "w.w", "w.w"},
			nes:  true, lob: true},
	})
}

// TestHexHigherGround: a hex between that stands higher than both ends
// blocks, under either rule set.
func TestHexHigherGround(t *testing.T) {
	checkLOS(t, []los{
		// 0202 and 0206 on level 0, clear 0204 on level 2: 2 > 0.
		{name: "two levels up between", a: "0202", b: "0206", dist: 4,
			elev: []string{"000", "000", "000", "020"},
			nes:  false, lob: false, why: "higher ground (level 2) at 0204"},
		// Observer on level 1: 2 > max(1, 0) still.
		{name: "two levels up between, observer on 1", a: "0202", b: "0206", dist: 4,
			elev: []string{"000", "010", "000", "020"},
			nes:  false, lob: false, why: "level 2"},
		// Level 1 between, observer on 1, target on 0: not higher than both.
		{name: "as high as one end", a: "0202", b: "0206", dist: 4,
			elev: []string{"000", "010", "000", "010"},
			nes:  true, lob: true},
		// Far apart (8 hexes): higher ground blocks at any range.
		{name: "one level up between, far", a: "0202", b: "0210", dist: 8,
			elev: []string{"000", "000", "000", "000", "000", "010"},
			nes:  false, lob: false, why: "higher ground (level 1) at 0206"},
		// Both ends on level 2 over a valley: clear.
		{name: "over a valley", a: "0202", b: "0206", dist: 4,
			elev: []string{"000", "020", "000", "000", "000", "020"},
			nes:  true, lob: true},
	})
}

// TestHexNeighbours: neighbours always see each other: nothing lies
// between, whatever their terrain and levels.
func TestHexNeighbours(t *testing.T) {
	checkLOS(t, []los{
		{name: "down the column", a: "0202", b: "0203", dist: 1,
			terr: []string{"...", ".w.", ".t."},
			elev: []string{"000", "000", "090"},
			nes:  true, lob: true},
		// 0202 is axial (1, 1), 0103 axial (0, 2): one step apart.
		{name: "across columns", a: "0202", b: "0103", dist: 1,
			terr: []string{"...", "ww.", "w.."},
			elev: []string{"000", "050", "000"},
			nes:  true, lob: true},
	})
}

// TestHexSide: a line along a hexside is blocked only if both sides block.
// 0103 is axial (0, 2), 0204 axial (1, 3): two hexes apart, and the line
// between their centres runs along the hexside between 0203 (axial (1, 2))
// and 0104 (axial (0, 3)), its midpoint (0.5, 2.5) as near the one as the
// other.
func TestHexSide(t *testing.T) {
	checkLOS(t, []los{
		{name: "both sides clear", a: "0103", b: "0204", dist: 2,
			nes: true, lob: true},
		{name: "woods on 0203 only", a: "0103", b: "0204", dist: 2,
			terr: []string{"...", "...", ".w."},
			nes:  true, lob: true},
		{name: "woods on 0104 only", a: "0103", b: "0204", dist: 2,
			terr: []string{"...", "...", "...", "w.."},
			nes:  true, lob: true},
		{name: "woods on both sides", a: "0103", b: "0204", dist: 2,
			terr: []string{"...", "...", ".w.", "w.."},
			nes:  false, lob: false, why: "woods at 0"},
		{name: "higher ground on one side", a: "0103", b: "0204", dist: 2,
			elev: []string{"000", "000", "020"},
			nes:  true, lob: true},
		{name: "higher ground on both sides", a: "0103", b: "0204", dist: 2,
			elev: []string{"000", "000", "020", "200"},
			nes:  false, lob: false, why: "higher ground (level 2)"},
		// Each side blocked, for a different reason.
		{name: "woods on one side, higher ground on the other", a: "0103", b: "0204", dist: 2,
			terr: []string{"...", "...", ".w."},
			elev: []string{"000", "000", "000", "200"},
			nes:  false, lob: false},
	})
}

// TestHexSpots: range in hexes and cover on a map, the line being clear.
// NES: default 8, light cavalry 10, woods cover 2. LOB: default 10,
// woods cover 3.
func TestHexSpots(t *testing.T) {
	open := hexMap(t, nil, nil)
	m := func(id, kind, label string) sight.Mark {
		return sight.Mark{ID: id, Side: "s-" + id, Kind: kind, At: pt(label)}
	}
	checkSpots(t, sight.OnMap(nesRules(), open), []spot{
		// Down column 02: 0201 to 0209 is 8 hexes, to 0210 9, to 0211 10.
		{"NES infantry at 8", m("a", "infantry", "0201"), m("b", "infantry", "0209"), true, nil},
		{"NES infantry at 9", m("a", "infantry", "0201"), m("b", "infantry", "0210"), false, []string{"b", "9 hexes", "8 hexes"}},
		{"NES light cavalry at 10", m("a", "light-cavalry", "0201"), m("b", "infantry", "0211"), true, nil},
		{"NES general at 9", m("a", "general", "0201"), m("b", "infantry", "0210"), false, []string{"general"}},
		{"neighbours", m("a", "infantry", "0202"), m("b", "infantry", "0103"), true, nil},
	})
	checkSpots(t, sight.OnMap(lobRules(), open), []spot{
		{"LOB infantry at 10", m("a", "infantry", "0201"), m("b", "infantry", "0211"), true, nil},
		{"LOB cavalry at 10", m("a", "cavalry", "0201"), m("b", "infantry", "0211"), true, nil},
	})
	// Woods at 0204 alone: a target in it is seen from 0202 (2 hexes, 0203
	// clear between) and from its neighbour 0205, not from 0201 (3) under
	// NES's cover 2; under LOB's cover 3 it is seen from 0201 (3), not from
	// 0208 (4; 0205..0207 clear between).
	woods := hexMap(t, []string{"...", "...", "...", ".w."}, nil)
	tgt := m("tgt", "infantry", "0204")
	checkSpots(t, sight.OnMap(nesRules(), woods), []spot{
		{"NES woods from 2", m("a", "infantry", "0202"), tgt, true, nil},
		{"NES woods from 3", m("a", "infantry", "0201"), tgt, false, []string{"tgt", "woods", "2 hexes"}},
		{"NES woods neighbour", m("a", "infantry", "0205"), tgt, true, nil},
	})
	checkSpots(t, sight.OnMap(lobRules(), woods), []spot{
		{"LOB woods from 3", m("a", "infantry", "0201"), tgt, true, nil},
		{"LOB woods from 4", m("a", "infantry", "0208"), tgt, false, []string{"woods", "3 hexes"}},
	})
	// A position off the map is never in sight.
	if ok, why := sight.OnMap(nesRules(), open).Clear(pt("0201"), geom.Pt(9, 9)); ok || !strings.Contains(why, "off the map") {
		t.Errorf("Clear to a position off the map = %v (%q)", ok, why)
	}
}
