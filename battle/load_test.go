package battle_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"orderly/battle"
	"orderly/geom"
)

// ldSpec is the NB rule set's part of the scenario format: its id and
// vocabulary (its unit types, formations and states among it), no
// attributes of its own, and a table to play on.
var ldSpec = battle.Spec{ID: "nb", Vocab: battle.Vocab{
	Qualities: []string{"excellent", "good", "average", "poor"},
	Nations: []string{"french", "british", "russian-1792-1808", "russian-1809-1814",
		"prussian-1792-1806", "prussian-1813-1815", "austrian-1792-1806", "austrian-1807-1815", "other"},
	Orders:    []string{"attack", "defend", "reserve"},
	UnitTypes: []string{"infantry", "light-cavalry", "heavy-cavalry", "artillery"},
	Shapes:    []string{"column", "march-column", "line", "square", "skirmish", "limbered", "unlimbered"},
	Statuses:  []string{"formed", "disordered", "routed"},
}, Spaces: []string{geom.KindTable}}

const ldFile = "test.yaml"

// base is a valid scenario: three French corps against a British division,
// on a 72x48 table with an 8x6 entry grid (squares 9 by 8 inches).
const ldBase = `name: test-battle
title: A test battle
rules: nb
turns: 12
field:
  width: 72
  depth: 48
  grid: {columns: 8, rows: 6}
speeds: {infantry: 6, light-cavalry: 12, heavy-cavalry: 10, artillery: 6}
sides:
  - id: french
    name: Armée du Nord
    nation: french
    edge: south
    army: {id: napoleon, quality: average, range: 12, at: [36, 44]}
    corps:
      - id: I
        general: {id: derlon, quality: average, range: 8, at: [20, 30]}
        order: {kind: defend, objective: [20, 24], note: hold the ridge}
        divisions:
          - id: I-1
            general: {id: quiot, quality: average, range: 4, at: [18, 30]}
            units:
              - {id: I-1-a, type: infantry, formation: column, at: [17, 31]}
              - {id: I-1-b, type: infantry, at: [19, 31], facing: 0}
      - id: II
        general: {id: reille, quality: good, range: 8, at: [36, 30]}
        order: attack
        divisions:
          - id: II-1
            general: {id: bachelu, quality: average, range: 4, at: [36, 31]}
            units:
              - {id: II-1-a, type: infantry, at: [35, 32]}
              - {id: II-1-b, type: artillery, formation: unlimbered, at: [37, 32]}
      - id: III
        general: {id: vandamme, quality: good, range: 8, at: [52, 30]}
        order: defend
        divisions:
          - id: III-1
            general:
              id: lefol
              quality: average
              range: 4
              at: [52, 31]
            units:
              - {id: III-1-a, type: light-cavalry, at: [51, 32]}
  - id: british
    nation: british
    edge: north
    army: {id: wellington, quality: excellent, range: 16, at: [36, 2]}
    divisions:
      - id: 3rd
        general: {id: alten, quality: good, range: 4, at: [36, 5]}
        order: defend
        units:
          - {id: 3rd-a, type: infantry, formation: line, at: [34, 5]}
          - {id: 3rd-b, type: heavy-cavalry, at: [38, 5], speed: 9}
`

// edit applies old->new replacements to text; each old must occur exactly once.
func ldEdit(t testing.TB, text string, pairs ...string) string {
	t.Helper()
	if len(pairs)%2 != 0 {
		t.Fatalf("edit: odd number of arguments")
	}
	for i := 0; i < len(pairs); i += 2 {
		if n := strings.Count(text, pairs[i]); n != 1 {
			t.Fatalf("edit: %q occurs %d times in the text, want once", pairs[i], n)
		}
		text = strings.Replace(text, pairs[i], pairs[i+1], 1)
	}
	return text
}

// lineOf is the 1-based line of the first occurrence of s in text.
func ldLineOf(t testing.TB, text, s string) int {
	t.Helper()
	i := strings.Index(text, s)
	if i < 0 {
		t.Fatalf("lineOf: %q is not in the text", s)
	}
	return strings.Count(text[:i], "\n") + 1
}

