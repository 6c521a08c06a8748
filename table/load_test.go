package table

import (
	"math/big"
	"strings"
	"testing"

	"orderly/dice"
)

const base = `
tables:
  - id: t/basic
    rule: T-1
    title: A test table
    dice: 1d10
    params:
      - name: quality
        kind: enum
        default: average
        values: {good: 1, average: 0, poor: -2}
      - {name: tired, kind: bool, default: "false", mod: -1}
      - {name: bonus, kind: int, default: "0", min: 0, max: 5, per: 1}
    results:
      - {key: bad}
      - {key: fair}
      - {key: good}
    naturals: {1: bad}
    bands:
      "<=3": bad
      "4..7": fair
      ">=8": good
lookups:
  - id: t/grid
    rule: T-2
    title: A grid
    params:
      - {name: a, kind: enum, values: [x, y]}
      - {name: n, kind: int, min: 1}
    cells:
      x: {"1..2": "1", ">=3": "2"}
      y: {"1..2": "3/4", ">=3": "1-1/2 (slow)"}
`

func load(t *testing.T, builtin string, house ...string) (*Set, error) {
	t.Helper()
	var hs []Source
	for i, h := range house {
		hs = append(hs, Source{Name: "house" + string(rune('0'+i)) + ".yaml", Data: []byte(h)})
	}
	return Load([]Source{{Name: "base.yaml", Data: []byte(builtin)}}, hs...)
}

func TestBasicTable(t *testing.T) {
	s, err := load(t, base)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := s.Table("t/basic")
	if err != nil {
		t.Fatal(err)
	}
	a, err := tb.Bind(map[string]string{"quality": "good", "bonus": "2"})
	if err != nil {
		t.Fatal(err)
	}
	o, err := tb.Odds(a)
	if err != nil {
		t.Fatal(err)
	}
	// Modifier +3: totals 4..13, natural 1 is bad; natural 2..4 fair, 5..10 good.
	want := map[string]*big.Rat{"bad": big.NewRat(1, 10), "fair": big.NewRat(3, 10), "good": big.NewRat(6, 10)}
	for k, p := range want {
		if o.P(k).Cmp(p) != 0 {
			t.Errorf("P(%s) = %s, want %s", k, o.P(k), p)
		}
	}
	r, err := tb.Resolve(a, dice.NewScripted(4))
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != 7 || r.Result != "fair" || r.Modifier != 3 {
		t.Errorf("roll 4: %+v", r)
	}
	if !strings.Contains(r.Reason, "4..7") {
		t.Errorf("reason %q does not name the band", r.Reason)
	}
}

