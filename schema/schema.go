// Package schema generates the JSON Schema (draft 2020-12) of what
// encoding/json writes for a Go type, by reflection over its fields and
// their json tags: the contract a client of the API may rely on, checked
// by validating what the server sends against it.
//
// A struct is a closed object (additionalProperties: false) whose
// properties are its exported fields as encoding/json names them (tags,
// embedded structs promoted, "-" left out); a field is required unless it
// is omitempty or omitzero or is promoted through an embedded pointer
// (whose nil leaves it out). A pointer, slice, map or interface that may
// be nil may be null where it is written (nil slices and maps are written
// as null), but not under omitempty or omitzero, which leave a nil one
// out. Named struct types are written once under $defs and referred to by
// $ref, so recursive types are safe.
//
// A type whose JSON is its own (it has MarshalJSON or MarshalText) says
// its schema through Fixed or Builder; one that does not is an error, as
// is an interface type, which says nothing of what it holds, unless the
// field holding it is given its value (Generator.Field).
package schema

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Draft is the JSON Schema dialect of every schema written here.
const Draft = "https://json-schema.org/draft/2020-12/schema"

// Fixed is a type whose JSON has a fixed schema, written by hand because
// its MarshalJSON is not what its fields say (geom.Point is [x, y]).
type Fixed interface {
	JSONSchema() map[string]any
}

// Builder is a type whose schema is made of other types' (game.State
// writes the core's fields and its rule set's beside them): it builds it
// with the generator, which gives the value it was called on.
type Builder interface {
	BuildSchema(g *Generator) (map[string]any, error)
}

var (
	fixedType   = reflect.TypeFor[Fixed]()
	builderType = reflect.TypeFor[Builder]()
	jsonType    = reflect.TypeFor[json.Marshaler]()
	textType    = reflect.TypeFor[encoding.TextMarshaler]()
)

// Generator makes schemas and keeps the definitions they refer to.
type Generator struct {
	defs  map[string]map[string]any
	named map[reflect.Type]string
	given map[fieldKey]given
}

type fieldKey struct {
	t    reflect.Type
	name string
}

// given is the value a field of a struct type is written with.
type given struct{ v any }

// New returns a generator with no definitions.
func New() *Generator {
	return &Generator{defs: map[string]map[string]any{}, named: map[reflect.Type]string{}, given: map[fieldKey]given{}}
}

// Field says that the field name (its Go name) of struct type t holds
// values like v: its schema is v's (v's Builder is called on v itself),
// and a nil v says the field is never written (the schema false). Use it
// for a field of interface type, and for one whose schema depends on
// what it holds (a game's state depends on its rule set).
func (g *Generator) Field(t reflect.Type, name string, v any) {
	g.given[fieldKey{t, name}] = given{v}
}

// Of returns the schema of t: a $ref for a named struct type or a type
// with a hook, the schema itself otherwise.
func (g *Generator) Of(t reflect.Type) (map[string]any, error) {
	return g.of(t, true)
}

// Value returns the schema of v's type, or v's own if it is a Builder or
// Fixed; nil gives the schema false as an empty map with "not".
func (g *Generator) Value(v any) (map[string]any, error) {
	if v == nil {
		return map[string]any{"not": map[string]any{}}, nil
	}
	if b, ok := v.(Builder); ok {
		return b.BuildSchema(g)
	}
	if f, ok := v.(Fixed); ok {
		return f.JSONSchema(), nil
	}
	return g.Of(reflect.TypeOf(v))
}

// Object returns the schema of one JSON object holding the fields of every
// struct type of ts (or pointer to one), as a MarshalJSON that joins
// their objects writes it. Two of them naming one field is an error.
func (g *Generator) Object(ts ...reflect.Type) (map[string]any, error) {
	props := map[string]any{}
	var req []string
	for _, t := range ts {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return nil, fmt.Errorf("schema: %s is not a struct, so not a JSON object", t)
		}
		p, r, err := g.fields(t)
		if err != nil {
			return nil, err
		}
		for k, v := range p {
			if _, ok := props[k]; ok {
				return nil, fmt.Errorf("schema: %s writes %q, which another part of the object writes too", t, k)
			}
			props[k] = v
		}
		req = append(req, r...)
	}
	return object(props, req), nil
}

