package battle_test

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"orderly/battle"
)

func bound(x float64) *float64 { return &x }

// testRules is a rule set defined for the test, as BP or NES would be:
// words of its own, and attributes of its own on generals (a staff
// rating), units (a class die and a strength) and formations (elite, a
// motto). Its check: a d10 unit serves in an elite division.
type testRules struct{}

func (testRules) ID() string { return "test" }

func (testRules) Vocab() battle.Vocab {
	return battle.Vocab{Qualities: []string{"dashing", "steady", "cautious"}, Nations: []string{"blue", "grey"}, Orders: []string{"attack", "defend", "reserve"}}
}

func (r testRules) Spec() battle.Spec {
	return battle.Spec{ID: r.ID(), Vocab: r.Vocab(), Attrs: []battle.Attr{
		{On: battle.OnGeneral, Name: "staff", Doc: "Staff rating, added to command rolls.", Type: battle.AttrInteger, Min: bound(5), Max: bound(10), Required: true},
		{On: battle.OnUnit, Name: "class", Doc: "The unit's class die.", Type: battle.AttrWord, Values: []string{"d6", "d8", "d10"}},
		{On: battle.OnUnit, Name: "strength", Doc: "Strength points.", Type: battle.AttrNumber, Min: bound(0), Max: bound(40), Unit: "points"},
		{On: battle.OnFormation, Name: "elite", Doc: "Whether the formation is elite.", Type: battle.AttrBool},
		{On: battle.OnFormation, Name: "motto", Doc: "The formation's motto.", Type: battle.AttrText},
	}}
}

func (testRules) Check(sc *battle.Scenario) error {
	for _, u := range sc.Units() {
		d := sc.Formation(u.Division)
		if u.Attrs["class"] == "d10" && d.Attrs["elite"] != true {
			return &battle.PathError{Path: u.Path, Line: u.Line, Msg: fmt.Sprintf("a d10 unit serves in an elite division; %s is not", d.ID)}
		}
	}
	return nil
}

// findTest finds the test rule set, and no other.
func findTest(id string) (battle.RuleSet, error) {
	if id == "test" {
		return testRules{}, nil
	}
	return nil, fmt.Errorf("rule set %q is not known; allowed: test", id)
}

var testSpec = battle.SpecOf(testRules{})

// testBase is a valid scenario for the test rule set.
const testBase = `name: test-attrs
rules: test
field: {width: 48, depth: 48}
speeds: {infantry: 6}
sides:
  - id: blue
    nation: blue
    edge: south
    army: {id: b-c, quality: dashing, range: 12, staff: 8, at: [24, 44]}
    divisions:
      - id: b-1
        elite: true
        motto: Forward
        general: {id: b-1-g, quality: steady, range: 4, staff: 5, at: [24, 40]}
        order: attack
        units:
          - {id: b-1-a, type: infantry, at: [24, 41], class: d10, strength: 12.5}
          - {id: b-1-b, type: infantry, at: [26, 41]}
  - id: grey
    nation: grey
    edge: north
    army: {id: g-c, quality: cautious, range: 12, staff: 10, at: [24, 4]}
    divisions:
      - id: g-1
        general: {id: g-1-g, quality: steady, range: 4, staff: 6, at: [24, 8]}
        order: defend
        units:
          - {id: g-1-a, type: infantry, class: d6, at: [24, 7]}
`

// TestRuleSetAttributes: a rule set's own attributes are read into the
// pieces' Attrs, by their types.
func TestRuleSetAttributes(t *testing.T) {
	sc, err := battle.Read("t.yaml", []byte(testBase), findTest)
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.General("b-c").Attrs["staff"]; got != 8 {
		t.Errorf("b-c staff = %#v, want the int 8", got)
	}
	b1 := sc.Formation("b-1")
	if b1.Attrs["elite"] != true || b1.Attrs["motto"] != "Forward" {
		t.Errorf("b-1 attrs = %v", b1.Attrs)
	}
	if a := sc.Unit("b-1-a").Attrs; a["class"] != "d10" || a["strength"] != 12.5 {
		t.Errorf("b-1-a attrs = %v", a)
	}
	if a := sc.Unit("b-1-b").Attrs; a != nil {
		t.Errorf("b-1-b gives no attribute, has %v", a)
	}
	if a := sc.Formation("g-1").Attrs; a != nil {
		t.Errorf("g-1 gives no attribute, has %v", a)
	}
}

