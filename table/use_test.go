package table

import (
	"strconv"
	"testing"
)

// uses is what an imagined procedure passes to the test tables of base.
func uses() []Use {
	return []Use{
		{Table: "t/basic", Rule: "T-1", Params: []Pass{
			{Name: "quality", Kind: Enum, Values: []string{"good", "average", "poor"}},
			{Name: "tired", Kind: Bool, Values: []string{"false", "true"}},
			{Name: "bonus", Kind: Int, Values: []string{"0", "5"}},
		}},
		{Table: "t/grid", Rule: "T-2", Params: []Pass{
			{Name: "a", Kind: Enum, Values: []string{"x", "y"}},
			{Name: "n", Kind: Int, Values: []string{"1", "3"}},
		}},
	}
}

// TestCheckUses: known answers of Set.Check for int and bool parameters,
// results read as numbers, and where each problem is placed.
func TestCheckUses(t *testing.T) {
	s, err := load(t, base)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check("T", uses()); err != nil {
		t.Fatalf("the base tables: %v", err)
	}
	cases := []struct {
		name, house string
		uses        func([]Use) []Use
		want        string
	}{
		{"int out of range", "tables:\n  - id: t/basic\n    params:\n      - {name: bonus, max: 4}\n", nil,
			"house0.yaml:4: table t/basic: parameter bonus does not take 5, which the T procedures may pass (T-1); allowed: whole numbers 0..4; add 5"},
		{"bool made an int", "", func(u []Use) []Use {
			u[0].Params[2].Kind = Bool
			return u
		}, "base.yaml:13: table t/basic: parameter bonus is an int, but the T procedures pass it as a bool (T-1); make it a bool again"},
		{"results read as numbers", "", func(u []Use) []Use {
			u[0].Number = &Number{What: "the score"}
			return u
		}, "base.yaml:3: table t/basic: result bad can come up with quality=good tired=false bonus=0 but has no value, and the T procedures read it as the score (T-1); give it a value"},
		{"house values out of bounds", "tables:\n  - id: t/basic\n    results:\n      - {key: bad, value: 0}\n      - {key: fair, value: 1}\n      - {key: good, value: 9}\n", func(u []Use) []Use {
			hi := 8
			u[0].Number = &Number{What: "the score", Max: &hi}
			return u
		}, "house0.yaml:2: table t/basic: result good can come up with quality=good tired=false bonus=0 and has value 9, but the T procedures read it as the score (T-1); allowed: 8 or less"},
		{"a result the procedures do not know", "", func(u []Use) []Use {
			u[0].Results = []string{"good", "fair"}
			return u
		}, "base.yaml:3: table t/basic: result bad can come up with quality=good tired=false bonus=0, but the T procedures know only good, fair (T-1); use those results"},
		{"cells read as numbers", "", func(u []Use) []Use {
			u[1].Number = &Number{What: "the rate"}
			return u
		}, `base.yaml:24: lookup t/grid: a=y n=1 gives "3/4", but the T procedures read it as the rate, a whole number (T-2); give a whole number`},
		{"bool not passed is fine, required is not", "tables:\n  - id: t/basic\n    params:\n      - {name: tired, default: \"\", required: true}\n", func(u []Use) []Use {
			u[0].Params = u[0].Params[:1]
			return u
		}, "house0.yaml:4: table t/basic: parameter tired is required, but the T procedures pass only quality (T-1); make it optional with a default (e.g. required: false, default: false)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var house []string
			if c.house != "" {
				house = append(house, c.house)
			}
			s, err := load(t, base, house...)
			if err != nil {
				t.Fatal(err)
			}
			u := uses()
			if c.uses != nil {
				u = c.uses(u)
			}
			err = s.Check("T", u)
			if err == nil || err.Error() != c.want {
				t.Errorf("got  %v\nwant %s", err, c.want)
			}
		})
	}
}

// TestCheckManyValues: past maxCombos combinations each value is still
// tried (with the other parameters at their first value).
func TestCheckManyValues(t *testing.T) {
	s, err := load(t, base, "tables:\n  - id: t/basic\n    params:\n      - {name: bonus, max: 100000}\n")
	if err != nil {
		t.Fatal(err)
	}
	var vals []string
	for i := range 5000 {
		vals = append(vals, strconv.Itoa(i))
	}
	u := []Use{{Table: "t/basic", Rule: "T-1", Params: []Pass{
		{Name: "quality", Kind: Enum, Values: []string{"good", "average", "poor"}},
		{Name: "bonus", Kind: Int, Values: vals},
	}}}
	if err := s.Check("T", u); err != nil {
		t.Fatal(err)
	}
	u[0].Params[1].Values = append(vals, "100001")
	want := "house0.yaml:4: table t/basic: parameter bonus does not take 100001, which the T procedures may pass (T-1); allowed: whole numbers 0..100000; add 100001"
	if err := s.Check("T", u); err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	hi := 4
	u[0].Params[1].Values = vals
	u[0].Number = &Number{What: "the score", Max: &hi}
	if err := s.Check("T", u); err == nil {
		t.Error("results without values passed")
	}
}
