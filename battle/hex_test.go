package battle_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/geom"
	"orderly/geom/hex"
	"orderly/rules"
)

// hexRules is a rule set played on hex maps only, as NES or LOB will be:
// the test rule set's words, no attributes and no checks.
type hexRules struct{}

func (hexRules) ID() string                   { return "hx" }
func (hexRules) Vocab() battle.Vocab          { return testRules{}.Vocab() }
func (hexRules) Check(*battle.Scenario) error { return nil }
func (r hexRules) Spec() battle.Spec {
	return battle.Spec{ID: r.ID(), Vocab: r.Vocab(), Spaces: []string{geom.KindHex}}
}

var hexSpec = battle.SpecOf(hexRules{})

// findHex finds the hex rule set and the test rule set (which plays on
// any space).
func findHex(id string) (battle.RuleSet, error) {
	if id == "hx" {
		return hexRules{}, nil
	}
	return findTest(id)
}

// hexBase is a valid scenario on a 30 by 20 hex map numbered from 01.
const hexBase = `name: hex-battle
rules: hx
map: {columns: 30, rows: 20}
speeds: {infantry: 4, light-cavalry: 8}
sides:
  - id: blue
    nation: blue
    edge: south
    army: {id: b-c, quality: dashing, range: 6, at: "1519"}
    divisions:
      - id: b-1
        general: {id: b-1-g, quality: steady, range: 3, at: "0412"}
        order: {kind: attack, objective: "0405", note: take the mill}
        units:
          - {id: b-1-a, type: infantry, at: "0412"}
          - {id: b-1-b, type: light-cavalry, at: 5-13, speed: 9}
  - id: grey
    nation: grey
    edge: north
    army: {id: g-c, quality: cautious, range: 6, at: "1501"}
    divisions:
      - id: g-1
        general: {id: g-1-g, quality: steady, range: 3, at: "3020"}
        order: defend
        units:
          - {id: g-1-a, type: infantry, at: "0101"}
`

// TestLoadHex: a scenario on a hex map reads its labels as positions
// (column and row as printed), counts in hexes, and has no table.
func TestLoadHex(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		spec battle.Spec
	}{
		{"hex rule set", hexBase, hexSpec},
		{"any space", hexBase, battle.Spec{}},
		{"test rule set", strings.Replace(hexBase, "rules: hx", "rules: test", 1), battle.Spec{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc, err := battle.Load(ldFile, []byte(c.src), c.spec)
			if err != nil {
				t.Fatal(err)
			}
			want := hex.Map{Columns: 30, Rows: 20, Layout: hex.Layout{Offset: hex.OddQ, First: 1, Digits: 2}}
			if sc.Map == nil || *sc.Map != want {
				t.Fatalf("map = %+v, want %+v", sc.Map, want)
			}
			if !sc.Field.Empty() {
				t.Errorf("a hex scenario has a field %+v", sc.Field)
			}
			sp := sc.Space()
			if sp.Kind() != geom.KindHex || sp.Unit() != geom.Hexes {
				t.Errorf("space %s in %s", sp.Kind(), sp.Unit())
			}
			for id, at := range map[string]geom.Point{"b-1-a": geom.Pt(4, 12), "b-1-b": geom.Pt(5, 13), "g-1-a": geom.Pt(1, 1)} {
				if u := sc.Unit(id); u.At != at || u.OffBoard {
					t.Errorf("%s at %v, want %v", id, u.At, at)
				}
			}
			if g := sc.General("g-1-g"); g.At != geom.Pt(30, 20) || sp.Format(g.At) != "3020" {
				t.Errorf("g-1-g at %v (%s)", g.At, sp.Format(g.At))
			}
			o := sc.Formation("b-1").Order
			if o == nil || o.Objective == nil || *o.Objective != geom.Pt(4, 5) {
				t.Fatalf("b-1 order = %+v", o)
			}
			if got := o.Format(sp); got != `attack 0405 "take the mill"` {
				t.Errorf("the order in words: %s", got)
			}
			if d := sp.Dist(sc.Unit("b-1-a").At, *o.Objective); d != 7 {
				t.Errorf("from 0412 to 0405 is %v hexes, want 7", d)
			}
			if u := sc.Unit("b-1-b"); u.Speed != 9 || sc.Unit("b-1-a").Speed != 4 {
				t.Errorf("speeds %v and %v", u.Speed, sc.Unit("b-1-a").Speed)
			}
		})
	}
	// The layout and numbering are read, with their defaults.
	src := ldEdit(t, hexBase, "map: {columns: 30, rows: 20}", "map: {columns: 130, rows: 21, layout: even-r, first: 0, digits: 3}", `at: 5-13`, `at: "005013"`)
	src = strings.NewReplacer(`"1519"`, `"015019"`, `"0412"`, `"004012"`, `"0405"`, `"004005"`, `"1501"`, `"015001"`, `"3020"`, `"030020"`, `"0101"`, `"001001"`).Replace(src)
	sc, err := battle.Load(ldFile, []byte(src), hexSpec)
	if err != nil {
		t.Fatal(err)
	}
	if want := (hex.Layout{Offset: hex.EvenR, First: 0, Digits: 3}); sc.Map.Layout != want || sc.Map.Columns != 130 {
		t.Errorf("map %+v", sc.Map)
	}
	if u := sc.Unit("b-1-a"); u.At != geom.Pt(4, 12) || sc.Space().Format(u.At) != "004012" {
		t.Errorf("b-1-a at %v", u.At)
	}
}

