package rules

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"orderly/table"
)

// counting is a loader that records the name of every file it parses,
// built-in and house, call by call.
type counting struct{ calls [][]string }

func (c *counting) load(builtin []table.Source, house ...table.Source) (*table.Set, error) {
	var names []string
	for _, s := range append(slices.Clone(builtin), house...) {
		names = append(names, s.Name)
	}
	c.calls = append(c.calls, names)
	return table.Load(builtin, house...)
}

// find is the dice or lookup table id of set, or nil.
func find(set *table.Set, id string) any {
	if l := set.Lookup(id); l != nil {
		return l
	}
	if t, err := set.Table(id); err == nil {
		return t
	}
	return nil
}

// TestLoadForParsesOne: answering a table of one rule set parses that rule
// set's tables file and no other's, and finds the table just as the full
// load does.
func TestLoadForParsesOne(t *testing.T) {
	full, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range full.IDs() {
		var c counting
		set, err := Default().loadFor(c.load, id, nil)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		set0, _, _ := strings.Cut(id, "/")
		want := [][]string{{"rules/" + set0 + "/tables.yaml"}}
		if !reflect.DeepEqual(c.calls, want) {
			t.Errorf("%s: parsed %v, want %v", id, c.calls, want)
		}
		if got, want := find(set, id), find(full, id); got == nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: found %+v, want %+v", id, got, want)
		}
	}
}

// TestLoadForHouse: with house rules, the rule sets whose tables they
// change are read too, and what the table commands print is the full
// load's: the table changed, and every error word for word.
func TestLoadForHouse(t *testing.T) {
	variant, err := os.ReadFile("../examples/rules/bp-command-variant.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, id, house string
		parsed          [][]string // nil: everything, last (after the subset, if listed)
	}{
		{"variant, its own table", "bp/command", string(variant),
			[][]string{{"rules/bp/tables.yaml", "HOUSE"}}},
		{"variant, another rule set's table", "nb/order-delay", string(variant),
			[][]string{{"rules/nb/tables.yaml", "rules/bp/tables.yaml", "HOUSE"}}},
		{"a new table of no rule set", "house/x", `
tables:
  - {id: house/x, rule: H-1, title: x, dice: 1d6, results: [{key: a}], bands: {"<=3": a, ">=4": a}}
`, [][]string{{"HOUSE"}}},
		// A new table reading another rule set's lookup: the subset lacks
		// it, so everything is read, as Load does.
		{"a link across rule sets", "nb/x", `
tables:
  - id: nb/x
    rule: H-1
    title: x
    dice: 1d6
    params:
      - {name: style, kind: enum, values: [ad-hoc, established, french-model, glory-years]}
      - {name: roll, kind: int, default: "1", min: 1}
    derived: [{name: d, lookup: cd/command-style, args: [style, roll]}]
    results: [{key: a}]
    bands: {"<=99": a}
`, nil},
		{"a typo", "nb/order-dealy", "", nil},
		{"no rule set named", "order-delay", "", nil},
		{"a lookup asked as a table", "nb/orders-per-turn", "", [][]string{{"rules/nb/tables.yaml"}}},
		{"bad YAML", "nb/order-delay", "tables: [", nil},
		{"bad table", "nb/order-delay", `
tables:
  - id: nb/order-delay
    bands: {"<=0": nowhere}
`, nil},
		{"bad table of another rule set", "nb/order-delay", `
tables:
  - id: bp/command
    bands: {"<=0": nowhere}
`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var house []table.Source
			if tc.house != "" {
				house = []table.Source{{Name: "HOUSE", Data: []byte(tc.house)}}
			}
			var c counting
			set, err := Default().loadFor(c.load, tc.id, house)
			full, fullErr := table.Load(Builtin(), house...)
			if tc.parsed == nil {
				all := append(names(Builtin()), names(house)...)
				if n := len(c.calls); n == 0 || n > 2 || !reflect.DeepEqual(c.calls[n-1], all) {
					t.Errorf("parsed %v, want at most the subset and then %v", c.calls, all)
				}
			} else if !reflect.DeepEqual(c.calls, tc.parsed) {
				t.Errorf("parsed %v, want %v", c.calls, tc.parsed)
			}
			if fullErr != nil || err != nil {
				if errText(err) != errText(fullErr) {
					t.Errorf("error %q, want Load's %q", errText(err), errText(fullErr))
				}
				return
			}
			if _, err := set.Table(tc.id); err != nil {
				_, fullErr := full.Table(tc.id)
				if fullErr == nil || err.Error() != fullErr.Error() {
					t.Errorf("Table(%s): %v, want Load's %v", tc.id, err, fullErr)
				}
			}
			if got, want := find(set, tc.id), find(full, tc.id); !reflect.DeepEqual(got, want) {
				t.Errorf("found %+v, want %+v", got, want)
			}
		})
	}
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

func names(srcs []table.Source) []string {
	var out []string
	for _, s := range srcs {
		out = append(out, s.Name)
	}
	return out
}

// TestBuiltinApart: each built-in rule set's tables file loads alone, and
// every id in it begins with its rule set's id, which is what lets
// LoadFor read only the rule set a table's id names.
func TestBuiltinApart(t *testing.T) {
	for _, b := range Default().entries {
		if b.Tables == nil {
			continue
		}
		set, err := table.Load([]table.Source{b.Tables()})
		if err != nil {
			t.Errorf("%s alone: %v", b.ID, err)
			continue
		}
		for _, id := range set.IDs() {
			if !strings.HasPrefix(id, b.ID+"/") {
				t.Errorf("%s: table %s does not begin with %s/", b.ID, id, b.ID)
			}
		}
	}
}