func TestLookupGrid(t *testing.T) {
	s, err := load(t, base)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.FindLookup("t/grid")
	if err != nil {
		t.Fatal(err)
	}
	c, err := l.Get(map[string]string{"a": "y", "n": "7"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Num.Cmp(big.NewRat(3, 2)) != 0 || c.Note != "slow" {
		t.Errorf("cell %+v, want 3/2 with note slow", c)
	}
	if _, err := l.Get(map[string]string{"a": "y"}); err == nil || !strings.Contains(err.Error(), "n is required") {
		t.Errorf("missing n: %v", err)
	}
	if _, err := l.Get(map[string]string{"a": "y", "n": "0"}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("n=0: %v", err)
	}
}

func TestParseCell(t *testing.T) {
	legend := []Code{{"G", "general order"}, {"D", "disorders"}, {"P", "prohibited"}}
	cases := map[string]struct {
		num   *big.Rat
		codes string
	}{
		"18":       {big.NewRat(18, 1), ""},
		"+8":       {big.NewRat(8, 1), ""},
		"-1\"":     {big.NewRat(-1, 1), ""},
		"1/2":      {big.NewRat(1, 2), ""},
		"1-1/2":    {big.NewRat(3, 2), ""},
		"2G":       {big.NewRat(2, 1), "G"},
		"+1D":      {big.NewRat(1, 1), "D"},
		"P":        {nil, "P"},
		"2 (2 AP)": {big.NewRat(2, 1), ""},
		"same":     {nil, ""},
		"2.5":      {big.NewRat(5, 2), ""},
	}
	for in, want := range cases {
		c := parseCell(in, legend)
		if (c.Num == nil) != (want.num == nil) || (c.Num != nil && c.Num.Cmp(want.num) != 0) {
			t.Errorf("parseCell(%q) number %v, want %v", in, c.Num, want.num)
		}
		if strings.Join(c.Codes, "") != want.codes {
			t.Errorf("parseCell(%q) codes %v, want %q", in, c.Codes, want.codes)
		}
	}
}

// TestLoadErrors checks that each broken file gives one line that names the
// file, the line and what is wrong.
func TestLoadErrors(t *testing.T) {
	cases := []struct {
		name, house, want string
	}{
		{"syntax", "tables: [", "house0.yaml:1: not valid YAML"},
		{"unknown field", "tables:\n  - id: t/basic\n    bandz: {}\n", `house0.yaml:3: table t/basic: unknown field "bandz" (did you mean bands?)`},
		{"top level", "tabels: []\n", `house0.yaml:1: file: unknown field "tabels" (did you mean tables?)`},
		{"gap", "tables:\n  - id: t/basic\n    bands:\n      \"<=3\": bad\n      \"5..7\": fair\n      \">=8\": good\n", "leave a gap at 4"},
		{"overlap", "tables:\n  - id: t/basic\n    bands:\n      \"<=3\": bad\n      \"3..7\": fair\n      \">=8\": good\n", "overlap"},
		{"closed low", "tables:\n  - id: t/basic\n    bands:\n      \"1..3\": bad\n      \">=4\": good\n", "must be open below"},
		{"closed high", "tables:\n  - id: t/basic\n    bands:\n      \"<=3\": bad\n      \"4..9\": good\n", "must be open above"},
		{"unknown result", "tables:\n  - id: t/basic\n    bands:\n      \"<=3\": bda\n      \">=4\": good\n", `result "bda", which is not in results (did you mean bad?)`},
		{"bad range", "tables:\n  - id: t/basic\n    bands:\n      \"three\": bad\n", `house0.yaml:4: table t/basic: bands: "three" is not a range`},
		{"bad int", "tables:\n  - id: t/basic\n    params:\n      - {name: bonus, max: lots}\n", `house0.yaml:4: table t/basic: parameter bonus: max: want a whole number`},
		{"bad kind", "tables:\n  - id: t/new\n    rule: X\n    title: x\n    dice: 1d6\n    params:\n      - {name: q, kind: float}\n", `kind "float" is not one of enum, int, bool`},
		{"bad dice", "tables:\n  - id: t/basic\n    dice: 2x6\n", `house0.yaml:3: table t/basic: dice "2x6"`},
		{"default not a value", "tables:\n  - id: t/basic\n    params:\n      - {name: quality, default: superb}\n", `quality=superb is not allowed`},
		{"duplicate key", "tables:\n  - id: t/basic\n    title: a\n    title: b\n", `house0.yaml:4: table t/basic: field "title" is given twice`},
		{"missing id", "tables:\n  - title: x\n", "house0.yaml:2: table: field id is missing"},
		{"empty", "", "the file is empty"},
		{"new table incomplete", "tables:\n  - id: t/new\n    dice: 1d6\n", "table t/new: field title is missing"},
		{"unknown rows-by", "tables:\n  - id: t/basic\n    rows-by: colour\n", `rows-by names "colour"`},
		{"lookup missing cell", "lookups:\n  - id: t/grid\n    cells:\n      x: {\"1..2\": \"1\", \">=3\": \"2\"}\n", "a=y has no entry"},
		{"lookup range gap", "lookups:\n  - id: t/grid\n    cells:\n      x: {\"1..2\": \"1\", \">=4\": \"2\"}\n      y: {\"1..2\": \"1\", \">=3\": \"2\"}\n", "leave a gap at 3"},
		{"lookup parameter twice", "lookups:\n  - id: t/dup\n    rule: X-1\n    title: dup\n    params:\n      - {name: a, kind: enum, values: [p, q]}\n      - {name: a, kind: enum, values: [p, q]}\n    cells:\n      p: {p: \"1\", q: \"2\"}\n      q: {p: \"3\", q: \"4\"}\n", "parameter a is given twice"},
		{"lucky sideways", "tables:\n  - id: t/basic\n    lucky: middle\n", `house0.yaml:3: table t/basic: lucky "middle" is not a direction; allowed: high (a high roll is lucky for the side that rolls it), low`},
		{"unless not bool", "tables:\n  - id: t/basic\n    params:\n      - {name: tired, unless: quality}\n", `unless names "quality", which is not a bool`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := load(t, base, c.house)
			if err == nil {
				t.Fatalf("loaded without error; want %q", c.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, c.want) {
				t.Errorf("error %q\n does not contain %q", msg, c.want)
			}
			if strings.Contains(msg, "\n") {
				t.Errorf("error spans lines: %q", msg)
			}
		})
	}
}

// TestLucky reads a table's lucky key, and a house rule that turns it.
func TestLucky(t *testing.T) {
	s, err := load(t, base)
	if err != nil {
		t.Fatal(err)
	}
	if tb, _ := s.Table("t/basic"); tb.Lucky != "" {
		t.Errorf("a table without lucky reads %q; want none", tb.Lucky)
	}
	s, err = load(t, strings.Replace(base, "    dice: 1d10\n", "    dice: 1d10\n    lucky: high\n", 1), "tables:\n  - id: t/basic\n    lucky: low\n")
	if err != nil {
		t.Fatal(err)
	}
	if tb, _ := s.Table("t/basic"); tb.Lucky != LuckyLow {
		t.Errorf("lucky after the house rule is %q; want %s", tb.Lucky, LuckyLow)
	}
}

func TestHouseRulesMerge(t *testing.T) {
	house := `
tables:
  - id: t/basic
    params:
      - name: quality
        values: {poor: -1, superb: 3}
      - {name: tired, mod: -3}
    bands:
      "<=2": bad
      "3..7": fair
      ">=8": good
  - id: t/extra
    rule: H-1
    title: A house table
    dice: 2d6
    results: [{key: yes}, {key: no}]
    bands: {"<=6": no, ">=7": yes}
`
	s, err := load(t, base, house)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := s.Table("t/basic")
	q := tb.Param("quality")
	if got := strings.Join(q.Names(), ","); got != "good,average,poor,superb" {
		t.Errorf("merged values %s", got)
	}
	a, _ := tb.Bind(map[string]string{"quality": "poor", "tired": "true"})
	r, err := tb.Resolve(a, dice.NewScripted(7))
	if err != nil {
		t.Fatal(err)
	}
	if r.Total != 3 || r.Result != "fair" {
		t.Errorf("house roll: total %d result %s, want 3 fair (band 3..7 after the house rule)", r.Total, r.Result)
	}
	if tb.Param("bonus") == nil {
		t.Error("house rule dropped a parameter it did not name")
	}
	if _, err := s.Table("t/extra"); err != nil {
		t.Error(err)
	}
	// The built-in set is not changed by loading house rules.
	plain, _ := load(t, base)
	pt, _ := plain.Table("t/basic")
	if len(pt.Param("quality").Values) != 3 {
		t.Error("house rules leaked into a set loaded without them")
	}
}

func TestBindErrors(t *testing.T) {
	s, err := load(t, base)
	if err != nil {
		t.Fatal(err)
	}
	tb, _ := s.Table("t/basic")
	cases := map[string]map[string]string{
		`unknown parameter "qualty" (did you mean quality?); allowed: quality, tired, bonus`: {"qualty": "good"},
		`quality=goood is not allowed (did you mean good?); allowed: good, average, poor`:    {"quality": "goood"},
		`bonus=9 is out of range; allowed: whole numbers 0..5`:                               {"bonus": "9"},
		`bonus=x is not a whole number`:                                                      {"bonus": "x"},
		`tired=yes is not allowed; allowed: true, false`:                                     {"tired": "yes"},
	}
	for want, in := range cases {
		_, err := tb.Bind(in)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "t/basic: ") {
			t.Errorf("Bind(%v) = %v, want %q", in, err, want)
		}
	}
	if _, err := s.Table("t/basics"); err == nil || !strings.Contains(err.Error(), "did you mean t/basic") {
		t.Errorf("near match: %v", err)
	}
	if _, err := s.Table("t/grid"); err == nil || !strings.Contains(err.Error(), "lookup table") {
		t.Errorf("lookup as dice table: %v", err)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add(base)
	f.Add("tables:\n  - id: t/basic\n    bands: {\"<=1\": bad, \">=2\": good}\n")
	f.Add("lookups:\n  - id: x\n    rule: R\n    title: t\n    params: [{name: a, kind: int, min: 1}]\n    cells: {\"1..\": \"2\"}\n")
	f.Add("tables:\n  - id: p\n    rule: R\n    title: t\n    dice: 1d6\n    params: [{name: n, kind: int, min: 0}]\n    pool: {count: n, result: c, stages: [{name: s, need: 4, keep: pass}]}\n")
	f.Add("tables: [{id: a, rows-by: q, rows: {x: fixed}}]")
	f.Fuzz(func(t *testing.T, house string) {
		s, err := Load([]Source{{Name: "base.yaml", Data: []byte(base)}}, Source{Name: "h.yaml", Data: []byte(house)})
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error: %q", err)
			}
			return
		}
		// Whatever loads must give odds that sum to one and rolls that work.
		for _, tb := range s.Tables() {
			a, err := tb.Bind(nil)
			if err != nil {
				continue
			}
			o, err := tb.Odds(a)
			if err != nil {
				continue
			}
			sum := new(big.Rat)
			for _, c := range o.Outcomes {
				sum.Add(sum, o.Rat(c))
			}
			if sum.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%s: odds sum to %s", tb.ID, sum)
			}
			if _, err := tb.Resolve(a, dice.NewSeeded(1)); err != nil && !strings.Contains(err.Error(), "too many") {
				t.Errorf("%s: resolve: %v", tb.ID, err)
			}
		}
	})
}