// TestHexFinish: code that builds a hex scenario gets the same checks.
func TestHexFinish(t *testing.T) {
	sc, err := battle.Load(ldFile, []byte(hexBase), hexSpec)
	if err != nil {
		t.Fatal(err)
	}
	sc.Unit("b-1-a").At = geom.Pt(31, 2)
	if err := sc.Finish(); err == nil || err.Error() != "sides[0].divisions[0].units[0].at: 3102 is off the map (columns 01..30, rows 01..20)" {
		t.Errorf("a unit off the map: %v", err)
	}
	sc.Unit("b-1-a").At = geom.Pt(4.5, 2)
	if err := sc.Finish(); err == nil || err.Error() != "sides[0].divisions[0].units[0].at: (4.5, 2) is off the map (columns 01..30, rows 01..20)" {
		t.Errorf("a unit between hexes: %v", err)
	}
	sc.Unit("b-1-a").At = geom.Pt(4, 12)
	sc.Field = battle.Field{Width: 10, Depth: 10}
	if err := sc.Finish(); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("a field and a map: %v", err)
	}
	sc.Field = battle.Field{}
	sc.Map.Columns = 0
	if err := sc.Finish(); err == nil || err.Error() != "map: a map has 1..999 columns, not 0" {
		t.Errorf("a map of no columns: %v", err)
	}
}

