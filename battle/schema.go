package battle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"orderly/geom"
)

// Schema returns the JSON Schema (draft 2020-12) of a scenario file for
// the rule set of spec s: generated from the same types and tags that
// Load reads with (format.go), with the rule set's words and its own
// piece attributes. Load remains the final word: it also checks what a
// schema cannot, such as ids used once and pieces standing on the table.
func Schema(s Spec) ([]byte, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return generate(reflect.TypeFor[scenarioFile](), s)
}

// generate writes the schema of root, a struct type of the format.
func generate(root reflect.Type, s Spec) ([]byte, error) {
	g := &generator{spec: s, types: types{}}
	doc, err := g.object(root)
	if err != nil {
		return nil, err
	}
	ft, _ := g.types.of(root)
	doc.Schema = "https://json-schema.org/draft/2020-12/schema"
	doc.Title = "orderly " + ft.def
	if s.ID != "" {
		doc.Title += " for the rule set " + s.ID
		doc.Description += " The words it lists (qualities, nations, kinds of order) and the attributes of pieces beyond the common ones are those of the rule set " + s.ID + "."
	}
	doc.Defs = g.defs
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("battle: writing the scenario schema: %w", err)
	}
	return buf.Bytes(), nil
}

// schema is a JSON Schema, with its keywords in a readable order.
type schema struct {
	Schema               string              `json:"$schema,omitempty"`
	Title                string              `json:"title,omitempty"`
	Description          string              `json:"description,omitempty"`
	Ref                  string              `json:"$ref,omitempty"`
	Type                 string              `json:"type,omitempty"`
	Enum                 []string            `json:"enum,omitempty"`
	Const                any                 `json:"const,omitempty"`
	Pattern              string              `json:"pattern,omitempty"`
	Minimum              *float64            `json:"minimum,omitempty"`
	ExclusiveMinimum     *float64            `json:"exclusiveMinimum,omitempty"`
	Maximum              *float64            `json:"maximum,omitempty"`
	ExclusiveMaximum     *float64            `json:"exclusiveMaximum,omitempty"`
	Default              any                 `json:"default,omitempty"`
	MinItems             *int                `json:"minItems,omitempty"`
	MaxItems             *int                `json:"maxItems,omitempty"`
	PrefixItems          []*schema           `json:"prefixItems,omitempty"`
	Items                any                 `json:"items,omitempty"` // a *schema, or false
	PropertyNames        *schema             `json:"propertyNames,omitempty"`
	AdditionalProperties any                 `json:"additionalProperties,omitempty"` // false, or a *schema
	Required             []string            `json:"required,omitempty"`
	Properties           properties          `json:"properties,omitempty"`
	DependentRequired    map[string][]string `json:"dependentRequired,omitempty"`
	If                   *schema             `json:"if,omitempty"`
	Then                 *schema             `json:"then,omitempty"`
	OneOf                []*schema           `json:"oneOf,omitempty"`
	AnyOf                []*schema           `json:"anyOf,omitempty"`
	Defs                 properties          `json:"$defs,omitempty"`
}

// property is a named schema: one property of an object, or a definition.
type property struct {
	Name   string
	Schema *schema
}

// properties are named schemas in the order they were written, the order
// of the fields in the format's types.
type properties []property