// TestRuleSetMessages: the attributes are checked like the format's own
// fields, the rule set's Check is placed at its line, and another rule
// set's attributes are unknown fields.
func TestRuleSetMessages(t *testing.T) {
	for _, c := range []struct {
		name     string
		base     string // testBase if empty
		old, new string
		at       string
		want     string
		find     func(string) (battle.RuleSet, error)
	}{
		{name: "staff missing", old: ", staff: 5,", new: ",", at: "{id: b-1-g",
			want: "sides[0].divisions[0].general: staff is missing"},
		{name: "staff out of range", old: "staff: 10", new: "staff: 11", at: "staff: 11",
			want: "sides[1].army.staff: 11 is out of range; allowed: 5..10"},
		{name: "staff not whole", old: "staff: 10", new: "staff: 7.5", at: "staff: 7.5",
			want: `sides[1].army.staff: want a whole number between -1000000 and 1000000, got "7.5"`},
		{name: "class misspelt", old: "class: d6", new: "class: d7", at: "class: d7",
			want: `sides[1].divisions[0].units[0].class: "d7" is not one of d6, d8, d10 (did you mean d6?)`},
		{name: "strength out of range", old: "strength: 12.5", new: "strength: 41", at: "strength: 41",
			want: "sides[0].divisions[0].units[0].strength: 41 is out of range; allowed: 0 up to 40 points"},
		{name: "elite not a boolean", old: "elite: true", new: "elite: yes", at: "elite: yes",
			want: `sides[0].divisions[0].elite: want true or false, got "yes"`},
		{name: "attribute misspelt", old: "motto: Forward", new: "moto: Forward", at: "moto: Forward",
			want: `sides[0].divisions[0]: unknown field "moto" (did you mean motto?); allowed: id, name, general, order, units, elite, motto`},
		{name: "the rule set's check", old: "        elite: true\n", new: "", at: "{id: b-1-a",
			want: "sides[0].divisions[0].units[0]: a d10 unit serves in an elite division; b-1 is not"},
		{name: "an unknown rule set", old: "rules: test", new: "rules: nope", at: "rules: nope",
			want: `rules: rule set "nope" is not known; allowed: test`},
		{name: "the rule set before the rest", old: "rules: test\n", new: "rules: nope\ncolour: red\n", at: "rules: nope",
			want: `rules: rule set "nope" is not known; allowed: test`},
		{name: "NB has no staff", base: ldBase, old: "range: 12, at: [36, 44]}", new: "range: 12, staff: 8, at: [36, 44]}", at: "staff: 8",
			want: `sides[0].army: unknown field "staff"; allowed: id, name, quality, range, at`,
			find: func(string) (battle.RuleSet, error) { return nbRules{}, nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := c.base
			if base == "" {
				base = testBase
			}
			src := ldEdit(t, base, c.old, c.new)
			find := c.find
			if find == nil {
				find = findTest
			}
			_, err := battle.Read("t.yaml", []byte(src), find)
			if err == nil {
				t.Fatalf("Read accepts it; want %q", c.want)
			}
			prefix := fmt.Sprintf("t.yaml:%d: ", ldLineOf(t, src, c.at))
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, c.want) {
				t.Errorf("error %q\nwant %q and then %q", msg, prefix, c.want)
			}
		})
	}
}

// nbRules is the NB rule set as far as reading a scenario goes: its
// vocabulary and no attributes or checks.
type nbRules struct{}

func (nbRules) ID() string                   { return "nb" }
func (nbRules) Vocab() battle.Vocab          { return nbSpec.Vocab }
func (nbRules) Check(*battle.Scenario) error { return nil }

// wordsOnly is the test rule set without its Spec: its words alone.
type wordsOnly struct{}

