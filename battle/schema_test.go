package battle_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"orderly/battle"
	"orderly/rules"
)

// nbSpec is what the NB rule set contributes to the scenario format,
// written out so that the tests below say what they check;
// TestSchemaVocab ties it to the rule set itself.
var nbSpec = ldSpec

const examples = "../examples"

// nbSchema is the schema generated for the NB rule set.
func nbSchema(t testing.TB) []byte {
	t.Helper()
	data, err := battle.Schema(nbSpec)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// compileSchema compiles the schema generated for the NB rule set.
func compileSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	return compile(t, nbSchema(t))
}

func compile(t testing.TB, schema []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("scenario.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("scenario.schema.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return sch
}

// schemaDoc reads the schema generated for the NB rule set.
func schemaDoc(t testing.TB) map[string]any {
	t.Helper()
	return schemaDocOf(t, nbSchema(t))
}

func schemaDocOf(t testing.TB, schema []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(schema, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestSchemaCompiles(t *testing.T) {
	compileSchema(t)
	doc := schemaDoc(t)
	if got := doc["$schema"]; got != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema is %v, want draft 2020-12", got)
	}
}

// TestSchemaShape: every object the schema describes is closed, and every
// property it names has a description.
func TestSchemaShape(t *testing.T) {
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch v := v.(type) {
		case map[string]any:
			if v["type"] == "object" && v["additionalProperties"] != false {
				t.Errorf("%s: an object without additionalProperties: false", at)
			}
			if props, ok := v["properties"].(map[string]any); ok {
				for name, p := range props {
					if d, _ := p.(map[string]any)["description"].(string); strings.TrimSpace(d) == "" {
						t.Errorf("%s.properties.%s: no description", at, name)
					}
				}
			}
			for k, x := range v {
				walk(x, at+"."+k)
			}
		case []any:
			for i, x := range v {
				walk(x, fmt.Sprintf("%s[%d]", at, i))
			}
		}
	}
	walk(schemaDoc(t), "schema")
}

// TestSchemaVocab ties the schema's word lists to the loader's and to the
// NB rule set's.
func TestSchemaVocab(t *testing.T) {
	set, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := rules.Engine("nb", set)
	if err != nil {
		t.Fatal(err)
	}
	spec := battle.SpecOf(eng)
	if spec.ID != nbSpec.ID || len(spec.Attrs) != 0 {
		t.Errorf("SpecOf(nb) has id %q and %d attributes, want nb and none", spec.ID, len(spec.Attrs))
	}
	for _, c := range []struct {
		name      string
		got, want []string
	}{
		{"qualities", nbSpec.Qualities, spec.Qualities},
		{"nations", nbSpec.Nations, spec.Nations},
		{"orders", nbSpec.Orders, spec.Orders},
		{"unit types", nbSpec.UnitTypes, spec.UnitTypes},
		{"formations", nbSpec.Shapes, spec.Shapes},
		{"unit states", nbSpec.Statuses, spec.Statuses},
		{"spaces", nbSpec.Spaces, spec.Spaces},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("nbSpec.%s = %v, the NB rule set has %v", c.name, c.got, c.want)
		}
	}
	doc := schemaDoc(t)
	enum := func(path ...string) []string {
		var cur any = doc
		for _, p := range path {
			if i, err := strconv.Atoi(p); err == nil {
				cur = cur.([]any)[i]
			} else {
				cur = cur.(map[string]any)[p]
			}
		}
		var out []string
		for _, x := range cur.(map[string]any)["enum"].([]any) {
			out = append(out, x.(string))
		}
		return out
	}
	for _, c := range []struct {
		path []string
		want []string
	}{
		{[]string{"properties", "rules"}, []string{"nb"}},
		{[]string{"$defs", "general", "properties", "quality"}, nbSpec.Qualities},
		{[]string{"$defs", "side", "properties", "nation"}, nbSpec.Nations},
		{[]string{"$defs", "order", "oneOf", "0"}, nbSpec.Orders},
		{[]string{"$defs", "order", "oneOf", "1", "properties", "kind"}, nbSpec.Orders},
		{[]string{"$defs", "laterOrder", "oneOf", "0"}, []string{"attack", "defend"}},
		{[]string{"$defs", "laterOrder", "oneOf", "1", "properties", "kind"}, []string{"attack", "defend"}},
		{[]string{"$defs", "unit", "properties", "type"}, nbSpec.UnitTypes},
		{[]string{"$defs", "unit", "properties", "formation"}, nbSpec.Shapes},
		{[]string{"$defs", "unit", "properties", "status"}, nbSpec.Statuses},
		{[]string{"$defs", "side", "properties", "edge"}, battle.Edges},
		{[]string{"$defs", "order", "oneOf", "1", "properties", "edge"}, battle.Edges},
	} {
		if got := enum(c.path...); !slices.Equal(got, c.want) {
			t.Errorf("%s: enum %v, want %v", strings.Join(c.path, "."), got, c.want)
		}
	}
	var speeds []string
	for k := range doc["properties"].(map[string]any)["speeds"].(map[string]any)["properties"].(map[string]any) {
		speeds = append(speeds, k)
	}
	slices.Sort(speeds)
	want := slices.Sorted(slices.Values(nbSpec.UnitTypes))
	if !slices.Equal(speeds, want) {
		t.Errorf("speeds has %v, want the unit types %v", speeds, want)
	}
}