// Document returns root as a schema document: with $schema, title and the
// definitions it refers to, indented.
func (g *Generator) Document(root map[string]any, title string) ([]byte, error) {
	doc := map[string]any{"$schema": Draft, "title": title}
	for k, v := range root {
		doc[k] = v
	}
	if len(g.defs) > 0 {
		doc["$defs"] = g.defs
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("schema: writing %s: %w", title, err)
	}
	return buf.Bytes(), nil
}

func object(props map[string]any, req []string) map[string]any {
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(req) > 0 {
		slices.Sort(req)
		out["required"] = req
	}
	return out
}

// nullable is s or null.
func nullable(s map[string]any) map[string]any {
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}

// of is the schema of t; null says a nil value of it may be written as
// null where it stands.
func (g *Generator) of(t reflect.Type, null bool) (map[string]any, error) {
	if s, ok, err := g.hook(t); ok || err != nil {
		if err == nil && null && t.Kind() == reflect.Pointer {
			s = nullable(s)
		}
		return s, err
	}
	if t.Kind() != reflect.Pointer && (t.Implements(jsonType) || t.Implements(textType) ||
		reflect.PointerTo(t).Implements(jsonType) || reflect.PointerTo(t).Implements(textType)) {
		return nil, fmt.Errorf("schema: %s writes its own JSON (MarshalJSON or MarshalText) but says no schema: give it a JSONSchema or BuildSchema method", t)
	}
	if s := scalar(t); s != nil {
		return s, nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		s, err := g.of(t.Elem(), false)
		if err != nil || !null {
			return s, err
		}
		return nullable(s), nil
	case reflect.Slice, reflect.Array:
		return g.list(t, null)
	case reflect.Map:
		return g.mapOf(t, null)
	case reflect.Struct:
		return g.structOf(t)
	case reflect.Interface:
		return nil, fmt.Errorf("schema: an interface (%s) says nothing of what it holds: give the field its value (Generator.Field)", t)
	}
	return nil, fmt.Errorf("schema: encoding/json cannot write %s", t)
}

// scalar is the schema of a boolean, number or string kind, nil for any
// other kind.
func scalar(t reflect.Type) map[string]any {
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	}
	return nil
}

// list is the schema of slice or array t: a base64 string for bytes, an
// array of its items otherwise (of its exact length for an array).
func (g *Generator) list(t reflect.Type, null bool) (map[string]any, error) {
	var s map[string]any
	if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice && !implementsAny(t.Elem()) {
		s = map[string]any{"type": "string", "contentEncoding": "base64"}
	} else {
		items, err := g.of(t.Elem(), true)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		s = map[string]any{"type": "array", "items": items}
		if t.Kind() == reflect.Array {
			s["minItems"], s["maxItems"] = t.Len(), t.Len()
		}
	}
	if null && t.Kind() == reflect.Slice {
		return nullable(s), nil
	}
	return s, nil
}

// mapOf is the schema of map t: an object whose property names are its
// keys as encoding/json writes them (strings or integers).
func (g *Generator) mapOf(t reflect.Type, null bool) (map[string]any, error) {
	s := map[string]any{"type": "object"}
	switch k := t.Key(); {
	case k.Kind() == reflect.String:
	case implementsAny(k):
		return nil, fmt.Errorf("schema: the keys of %s write their own text; give the map a schema", t)
	case k.Kind() >= reflect.Int && k.Kind() <= reflect.Uintptr:
		s["propertyNames"] = map[string]any{"pattern": "^-?[0-9]+$"}
	default:
		return nil, fmt.Errorf("schema: %s has keys encoding/json cannot write", t)
	}
	v, err := g.of(t.Elem(), true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t, err)
	}
	s["additionalProperties"] = v
	if null {
		return nullable(s), nil
	}
	return s, nil
}