// hexBadCases are hex scenarios the loader refuses, each in one sentence
// at its line: the spec reads it (hexSpec if nil).
var hexBadCases = []struct {
	name string
	src  func(t testing.TB) string
	spec *battle.Spec
	at   string
	want string
}{
	{
		name: "both field and map",
		src:  hexFrom("map: {columns: 30, rows: 20}\n", "field: {width: 48, depth: 48}\nmap: {columns: 30, rows: 20}\n"),
		spec: &battle.Spec{},
		at:   "map: {",
		want: "map: a scenario is played on a table (field) or on a hex map (map), not both; give one of them",
	},
	{
		name: "neither field nor map",
		src:  hexFrom("map: {columns: 30, rows: 20}\n", ""),
		spec: &battle.Spec{},
		at:   "name: hex-battle",
		want: "scenario: field or map is missing: a scenario is played on a table (field) or a hex map (map)",
	},
	{
		name: "no map for a hex rule set",
		src:  hexFrom("map: {columns: 30, rows: 20}\n", ""),
		at:   "name: hex-battle",
		want: "scenario: map is missing",
	},
	{
		name: "a table for a hex rule set",
		src:  hexFrom("map: {columns: 30, rows: 20}\n", "field: {width: 48, depth: 48}\n"),
		at:   "field: {",
		want: "field: rule set hx plays on a hex map (map), not on a table (field)",
	},
	{
		name: "a hex map for NB",
		src:  func(t testing.TB) string { return ldEdit(t, ldBase, "field:\n  width: 72\n", "map:\n  width: 72\n") },
		spec: &ldSpec,
		at:   "map:",
		want: "map: rule set nb plays on a table (field), not on a hex map (map)",
	},
	{
		name: "bad label",
		src:  hexFrom(`at: "1519"`, `at: "15a9"`),
		at:   `at: "15a9"`,
		want: `sides[0].army.at: hex "15a9" is not a label of 4 digits (column then row, e.g. 0412) or column-row`,
	},
	{
		name: "label of too many digits",
		src:  hexFrom(`at: "1519"`, `at: "015019"`),
		at:   `at: "015019"`,
		want: `sides[0].army.at: hex "015019" is not a label of 4 digits`,
	},
	{
		name: "label off the map",
		src:  hexFrom(`at: "3020"`, `at: "3021"`),
		at:   `at: "3021"`,
		want: `sides[1].divisions[0].general.at: hex "3021" is off the map; allowed: columns 01..30, rows 01..20`,
	},
	{
		name: "label before the first column",
		src:  hexFrom(`at: "0101"`, `at: "0001"`),
		at:   `at: "0001"`,
		want: `sides[1].divisions[0].units[0].at: hex "0001" is off the map: columns and rows are numbered from 1`,
	},
	{
		name: "objective off the map",
		src:  hexFrom(`objective: "0405"`, `objective: 31-5`),
		at:   `objective: 31-5`,
		want: `sides[0].divisions[0].order.objective: hex "31-5" is off the map; allowed: columns 01..30, rows 01..20`,
	},
	{
		name: "a table point on a hex map",
		src:  hexFrom(`at: "0101"`, `at: [1, 1]`),
		at:   `at: [1, 1]`,
		want: `sides[1].divisions[0].units[0].at: want the label of a hex, such as "0412", got a list`,
	},
	{
		name: "labels that do not fit their digits",
		src:  hexFrom("map: {columns: 30, rows: 20}", "map: {columns: 100, rows: 20}"),
		at:   "map: {",
		want: "map: 100 columns by 20 rows numbered from 1 need 100, which does not fit labels of 2 digits a number; allowed: numbers up to 99",
	},
	{
		name: "layout misspelt",
		src:  hexFrom("map: {columns: 30, rows: 20}", "map: {columns: 30, rows: 20, layout: odd-p}"),
		at:   "map: {",
		want: `map.layout: "odd-p" is not one of odd-q, even-q, odd-r, even-r (did you mean odd-q?)`,
	},
	{
		name: "map without rows",
		src:  hexFrom("map: {columns: 30, rows: 20}", "map: {columns: 30}"),
		at:   "map: {",
		want: "map: rows is missing",
	},
	{
		name: "unknown field of a map",
		src:  hexFrom("map: {columns: 30, rows: 20}", "map: {columns: 30, rows: 20, width: 4}"),
		at:   "map: {",
		want: `map: unknown field "width"; allowed: columns, rows, layout, first, digits`,
	},
	{
		name: "range in hexes",
		src:  hexFrom("range: 6, at: \"1519\"", "range: 0, at: \"1519\""),
		at:   "range: 0",
		want: "sides[0].army.range: 0 is out of range; allowed: more than 0 up to 1000 hexes",
	},
	{
		name: "an entry square on a hex map",
		src: hexFrom("        order: {kind: attack, objective: \"0405\", note: take the mill}",
			"        order: {kind: reserve, entry: A3, then: attack}"),
		at:   "entry: A3",
		want: "sides[0].divisions[0].order.entry: entry squares such as B9 divide a table (field.grid) and a hex map has none; leave out entry, edge and then, and start the reserve on the map",
	},
}

func hexFrom(pairs ...string) func(t testing.TB) string {
	return func(t testing.TB) string { return ldEdit(t, hexBase, pairs...) }
}

func TestLoadHexBad(t *testing.T) {
	for _, c := range hexBadCases {
		t.Run(c.name, func(t *testing.T) {
			src := c.src(t)
			spec := hexSpec
			if c.spec != nil {
				spec = *c.spec
			}
			_, err := battle.Load(ldFile, []byte(src), spec)
			if err == nil {
				t.Fatalf("Load succeeded; want %q", c.want)
			}
			msg := err.Error()
			prefix := fmt.Sprintf("%s:%d: ", ldFile, ldLineOf(t, src, c.at))
			if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q\nwant %q then %q, on one line", msg, prefix, c.want)
			}
		})
	}
}