// scenarioPart is the scenario in an example file: the whole file, the
// inline mapping under a script's scenario:, or the file that it names.
type scenarioPart struct {
	name string
	node *yaml.Node
}

func parseYAML(t *testing.T, file string) *yaml.Node {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(doc.Content) == 0 {
		t.Fatalf("%s: empty", file)
	}
	return doc.Content[0]
}

// value returns the value of key in mapping n, or nil.
func value(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

func scenarioOf(t *testing.T, file string) (scenarioPart, bool) {
	t.Helper()
	root := parseYAML(t, file)
	if value(root, "sides") != nil {
		return scenarioPart{file, root}, true
	}
	sc := value(root, "scenario")
	switch {
	case sc == nil:
		return scenarioPart{}, false
	case sc.Kind == yaml.ScalarNode:
		path := sc.Value
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(file), path)
		}
		return scenarioPart{path, parseYAML(t, path)}, true
	}
	return scenarioPart{file + " (scenario:)", sc}, true
}

// jsonValue turns a YAML node into the values encoding/json would give.
func jsonValue(t *testing.T, n *yaml.Node) any {
	t.Helper()
	var v any
	if err := n.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return stringKeys(v)
}

func stringKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = stringKeys(x)
		}
		return v
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[fmt.Sprint(k)] = stringKeys(x)
		}
		return out
	case []any:
		for i, x := range v {
			v[i] = stringKeys(x)
		}
		return v
	}
	return v
}

// load runs the strict loader on a scenario node, written out as YAML.
func load(t *testing.T, name string, n *yaml.Node) ([]byte, error) {
	t.Helper()
	data, err := yaml.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	_, err = battle.Load(name, data, nbSpec)
	return data, err
}

