package battle

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"orderly/strict"
)

// schemaOf generates the schema of a format type and reads it back.
func schemaOf(t *testing.T, root reflect.Type, s Spec) map[string]any {
	t.Helper()
	data, err := generate(root, s)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	return doc
}

// objectOf returns the object schema of a definition: the definition
// itself, or the branch of a type that may be written short.
func objectOf(def map[string]any) map[string]any {
	if alt, ok := def["oneOf"].([]any); ok {
		return alt[1].(map[string]any)
	}
	return def
}

// TestSchemaHasEveryField walks the format's struct types by reflection,
// not through the tags the generator reads, and finds each field's key in
// the schema with its description, and each required field required: a
// field added to the types is in the schema with nothing else to edit.
func TestSchemaHasEveryField(t *testing.T) {
	doc := schemaOf(t, reflect.TypeFor[scenarioFile](), Spec{})
	defs := doc["$defs"].(map[string]any)
	seen := map[reflect.Type]bool{}
	var walk func(tp reflect.Type, obj map[string]any, at string)
	walk = func(tp reflect.Type, obj map[string]any, at string) {
		props := obj["properties"].(map[string]any)
		var required []string
		for _, r := range obj["required"].([]any) {
			required = append(required, r.(string))
		}
		// A field required unless another is given (or=) is required in
		// one of the schema's alternatives.
		var either []string
		alternatives, _ := obj["anyOf"].([]any)
		for _, a := range alternatives {
			for _, r := range a.(map[string]any)["required"].([]any) {
				either = append(either, r.(string))
			}
		}
		for i := range tp.NumField() {
			sf := tp.Field(i)
			if sf.Anonymous {
				walk(sf.Type, obj, at)
				continue
			}
			key := sf.Tag.Get("yaml")
			if key == "" || key == "-" {
				continue
			}
			p, ok := props[key].(map[string]any)
			if !ok {
				t.Errorf("%s.%s (%s.%s) is not in the schema", at, key, tp.Name(), sf.Name)
				continue
			}
			if d, doc := p["description"].(string), (Spec{}).wording().say(sf.Tag.Get("doc")); !strings.HasPrefix(d, doc) {
				t.Errorf("%s.%s: description %q, want it to start with the doc tag %q", at, key, d, doc)
			}
			is := "," + sf.Tag.Get("is") + ","
			got := slices.Contains(required, key) || strings.Contains(is, ",or=") && slices.Contains(either, key)
			if want := strings.Contains(is, ",required,"); got != want {
				t.Errorf("%s.%s: required is %v, want %v", at, key, got, want)
			}
			ft := sf.Type
			for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
				ft = ft.Elem()
			}
			if ft.Kind() != reflect.Struct || ft == pointType || seen[ft] {
				continue
			}
			seen[ft] = true
			ref, _ := p["$ref"].(string)
			if ref == "" {
				ref, _ = p["items"].(map[string]any)["$ref"].(string)
			}
			def, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
			if !ok {
				t.Errorf("%s.%s: no definition at %q", at, key, ref)
				continue
			}
			walk(ft, objectOf(def), at+"."+key)
		}
	}
	walk(reflect.TypeFor[scenarioFile](), doc, "scenario")
	if len(seen) < 10 {
		t.Errorf("walked %d struct types, want the 10 of the format", len(seen))
	}
}

// probeFile is a format type written for the test, as a change to the
// format would add a field: morale, with bounds and a default.
type probeFile struct {
	_      struct{}       `def:"probe" doc:"A probe of the format."`
	Name   string         `yaml:"name" is:"required,word" doc:"Its name."`
	Morale int            `yaml:"morale" is:"min=2,max=12,default=7" doc:"Morale, a field added for the test."`
	Ranks  []unitFile     `yaml:"ranks" is:"items=1..3" count:"a probe has one to three units" doc:"Its units."`
	Node   *yaml.Node     `yaml:"-"`
	Dice   *string        `yaml:"dice" is:"enum=qualities,not=poor" why:"poor is not a die" doc:"A quality, not poor."`
	Guide  *orderFile     `yaml:"guide" doc:"An order."`
	Extra  map[string]any `yaml:"-" attrs:"unit"`
}

