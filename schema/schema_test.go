package schema_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"orderly/schema"
)

// pair writes itself as [a, b] and says so.
type pair struct{ A, B int }

func (p pair) MarshalJSON() ([]byte, error) { return json.Marshal([]int{p.A, p.B}) }

func (pair) JSONSchema() map[string]any {
	return map[string]any{"type": "array", "prefixItems": []any{map[string]any{"type": "integer"}, map[string]any{"type": "integer"}}, "items": false}
}

// mute writes itself but says no schema.
type mute struct{}

func (mute) MarshalJSON() ([]byte, error) { return []byte(`"x"`), nil }

type base struct {
	ID   string `json:"id"`
	Note string `json:"note,omitempty"`
}

type extra struct {
	Hidden string `json:"hidden"`
}

type node struct {
	base
	*extra
	Name     string            `json:"name"`
	Count    int               `json:"count"`
	Weight   float64           `json:"weight,omitempty"`
	Ok       bool              `json:"ok,omitzero"`
	Skip     string            `json:"-"`
	Kids     []*node           `json:"kids"`
	Tags     map[string]string `json:"tags,omitempty"`
	At       pair              `json:"at"`
	Maybe    *pair             `json:"maybe"`
	Two      [2]int            `json:"two"`
	Quoted   int               `json:"quoted,string"`
	ByNumber map[int]bool      `json:"by-number,omitempty"`
	Free     any               `json:"free,omitempty"`
	private  int               //lint:ignore U1000 an unexported field, which JSON leaves out
	Untagged string
}

// compile generates the schema of v's type and compiles it.
func compile(t *testing.T, g *schema.Generator, root map[string]any) *jsonschema.Schema {
	t.Helper()
	doc, err := g.Document(root, "test")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("test.json", inst); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("test.json")
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return sch
}

func valid(t *testing.T, sch *jsonschema.Schema, text string) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return sch.Validate(v)
}

func nodeSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	g := schema.New()
	g.Field(reflect.TypeFor[node](), "Free", 0.5)
	root, err := g.Of(reflect.TypeFor[node]())
	if err != nil {
		t.Fatal(err)
	}
	return compile(t, g, root)
}

// TestWritten: what encoding/json writes of a node validates, from a zero
// value to one with every field set, nested and recursive.
func TestWritten(t *testing.T) {
	sch := nodeSchema(t)
	for _, n := range []node{
		{},
		{base: base{ID: "a", Note: "n"}, extra: &extra{Hidden: "h"}, Name: "x", Count: 2, Weight: 1.5, Ok: true,
			Kids: []*node{{Name: "k"}, nil}, Tags: map[string]string{"a": "b"}, At: pair{1, 2}, Maybe: &pair{3, 4},
			Two: [2]int{1, 2}, Quoted: 7, ByNumber: map[int]bool{-3: true}, Free: 2.5, Untagged: "u"},
	} {
		b, err := json.Marshal(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := valid(t, sch, string(b)); err != nil {
			t.Errorf("%s does not validate: %v", b, err)
		}
	}
}

// TestRefused: the schema refuses what a node is never written as: a field
// it does not have, a required one missing, a wrong type, null where nil
// is left out, an array of the wrong length, a field given no value.
func TestRefused(t *testing.T) {
	sch := nodeSchema(t)
	ok := `{"id":"a","name":"x","count":1,"kids":null,"at":[1,2],"maybe":null,"two":[1,2],"quoted":"1","Untagged":""}`
	if err := valid(t, sch, ok); err != nil {
		t.Fatalf("%s: %v", ok, err)
	}
	for _, c := range []struct{ why, from, to string }{
		{"an extra field", `"count":1`, `"count":1,"stray":true`},
		{"a required field missing", `"name":"x",`, ``},
		{"an embedded struct's required field missing", `"id":"a",`, ``},
		{"a string for an integer", `"count":1`, `"count":"1"`},
		{"a fraction for an integer", `"count":1`, `"count":1.5`},
		{"null for omitempty", `"count":1`, `"count":1,"tags":null`},
		{"a point of three", `"at":[1,2]`, `"at":[1,2,3]`},
		{"an array of the wrong length", `"two":[1,2]`, `"two":[1]`},
		{"an unquoted ,string", `"quoted":"1"`, `"quoted":1`},
		{"the skipped field", `"count":1`, `"count":1,"Skip":"x"`},
		{"an unexported field", `"count":1`, `"count":1,"private":1`},
		{"a kid with an extra field", `"kids":null`, `"kids":[{"id":"","name":"","count":0,"kids":null,"at":[0,0],"maybe":null,"two":[0,0],"quoted":"0","Untagged":"","x":1}]`},
		{"a non-number key", `"count":1`, `"count":1,"by-number":{"a":true}`},
		{"the free field not a number", `"count":1`, `"count":1,"free":"x"`},
	} {
		text := strings.Replace(ok, c.from, c.to, 1)
		if text == ok {
			t.Fatalf("%s: %q not in %s", c.why, c.from, ok)
		}
		if valid(t, sch, text) == nil {
			t.Errorf("%s: %s validates", c.why, text)
		}
	}
}

// TestLoud: a type writing its own JSON with no schema, and an interface
// with no value given, are errors naming the field.
func TestLoud(t *testing.T) {
	type withMute struct {
		M mute `json:"m"`
	}
	type withAny struct {
		A any `json:"a"`
	}
	for _, c := range []struct {
		t    reflect.Type
		want string
	}{
		{reflect.TypeFor[withMute](), "writes its own JSON"},
		{reflect.TypeFor[[]withMute](), "withMute.M"},
		{reflect.TypeFor[withAny](), "withAny.A"},
		{reflect.TypeFor[map[string]func()](), "cannot write"},
	} {
		_, err := schema.New().Of(c.t)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.t, err, c.want)
		}
	}
}