// reserveEdits turn corps III into an off-board reserve entering at A3 on
// the west edge: its order gains an entry and its pieces lose their at.
var ldReserveEdits = []string{
	"        order: defend\n        divisions:\n          - id: III-1", "        order: {kind: reserve, entry: A3, then: attack}\n        divisions:\n          - id: III-1",
	"{id: vandamme, quality: good, range: 8, at: [52, 30]}", "{id: vandamme, quality: good, range: 8}",
	"              at: [52, 31]\n", "",
	"{id: III-1-a, type: light-cavalry, at: [51, 32]}", "{id: III-1-a, type: light-cavalry}",
}

func ldReserveBase(t testing.TB) string { return ldEdit(t, ldBase, ldReserveEdits...) }

type ldBadCase struct {
	name string
	src  func(t testing.TB) string
	at   string // a text on the line the error must name (first occurrence in the edited source)
	want string // what the message must contain after "file:LINE: "
}

// from builds a case source by editing base.
func ldFrom(pairs ...string) func(t testing.TB) string {
	return func(t testing.TB) string { return ldEdit(t, ldBase, pairs...) }
}

// fromReserve builds a case source by editing the off-board reserve variant of base.
func ldFromReserve(pairs ...string) func(t testing.TB) string {
	return func(t testing.TB) string { return ldEdit(t, ldReserveBase(t), pairs...) }
}

const ldBritishSide = `  - id: british
    nation: british
    edge: north
    army: {id: wellington, quality: excellent, range: 16, at: [36, 2]}
    divisions:
      - id: 3rd
        general: {id: alten, quality: good, range: 4, at: [36, 5]}
        order: defend
        units:
          - {id: 3rd-a, type: infantry, formation: line, at: [34, 5]}
          - {id: 3rd-b, type: heavy-cavalry, at: [38, 5], speed: 9}
`