// TestAddedFieldAppears: a field added to a format type is in the schema,
// with its bounds and default, and the decoder reads it by the same tags.
func TestAddedFieldAppears(t *testing.T) {
	spec := Spec{Vocab: Vocab{Qualities: []string{"good", "poor"}},
		Attrs: []Attr{{On: OnUnit, Name: "drill", Doc: "Drill, an attribute of the rule set.", Type: AttrInteger, Min: ptr(1.0), Max: ptr(3.0)}}}
	doc := schemaOf(t, reflect.TypeFor[probeFile](), spec)
	props := doc["properties"].(map[string]any)
	morale, _ := props["morale"].(map[string]any)
	want := map[string]any{"description": "Morale, a field added for the test. Allowed: 2..12. Defaults to 7.", "type": "integer", "minimum": 2.0, "maximum": 12.0, "default": 7.0}
	if !reflect.DeepEqual(morale, want) {
		t.Errorf("morale = %v, want %v", morale, want)
	}
	ranks := props["ranks"].(map[string]any)
	if ranks["minItems"] != 1.0 || ranks["maxItems"] != 3.0 {
		t.Errorf("ranks = %v, want 1 to 3 items", ranks)
	}
	if e := props["dice"].(map[string]any)["enum"]; !reflect.DeepEqual(e, []any{"good"}) {
		t.Errorf("dice enum = %v, want [good]", e)
	}
	if doc["required"].([]any)[0] != "name" || props["drill"] == nil {
		t.Errorf("required %v; drill %v", doc["required"], props["drill"])
	}
	if _, ok := doc["$defs"].(map[string]any)["unit"]; !ok {
		t.Error("no definition of the unit")
	}

	read := func(src string) (probeFile, error) {
		var p probeFile
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(src), &n); err != nil {
			t.Fatal(err)
		}
		d := &decoder{Reader: strict.Reader{File: "probe.yaml"}, spec: spec, types: types{}}
		err := d.object(n.Content[0], "", reflect.ValueOf(&p).Elem())
		return p, err
	}
	p, err := read("name: a\nranks: [{id: u, type: infantry}]\ndrill: 2\n")
	if err != nil {
		t.Fatal(err)
	}
	if p.Morale != 7 || p.Ranks[0].Formation != "column" || p.Node == nil || p.Extra["drill"] != 2 {
		t.Errorf("read %+v", p)
	}
	for src, msg := range map[string]string{
		"name: a\nmorale: 13\n":      "probe.yaml:2: morale: 13 is out of range; allowed: 2..12",
		"name: a\nmoral: 3\n":        `probe.yaml:2: probe: unknown field "moral" (did you mean morale?); allowed: name, morale, ranks, dice, guide, drill`,
		"morale: 3\n":                "probe.yaml:1: probe: name is missing",
		"name: a\nranks: []\n":       "probe.yaml:2: ranks: a probe has one to three units, got 0",
		"name: a\ndice: poor\n":      "probe.yaml:2: dice: poor is not a die; allowed: good",
		"name: a\ndice: godo\n":      `probe.yaml:2: dice: "godo" is not one of good (did you mean good?)`,
		"name: a\ndrill: 4\n":        "probe.yaml:2: drill: 4 is out of range; allowed: 1..3",
		"name: a\nguide: Hold\n":     `probe.yaml:2: guide: "Hold" has the character 'H'`, // no orders listed: any key word
		"name: a\nguide: [attack]\n": "probe.yaml:2: guide: want a mapping of kind, objective, note, entry, edge, then, got a list",
	} {
		_, err := read(src)
		if err == nil || !strings.HasPrefix(err.Error(), msg) {
			t.Errorf("%q: error %v, want %q", src, err, msg)
		}
	}
}