// TestHexForNB: the NB rule set, which says nothing of spaces, plays on a
// table, and refuses a hex scenario where it gives its map.
func TestHexForNB(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := rules.Engine("nb", set)
	if err != nil {
		t.Fatal(err)
	}
	if got := battle.SpecOf(eng).Spaces; len(got) != 1 || got[0] != geom.KindTable {
		t.Errorf("NB plays on %v, want a table", got)
	}
	src := strings.NewReplacer("rules: hx", "rules: nb", "nation: blue", "nation: french", "nation: grey", "nation: british").Replace(hexBase)
	_, err = battle.Read("nb-hex.yaml", []byte(src), func(string) (battle.RuleSet, error) { return eng, nil })
	want := fmt.Sprintf("nb-hex.yaml:%d: map: rule set nb plays on a table (field), not on a hex map (map)", ldLineOf(t, src, "map:"))
	if err == nil || err.Error() != want {
		t.Errorf("NB reads a hex scenario: %v\nwant %s", err, want)
	}
	// The same through Read with a rule set that plays on hex maps.
	if _, err := battle.Read("hx.yaml", []byte(hexBase), findHex); err != nil {
		t.Errorf("the hex rule set: %v", err)
	}
}

// TestHexSchema: the schema of a rule set lists only the spaces it plays
// on, and agrees with the loader on hex scenarios and changes to them.
func TestHexSchema(t *testing.T) {
	hexDoc, err := battle.Schema(hexSpec)
	if err != nil {
		t.Fatal(err)
	}
	anyDoc, err := battle.Schema(battle.Spec{})
	if err != nil {
		t.Fatal(err)
	}
	props := func(doc []byte) map[string]any { return schemaDocOf(t, doc)["properties"].(map[string]any) }
	if p := props(hexDoc); p["map"] == nil || p["field"] != nil {
		t.Errorf("the hex rule set's schema has map %v and field %v", p["map"] != nil, p["field"] != nil)
	}
	if p := props(nbSchema(t)); p["map"] != nil || p["field"] == nil {
		t.Errorf("NB's schema has map %v and field %v", p["map"] != nil, p["field"] != nil)
	}
	if p := props(anyDoc); p["map"] == nil || p["field"] == nil {
		t.Errorf("the schema of any space has map %v and field %v", p["map"] != nil, p["field"] != nil)
	}
	for _, c := range []struct {
		name string
		doc  []byte
		spec battle.Spec
	}{{"hex", hexDoc, hexSpec}, {"any space", anyDoc, battle.Spec{}}} {
		sch := compile(t, c.doc)
		check := func(name, src string) {
			t.Helper()
			var n yaml.Node
			if err := yaml.Unmarshal([]byte(src), &n); err != nil {
				t.Fatal(err)
			}
			_, lerr := battle.Load("t.yaml", []byte(src), c.spec)
			serr := sch.Validate(jsonValue(t, n.Content[0]))
			if (lerr == nil) != (serr == nil) {
				t.Errorf("%s: %s: the loader says %v, the schema %v", c.name, name, lerr, serr)
			}
		}
		check("the base", hexBase)
		for _, b := range hexBadCases {
			if b.spec != nil && b.spec.ID != c.spec.ID {
				continue
			}
			switch b.name {
			case "label off the map", "objective off the map", "labels that do not fit their digits", "label before the first column", "an entry square on a hex map", "label of too many digits":
				continue // the loader alone knows the map
			case "a table for a hex rule set", "a table point on a hex map":
				if c.spec.ID == "" {
					continue // a position is either kind where both spaces are allowed
				}
			}
			check(b.name, b.src(t))
		}
	}
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestHexSchemaGolden keeps the schema of a rule set played on hex maps in
// testdata, for review: go test ./battle -run HexSchemaGolden -update
// rewrites it.
func TestHexSchemaGolden(t *testing.T) {
	got, err := battle.Schema(hexSpec)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "schema-hex.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./battle -run HexSchemaGolden -update writes it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("the hex schema differs from %s (go test ./battle -run HexSchemaGolden -update rewrites it)\n%s", path, got)
	}
}