func (wordsOnly) ID() string                   { return "test" }
func (wordsOnly) Vocab() battle.Vocab          { return testRules{}.Vocab() }
func (wordsOnly) Check(*battle.Scenario) error { return nil }

// TestReadNode: a scenario inline in another document is read, looked up
// and checked like a file.
func TestReadNode(t *testing.T) {
	src := "script: x\nscenario:\n" + indent(ldEdit(t, testBase, "        elite: true\n", ""))
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	_, err := battle.ReadNode("s.yaml", doc.Content[0].Content[3], findTest)
	want := fmt.Sprintf("s.yaml:%d: sides[0].divisions[0].units[0]: a d10 unit", ldLineOf(t, src, "{id: b-1-a"))
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
	// A rule set without a Spec method contributes its vocabulary alone.
	_, err = battle.ReadNode("s.yaml", doc.Content[0].Content[3], func(string) (battle.RuleSet, error) { return wordsOnly{}, nil })
	if err == nil || !strings.Contains(err.Error(), `sides[0].army: unknown field "staff"`) {
		t.Errorf("error %v, want the staff refused", err)
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

// TestRuleSetSchema: the schema for the test rule set lists its words and
// attributes, and agrees with the loader on the scenario and on changes to
// its attributes.
func TestRuleSetSchema(t *testing.T) {
	data, err := battle.Schema(testSpec)
	if err != nil {
		t.Fatal(err)
	}
	sch := compile(t, data)
	check := func(name, src string, ok bool) {
		t.Helper()
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatal(err)
		}
		_, lerr := battle.Read("t.yaml", []byte(src), findTest)
		serr := sch.Validate(jsonValue(t, n.Content[0]))
		if (lerr == nil) != ok || (serr == nil) != ok {
			t.Errorf("%s: loader %v, schema %v; want both to accept: %v", name, lerr, serr, ok)
		}
	}
	check("the base", testBase, true)
	for _, c := range []struct{ name, old, new string }{
		{"staff missing", ", staff: 5,", ","},
		{"staff 11", "staff: 10", "staff: 11"},
		{"staff 4", "staff: 10", "staff: 4"},
		{"staff a word", "staff: 10", "staff: ten"},
		{"class d7", "class: d6", "class: d7"},
		{"strength -1", "strength: 12.5", "strength: -1"},
		{"elite a word", "elite: true", "elite: always"},
		{"motto a list", "motto: Forward", "motto: [Forward]"},
		{"attribute misspelt", "motto: Forward", "moto: Forward"},
		{"staff on a unit", "class: d6,", "class: d6, staff: 6,"},
		{"class on a general", "staff: 6,", "staff: 6, class: d6,"},
		{"an NB quality", "quality: cautious", "quality: poor"},
		{"an NB nation", "nation: grey", "nation: french"},
		{"another rule set", "rules: test", "rules: nb"},
	} {
		check(c.name, ldEdit(t, testBase, c.old, c.new), false)
	}
	doc := schemaDocOf(t, data)
	defs := doc["$defs"].(map[string]any)
	general := defs["general"].(map[string]any)
	if req := fmt.Sprint(general["required"]); req != "[id quality range staff]" {
		t.Errorf("general requires %s", req)
	}
	staff := general["properties"].(map[string]any)["staff"].(map[string]any)
	if staff["type"] != "integer" || staff["minimum"] != 5.0 || staff["maximum"] != 10.0 || staff["description"] == "" {
		t.Errorf("staff = %v", staff)
	}
	for _, def := range []string{"wing", "corps", "division"} {
		if _, ok := defs[def].(map[string]any)["properties"].(map[string]any)["elite"]; !ok {
			t.Errorf("a %s has no elite", def)
		}
	}
	if class := defs["unit"].(map[string]any)["properties"].(map[string]any)["class"].(map[string]any); fmt.Sprint(class["enum"]) != "[d6 d8 d10]" {
		t.Errorf("class = %v", class)
	}
	if _, ok := schemaDoc(t)["$defs"].(map[string]any)["general"].(map[string]any)["properties"].(map[string]any)["staff"]; ok {
		t.Error("the NB schema has the test rule set's staff")
	}
}