// TestSpecCheck: a rule set's spec that the format cannot take is refused
// by Load and by Schema, with a sentence that says why.
func TestSpecCheck(t *testing.T) {
	good := Attr{On: OnUnit, Name: "class", Doc: "Class die.", Type: AttrWord, Values: []string{"d6", "d8"}}
	with := func(change func(a *Attr)) Spec {
		a := good
		change(&a)
		return Spec{ID: "x", Attrs: []Attr{a}}
	}
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{with(func(a *Attr) { a.Name = "speed" }), `attribute "speed" on unit: the unit already has a field speed`},
		{with(func(a *Attr) { a.On = OnFormation; a.Name = "order" }), "the formation already has a field order"},
		{with(func(a *Attr) { a.On = "side" }), `"side" is not a piece; allowed: unit, general, formation`},
		{with(func(a *Attr) { a.Name = "Class" }), "name: \"Class\" has the character 'C'"},
		{with(func(a *Attr) { a.Doc = "" }), "no Doc"},
		{with(func(a *Attr) { a.Type = "dice" }), `type "dice" is not one of integer, number, word, text, boolean`},
		{with(func(a *Attr) { a.Type = AttrNumber }), "values are for a word, not a number"},
		{with(func(a *Attr) { a.Values = nil; a.Min = ptr(1.0) }), "min, max and unit are for a number or integer, not a word"},
		{with(func(a *Attr) { a.Values = nil; a.Type = AttrInteger; a.Min, a.Max = ptr(3.0), ptr(1.0) }), "min 3 is more than max 1"},
		{Spec{ID: "x", Attrs: []Attr{good, good}}, `attribute "class" on unit is given twice`},
		{Spec{ID: "X"}, "rule set spec: id:"},
		{Spec{ID: "x", Vocab: Vocab{Nations: []string{"Blue"}}}, "rule set spec x: nations:"},
		{Spec{ID: "x", Spaces: []string{"globe"}}, `rule set spec x: space "globe" is not a kind of space; allowed: table, hex`},
		{Spec{ID: "x", Spaces: []string{"hex", "hex"}}, `rule set spec x: space "hex" is given twice`},
	} {
		if _, err := Schema(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Schema: error %v, want %q", err, c.want)
		}
		if _, err := Load("x.yaml", []byte("name: x\n"), c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load: error %v, want %q", err, c.want)
		}
	}
	if _, err := Schema(Spec{ID: "x", Attrs: []Attr{good}}); err != nil {
		t.Errorf("a good spec: %v", err)
	}
}

// TestBadTags: a mistake in the format's tags is an error, not a panic.
func TestBadTags(t *testing.T) {
	type noDef struct {
		A string `yaml:"a" doc:"A."`
	}
	type noDoc struct {
		_ struct{} `def:"x" doc:"X."`
		A string   `yaml:"a"`
	}
	type badRule struct {
		_ struct{} `def:"x" doc:"X."`
		A string   `yaml:"a" is:"requird" doc:"A."`
	}
	type badList struct {
		_ struct{} `def:"x" doc:"X."`
		A string   `yaml:"a" is:"enum=colours" doc:"A."`
	}
	type badShort struct {
		_ struct{} `def:"x" short:"b" doc:"X."`
		A string   `yaml:"a" doc:"A."`
	}
	type badType struct {
		_ struct{}   `def:"x" doc:"X."`
		A complex128 `yaml:"a" doc:"A."`
	}
	type badSpace struct {
		_ struct{}   `def:"x" doc:"X."`
		A *fieldFile `yaml:"a" space:"sphere" doc:"A."`
	}
	type spaceValue struct {
		_ struct{}  `def:"x" doc:"X."`
		A fieldFile `yaml:"a" space:"table" doc:"A."`
	}
	type spaceless struct {
		_ struct{}  `def:"x" doc:"X."`
		A *gridFile `yaml:"a" space:"table" doc:"A."`
	}
	type requiredSpace struct {
		_ struct{} `def:"x" doc:"X."`
		A *mapFile `yaml:"a" is:"required" space:"hex" doc:"A."`
	}
	for _, c := range []struct {
		t    reflect.Type
		want string
	}{
		{reflect.TypeFor[badSpace](), `space:"sphere" is not a kind of space; allowed: table, hex`},
		{reflect.TypeFor[spaceValue](), "a space field is a pointer"},
		{reflect.TypeFor[spaceless](), "has no space method"},
		{reflect.TypeFor[requiredSpace](), "a space field cannot be required"},
		{reflect.TypeFor[noDef](), "has no _ struct{} field with def and doc"},
		{reflect.TypeFor[noDoc](), "field a: no doc"},
		{reflect.TypeFor[badRule](), `unknown rule "requird"`},
		{reflect.TypeFor[badList](), "enum=colours names no word list"},
		{reflect.TypeFor[badShort](), `short names "b"`},
		{reflect.TypeFor[badType](), "has no description for complex128"},
	} {
		if _, err := generate(c.t, Spec{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.t.Name(), err, c.want)
		}
	}
}