// specOf is the spec of the rule set a scenario names: NB's as written
// out here, the others' from the rule set itself.
func specOf(t *testing.T, n *yaml.Node) battle.Spec {
	t.Helper()
	id := value(n, "rules")
	if id == nil || id.Value == "nb" {
		return nbSpec
	}
	spec, err := rules.Spec(id.Value)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

func TestExamplesValidate(t *testing.T) {
	n := 0
	err := filepath.WalkDir(examples, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".yaml" {
			return err
		}
		part, ok := scenarioOf(t, path)
		if !ok {
			return nil
		}
		n++
		spec := specOf(t, part.node)
		schema, err := battle.Schema(spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := compile(t, schema).Validate(jsonValue(t, part.node)); err != nil {
			t.Errorf("%s: the schema rejects it: %v", part.name, err)
		}
		data, err := yaml.Marshal(part.node)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := battle.Load(part.name, data, spec); err != nil {
			t.Errorf("%s: the loader rejects it: %v", part.name, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no scenario in examples/")
	}
	t.Logf("%d scenarios checked", n)
}

// seed is the inline scenario of the NB-5 worked example, as a fresh node.
func seed(t *testing.T) *yaml.Node {
	t.Helper()
	part, ok := scenarioOf(t, filepath.Join(examples, "nb", "seed-example.yaml"))
	if !ok {
		t.Fatal("seed-example.yaml has no scenario")
	}
	return part.node
}

// at walks a node by mapping keys and list indexes.
func at(t *testing.T, n *yaml.Node, path ...any) *yaml.Node {
	t.Helper()
	for _, p := range path {
		switch p := p.(type) {
		case string:
			v := value(n, p)
			if v == nil {
				t.Fatalf("no %s in the seed scenario", p)
			}
			n = v
		case int:
			if n.Kind != yaml.SequenceNode || p >= len(n.Content) {
				t.Fatalf("no item %d in the seed scenario", p)
			}
			n = n.Content[p]
		}
	}
	return n
}

// node parses a YAML value such as "[1, 2, 3]".
func node(t *testing.T, text string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Content[0]
}

// set gives key the value text in mapping m, adding the key if it is new.
func set(t *testing.T, m *yaml.Node, key, text string) {
	t.Helper()
	v := node(t, text)
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

// drop removes key from mapping m.
func drop(t *testing.T, m *yaml.Node, key string) {
	t.Helper()
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = slices.Delete(m.Content, i, i+2)
			return
		}
	}
	t.Fatalf("no %s to drop", key)
}

var (
	french   = []any{"sides", 0}
	corpsI   = []any{"sides", 0, "corps", 0}
	division = []any{"sides", 0, "corps", 0, "divisions", 0}
	unit     = []any{"sides", 0, "corps", 0, "divisions", 0, "units", 0}
)

func path(base []any, more ...any) []any { return append(slices.Clone(base), more...) }

// offBoard makes I Corps an off-board reserve entering by square, with the
// grid of the field and no positions for its generals and units.
func offBoard(t *testing.T, sc *yaml.Node, order string) {
	set(t, at(t, sc, "field"), "grid", "{columns: 6, rows: 4}")
	c := at(t, sc, corpsI...)
	set(t, c, "order", order)
	drop(t, at(t, c, "general"), "at")
	for _, d := range at(t, c, "divisions").Content {
		drop(t, at(t, d, "general"), "at")
		for _, u := range at(t, d, "units").Content {
			drop(t, u, "at")
		}
	}
}

// TestSchemaParity: the loader and the schema agree on the seed scenario
// and on each change to it.
func TestSchemaParity(t *testing.T) {
	sch := compileSchema(t)
	type mutation struct {
		name   string
		change func(t *testing.T, sc *yaml.Node)
	}
	add := func(where []any, key, text string) func(*testing.T, *yaml.Node) {
		return func(t *testing.T, sc *yaml.Node) { set(t, at(t, sc, where...), key, text) }
	}
	del := func(where []any, key string) func(*testing.T, *yaml.Node) {
		return func(t *testing.T, sc *yaml.Node) { drop(t, at(t, sc, where...), key) }
	}
	accepted := []mutation{
		{"unchanged", func(*testing.T, *yaml.Node) {}},
		{"bare order", add(corpsI, "order", "attack")},
		{"no order", del(corpsI, "order")},
		{"every unit field", func(t *testing.T, sc *yaml.Node) {
			u := at(t, sc, unit...)
			set(t, u, "name", "1er de ligne")
			set(t, u, "status", "disordered")
			set(t, u, "facing", "359.5")
			set(t, u, "speed", "5")
			set(t, u, "detachment", "true")
		}},
		{"off-board reserve", func(t *testing.T, sc *yaml.Node) {
			offBoard(t, sc, "{kind: reserve, entry: C4, then: {kind: attack, objective: [36, 8]}}")
		}},
		{"off-board reserve at a corner", func(t *testing.T, sc *yaml.Node) {
			offBoard(t, sc, "{kind: reserve, entry: F4, edge: east, then: defend}")
		}},
		{"no speeds, speed on each unit", func(t *testing.T, sc *yaml.Node) {
			drop(t, sc, "speeds")
			for _, s := range at(t, sc, "sides").Content {
				for _, c := range at(t, s, "corps").Content {
					for _, d := range at(t, c, "divisions").Content {
						for _, u := range at(t, d, "units").Content {
							set(t, u, "speed", "6")
						}
					}
				}
			}
		}},
	}
	rejected := []mutation{
		{"unknown field at the top", add(nil, "colour", "blue")},
		{"unknown field in a side", add(french, "flag", "eagle")},
		{"unknown field in the army general", add(path(french, "army"), "horse", "white")},
		{"unknown field in a division general", add(path(division, "general"), "horse", "white")},
		{"unknown field in a unit", add(unit, "strength", "6")},
		{"unknown field in a corps", add(corpsI, "units", "[]")},
		{"unknown field in an order", add(path(corpsI, "order"), "priority", "1")},
		{"unknown field in the field", add([]any{"field"}, "height", "3")},
		{"unknown unit type in speeds", add([]any{"speeds"}, "guard", "5")},
		{"missing field", del(nil, "field")},
		{"missing rules", del(nil, "rules")},
		{"missing side edge", del([]any{"sides", 1}, "edge")},
		{"missing general range", del(path(division, "general"), "range")},
		{"missing unit type", del(unit, "type")},
		{"missing division units", del(division, "units")},
		{"missing order kind", del(path(corpsI, "order"), "kind")},
		{"missing field depth", del([]any{"field"}, "depth")},
		{"quality avrage", add(path(division, "general"), "quality", "avrage")},
		{"nation frnech", add(french, "nation", "frnech")},
		{"edge up", add(french, "edge", "up")},
		{"unit type infantery", add(unit, "type", "infantery")},
		{"unit formation colum", add(unit, "formation", "colum")},
		{"unit status shaken", add(unit, "status", "shaken")},
		{"order kind hold", add(corpsI, "order", "hold")},
		{"order mapping kind hold", add(path(corpsI, "order"), "kind", "hold")},
		{"unit at with 3 numbers", add(unit, "at", "[31, 26, 0]")},
		{"general at with 3 numbers", add(path(division, "general"), "at", "[32, 25, 1]")},
		{"objective with 1 number", add(path(corpsI, "order"), "objective", "[36]")},
		{"at not numbers", add(unit, "at", "[a, b]")},
		{"one side", func(t *testing.T, sc *yaml.Node) {
			s := at(t, sc, "sides")
			s.Content = s.Content[:1]
		}},
		{"turns 0", add(nil, "turns", "0")},
		{"turns 1001", add(nil, "turns", "1001")},
		{"turns not whole", add(nil, "turns", "2.5")},
		{"name in capitals", add(nil, "name", "Seed")},
		{"id with a space", add(unit, "id", "I 1 a")},
		{"id too long", add(unit, "id", strings.Repeat("x", 65))},
		{"range 0", add(path(division, "general"), "range", "0")},
		{"facing 360", add(unit, "facing", "360")},
		{"speed negative", add(unit, "speed", "-1")},
		{"detachment yes", add(unit, "detachment", "yes")},
		{"width 0", add([]any{"field"}, "width", "0")},
		{"grid without rows", add([]any{"field"}, "grid", "{columns: 6}")},
		{"grid of 27 columns", add([]any{"field"}, "grid", "{columns: 27, rows: 4}")},
		{"title a list", add(nil, "title", "[a]")},
		{"division without units", add(division, "units", "[]")},
		{"entry for a defend order", add(corpsI, "order", "{kind: defend, entry: C4, then: attack}")},
		{"then without entry", add(corpsI, "order", "{kind: reserve, then: attack}")},
		{"edge without entry", add(corpsI, "order", "{kind: reserve, edge: south}")},
		{"entry without then", func(t *testing.T, sc *yaml.Node) {
			offBoard(t, sc, "{kind: reserve, entry: C4}")
		}},
		{"then reserve", func(t *testing.T, sc *yaml.Node) {
			offBoard(t, sc, "{kind: reserve, entry: C4, then: reserve}")
		}},
		{"then with an entry", func(t *testing.T, sc *yaml.Node) {
			offBoard(t, sc, "{kind: reserve, entry: C4, then: {kind: attack, entry: C4}}")
		}},
		{"entry not a square", func(t *testing.T, sc *yaml.Node) {
			offBoard(t, sc, "{kind: reserve, entry: c4, then: attack}")
		}},
		{"order on the army", add(path(french, "army"), "order", "attack")},
		{"rules of another rule set", add(nil, "rules", "bp")},
		{"then reserve written out", func(t *testing.T, sc *yaml.Node) {
			offBoard(t, sc, "{kind: reserve, entry: C4, then: {kind: reserve}}")
		}},
		{"grid of 0 rows", add([]any{"field"}, "grid", "{columns: 6, rows: 0}")},
		{"speed 0 for a type", add([]any{"speeds"}, "infantry", "0")},
		{"facing negative", add(unit, "facing", "-1")},
		{"sides a mapping", add(nil, "sides", "{a: 1}")},
		{"units a mapping", add(division, "units", "{a: 1}")},
		{"order a list", add(corpsI, "order", "[attack]")},
	}
	for _, c := range accepted {
		t.Run("accepts "+c.name, func(t *testing.T) {
			sc := seed(t)
			c.change(t, sc)
			if _, err := load(t, "seed.yaml", sc); err != nil {
				t.Errorf("the loader rejects it: %v", err)
			}
			if err := sch.Validate(jsonValue(t, sc)); err != nil {
				t.Errorf("the schema rejects it: %v", err)
			}
		})
	}
	for _, c := range rejected {
		t.Run("rejects "+c.name, func(t *testing.T) {
			sc := seed(t)
			c.change(t, sc)
			if _, err := load(t, "seed.yaml", sc); err == nil {
				t.Error("the loader accepts it")
			}
			if err := sch.Validate(jsonValue(t, sc)); err == nil {
				t.Error("the schema accepts it")
			}
		})
	}
}

// TestLoaderQualityMessage: the loader names the path, the bad word, the
// allowed ones and the line.
func TestLoaderQualityMessage(t *testing.T) {
	sc := seed(t)
	g := at(t, sc, division...)
	set(t, at(t, g, "general"), "quality", "avrage")
	data, err := load(t, "seed.yaml", sc)
	if err == nil {
		t.Fatal("the loader accepts quality avrage")
	}
	line := 0
	for i, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "avrage") {
			line = i + 1
			break
		}
	}
	if line == 0 {
		t.Fatal("avrage is not in the written scenario")
	}
	msg := err.Error()
	want := `corps[0].divisions[0].general.quality: "avrage" is not one of excellent, good, average, poor`
	if !strings.Contains(msg, want) {
		t.Errorf("message %q lacks %q", msg, want)
	}
	if prefix := fmt.Sprintf("seed.yaml:%d: ", line); !strings.HasPrefix(msg, prefix) {
		t.Errorf("message %q does not start with the line, %q", msg, prefix)
	}
	if !strings.Contains(msg, "did you mean average?") {
		t.Errorf("message %q gives no near match", msg)
	}
}

// TestScenarioByFileName: a script may name its scenario file instead of
// writing it inline; the examples test then checks that file.
func TestScenarioByFileName(t *testing.T) {
	dir := t.TempDir()
	data, err := yaml.Marshal(seed(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "field.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "script.yaml")
	if err := os.WriteFile(script, []byte("script: by-name\nscenario: field.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	part, ok := scenarioOf(t, script)
	if !ok || part.name != filepath.Join(dir, "field.yaml") {
		t.Fatalf("scenarioOf = %q, %v", part.name, ok)
	}
	if err := compileSchema(t).Validate(jsonValue(t, part.node)); err != nil {
		t.Error(err)
	}
}