// joined writes a's fields and b's in one object, as game.State does.
type joined struct {
	A any
	B any
}

type partA struct {
	X int `json:"x"`
}
type partB struct {
	Y string `json:"y,omitempty"`
}

func (j *joined) BuildSchema(g *schema.Generator) (map[string]any, error) {
	return g.Object(reflect.TypeOf(j.A), reflect.TypeOf(j.B))
}

func (j *joined) MarshalJSON() ([]byte, error) { return nil, nil }

// TestBuilder: a field given a Builder's value takes the object it
// builds, and a field given nil may not be written.
func TestBuilder(t *testing.T) {
	type holder struct {
		J    *joined `json:"j"`
		None any     `json:"none,omitempty"`
	}
	g := schema.New()
	g.Field(reflect.TypeFor[holder](), "J", &joined{A: partA{}, B: &partB{}})
	g.Field(reflect.TypeFor[holder](), "None", nil)
	root, err := g.Of(reflect.TypeFor[holder]())
	if err != nil {
		t.Fatal(err)
	}
	sch := compile(t, g, root)
	for text, want := range map[string]bool{
		`{"j":{"x":1,"y":"a"}}`:          true,
		`{"j":{"x":1}}`:                  true,
		`{"j":null}`:                     true,
		`{"j":{"y":"a"}}`:                false,
		`{"j":{"x":1,"z":2}}`:            false,
		`{"j":{"x":1},"none":1}`:         false,
		`{"j":{"x":1},"none":{"x":"y"}}`: false,
	} {
		if err := valid(t, sch, text); (err == nil) != want {
			t.Errorf("%s: valid %v, want %v (%v)", text, err == nil, want, err)
		}
	}
	if _, err := schema.New().Object(reflect.TypeFor[partA](), reflect.TypeFor[partA]()); err == nil {
		t.Error("an object of two parts that both write x was made")
	}
}

// TestRecursive: a type that holds itself is one definition.
func TestRecursive(t *testing.T) {
	g := schema.New()
	if _, err := g.Of(reflect.TypeFor[node]()); err == nil {
		t.Fatal("node's free field was not refused without a value")
	}
	g = schema.New()
	g.Field(reflect.TypeFor[node](), "Free", "")
	root, err := g.Of(reflect.TypeFor[node]())
	if err != nil {
		t.Fatal(err)
	}
	if root["$ref"] != "#/$defs/schema_test.node" {
		t.Errorf("root is %v, want a $ref to schema_test.node", root)
	}
	compile(t, g, root)
}