// structOf is the schema of struct t: written in place if t has no name,
// a $ref to its definition if it has.
func (g *Generator) structOf(t reflect.Type) (map[string]any, error) {
	build := func() (map[string]any, error) {
		p, r, err := g.fields(t)
		if err != nil {
			return nil, err
		}
		return object(p, r), nil
	}
	if t.Name() == "" {
		return build()
	}
	return g.def(t, build)
}

func implementsAny(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonType) || t.Implements(textType) || p.Implements(jsonType) || p.Implements(textType)
}

// hook is the schema t says of itself, as a $ref to its definition.
func (g *Generator) hook(t reflect.Type) (map[string]any, bool, error) {
	base := t
	if t.Kind() == reflect.Pointer {
		base = t.Elem()
	}
	var build func() (map[string]any, error)
	switch {
	case base.Implements(fixedType):
		build = func() (map[string]any, error) { return reflect.Zero(base).Interface().(Fixed).JSONSchema(), nil }
	case reflect.PointerTo(base).Implements(fixedType):
		build = func() (map[string]any, error) { return reflect.New(base).Interface().(Fixed).JSONSchema(), nil }
	case base.Implements(builderType):
		build = func() (map[string]any, error) { return reflect.Zero(base).Interface().(Builder).BuildSchema(g) }
	case reflect.PointerTo(base).Implements(builderType):
		build = func() (map[string]any, error) { return reflect.New(base).Interface().(Builder).BuildSchema(g) }
	default:
		return nil, false, nil
	}
	s, err := g.def(base, build)
	return s, true, err
}

// def is a $ref to the definition of t, built the first time.
func (g *Generator) def(t reflect.Type, build func() (map[string]any, error)) (map[string]any, error) {
	name, ok := g.named[t]
	if !ok {
		name = g.name(t)
		g.named[t] = name
		g.defs[name] = map[string]any{} // for a type that refers to itself
		s, err := build()
		if err != nil {
			delete(g.defs, name)
			delete(g.named, t)
			return nil, err
		}
		g.defs[name] = s
	}
	return map[string]any{"$ref": "#/$defs/" + name}, nil
}

// name is a definition's name for t not used yet: package.Type.
func (g *Generator) name(t reflect.Type) string {
	pkg := t.PkgPath()
	if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
		pkg = pkg[i+1:]
	}
	base := t.Name()
	if pkg != "" {
		base = pkg + "." + base
	}
	base = strings.Map(func(r rune) rune {
		if r == '[' || r == ']' || r == ',' || r == ' ' || r == '/' || r == '*' {
			return '_'
		}
		return r
	}, base)
	name := base
	for n := 2; g.defs[name] != nil; n++ {
		name = fmt.Sprintf("%s_%d", base, n)
	}
	return name
}

// field is a field of a struct as encoding/json writes it.
type field struct {
	name   string
	tagged bool
	depth  int
	index  []int
	typ    reflect.Type
	omit   bool // omitempty or omitzero
	quoted bool // ,string
	viaPtr bool // promoted through an embedded pointer
	owner  reflect.Type
	goName string
}

// fields are the properties of struct t and those required.
func (g *Generator) fields(t reflect.Type) (map[string]any, []string, error) {
	props := map[string]any{}
	var req []string
	for _, f := range visible(t) {
		s, err := g.fieldSchema(f)
		if err != nil {
			return nil, nil, fmt.Errorf("%s.%s: %w", t, f.goName, err)
		}
		props[f.name] = s
		if !f.omit && !f.viaPtr {
			req = append(req, f.name)
		}
	}
	return props, req, nil
}

func (g *Generator) fieldSchema(f field) (map[string]any, error) {
	if gv, ok := g.given[fieldKey{f.owner, f.goName}]; ok {
		s, err := g.Value(gv.v)
		if err != nil || gv.v == nil {
			return s, err
		}
		if !f.omit && canBeNil(f.typ) {
			return nullable(s), nil
		}
		return s, nil
	}
	if f.quoted {
		switch f.typ.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.String:
			return map[string]any{"type": "string"}, nil
		}
	}
	return g.of(f.typ, !f.omit)
}