// MarshalJSON writes the properties as a JSON object in their order.
func (ps properties) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(p.Name)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(p.Schema)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// get returns the schema named name, or nil.
func (ps properties) get(name string) *schema {
	for _, p := range ps {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// generator describes the format's types as JSON Schema, each struct type
// once under $defs.
type generator struct {
	spec  Spec
	types types
	defs  properties
}

// say fills in the placeholders of a text of the format with the words of
// the rule set's spaces.
func (g *generator) say(s string) string { return g.spec.wording().say(s) }

// common returns the definition of a value used in several places: a
// key word, an id, a coordinate or a position.
func (g *generator) common(name string) *schema {
	switch name {
	case "word":
		return &schema{Description: "A key word: lower-case letters, digits and the characters - . / + _, at least one character.",
			Type: "string", Pattern: "^[a-z0-9./+_-]+$"}
	case "id":
		return &schema{Description: "Id of a side, formation, general or unit: 1 to 64 letters of either case, digits and the characters - . _ (e.g. I, II-corps, 3rd). Every id in a scenario is used once. Quote an id that YAML would otherwise read as a number, e.g. \"1\".",
			Type: "string", Pattern: "^[A-Za-z0-9._-]{1,64}$"}
	case "coordinate":
		return &schema{Description: "One coordinate in inches.", Type: "number", Minimum: ptr(-1e6), Maximum: ptr(1e6)}
	}
	// A position: as the rule set's spaces write it.
	point := &schema{Description: "A point on the table as [x, y] in inches: x from the west edge, y from the north edge.",
		Type: "array", MinItems: ptr(2), MaxItems: ptr(2),
		PrefixItems: []*schema{{Ref: "#/$defs/coordinate"}, {Ref: "#/$defs/coordinate"}}, Items: false}
	label := &schema{Description: "A hex of the map, written as its printed label in quotes: the column number then the row number, each with map.digits digits (\"0412\" is column 4, row 12), or the two numbers with a hyphen between (\"4-12\"). Quote it, as YAML reads 0412 alone as a number. It must be a hex of the map.",
		Type: "string", Pattern: "^([0-9]{2}|[0-9]{4}|[0-9]{6}|[0-9]+-[0-9]+)$"}
	table, hex := g.spec.plays(geom.KindTable), g.spec.plays(geom.KindHex)
	switch {
	case !hex:
		return point
	case !table:
		return label
	}
	return &schema{Description: "A position: on a table (field), a point [x, y] in inches; on a hex map (map), the printed label of a hex such as \"0412\".",
		OneOf: []*schema{point, label}}
}

func ptr[T any](v T) *T { return &v }

// ref returns a reference to a common definition, adding it (and what it
// uses) to $defs the first time.
func (g *generator) ref(name string) *schema {
	if g.defs.get(name) == nil {
		if name == "position" && g.spec.plays(geom.KindTable) {
			g.ref("coordinate")
		}
		g.defs = append(g.defs, property{name, g.common(name)})
	}
	return &schema{Ref: "#/$defs/" + name}
}

// def returns a reference to the definition of struct type t, writing it
// the first time.
func (g *generator) def(t reflect.Type) (*schema, error) {
	ft, err := g.types.of(t)
	if err != nil {
		return nil, err
	}
	if g.defs.get(ft.def) == nil {
		// Reserve the name first, so that a type that contains itself
		// refers to the definition instead of writing it forever.
		g.defs = append(g.defs, property{ft.def, &schema{}})
		s, err := g.object(t)
		if err != nil {
			return nil, err
		}
		*g.defs.get(ft.def) = *s
	}
	return &schema{Ref: "#/$defs/" + ft.def}, nil
}

// object describes struct type t: a closed object with its fields and the
// rule set's attributes, or, for a type with short:, either its short
// field alone or the object.
func (g *generator) object(t reflect.Type) (*schema, error) {
	ft, err := g.types.of(t)
	if err != nil {
		return nil, err
	}
	obj := &schema{Description: g.say(ft.doc), Type: "object", AdditionalProperties: false}
	// The fields that give the space: only those of the spaces the rule
	// set plays on; one of them is required, and exactly one if several.
	var fields, spaces []*fileField
	for _, f := range ft.fields {
		if !g.spec.uses(f.part) {
			continue
		}
		if f.space != "" {
			if !g.spec.plays(f.space) {
				continue
			}
			spaces = append(spaces, f)
		}
		fields = append(fields, f)
	}
	if ft.attrs != nil {
		for _, a := range g.spec.attrs(ft.piece) {
			fields = append(fields[:len(fields):len(fields)], attrField(a))
		}
	}
	for _, f := range fields {
		p, err := g.field(f)
		if err != nil {
			return nil, err
		}
		obj.Properties = append(obj.Properties, property{f.key, p})
		switch {
		case f.required && f.or != "" && slices.ContainsFunc(fields, func(o *fileField) bool { return o.key == f.or }):
			obj.AnyOf = append(obj.AnyOf, &schema{Required: []string{f.key}}, &schema{Required: []string{f.or}})
		case f.required || f.space != "" && len(spaces) == 1:
			obj.Required = append(obj.Required, f.key)
		}
	}
	if len(spaces) > 1 {
		for _, f := range spaces {
			obj.OneOf = append(obj.OneOf, &schema{Required: []string{f.key}})
		}
	}
	if r, ok := reflect.Zero(t).Interface().(interface{ schemaRules(*schema) }); ok {
		r.schemaRules(obj)
	}
	if ft.short == "" {
		return obj, nil
	}
	short := obj.Properties.get(ft.short)
	bare := *short
	bare.Description = "The " + ft.short + " alone, as a bare word. " + short.Description
	obj.Description = "Written out in full, as a mapping."
	return &schema{Description: g.say(ft.doc), OneOf: []*schema{&bare, obj}}, nil
}

// field describes one field.
func (g *generator) field(f *fileField) (*schema, error) {
	s, err := g.value(f, f.base())
	if err != nil {
		return nil, err
	}
	s.Description = g.say(f.doc)
	if k := f.base().Kind(); k == reflect.Int || k == reflect.Float64 || k == reflect.String || k == reflect.Bool {
		s.Description += g.say(f.limits(k == reflect.Int))
	}
	return s, nil
}

// value describes a value of type t read by the rules of field f.
func (g *generator) value(f *fileField, t reflect.Type) (*schema, error) {
	switch {
	case t == pointType:
		return g.ref("position"), nil
	case t.Kind() == reflect.Struct:
		return g.def(t)
	case t.Kind() == reflect.Slice:
		items, err := g.value(f, t.Elem())
		if err != nil {
			return nil, err
		}
		s := &schema{Type: "array", Items: items}
		if f.items[0] > 0 {
			s.MinItems = ptr(f.items[0])
		}
		if f.items[1] >= 0 {
			s.MaxItems = ptr(f.items[1])
		}
		return s, nil
	case t.Kind() == reflect.Map:
		keys := g.spec.list(f.keys)
		if len(keys) == 0 {
			// A list the rule set leaves empty allows any word, as the
			// loader does: every key's value is of the one kind.
			v, err := g.value(f, t.Elem())
			if err != nil {
				return nil, err
			}
			v.Description = strings.TrimSpace(g.say(f.limits(t.Elem().Kind() == reflect.Int)))
			return &schema{Type: "object", PropertyNames: g.ref("word"), AdditionalProperties: v}, nil
		}
		s := &schema{Type: "object", AdditionalProperties: false}
		for _, k := range keys {
			v, err := g.value(f, t.Elem())
			if err != nil {
				return nil, err
			}
			v.Description = g.say(fmt.Sprintf(f.each, strings.ReplaceAll(k, "-", " ")) + f.limits(t.Elem().Kind() == reflect.Int))
			s.Properties = append(s.Properties, property{k, v})
		}
		return s, nil
	case t.Kind() == reflect.String:
		return g.text(f), nil
	case t.Kind() == reflect.Int, t.Kind() == reflect.Float64:
		s := &schema{Type: "number", Minimum: f.min, Maximum: f.max, ExclusiveMinimum: f.gt, ExclusiveMaximum: f.lt, Default: f.def}
		if t.Kind() == reflect.Int {
			s.Type = "integer"
		}
		return s, nil
	case t.Kind() == reflect.Bool:
		return &schema{Type: "boolean", Default: f.def}, nil
	}
	return nil, fmt.Errorf("battle: the scenario schema has no description for %s, the type of %s", t, f.key)
}

// text describes a text value.
func (g *generator) text(f *fileField) *schema {
	if f.enum != "" || f.values != nil {
		words := g.spec.words(f)
		if f.not != "" {
			words = without(words, f.not)
		}
		if len(words) == 0 {
			return g.ref("word")
		}
		s := &schema{Type: "string", Enum: words}
		if f.def != nil {
			s.Default = f.def
		}
		return s
	}
	switch f.text {
	case "word", "id":
		return g.ref(f.text)
	case "square":
		return &schema{Type: "string", Pattern: "^[A-Z][1-9][0-9]?$"}
	}
	return &schema{Type: "string"}
}