var ldBadCases = []ldBadCase{
	{
		name: "unknown field with near match",
		src:  ldFrom("      - id: II\n        general:", "      - id: II\n        genral:"),
		at:   "genral:",
		want: `sides[0].corps[1]: unknown field "genral" (did you mean general?); allowed: id, name, general, order, divisions`,
	},
	{
		name: "unknown unit field with near match",
		src:  ldFrom("at: [19, 31], facing: 0}", "at: [19, 31], facng: 0}"),
		at:   "facng",
		want: `sides[0].corps[0].divisions[0].units[1]: unknown field "facng" (did you mean facing?)`,
	},
	{
		name: "unknown scenario field",
		src:  ldFrom("turns: 12\n", "turns: 12\nturn: 3\n"),
		at:   "turn: 3",
		want: `scenario: unknown field "turn" (did you mean turns?); allowed: name, title, rules, turns, field, speeds, sides`,
	},
	{
		name: "missing formation id",
		src:  ldFrom("      - id: II\n        general:", "      - general:"),
		at:   "      - general: {id: reille",
		want: "sides[0].corps[1]: id is missing",
	},
	{
		name: "missing side id",
		src:  ldFrom("  - id: british\n    nation: british", "  - nation: british"),
		at:   "  - nation: british",
		want: "sides[1]: id is missing",
	},
	{
		name: "missing general",
		src:  ldFrom("        general: {id: alten, quality: good, range: 4, at: [36, 5]}\n", ""),
		at:   "      - id: 3rd",
		want: "sides[1].divisions[0]: general is missing",
	},
	{
		name: "missing quality",
		src:  ldFrom("{id: reille, quality: good, range: 8, at: [36, 30]}", "{id: reille, range: 8, at: [36, 30]}"),
		at:   "{id: reille",
		want: "sides[0].corps[1].general: quality is missing",
	},
	{
		name: "missing range",
		src:  ldFrom("              range: 4\n", ""),
		at:   "              id: lefol",
		want: "sides[0].corps[2].divisions[0].general: range is missing",
	},
	{
		name: "missing units",
		src:  ldFrom("        units:\n          - {id: 3rd-a, type: infantry, formation: line, at: [34, 5]}\n          - {id: 3rd-b, type: heavy-cavalry, at: [38, 5], speed: 9}\n", ""),
		at:   "      - id: 3rd",
		want: "sides[1].divisions[0]: a division needs at least one combat unit under units",
	},
	{
		name: "quality misspelt",
		src:  ldFrom("              id: lefol\n              quality: average", "              id: lefol\n              quality: avrage"),
		at:   "quality: avrage",
		want: `sides[0].corps[2].divisions[0].general.quality: "avrage" is not one of excellent, good, average, poor (did you mean average?)`,
	},
	{
		name: "nation unknown",
		src:  ldFrom("    nation: british", "    nation: brittish"),
		at:   "nation: brittish",
		want: `sides[1].nation: "brittish" is not one of french, british,`,
	},
	{
		name: "edge unknown",
		src:  ldFrom("    edge: north", "    edge: nord"),
		at:   "edge: nord",
		want: `sides[1].edge: "nord" is not one of north, south, east, west`,
	},
	{
		name: "duplicate id names the earlier one",
		src:  ldFrom("{id: 3rd-b, type: heavy-cavalry", "{id: I-1-a, type: heavy-cavalry"),
		at:   "{id: I-1-a, type: heavy-cavalry",
		want: `sides[1].divisions[0].units[1]: id "I-1-a" is already used by sides[0].corps[0].divisions[0].units[0] (line 24)`,
	},
	{
		name: "general reuses a side id",
		src:  ldFrom("{id: alten,", "{id: french,"),
		at:   "{id: french,",
		want: `sides[1].divisions[0].general: id "french" is already used by side french (line 11)`,
	},
	{
		name: "unit off the table",
		src:  ldFrom("{id: 3rd-a, type: infantry, formation: line, at: [34, 5]}", "{id: 3rd-a, type: infantry, formation: line, at: [80, 5]}"),
		at:   "at: [80, 5]",
		want: "sides[1].divisions[0].units[0].at: (80, 5) is off the table (0..72 by 0..48 inches)",
	},
	{
		name: "general off the table",
		src:  ldFrom("{id: wellington, quality: excellent, range: 16, at: [36, 2]}", "{id: wellington, quality: excellent, range: 16, at: [36, -2]}"),
		at:   "at: [36, -2]",
		want: "sides[1].army.at: (36, -2) is off the table (0..72 by 0..48 inches)",
	},
	{
		name: "entry not a grid square",
		src:  ldFromReserve("entry: A3,", "entry: Z9,"),
		at:   "entry: Z9",
		want: `sides[0].corps[2].order.entry: "Z9" is not a square of the entry grid; columns A..H and rows 1..6`,
	},
	{
		name: "entry not like B9",
		src:  ldFromReserve("entry: A3,", "entry: a3,"),
		at:   "entry: a3",
		want: `sides[0].corps[2].order.entry: "a3" is not a grid square like B9; columns A..H and rows 1..6`,
	},
	{
		name: "entry without a grid",
		src:  ldFromReserve("  grid: {columns: 8, rows: 6}\n", ""),
		at:   "entry: A3",
		want: `sides[0].corps[2].order.entry: "A3" is not a square of the entry grid; the field has no entry grid; give field.grid columns and rows`,
	},
	{
		name: "corner square without edge",
		src:  ldFromReserve("entry: A3,", "entry: A1,"),
		at:   "entry: A1",
		want: "sides[0].corps[2].order.entry: square A1 is a corner; say which edge with edge: north or west",
	},
	{
		name: "square not on an edge",
		src:  ldFromReserve("entry: A3,", "entry: D3,"),
		at:   "entry: D3",
		want: "sides[0].corps[2].order.entry: square D3 is not on a table edge; pick a square in the outer columns or rows",
	},
	{
		name: "edge the square does not touch",
		src:  ldFromReserve("entry: A3,", "entry: A3, edge: south,"),
		at:   "edge: south,",
		want: "sides[0].corps[2].order.edge: square A3 does not lie on the south edge; it touches west",
	},
	{
		name: "entry with a non-reserve kind",
		src:  ldFromReserve("{kind: reserve, entry: A3, then: attack}", "{kind: attack, entry: A3, then: attack}"),
		at:   "{kind: attack, entry: A3",
		want: "sides[0].corps[2].order.entry: only a reserve enters from off the table; this order is attack",
	},
	{
		name: "then without entry",
		src:  ldFrom("        order: attack\n", "        order: {kind: attack, then: defend}\n"),
		at:   "then: defend",
		want: "sides[0].corps[1].order.then: only an off-board reserve, with entry, has then",
	},
	{
		name: "then missing",
		src:  ldFromReserve("{kind: reserve, entry: A3, then: attack}", "{kind: reserve, entry: A3}"),
		at:   "{kind: reserve, entry: A3}",
		want: "sides[0].corps[2].order: then is missing: the order the reserve follows once it enters",
	},
	{
		name: "then reserve",
		src:  ldFromReserve("then: attack}", "then: reserve}"),
		at:   "then: reserve",
		want: "sides[0].corps[2].order.then: a reserve that enters acts on its order; allowed: attack, defend",
	},
	{
		name: "off-board unit with at",
		src:  ldFromReserve("{id: III-1-a, type: light-cavalry}", "{id: III-1-a, type: light-cavalry, at: [51, 32]}"),
		at:   "{id: III-1-a",
		want: "sides[0].corps[2].divisions[0].units[0].at: a unit of an off-board reserve starts off the table; leave out at",
	},
	{
		name: "off-board general with at",
		src:  ldFromReserve("{id: vandamme, quality: good, range: 8}", "{id: vandamme, quality: good, range: 8, at: [52, 30]}"),
		at:   "{id: vandamme",
		want: "sides[0].corps[2].general.at: the general of an off-board reserve starts off the table; leave out at",
	},
	{
		name: "on-board unit missing at",
		src:  ldFrom("{id: II-1-a, type: infantry, at: [35, 32]}", "{id: II-1-a, type: infantry}"),
		at:   "{id: II-1-a",
		want: "sides[0].corps[1].divisions[0].units[0]: at is missing: only the units of an off-board reserve start off the table",
	},
	{
		name: "on-board general missing at",
		src:  ldFrom("{id: bachelu, quality: average, range: 4, at: [36, 31]}", "{id: bachelu, quality: average, range: 4}"),
		at:   "{id: bachelu",
		want: "sides[0].corps[1].divisions[0].general: at is missing: only the generals of an off-board reserve start off the table",
	},
	{
		name: "one side only",
		src:  ldFrom(ldBritishSide, ""),
		at:   "  - id: french",
		want: "sides: a battle has two sides, got 1",
	},
	{
		name: "three sides",
		src: func(t testing.TB) string {
			third := strings.NewReplacer(
				"british", "prussian", "wellington", "blucher", "alten", "bulow", "3rd", "IV",
			).Replace(ldBritishSide)
			third = ldEdit(t, third, "nation: prussian", "nation: prussian-1813-1815")
			return ldBase + third
		},
		at:   "  - id: french",
		want: "sides: a battle has two sides, got 3",
	},
	{
		name: "unknown unit type with near match",
		src:  ldFrom("{id: II-1-a, type: infantry,", "{id: II-1-a, type: infantery,"),
		at:   "type: infantery",
		want: `sides[0].corps[1].divisions[0].units[0].type: "infantery" is not one of infantry, light-cavalry, heavy-cavalry, artillery (did you mean infantry?)`,
	},
	{
		name: "facing out of range",
		src:  ldFrom("facing: 0}", "facing: 360}"),
		at:   "facing: 360",
		want: "sides[0].corps[0].divisions[0].units[1].facing: 360 is out of range; allowed: 0 up to 360 degrees clockwise from north",
	},
	{
		name: "no speed for a unit type",
		src:  ldFrom(", artillery: 6}", "}"),
		at:   "{id: II-1-b",
		want: "sides[0].corps[1].divisions[0].units[1]: no speed for artillery: give speed here or speeds.artillery for the scenario",
	},
	{
		name: "turns 0",
		src:  ldFrom("turns: 12", "turns: 0"),
		at:   "turns: 0",
		want: "turns: 0 is out of range; allowed: 1..1000",
	},
	{
		name: "width missing",
		src:  ldFrom("  width: 72\n", ""),
		at:   "  depth: 48",
		want: "field: width is missing (inches)",
	},
	{
		name: "grid columns out of range",
		src:  ldFrom("{columns: 8, rows: 6}", "{columns: 27, rows: 6}"),
		at:   "columns: 27",
		want: "field.grid.columns: 27 is out of range; allowed: 1..26 (lettered A..Z)",
	},
	{
		name: "field given twice",
		src:  ldFrom("title: A test battle\n", "title: A test battle\ntitle: again\n"),
		at:   "title: again",
		want: `scenario: field "title" is given twice`,
	},
	{
		name: "range out of range",
		src:  ldFrom("{id: quiot, quality: average, range: 4,", "{id: quiot, quality: average, range: 0,"),
		at:   "{id: quiot",
		want: "sides[0].corps[0].divisions[0].general.range: 0 is out of range; allowed: more than 0 up to 1000 inches",
	},
	{
		name: "position not a pair",
		src:  ldFrom("at: [17, 31]}", "at: [17]}"),
		at:   "at: [17]",
		want: "sides[0].corps[0].divisions[0].units[0].at: want a position [x, y] in inches, got a list",
	},
	{
		name: "id with a space",
		src:  ldFrom("      - id: II\n", "      - id: II corps\n"),
		at:   "id: II corps",
		want: `sides[0].corps[1].id: "II corps" has the character ' '; an id uses letters, digits and - . _`,
	},
	{
		name: "not valid YAML (scanner error)",
		src:  ldFrom("  depth: 48\n", "  depth: @48\n"),
		at:   "  depth: @48",
		want: "not valid YAML: found character that cannot start any token",
	},
}