func canBeNil(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// visible lists the fields of struct t that encoding/json writes, by the
// rules it follows: embedded structs' fields promoted, a shallower field
// hiding a deeper one of the same name, a tagged one winning among
// equals, and equals otherwise hiding each other.
func visible(t reflect.Type) []field {
	return dominant(promoted(t))
}

// level is a struct whose fields are read at some depth below the one
// visible starts from: its type, the index of its field there, and
// whether the way there goes through an embedded pointer.
type level struct {
	t      reflect.Type
	index  []int
	viaPtr bool
}

// promoted lists every field encoding/json may write of struct t, breadth
// first: t's own, then those of the structs it embeds without a name, and
// so on down, each struct type read once.
func promoted(t reflect.Type) []field {
	var all []field
	next := []level{{t: t}}
	seen := map[reflect.Type]bool{}
	for depth := 0; len(next) > 0; depth++ {
		cur := next
		next = nil
		for _, lv := range cur {
			if seen[lv.t] {
				continue
			}
			seen[lv.t] = true
			for i := range lv.t.NumField() {
				f, deeper, ok := fieldAt(lv, i, depth)
				if deeper != nil {
					next = append(next, *deeper)
				} else if ok {
					all = append(all, f)
				}
			}
		}
	}
	return all
}

// fieldAt reads field i of the struct at lv, at depth: the field if
// encoding/json writes it, the level to read further down if it is an
// embedded struct whose fields are promoted, or neither if it is left out.
func fieldAt(lv level, i, depth int) (field, *level, bool) {
	sf := lv.t.Field(i)
	ft := sf.Type
	if sf.Anonymous {
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if !sf.IsExported() && ft.Kind() != reflect.Struct {
			return field{}, nil, false
		}
	} else if !sf.IsExported() {
		return field{}, nil, false
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return field{}, nil, false
	}
	name, opts, _ := strings.Cut(tag, ",")
	index := append(slices.Clone(lv.index), i)
	viaPtr := lv.viaPtr
	if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct && !implementsAny(ft) && !hasHook(ft) {
		return field{}, &level{t: ft, index: index, viaPtr: viaPtr || sf.Type.Kind() == reflect.Pointer}, false
	}
	f := field{name: name, tagged: name != "", depth: depth, index: index, typ: sf.Type, viaPtr: viaPtr,
		owner: lv.t, goName: sf.Name}
	if f.name == "" {
		f.name = sf.Name
	}
	for o := range strings.SplitSeq(opts, ",") {
		switch o {
		case "omitempty", "omitzero":
			f.omit = true
		case "string":
			f.quoted = true
		}
	}
	return f, nil, true
}

// dominant keeps, of the fields of each name in all, the one encoding/json
// writes: the only shallowest, or the only tagged one among the
// shallowest; names with no such field are left out. Names keep the order
// they first appear in.
func dominant(all []field) []field {
	byName := map[string][]field{}
	var order []string
	for _, f := range all {
		if _, ok := byName[f.name]; !ok {
			order = append(order, f.name)
		}
		byName[f.name] = append(byName[f.name], f)
	}
	var out []field
	for _, name := range order {
		fs := byName[name]
		top := fs[0].depth
		for _, f := range fs {
			top = min(top, f.depth)
		}
		var at, tagged []field
		for _, f := range fs {
			if f.depth == top {
				at = append(at, f)
				if f.tagged {
					tagged = append(tagged, f)
				}
			}
		}
		switch {
		case len(at) == 1:
			out = append(out, at[0])
		case len(tagged) == 1:
			out = append(out, tagged[0])
		}
	}
	return out
}

func hasHook(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(fixedType) || p.Implements(fixedType) || t.Implements(builderType) || p.Implements(builderType)
}