func TestLoadBad(t *testing.T) {
	if len(ldBadCases) < 20 {
		t.Fatalf("only %d cases", len(ldBadCases))
	}
	for _, c := range ldBadCases {
		t.Run(c.name, func(t *testing.T) {
			src := c.src(t)
			_, err := battle.Load(ldFile, []byte(src), ldSpec)
			if err == nil {
				t.Fatalf("Load succeeded; want an error containing %q", c.want)
			}
			msg := err.Error()
			prefix := fmt.Sprintf("%s:%d: ", ldFile, ldLineOf(t, src, c.at))
			if !strings.HasPrefix(msg, prefix) {
				t.Errorf("error %q\ndoes not start with %q", msg, prefix)
			}
			if !strings.Contains(msg, c.want) {
				t.Errorf("error %q\ndoes not contain %q", msg, c.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error %q is more than one line", msg)
			}
		})
	}
}

func TestLoadEmpty(t *testing.T) {
	for _, src := range []string{"", "# only a comment\n"} {
		_, err := battle.Load(ldFile, []byte(src), ldSpec)
		if err == nil || err.Error() != "test.yaml: the file is empty; write a scenario: name, rules, field, sides" {
			t.Errorf("Load(%q) = %v", src, err)
		}
	}
}

func ldMustLoad(t *testing.T, src string) *battle.Scenario {
	t.Helper()
	sc, err := battle.Load(ldFile, []byte(src), ldSpec)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func TestLoadValid(t *testing.T) {
	sc := ldMustLoad(t, ldBase)
	if sc.Name != "test-battle" || sc.Title != "A test battle" || sc.Rules != "nb" || sc.Turns != 12 || sc.File != ldFile {
		t.Errorf("header: %q %q %q %d %q", sc.Name, sc.Title, sc.Rules, sc.Turns, sc.File)
	}
	if f := sc.Field; f.Width != 72 || f.Depth != 48 || f.Columns != 8 || f.Rows != 6 || len(f.Features) != 0 {
		t.Errorf("field = %+v", sc.Field)
	}
	if len(sc.Sides) != 2 || sc.Sides[0].ID != "french" || sc.Sides[1].ID != "british" {
		t.Fatalf("sides = %v", sc.Sides)
	}
	fr := sc.Side("french")
	if fr.Name != "Armée du Nord" || fr.Nation != "french" || fr.Edge != "south" || fr.Line != 11 {
		t.Errorf("french side = %+v", fr)
	}
	if a := fr.Army(); a.ID != "french" || a.Kind != battle.Army || a.General != "napoleon" || a.Parent != "" {
		t.Errorf("french army = %+v", a)
	}
	if got := sc.Enemy("french"); got != "british" {
		t.Errorf("Enemy(french) = %q", got)
	}
	i := sc.Formation("I")
	if i == nil || i.Kind != battle.Corps || i.Parent != "french" || i.General != "derlon" || i.Path != "sides[0].corps[0]" {
		t.Fatalf("corps I = %+v", i)
	}
	if i.Order == nil || i.Order.Kind != "defend" || i.Order.Objective == nil || *i.Order.Objective != geom.Pt(20, 24) || i.Order.Note != "hold the ridge" || i.Entry != nil {
		t.Errorf("corps I order = %+v", i.Order)
	}
	if o := sc.Formation("II").Order; o == nil || o.Kind != "attack" || o.Objective != nil {
		t.Errorf("corps II order = %+v", o)
	}
	if sc.Formation("I-1").Order != nil {
		t.Errorf("division I-1 has an order of its own")
	}
	if !slices.Equal(sc.Formation("I").Children, []string{"I-1"}) || !slices.Equal(sc.Formation("I-1").Units, []string{"I-1-a", "I-1-b"}) {
		t.Errorf("children %v, units %v", sc.Formation("I").Children, sc.Formation("I-1").Units)
	}
	if !sc.Formation("3rd").Independent(sc) || sc.Formation("I-1").Independent(sc) {
		t.Errorf("Independent: 3rd should be, I-1 should not")
	}
	g := sc.General("lefol")
	if g == nil || g.Commands != "III-1" || g.Quality != "average" || g.Range != 4 || g.At != geom.Pt(52, 31) || g.OffBoard || g.Side != "french" {
		t.Errorf("lefol = %+v", g)
	}
	u := sc.Unit("II-1-b")
	if u == nil || u.Type != "artillery" || u.Shape != "unlimbered" || u.Status != "formed" || u.Division != "II-1" || u.Speed != 6 || u.OffBoard {
		t.Errorf("II-1-b = %+v", u)
	}
	if u := sc.Unit("I-1-a"); u.Shape != "column" || u.Speed != 6 || u.Line != 24 {
		t.Errorf("I-1-a = %+v", u)
	}
	if u := sc.Unit("3rd-b"); u.Speed != 9 {
		t.Errorf("3rd-b speed = %v, want its own 9", u.Speed)
	}
	for id, what := range map[string]string{"french": "side", "I": "formation", "napoleon": "general", "3rd-a": "unit", "nobody": ""} {
		if got := sc.What(id); got != what {
			t.Errorf("What(%q) = %q, want %q", id, got, what)
		}
	}
	if len(sc.Generals()) != 9 || len(sc.Units()) != 7 || len(sc.Formations()) != 9 {
		t.Errorf("%d generals, %d units, %d formations", len(sc.Generals()), len(sc.Units()), len(sc.Formations()))
	}
}

func TestIDs(t *testing.T) {
	sc := ldMustLoad(t, ldBase)
	for _, c := range []struct {
		what string
		want []string
	}{
		{"formation", []string{"I", "I-1", "II", "II-1", "III", "III-1", "3rd"}},
		{"general", []string{"napoleon", "derlon", "quiot", "reille", "bachelu", "vandamme", "lefol", "wellington", "alten"}},
		{"unit", []string{"I-1-a", "I-1-b", "II-1-a", "II-1-b", "III-1-a", "3rd-a", "3rd-b"}},
		{"side", nil},
	} {
		if got := sc.IDs(c.what); !slices.Equal(got, c.want) {
			t.Errorf("IDs(%q) = %v, want %v", c.what, got, c.want)
		}
	}
}

func TestNotAReserve(t *testing.T) {
	sc := ldMustLoad(t, ldBase)
	if sc.ReserveOf("III-1") != nil || sc.OffBoard("III-1") {
		t.Errorf("III-1 is not a reserve in the base scenario")
	}
}

func TestOffBoardReserve(t *testing.T) {
	sc := ldMustLoad(t, ldReserveBase(t))
	iii := sc.Formation("III")
	if iii.Order == nil || iii.Order.Kind != "reserve" {
		t.Fatalf("III order = %+v", iii.Order)
	}
	if iii.Entry == nil || *iii.Entry != (battle.Entry{Square: "A3", Edge: "west", Then: battle.Order{Kind: "attack"}}) {
		t.Fatalf("III entry = %+v", iii.Entry)
	}
	for _, id := range []string{"III", "III-1"} {
		if r := sc.ReserveOf(id); r != iii {
			t.Errorf("ReserveOf(%q) = %v, want III", id, r)
		}
		if !sc.OffBoard(id) {
			t.Errorf("OffBoard(%q) = false", id)
		}
	}
	for _, id := range []string{"french", "I", "II-1", "3rd", "british"} {
		if sc.ReserveOf(id) != nil || sc.OffBoard(id) {
			t.Errorf("%s is not part of a reserve", id)
		}
	}
	for _, id := range []string{"vandamme", "lefol"} {
		if !sc.General(id).OffBoard {
			t.Errorf("general %s is not off board", id)
		}
	}
	if !sc.Unit("III-1-a").OffBoard {
		t.Errorf("unit III-1-a is not off board")
	}
	for _, g := range sc.Generals() {
		if g.OffBoard != (g.ID == "vandamme" || g.ID == "lefol") {
			t.Errorf("general %s OffBoard = %v", g.ID, g.OffBoard)
		}
	}
	for _, u := range sc.Units() {
		if u.OffBoard != (u.ID == "III-1-a") {
			t.Errorf("unit %s OffBoard = %v", u.ID, u.OffBoard)
		}
	}
	// A corner is fine with its edge named; a division can be a reserve too.
	sc = ldMustLoad(t, ldEdit(t, ldReserveBase(t), "entry: A3,", "entry: H6, edge: south,"))
	if e := sc.Formation("III").Entry; e.Square != "H6" || e.Edge != "south" {
		t.Errorf("entry = %+v", e)
	}
	sc = ldMustLoad(t, ldEdit(t, ldBase,
		"        order: defend\n        units:", "        order: {kind: reserve, entry: D1, then: {kind: attack, objective: [36, 40]}}\n        units:",
		"{id: alten, quality: good, range: 4, at: [36, 5]}", "{id: alten, quality: good, range: 4}",
		"at: [34, 5]}", "}", "at: [38, 5], speed: 9}", "speed: 9}"))
	if e := sc.Formation("3rd").Entry; e == nil || e.Square != "D1" || e.Edge != "north" || e.Then.Kind != "attack" || *e.Then.Objective != geom.Pt(36, 40) {
		t.Errorf("3rd entry = %+v", e)
	}
	if r := sc.ReserveOf("3rd"); r == nil || r.ID != "3rd" || !sc.Unit("3rd-a").OffBoard || !sc.General("alten").OffBoard {
		t.Errorf("3rd is not an off-board reserve")
	}
}

func TestSquare(t *testing.T) {
	f := battle.Field{Width: 72, Depth: 48, Columns: 8, Rows: 6}
	r, err := f.Square("B9")
	if err == nil {
		t.Errorf("B9 on a 6-row grid = %v, want an error", r)
	}
	f = battle.Field{Width: 72, Depth: 48, Columns: 8, Rows: 12}
	r, err = f.Square("B9")
	if err != nil {
		t.Fatal(err)
	}
	// columns 9 inches wide, rows 4 deep: B is x 9..18, row 9 is y 32..36.
	if want := (geom.Rect{Min: geom.Pt(9, 32), Max: geom.Pt(18, 36)}); r != want {
		t.Errorf("B9 = %v, want %v", r, want)
	}
	if got := f.EdgesOf(r); len(got) != 0 {
		t.Errorf("EdgesOf(B9) = %v, want none", got)
	}
	for _, c := range []struct {
		sq    string
		edges []string
		mids  []geom.Point
	}{
		{"A1", []string{"north", "west"}, []geom.Point{geom.Pt(4.5, 0), geom.Pt(0, 2)}},
		{"H12", []string{"south", "east"}, []geom.Point{geom.Pt(67.5, 48), geom.Pt(72, 46)}},
		{"D1", []string{"north"}, []geom.Point{geom.Pt(31.5, 0)}},
		{"H5", []string{"east"}, []geom.Point{geom.Pt(72, 18)}},
		{"A7", []string{"west"}, []geom.Point{geom.Pt(0, 26)}},
		{"C12", []string{"south"}, []geom.Point{geom.Pt(22.5, 48)}},
	} {
		r, err := f.Square(c.sq)
		if err != nil {
			t.Fatalf("%s: %v", c.sq, err)
		}
		got := f.EdgesOf(r)
		if !slices.Equal(got, c.edges) {
			t.Errorf("EdgesOf(%s) = %v, want %v", c.sq, got, c.edges)
			continue
		}
		for i, e := range c.edges {
			if m := f.EdgeMid(r, e); m != c.mids[i] {
				t.Errorf("EdgeMid(%s, %s) = %v, want %v", c.sq, e, m, c.mids[i])
			}
		}
	}
	// A one-column grid: every square touches east and west.
	one := battle.Field{Width: 10, Depth: 10, Columns: 1, Rows: 3}
	r, _ = one.Square("A2")
	if got := one.EdgesOf(r); !slices.Equal(got, []string{"east", "west"}) {
		t.Errorf("one-column EdgesOf(A2) = %v", got)
	}
	for _, bad := range []string{"", "B", "b9", "I1", "A0", "A13", "A-1", "AA", "9B", "Ä1"} {
		if r, err := f.Square(bad); err == nil {
			t.Errorf("Square(%q) = %v, want an error", bad, r)
		} else if !strings.Contains(err.Error(), "columns A..H and rows 1..12") {
			t.Errorf("Square(%q): %v", bad, err)
		}
	}
	if _, err := (battle.Field{Width: 72, Depth: 48}).Square("A1"); err == nil || !strings.Contains(err.Error(), "the field has no entry grid") {
		t.Errorf("Square without a grid: %v", err)
	}
}

// TestLoadYAMLParserErrorLine checks that a YAML parser error (as opposed
// to a scanner error) is placed on its own line: go.yaml.in/yaml/v3 reports
// the 0-based line of its parser marks, which strict.Reader.Parse corrects.
func TestLoadYAMLParserErrorLine(t *testing.T) {
	for _, c := range []struct{ old, new, at string }{
		{"  depth: 48\n", "  depth: [48\n", "  depth: [48"},
		{"turns: 12\n", "turns: 12\n- oops\n", "- oops"},
	} {
		src := ldEdit(t, ldBase, c.old, c.new)
		_, err := battle.Load(ldFile, []byte(src), ldSpec)
		prefix := fmt.Sprintf("%s:%d: not valid YAML", ldFile, ldLineOf(t, src, c.at))
		if err == nil || !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("error %v, want it to start with %q", err, prefix)
		}
	}
}
